"""Pig for the arena: the kit's :class:`~tajmahal.kit.adapter.Adapter` declared with
Pig's names, engine, JSON converter and texts.  ``PIG`` is the game object the
``tajmahal.games`` entry point names (pyproject.toml)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from tajmahal.kit.adapter import Adapter, Words, who
from tajmahal.kit.tagged import TaggedConverter

from . import rules
from .rules import GOAL, ROUNDS, Action, Banked, Event, GameOver, Hold, Rolled, Setup, State

if TYPE_CHECKING:
    from tajmahal.kit.encoding import Encoding

    from .bots import PigBots

CONVERTER: Final = TaggedConverter({"Action": Action, "Event": Event})
#: Each event for people (``w.who(seat)``: "alice (seat 0)").
TEXTS: Final = {
    Rolled: lambda e, w: f"{w.who(e.seat)} rolls a {e.face}: {e.turn} this turn",
    Banked: lambda e, w: f"{w.who(e.seat)} banks {e.points}: {e.total} in all",
    GameOver: lambda e, w: "# game over: " + ", ".join(map(str, e.scores)),
}


class Pig(Adapter[Setup, State, Action, Event]):
    name = "pig"
    title = "Pig"
    min_players = 2
    max_players = 4
    score_sources = ("bank",)

    converter = CONVERTER  # actions and events as {"type": "roll"}, {"type": "rolled", ...}
    view_type = rules.View
    passive = (Hold,)  # the fallback policy holds when it may
    event_texts = TEXTS
    words = Words

    new_game = staticmethod(rules.new_game)
    legal_actions = staticmethod(rules.legal_actions)
    step = staticmethod(rules.step)
    apply = staticmethod(rules.apply)
    view = staticmethod(rules.view)
    scores = staticmethod(rules.scores)
    ranks = staticmethod(rules.ranks)

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [{"bank": bank} for bank in state.banks]

    # -- setups: the dice are secret until rolled, so the hello shows only the goal

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> Setup:
        if variant not in (None, "standard"):
            raise ValueError(f"unknown variant {variant!r}; known: standard")
        return Setup.random(players, seed)

    def setup_to_data(self, setup: Setup) -> Any:
        return self.converter.to_data(setup)

    def setup_from_data(self, data: Any) -> Setup:
        setup: Setup = self.converter.from_data(data, Setup, "setup")
        rules.check_players(setup.players)
        if len(setup.dice) != rules.MAX_ROLLS or not set(setup.dice) <= set(range(1, 7)):
            raise ValueError(f"bad Setup: dice must be {rules.MAX_ROLLS} faces 1-6")
        return setup

    def public_setup(self, setup: Setup) -> Any:
        return {"goal": GOAL, "rounds": ROUNDS}

    # -- for people

    def describe_action(self, state: State, action: Action) -> str:
        return "hold" if isinstance(action, Hold) else "roll"

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        return [f"# Pig to {GOAL} in {ROUNDS} rounds; {who(0, names)} starts"]

    # -- optional parts: the built-in greedy and mcts players, and for learning
    # programs (needs tajmahal[rl])

    def bots(self) -> PigBots:
        from .bots import PigBots

        return PigBots(game=self)  # the game reads the protocol's messages into a View

    def encoding(self) -> Encoding[State, Action]:
        from .encoding import encoding

        return encoding(self)


PIG: Final = Pig()
