"""Built-in Tikal bots on the kit's frames (:mod:`tajmahal.kit.bots`): ``greedy``
(one-step lookahead on a heuristic) and ``mcts`` (the kit's determinized Monte Carlo
tree search over the seat's own turn), both declared by :data:`BOTS`.

Both see only what a subprocess bot sees: the hello's static setup, the view and
the legal actions of each ``act`` message.  They rebuild a state from the view
(:func:`~tajmahal.tikal.views.determinize`: the face-down treasures and the order
of the stack are guessed) and search on it.

The heuristic (:func:`worth`) is what a seat's position is worth in points, relative
to its best rival: the points scored, the temples it would score now (guarded ones
for sure), its treasures, and smaller terms for what it is building towards:
figures in play, camps, treasures within reach and figures close to temples.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from typing import Final

from ..kit import bots as kit
from ..kit.search import SearchConfig
from .actions import Action, Bid, EndTurn
from .adapter import TIKAL
from .components import DEFAULT_COMPONENTS, Components
from .rules import TREASURE_POINTS, apply, legal_actions
from .state import ACT, BID, SCORING, State
from .views import TikalView, determinize

#: Worth of parts of a position (points).
IN_PLAY: Final = 0.25  # a figure on the board
CAMP: Final = 1.5
DIG_REACH: Final = 0.6  # a treasure token where the seat has a figure
NEAR: Final = 0.08  # per AP of distance of a figure to the nearest temple or treasure
LEAD: Final = 1.0  # share of a temple's value for a strict majority (not yet scored)
GUARDED: Final = 2.0  # a guarded temple scores in every round to come


def _distances(state: State) -> list[float]:
    """The AP it costs to walk from each explored space to the nearest temple that
    is not guarded or space with treasure (Dijkstra from all of them at once)."""
    board = state.components.board
    dist = [math.inf] * len(state.spaces)
    heap: list[tuple[float, int]] = []
    for i, s in enumerate(state.spaces):
        if s is not None and ((s.kind == "temple" and s.guard is None) or s.tokens):
            dist[i] = 0
            heap.append((0, i))
    heapq.heapify(heap)
    while heap:
        d, here = heapq.heappop(heap)
        if d > dist[here]:
            continue
        space = state.spaces[here]
        assert space is not None
        for direction, n in enumerate(board.neighbours[here]):
            there = state.spaces[n] if n is not None else None
            if n is None or there is None or there.kind == "volcano":
                continue
            cost = space.stones[direction] + there.stones[(direction + 3) % 6]
            if cost and d + cost < dist[n]:
                dist[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return dist


def _own_worth(state: State, seat: int, dist: Sequence[float]) -> float:
    player = state.players[seat]
    n = len(state.players)
    total = float(player.score)
    for i, s in enumerate(state.spaces):
        if s is None:
            continue
        if s.kind == "temple":
            if s.guard is not None:
                total += GUARDED * s.value if s.guard == seat else 0.0
                continue
            mine = state.strength(i, seat)
            if mine and all(state.strength(i, o) < mine for o in range(n) if o != seat):
                total += LEAD * s.value
        figures = state.figures(i, seat)
        if figures:
            total += IN_PLAY * figures
            if s.tokens:
                total += DIG_REACH * min(figures, len(s.tokens), 2)
            if dist[i] < math.inf:
                total -= NEAR * figures * min(dist[i], 12)
    total += sum(TREASURE_POINTS[k] for k in player.treasures)
    total += CAMP * len(player.camps)
    return total


def worth(state: State, seat: int) -> float:
    """``seat``'s heuristic worth minus the best rival's."""
    dist = _distances(state)
    values = [_own_worth(state, s, dist) for s in range(len(state.players))]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


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


def greedy_choice(state: State, legal: Sequence[Action], rng: random.Random) -> int:
    """The legal action after which :func:`worth` is highest (ties at random), by
    :meth:`TikalBots.action_value`; bids by :func:`bid_choice`."""
    seat = state.to_act
    assert seat is not None
    if state.phase == BID:
        return bid_choice(state, legal, rng)
    best, choice = -math.inf, 0
    for i, action in enumerate(legal):
        value = BOTS.action_value(state, action, seat, rng)
        if value > best:
            best, choice = value, i
    return choice


# --------------------------------------------------------------------------- the kit's bots


def evaluate(state: State) -> list[float]:
    """Each seat's :func:`worth`, by seat (the distances are computed once)."""
    dist = _distances(state)
    values = [_own_worth(state, s, dist) for s in range(len(state.players))]
    return [v - max(w for o, w in enumerate(values) if o != s) for s, v in enumerate(values)]


#: The share of random actions in the search's playouts (the others are greedy).
EPSILON: Final = 0.3


def rollout_action(state: State, rng: random.Random, epsilon: float = EPSILON) -> Action:
    """The rollout policy: a random action with probability ``epsilon`` (the end of
    the turn half of those times), else the greedy one."""
    legal = legal_actions(state)
    if rng.random() < epsilon:
        if state.phase == ACT and rng.random() < 0.5:
            return legal[-1]
        return rng.choice(legal)
    if state.phase == BID:
        return legal[bid_choice(state, legal, rng)]
    if state.phase != ACT:
        return rng.choice(legal)
    return legal[greedy_choice(state, legal, rng)]


class TikalBots(kit.Bots[TikalView, State, Action]):
    """Tikal for the kit's bots: the search looks at the seat's own turn (its
    horizon), every decision of it a tree node; playouts of at most 30 actions by
    :func:`rollout_action`, valued by :func:`worth`.  Placements, bids and tile
    choices are greedy's (:meth:`searches`)."""

    game = TIKAL

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        self.components = components

    def determinize(self, view: TikalView, rng: random.Random) -> State:
        return determinize(view, rng, self.components)

    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    evaluate = staticmethod(evaluate)

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        return rollout_action(state, rng)

    def within(self, start: State, state: State) -> bool:
        """The seat's own turn."""
        return state.to_act == start.to_act

    def candidates(
        self, state: State, legal: Sequence[Action], rng: random.Random
    ) -> Sequence[int]:
        if state.phase == BID:
            return [bid_choice(state, legal, rng)]
        return range(len(legal))

    def action_value(self, state: State, action: Action, seat: int, rng: random.Random) -> float:
        """:func:`worth` after ``action``; in a turn, ending it early is worth a
        little less than an action that changes nothing, so the seat keeps working
        while its AP buy something."""
        value = worth(apply(state, action), seat) + rng.random() * 1e-3
        if isinstance(action, EndTurn) and state.ap > 0 and state.turn != SCORING:
            value -= 0.05
        return value

    def searches(self, view: TikalView) -> bool:
        return view.phase == ACT


#: Tikal's bots, as the built-in players use them.
BOTS: Final = TikalBots()

#: The built-in ``mcts`` bot's budget: 120 iterations, capped at 0.8 s; values are
#: points (UCB1's constant 1.5), not relative to the start of the turn.
MCTS_BUILTIN: Final = SearchConfig(
    iterations=120, seconds=0.8, exploration=1.5, shuffle=True, baseline=False, playout_steps=30
)


__all__ = [
    "BOTS",
    "MCTS_BUILTIN",
    "TikalBots",
    "evaluate",
    "greedy_choice",
    "rollout_action",
    "worth",
]
