"""Tikal's judgement for the bots: the evaluation of a position, a quick prior on
each action, and the playout policy built on it.

The built-in ``mcts`` bot is the kit's determinized Monte Carlo tree search
(:mod:`tajmahal.kit.search`) over the seat's own turn, declared for Tikal in
:mod:`tajmahal.tikal.bots`; this module is what is Tikal's own, compiled with mypyc
with the engine (playouts are most of a search's time):

- :func:`evaluate` values each seat's position as the points it has plus what it
  would score in each scoring round still to come if the board stayed as it is
  (T42-T45): guarded temples and treasures for sure, temples it leads by their
  margin, and small terms for figures in play, their reach and camps; relative to
  the best rival, so that a seat plays to win;
- :func:`prior` scores an action without playing it (what it takes, what it walks
  towards), cheaply: the search's order of candidates and the playout policy
  :func:`rollout_action`.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from typing import Final

from . import actions as act
from .geometry import TEMPLE, VOLCANO, Tables, tables
from .legal import legal_actions
from .rules import TREASURE_POINTS
from .state import ACT, PLACE, State

#: A temple led by one strength point counts this share of its value in each round
#: to come, and LEAD_STEP more for each further point of margin, at most LEAD_TOP.
LEAD_BASE: Final = 0.45
LEAD_STEP: Final = 0.12
LEAD_TOP: Final = 0.9
#: A figure on the board; a camp (a second way into play).
IN_PLAY: Final = 0.35
CAMP: Final = 1.0
#: The reach of a seat's figures: each target (an open temple, a treasure space)
#: counts its worth times NEAR / (1 + the AP to walk there).
NEAR: Final = 0.12
#: An action point not yet spent, in the turn of the seat to act.
AP_WORTH: Final = 0.25
#: The worth of a face-down treasure token as a target.
TOKEN_TARGET: Final = 1.5
_FAR: Final = 99


def rounds_left(state: State, t: Tables) -> list[int]:
    """Per seat, the scoring rounds still to come in which it scores: one for each
    volcano not yet drawn (T42-T43), the final round (T45), and the round under way
    for the seats still to take their scoring turn in it."""
    n = len(state.players)
    volcanoes = 0
    for tile in state.stack:
        if t.volcano[tile]:
            volcanoes += 1
    if state.auction is not None:
        for tile in state.auction.display:
            if t.volcano[tile]:
                volcanoes += 1
    scoring = state.round
    out = [volcanoes + 1] * n
    if scoring is not None:
        for s in range(n):
            if scoring.volcano is None:  # the final round: only for those still to score
                out[s] = 1 if s in scoring.order else 0
            elif s in scoring.order:
                out[s] += 1
    return out


def distances(state: State, t: Tables, sources: Sequence[int]) -> list[int]:
    """The AP it takes to walk to each space from the nearest of ``sources``
    (Dijkstra over the stones of the borders, T25-T27; _FAR where no path leads)."""
    spaces = state.spaces
    dist = [_FAR] * len(spaces)
    heap: list[tuple[int, int]] = []
    for s in sources:
        if dist[s] != 0:
            dist[s] = 0
            heap.append((0, s))
    while heap:
        d, here = heapq.heappop(heap)
        if d > dist[here]:
            continue
        space = spaces[here]
        assert space is not None
        for direction, n in t.links[here]:
            there = spaces[n]
            if there is None or there.kind == VOLCANO:
                continue
            cost = space.stones[direction] + there.stones[(direction + 3) % 6]
            if cost and d + cost < dist[n]:
                dist[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return dist


def _strengths(state: State, index: int, leader_strength: int) -> list[int]:
    row = state.workers[index]
    return [
        row[s] + (leader_strength if p.leader == index else 0) for s, p in enumerate(state.players)
    ]


def lead_share(margin: int) -> float:
    """The share of a led temple's value counted in a round to come."""
    return min(LEAD_TOP, LEAD_BASE + LEAD_STEP * (margin - 1))


def worths(state: State) -> list[float]:
    """Each seat's worth in points (see the module docstring), not yet relative."""
    t = tables(state.setup.components)
    c = t.components
    n = len(state.players)
    rounds = rounds_left(state, t)
    per_round = [0.0] * n  # what each seat would score in a round now
    value = [float(p.score) for p in state.players]
    targets: list[tuple[int, float, int]] = []  # (space, worth, leading seat or -1)
    for i, space in enumerate(state.spaces):
        if space is None:
            continue
        if space.kind == TEMPLE:
            if space.guard is not None:
                per_round[space.guard] += space.value
                continue
            strengths = _strengths(state, i, c.leader_strength)
            top = max(strengths)
            leader = -1
            if top > 0 and strengths.count(top) == 1:
                leader = strengths.index(top)
                second = max(s for k, s in enumerate(strengths) if k != leader)
                per_round[leader] += space.value * lead_share(top - second)
            targets.append((i, float(space.value), leader))
        elif space.tokens:
            targets.append((i, TOKEN_TARGET * len(space.tokens), -1))
    for s, p in enumerate(state.players):
        per_round[s] += sum(TREASURE_POINTS[k] for k in p.treasures)
        value[s] += rounds[s] * per_round[s] + CAMP * len(p.camps)
        figures = [i for i, row in enumerate(state.workers) if row[s] > 0]
        on_board = sum(row[s] for row in state.workers)
        if p.leader >= 0:
            figures.append(p.leader)
            on_board += 1
        value[s] += IN_PLAY * on_board
        if figures and targets:
            reach = distances(state, t, figures)
            near = 0.0
            for where, worth, leader in targets:
                if leader != s:
                    near += worth / (1 + reach[where])
            value[s] += NEAR * near
    if state.phase == ACT and state.to_act is not None:
        value[state.to_act] += AP_WORTH * state.ap
    return value


