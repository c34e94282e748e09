"""Tikal for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

Views, actions and events travel in the forms of :mod:`tajmahal.tikal.serialize`;
the hello's static setup holds the board, the tiles and the other components
(:func:`~tajmahal.tikal.serialize.components_data`).

Fallback policy (for a seat whose bot faulted): end the turn, or pass in an
auction, whenever that is legal; otherwise the first legal action (the first
placement of the tile, the first revealed tile).  It plays the seat passively and
needs no hidden information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from ..kit.adapter import ComponentsAdapter, who
from . import legal, rules
from .actions import Action, EndTurn, Pass
from .events import Event
from .serialize import CONVERTER, components_data
from .state import SCORE_SOURCES, Setup, State
from .texts import EVENT_TEXTS, TikalWords, action_text, tile_text
from .views import PlayerView, view

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..kit.encoding import Encoding
    from ..kit.schema import SchemaHints
    from .bots import TikalBots
    from .pictures import TikalPictures

__all__ = ["TIKAL", "Tikal"]


class Tikal(ComponentsAdapter[Setup, State, Action, Event]):
    """Tikal as an arena :class:`~tajmahal.arena.game.Game`.  Every event is public
    (a dug treasure lies face up, T32)."""

    name = "tikal"
    title = "Tikal"
    score_sources: tuple[str, ...] = SCORE_SOURCES
    speed_targets: Mapping[str, float] = {"chess": 2.0}

    converter = CONVERTER
    view_type = PlayerView
    state_type = State
    passive = (EndTurn, Pass)  # always last in a turn, in an auction
    event_texts = EVENT_TEXTS
    words = TikalWords
    setup_type = Setup

    new_game = staticmethod(rules.new_game)
    legal_actions = staticmethod(legal.legal_actions)
    step = staticmethod(rules.step)
    apply = staticmethod(rules.apply)
    view = staticmethod(view)
    components_data = staticmethod(components_data)
    scores = staticmethod(rules.scores)
    describe_action = staticmethod(action_text)

    # -- results

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [
            {"temples": p.temple_points, "treasures": p.treasure_points, "capital": p.capital}
            for p in state.players
        ]

    # -- for people

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        lines = [f"# Tikal ({state.setup.variant}); {who(0, names)} starts"]
        if state.tile is not None:
            lines.append(f"{who(0, names)} draws {tile_text(state.components, state.tile)}")
        if state.auction is not None:
            shown = ", ".join(tile_text(state.components, t) for t in state.auction.display)
            lines.append(f"revealed: {shown}")
        return lines

    # -- optional parts (arena.game.Game and kit.adapter.Adapter say what each is)

    outlook = staticmethod(rules.outlook)

    def bots(self) -> TikalBots:
        from .bots import TikalBots

        return TikalBots(self.components, game=self)

    def encoding(self) -> Encoding[State, Action]:
        from .encoding import encoding

        return encoding(self)

    def pictures(self) -> TikalPictures:
        from .pictures import pictures

        return pictures(self.components)

    def schema_hints(self) -> SchemaHints:
        from .schema import SCHEMA

        return SCHEMA

    def terminal(self, state: State, names: Sequence[str], seat: int | None) -> RenderableType:
        from .terminal import position

        return position(state, names, seat)


#: The game object the CLI and the tournament use.
TIKAL: Final = Tikal()
