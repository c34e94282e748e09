"""Java for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

Views, actions and events travel in the forms of :mod:`tajmahal.java.serialize`;
the hello's static setup holds the board and the components
(:func:`~tajmahal.java.serialize.components_data`).  A card drawn from the pile
is seen only by its taker: the others get the event with ``"card": null``.

Fallback policy (for a seat whose bot faulted): end the turn, end the bid or
pass in a festival, whenever that is legal; otherwise the first legal action (a
land tile, which the turn owes, J20; its first position and shape).  It plays the seat
passively and needs no hidden information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from attrs import evolve

from ..kit.adapter import ComponentsAdapter, who
from . import rules
from .actions import Action, Done, EndTurn, Pass
from .events import CardTaken, Event
from .legal import legal_actions
from .serialize import CONVERTER, components_data
from .state import SCORE_SOURCES, Setup, State
from .texts import EVENT_TEXTS, JavaWords, action_text, card_text
from .views import PlayerView, view

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..kit.encoding import Encoding
    from ..kit.schema import SchemaHints
    from .bots import JavaBots
    from .pictures import JavaPictures

__all__ = ["JAVA", "Java"]


def event_for(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` sees it: a card drawn from the pile is its taker's
    secret (J59)."""
    if isinstance(event, CardTaken) and not event.display and seat != event.seat:
        return evolve(event, card=None)
    return event


class Java(ComponentsAdapter[Setup, State, Action, Event]):
    """Java as an arena :class:`~tajmahal.arena.game.Game`."""

    name = "java"
    title = "Java"
    score_sources: tuple[str, ...] = SCORE_SOURCES
    speed_targets: Mapping[str, float] = {"chess": 1.0, "rl_environment": 2.0}

    converter = CONVERTER
    view_type = PlayerView
    state_type = State
    passive = (EndTurn, Done, Pass)  # always last when allowed
    event_texts = EVENT_TEXTS
    words = JavaWords
    setup_type = Setup

    new_game = staticmethod(rules.new_game)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(rules.step)
    apply = staticmethod(rules.apply)
    view = staticmethod(view)
    components_data = staticmethod(components_data)
    event_for = staticmethod(event_for)
    scores = staticmethod(rules.scores)
    describe_action = staticmethod(action_text)

    def is_public(self, event: Event) -> bool:
        """All but a card drawn from the pile."""
        return not (isinstance(event, CardTaken) and not event.display)

    # -- results

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [
            {"water": p.water, "palaces": p.palaces, "festivals": p.festivals, "final": p.final}
            for p in state.players
        ]

    # -- for people

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        c = state.components
        shown = card_text(c, state.display) if state.display is not None else "none"
        return [
            f"# Java ({state.setup.variant} action tokens); {who(0, names)} starts",
            f"display card: {shown}",
        ]

    # -- optional parts (arena.game.Game and kit.adapter.Adapter say what each is)

    def bots(self) -> JavaBots:
        from .bots import JavaBots

        return JavaBots(self.components, game=self)

    def encoding(self) -> Encoding[State, Action]:
        from .encoding import encoding

        return encoding(self)

    def pictures(self) -> JavaPictures:
        from .pictures import pictures

        return pictures(self.components)

    def schema_hints(self) -> SchemaHints:
        from .schema import SCHEMA

        return SCHEMA

    def terminal(self, state: State, names: Sequence[str], seat: int | None) -> RenderableType:
        from .terminal import position

        return position(state, names, seat)


#: The game object the CLI and the tournament use.
JAVA: Final = Java()