def relative(values: Sequence[float]) -> list[float]:
    """Each value minus the best of the others."""
    out = []
    for s, v in enumerate(values):
        best = -math.inf
        for o, w in enumerate(values):
            if o != s and w > best:
                best = w
        out.append(v - best)
    return out


def evaluate(state: State) -> list[float]:
    """Each seat's worth relative to its best rival, by seat."""
    return relative(worths(state))


# --------------------------------------------------------------------------- priors


def prior(state: State, action: act.Action, dist: Sequence[int], rounds: int) -> float:
    """A quick score of ``action`` for the seat to act (0 for ending the turn), per
    AP it costs: what it takes now and what it walks towards.  ``dist`` is the AP
    from each space to the nearest target (:func:`target_distances`); ``rounds`` the
    seat's scoring rounds to come."""
    seat = state.to_act
    assert seat is not None
    c = state.setup.components
    if isinstance(action, act.EndTurn):
        return 0.0
    if isinstance(action, act.Dig):
        return 3.0
    if isinstance(action, act.Move):
        cost = _border(state, action.origin, action.target)
        here, there = dist[action.origin], dist[action.target]
        gain = _arrival(state, seat, action.target, action.leader, c.leader_strength, rounds)
        gain -= _departure(state, seat, action.origin, action.leader, c.leader_strength, rounds)
        if there < here:
            gain += 0.4 * (here - there) / max(1, here)
        return gain / max(1, cost) - 0.05
    if isinstance(action, act.Enter):
        return 0.6 if action.leader else 0.45
    if isinstance(action, act.Uncover):
        space = state.spaces[action.space]
        assert space is not None
        strengths = _strengths(state, action.space, c.leader_strength)
        mine = strengths[seat]
        best = max(s for k, s in enumerate(strengths) if k != seat)
        return (0.5 * rounds if mine > best else 0.1) / 2
    if isinstance(action, act.Guard):
        space = state.spaces[action.space]
        assert space is not None
        return space.value * rounds * 0.25
    if isinstance(action, act.Exchange):
        held = state.players[seat].treasures
        return (TREASURE_POINTS[held[action.take] + 1] - 1) * rounds / 3
    if isinstance(action, act.BuildCamp):
        return 0.15 * rounds
    if isinstance(action, act.CampMove):
        return -0.1
    return 0.0


def _border(state: State, origin: int, target: int) -> int:
    here = state.spaces[origin]
    assert here is not None
    for d, n in tables(state.setup.components).links[origin]:
        if n == target:
            there = state.spaces[n]
            assert there is not None
            return here.stones[d] + there.stones[(d + 3) % 6]
    return 1


def _arrival(
    state: State, seat: int, index: int, leader: bool, leader_strength: int, rounds: int
) -> float:
    """What a figure of ``seat`` arriving on ``index`` is worth: a temple it comes to
    lead or leads further, treasure it can dig."""
    space = state.spaces[index]
    assert space is not None
    if space.kind == TEMPLE and space.guard is None:
        strengths = _strengths(state, index, leader_strength)
        best = max(s for k, s in enumerate(strengths) if k != seat)
        before = strengths[seat]
        after = before + (leader_strength if leader else 1)
        was = lead_share(before - best) if before > best else 0.0
        now = lead_share(after - best) if after > best else 0.0
        return (now - was) * space.value * rounds
    if space.tokens:
        return 1.0
    return 0.0


def _departure(
    state: State, seat: int, index: int, leader: bool, leader_strength: int, rounds: int
) -> float:
    """What a figure of ``seat`` leaving ``index`` costs (a lead it weakens)."""
    space = state.spaces[index]
    assert space is not None
    if space.kind != TEMPLE or space.guard is not None:
        return 0.0
    strengths = _strengths(state, index, leader_strength)
    best = max(s for k, s in enumerate(strengths) if k != seat)
    before = strengths[seat]
    after = before - (leader_strength if leader else 1)
    was = lead_share(before - best) if before > best else 0.0
    now = lead_share(after - best) if after > best else 0.0
    return (was - now) * space.value * rounds


def target_distances(state: State) -> list[int]:
    """The AP from each space to the nearest temple that is not guarded or space
    with treasure left."""
    targets = [
        i
        for i, s in enumerate(state.spaces)
        if s is not None and ((s.kind == TEMPLE and s.guard is None) or s.tokens)
    ]
    return distances(state, tables(state.setup.components), targets)


def priors(state: State, legal: Sequence[act.Action]) -> list[float]:
    """:func:`prior` of each of ``legal``."""
    seat = state.to_act
    assert seat is not None
    dist = target_distances(state)
    rounds = rounds_left(state, tables(state.setup.components))[seat]
    return [prior(state, a, dist, rounds) for a in legal]


def ranked(state: State, legal: Sequence[act.Action]) -> list[int]:
    """The indices of ``legal`` by :func:`prior`, best first (ties: the earlier)."""
    scores = priors(state, legal)
    return sorted(range(len(legal)), key=lambda i: -scores[i])


def rollout_action(state: State, rng: random.Random, epsilon: float) -> act.Action:
    """The playout policy: in a turn, the action of the best :func:`prior` (a
    random one with probability ``epsilon``; nothing better than ending the turn
    ends it); a placement next to the seat's figures; otherwise the first action
    (the bids' pass, the first revealed tile)."""
    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    if state.phase == ACT:
        if rng.random() < epsilon:
            return rng.choice(legal)
        scores = priors(state, legal)
        best = 0
        for i in range(1, len(legal)):
            if scores[i] > scores[best]:
                best = i
        return legal[best]
    if state.phase == PLACE:
        return rng.choice(legal)
    return legal[-1]

