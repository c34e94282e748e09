"""Built-in Tikal bots: ``greedy`` (one-step lookahead on a heuristic) and ``mcts``
(a determinized Monte Carlo tree search over the seat's own turn).

Both see only what a subprocess bot sees: the hello's static setup, the view and
the legal actions of each ``act`` message.  They rebuild a state from the view
(:func:`~tajmahal.tikal.hidden.determinize`: the face-down treasures and the order
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
import time
from collections.abc import Sequence
from typing import Any, Final

from attrs import frozen

from ..arena.player import Player
from ..arena.protocol import Message
from .actions import Action, Bid, EndTurn
from .components import DEFAULT_COMPONENTS
from .hidden import determinize
from .legal import legal_actions
from .rules import TREASURE_POINTS, apply
from .serialize import from_data
from .state import ACT, BID, OVER, SCORING, State
from .views import TikalView

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
    """The legal action after which :func:`worth` is highest (ties at random).  In a
    turn, ending it early is worth a little less than an action that changes nothing,
    so the seat keeps working while its AP buy something."""
    seat = state.to_act
    assert seat is not None
    if state.phase == BID:
        return bid_choice(state, legal, rng)
    best, choice = -math.inf, 0
    for i, action in enumerate(legal):
        after = apply(state, action)
        value = worth(after, seat) + rng.random() * 1e-3
        if isinstance(action, EndTurn) and state.ap > 0 and state.turn != SCORING:
            value -= 0.05
        if value > best:
            best, choice = value, i
    return choice


# --------------------------------------------------------------------------- search


@frozen
class SearchConfig:
    """Budget of :func:`mcts_choice`: iterations over determinized states, capped at
    ``seconds`` of wall time (None: no cap; the search then depends only on its
    seed), UCB1's ``exploration`` constant (values are in points), and the share of
    random moves in rollouts."""

    iterations: int = 120
    seconds: float | None = 0.8
    exploration: float = 1.5
    epsilon: float = 0.3


class _Node:
    __slots__ = ("children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0


def _rollout_action(state: State, rng: random.Random, epsilon: float) -> Action:
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


def mcts_choice(
    state_view: TikalView, legal: Sequence[Action], rng: random.Random, config: SearchConfig
) -> int:
    """UCT over the seat's decisions until its turn ends, each iteration on a new
    determinization of the hidden tiles and treasures; leaves are played out to the
    end of the turn with :func:`_rollout_action` and valued with :func:`worth`."""
    if len(legal) == 1:
        return 0
    seat = state_view.seat
    root = _Node()
    deadline = None if config.seconds is None else time.perf_counter() + config.seconds
    for _ in range(config.iterations):
        if deadline is not None and root.visits and time.perf_counter() > deadline:
            break
        state = determinize(state_view, rng)
        node, path = root, [root]
        expanded = False
        while state.to_act == seat and state.phase != OVER:
            actions = legal_actions(state)
            untried = [a for a in actions if a not in node.children]
            if untried:
                action = rng.choice(untried)
                node.children[action] = child = _Node()
                expanded = True
            else:
                log = math.log(node.visits + 1)
                action = max(
                    actions,
                    key=lambda a: (
                        node.children[a].total / node.children[a].visits
                        + config.exploration * math.sqrt(log / node.children[a].visits)
                    ),
                )
                child = node.children[action]
            state = apply(state, action)
            node = child
            path.append(node)
            if expanded:
                break
        depth = 0
        while state.to_act == seat and state.phase != OVER and depth < 30:
            state = apply(state, _rollout_action(state, rng, config.epsilon))
            depth += 1
        value = worth(state, seat)
        for n in path:
            n.visits += 1
            n.total += value
    index = {a: i for i, a in enumerate(legal)}
    best = max(root.children.items(), key=lambda item: item[1].visits)[0]
    return index.get(best, 0)


# --------------------------------------------------------------------------- players


class ViewPlayer(Player):
    """A built-in player: rebuilds the view and the legal actions of each message."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, message: Message) -> int | Any:
        v: TikalView = from_data(message["view"], TikalView)
        legal = [from_data(a, Action) for a in message["legal"]]
        if len(legal) == 1:
            return 0
        return self.pick(v, legal)

    def pick(self, v: TikalView, legal: list[Action]) -> int:
        state = determinize(v, self.rng, DEFAULT_COMPONENTS)
        return greedy_choice(state, legal, self.rng)


class GreedyPlayer(ViewPlayer):
    """One-step lookahead on :func:`worth`."""

    name = "greedy"


class MCTSPlayer(ViewPlayer):
    """Determinized UCT over the seat's own turn (:func:`mcts_choice`)."""

    name = "mcts"

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()

    def pick(self, v: TikalView, legal: list[Action]) -> int:
        if v.phase != ACT:  # placements, bids and tile choices: the greedy choice
            return super().pick(v, legal)
        return mcts_choice(v, legal, self.rng, self.config)


__all__ = ["GreedyPlayer", "MCTSPlayer", "SearchConfig", "greedy_choice", "mcts_choice", "worth"]
