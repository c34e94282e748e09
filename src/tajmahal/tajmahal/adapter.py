"""Taj Mahal for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

This is the only module that ties the generic protocol, referee and records of
:mod:`tajmahal.arena` to the Taj Mahal engine.  Views, actions and events travel
in the engine's own JSON form (:mod:`tajmahal.tajmahal.serialize`).

Fallback policy (for a seat whose bot faulted): withdraw whenever that is legal,
otherwise take the first legal action (the lowest-numbered city for a palace, the
lowest card id from the display).  It needs no hidden information and plays the
seat passively, so it disturbs the other seats' game as little as possible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from ..kit.adapter import Adapter, who
from . import rules
from .actions import Action, Withdraw, action_text
from .events import CardDrawn, Event, event_for
from .legal import legal_actions
from .rules import new_game, scores
from .serialize import CONVERTER, from_data, to_data
from .setups import VARIANTS, Setup
from .state import SCORE_SOURCES, State
from .texts import EVENT_TEXTS, TajMahalWords, cards_text
from .views import PlayerView, PublicSetup, public_setup, seen, view

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..kit.encoding import Encoding
    from ..kit.schema import SchemaHints
    from .batched import TajMahal as TajMahalEnv
    from .bots import TajMahalBots
    from .pictures import TajMahalPictures

__all__ = ["TAJMAHAL", "TajMahal", "view_from_data"]


class TajMahal(Adapter[Setup, State, Action, Event]):
    """Taj Mahal as an arena :class:`~tajmahal.arena.game.Game`."""

    name = "tajmahal"
    title = "Taj Mahal"
    aliases = ("taj-mahal",)
    min_players = 2
    max_players = 5
    score_sources: tuple[str, ...] = SCORE_SOURCES
    speed_targets: Mapping[str, float] = {"chess": 6.0, "playout": 50_000, "mcts": 2.0}

    converter = CONVERTER
    view_type = PlayerView
    state_type = State
    view_skip = ("setup", "legal")
    public_setup_type = PublicSetup
    secret_events = (CardDrawn,)  # its seat sees the card, the others do not
    passive = (Withdraw,)  # always last in a play turn
    event_texts = EVENT_TEXTS
    words = TajMahalWords

    new_game = staticmethod(new_game)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(rules.step)
    apply = staticmethod(rules.apply)
    view = staticmethod(view)
    event_for = staticmethod(event_for)

    def view_to_send(self, state: State, seat: int) -> PlayerView:
        """The view without its legal actions (they travel apart): not computed twice."""
        return seen(state, seat, ())

    def check_position(self, state: State) -> None:
        rules.check_state(state)  # every card in one place, palaces and tiles counted

    # -- setups

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> Setup:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
        setup = Setup.random(players, seed)
        if variant is not None and variant != setup.variant:
            if variant not in VARIANTS:
                raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
            raise ValueError(
                f"the {variant!r} variant is not for {players} players "
                "(2 players play 'dummy', 3-5 'standard')"
            )
        return setup

    def setup_to_data(self, setup: Setup) -> Any:
        return to_data(setup)

    def setup_from_data(self, data: Any) -> Setup:
        setup: Setup = from_data(data, Setup)
        new_game(setup)  # validates (raises SetupError, a ValueError)
        return setup

    def public_setup(self, setup: Setup) -> Any:
        return to_data(public_setup(setup))

    # -- results

    def scores(self, state: State) -> list[int]:
        return list(scores(state))

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [{s: getattr(score, s) for s in SCORE_SOURCES} for score in rules.breakdown(state)]

    # -- for people

    def describe_action(self, state: State, action: Action) -> str:
        return action_text(action, tuple(c.name for c in state.setup.board.cities))

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        setup = state.setup
        return [
            f"# Visit 1 of 12 in {setup.board.provinces[state.province]}; "
            f"{who(state.start_player, names)} starts",
            f"display: {cards_text(state.display)}",
        ]

    def encoding(self) -> Encoding[State, Action]:
        from .encoding import encoding

        return encoding(self)

    def batched(self, players: int) -> TajMahalEnv:
        """The whole rules in JAX, batched (:mod:`tajmahal.tajmahal.batched`)."""
        from .batched import TajMahal as Batched

        return Batched(players)

    def bots(self) -> TajMahalBots:
        """Taj Mahal's judgement for the built-in ``greedy`` and ``mcts`` players."""
        from .bots import TajMahalBots

        return TajMahalBots(game=self)

    def pictures(self) -> TajMahalPictures:
        from .pictures import PICTURES

        return PICTURES

    def schema_hints(self) -> SchemaHints:
        from .schema import SCHEMA

        return SCHEMA

    def terminal(self, state: State, names: Sequence[str], seat: int | None) -> RenderableType:
        from .terminal import position

        return position(state, names, seat)


#: The game object the CLI and the tournament use.
TAJMAHAL: Final = TajMahal()


def view_from_data(setup: PublicSetup, data: Mapping[str, Any], legal: Sequence[Any]) -> PlayerView:
    """The :class:`PlayerView` of an ``act`` message (its ``view`` and ``legal``) for a
    bot that got ``setup`` in the hello; raises :class:`~tajmahal.kit.tagged.DataError`."""
    seen: PlayerView = TAJMAHAL.read_act(setup, data, legal)[0]
    return seen
