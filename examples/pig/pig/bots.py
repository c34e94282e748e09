"""Pig's bots on the kit's frames (:mod:`tajmahal.kit.bots`): the built-in ``greedy``
and ``mcts`` players come from these few lines."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from tajmahal.kit.bots import Bots
from tajmahal.kit.search import SearchConfig

from . import rules
from .rules import HOLD, MAX_ROLLS, ROLL, Action, Setup, State, View

#: The playout policy holds once the turn is worth this much (a classic rule of thumb).
HOLD_AT: Final = 12


class PigBots(Bots[View, State, Action]):
    budget = SearchConfig(iterations=200, seconds=0.5)  # the built-in mcts player's
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)

    def determinize(self, view: View, rng: random.Random) -> State:
        """The position with the dice still to come thrown at random."""
        dice = tuple(rng.randint(1, 6) for _ in range(MAX_ROLLS))
        return State(
            Setup(view.players, dice), view.banks, view.to_act, view.turn, view.round, 0,
            view.rolled,
        )  # fmt: skip

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's bank (and the turn's points for the seat rolling) less the
        best rival's."""
        worth = list(state.banks)
        if state.to_act is not None:
            worth[state.to_act] += state.turn
        return [w - max(worth[:s] + worth[s + 1 :]) for s, w in enumerate(worth)]

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        return HOLD if state.rolled and state.turn >= HOLD_AT else ROLL


