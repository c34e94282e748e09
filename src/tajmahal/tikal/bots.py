"""Built-in Tikal bots on the kit's frames (:mod:`tajmahal.kit.bots`): ``greedy``
(one-step lookahead) and ``mcts`` (the kit's determinized Monte Carlo tree search
over the seat's own turn), both declared by :class:`TikalBots` (``TIKAL.bots()``).

Both see only what a subprocess bot sees: the hello's static setup, the view and
the legal actions of each ``act`` message.  They rebuild a state from the view
(:func:`~tajmahal.tikal.hidden.determinize`: the face-down treasures and the order
of the stack are guessed) and think on it, with Tikal's judgement of
:mod:`tajmahal.tikal.heuristic` (compiled): the evaluation of a position (the points a
seat has and would score in the scoring rounds to come, relative to the best
rival), and a quick prior on each action that orders the search's candidates and
drives its playouts.

The search's horizon is the seat's own turn: the tree holds the seat's decisions
until the turn ends, a playout finishes the turn with the prior's best actions (a
random one at times), and the position at the end of the turn is valued.  Tile
placements and revealed tiles are chosen greedily (each tried and valued), bids
by a rule (:func:`bid_choice`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Final

from ..kit import bots as kit
from ..kit.search import SearchConfig
from . import heuristic
from .actions import Action, Bid
from .components import DEFAULT_COMPONENTS, Components
from .hidden import determinize
from .legal import legal_actions
from .rules import apply
from .state import ACT, BID, State
from .views import PlayerView

#: The share of random actions in the search's playouts (the others: the best prior).
EPSILON: Final = 0.2


def bid_choice(state: State, legal: Sequence[Action], rng: random.Random) -> int:
    """Auction: bid one more than the highest bid while the best revealed tile is a
    temple or treasure worth it and the price stays small; otherwise pass."""
    assert state.auction is not None and state.to_act is not None
    tiles = [state.components.tiles[t] for t in state.auction.display]
    prize = max((t.value or t.masks for t in tiles), default=0)
    limit = min(state.players[state.to_act].score // 4, prize)
    for i, action in enumerate(legal):
        if isinstance(action, Bid) and action.amount <= limit:
            return i
    return len(legal) - 1  # pass


class TikalBots(kit.Bots[PlayerView, State, Action]):
    """Tikal for the kit's bots (see the module docstring)."""

    #: The built-in ``mcts`` bot's budget: 1,000 iterations, capped at 0.7 s (the
    #: default time limit is 1 s a decision); values are points relative to the best
    #: rival, less the same deal's value at the start of the iteration.
    budget = SearchConfig(
        iterations=1000, seconds=0.7, exploration=1.0, baseline=True, playout_steps=30
    )

    def __init__(self, components: Components = DEFAULT_COMPONENTS, game: Any = None) -> None:
        super().__init__(game)
        self.components = components

    def determinize(self, view: PlayerView, rng: random.Random) -> State:
        return determinize(view, rng, self.components)

    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    evaluate = staticmethod(heuristic.evaluate)

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        return heuristic.rollout_action(state, rng, EPSILON)

    def within(self, start: State, state: State) -> bool:
        """The seat's own turn (a scoring turn is a turn of its own, T43)."""
        return state.to_act == start.to_act and state.phase == ACT

    def candidates(
        self, state: State, legal: Sequence[Action], rng: random.Random
    ) -> Sequence[int]:
        """In a turn, by :func:`~tajmahal.tikal.heuristic.prior`, best first; a bid by
        :func:`bid_choice`; otherwise all."""
        if state.phase == BID:
            return [bid_choice(state, legal, rng)]
        if state.phase != ACT:
            return range(len(legal))
        return heuristic.ranked(state, legal)

    def greedy_index(self, state: State, legal: Sequence[Action], rng: random.Random) -> int:
        """The legal action after which the seat's :func:`~tajmahal.tikal.heuristic.evaluate`
        is highest (ties: the earlier), by :meth:`action_value`; bids by
        :func:`bid_choice` (``state``: a full state, its hidden parts known or guessed)."""
        seat = state.to_act
        assert seat is not None
        if state.phase == BID:
            return bid_choice(state, legal, rng)
        best, choice = -math.inf, 0
        for i, action in enumerate(legal):
            value = self.action_value(state, action, seat, rng)
            if value > best:
                best, choice = value, i
        return choice

    def searches(self, view: PlayerView) -> bool:
        return view.phase == ACT





__all__ = ["EPSILON", "TikalBots", "bid_choice"]
