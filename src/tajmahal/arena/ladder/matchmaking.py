"""Matchmaking: which bots meet in the next rated game, and where they sit.

With more bots than seats the ladder chooses, game after game:

1. **Nobody starved.** Each version has a clock (``passes``): it moves on by 1
   when the version plays, by 1/:data:`PLACEMENT_BOOST` while it plays its
   placement games (so a new version plays that much more often at first).  A
   new version starts at the slowest clock.  The first seat goes to the version
   whose clock is behind all others' (ties: the most uncertain rating); the
   others are chosen among those at most :data:`SLACK` behind it, so no
   version's clock runs ahead of another's by more than ``SLACK`` and a game.
2. **Every pair meets.** Each further seat goes to the candidate who met the
   ones chosen least often: a candidate that met them ``d`` times more than the
   least-met one loses ``d`` points, more than everything else can give.
3. **The most informative game.** Among candidates that met them as often,
   the one whose game tells most: an uncertain rating (``sigma``, up to 1
   point) and ratings close to those chosen (up to 1 point: the chance of a
   draw between them in the rating model, Weng-Lin's ``beta``).
4. **Seats balanced.** The chosen sit in the order that puts each where it sat
   least often so far.

Ties are broken by a random draw from the schedule's own generator: the same
ladder seed, bots and results give the same schedule.  Everything here is
pure: :func:`choose` reads a :class:`Tally` and the candidates, :meth:`Tally.
add` records a game.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from typing import Final

from attrs import define, field, frozen

#: How far (in games) a version's clock may be ahead of the slowest one's and
#: still be chosen.
SLACK: Final = 2.0
#: How much more often a version plays while it plays its placement games.
PLACEMENT_BOOST: Final = 2
#: The rating model's performance spread (openskill's default beta: 25/6).
BETA: Final = 25.0 / 6.0
#: A new rating's uncertainty (openskill's default sigma: 25/3).
SIGMA0: Final = 25.0 / 3.0
#: Seatings tried in full up to this many seats (k! orders), greedily beyond.
_ALL_ORDERS: Final = 6


@frozen
class Candidate:
    """A version that may be scheduled: its rating, its clock, and whether it is
    still playing its placement games."""

    version: int
    mu: float
    sigma: float
    passes: float
    placement: bool = False


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@define
class Tally:
    """What the schedule so far holds: games per pair of versions, and per version
    its games, and its games at each seat of each table size."""

    meetings: dict[tuple[int, int], int] = field(factory=dict)
    at_seat: dict[tuple[int, int], list[int]] = field(factory=dict)
    played: dict[int, int] = field(factory=dict)

    def met(self, a: int, b: int) -> int:
        return self.meetings.get(_pair(a, b), 0)

    def seat_counts(self, version: int, size: int) -> list[int]:
        """The version's games at each seat of a game of ``size`` players."""
        counts = self.at_seat.get((version, size))
        if counts is None:
            counts = self.at_seat[(version, size)] = [0] * size
        return counts

    def games(self, version: int) -> int:
        return self.played.get(version, 0)

    def add(self, seating: Sequence[int]) -> None:
        for seat, version in enumerate(seating):
            self.seat_counts(version, len(seating))[seat] += 1
            self.played[version] = self.played.get(version, 0) + 1
        for a, b in itertools.combinations(seating, 2):
            key = _pair(a, b)
            self.meetings[key] = self.meetings.get(key, 0) + 1


def closeness(a: Candidate, b: Candidate) -> float:
    """How likely a draw between ``a`` and ``b`` is under their ratings, from 0 to 1."""
    spread = 2 * BETA * BETA + a.sigma * a.sigma + b.sigma * b.sigma
    return math.exp(-((a.mu - b.mu) ** 2) / (2 * spread))


def information(candidate: Candidate, chosen: Sequence[Candidate]) -> float:
    """What a game of ``candidate`` with ``chosen`` tells, 0 to 2 points."""
    uncertain = min(1.0, candidate.sigma / SIGMA0)
    close = sum(closeness(candidate, other) for other in chosen) / len(chosen)
    return uncertain + close


def eligible(candidates: Sequence[Candidate], seats: int) -> list[Candidate]:
    """The candidates whose clock is at most :data:`SLACK` ahead of the slowest
    one's (or the ``seats`` slowest, when fewer are)."""
    slowest = min(c.passes for c in candidates)
    near = [c for c in candidates if c.passes <= slowest + SLACK]
    if len(near) >= seats:
        return near
    return sorted(candidates, key=lambda c: (c.passes, c.version))[:seats]


def choose(
    candidates: Sequence[Candidate], tally: Tally, rng: random.Random, seats: int
) -> tuple[int, ...] | None:
    """The versions of the next game of ``seats`` players, in seat order (None:
    fewer candidates than seats).  ``rng`` breaks ties (one draw per candidate,
    in version order)."""
    if len(candidates) < seats:
        return None
    ordered = sorted(candidates, key=lambda c: c.version)
    ties = {c.version: rng.random() for c in ordered}
    pool = eligible(ordered, seats)
    anchor = min(pool, key=lambda c: (c.passes, -c.sigma, ties[c.version]))
    chosen = [anchor]
    while len(chosen) < seats:
        left = [c for c in pool if c not in chosen]
        met = {c.version: sum(tally.met(c.version, x.version) for x in chosen) for c in left}
        least = min(met.values())
        best = max(
            left,
            key=lambda c: (information(c, chosen) - (met[c.version] - least), ties[c.version]),
        )
        chosen.append(best)
    return seat_order([c.version for c in chosen], tally, rng)


def seat_order(versions: Sequence[int], tally: Tally, rng: random.Random) -> tuple[int, ...]:
    """``versions`` in the seat order that puts each where it sat least so far
    (the least total of their counts at their seats; ties drawn)."""
    counts = {v: tally.seat_counts(v, len(versions)) for v in versions}
    if len(versions) > _ALL_ORDERS:
        return _greedy_order(versions, counts)
    orders = list(itertools.permutations(versions))
    rng.shuffle(orders)
    least = {v: min(counts[v]) for v in versions}

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        """The most any version would have sat at its seat beyond its least-used
        seat, then the total (the worst-off version first)."""
        excess = max(counts[v][s] - least[v] for s, v in enumerate(order))
        return excess, sum(counts[v][s] for s, v in enumerate(order))

    return min(orders, key=cost)


def _greedy_order(versions: Sequence[int], counts: dict[int, list[int]]) -> tuple[int, ...]:
    """Each seat in turn to the version that sat there least (many seats)."""
    left = list(versions)
    order = []
    for seat in range(len(versions)):
        best = min(left, key=lambda v: (counts[v][seat], sum(counts[v])))
        left.remove(best)
        order.append(best)
    return tuple(order)


def advance(passes: dict[int, float], seating: Iterable[int], placing: set[int]) -> None:
    """Move the clocks of the versions of a scheduled game (see the module's text)."""
    for version in seating:
        step = 1.0 / PLACEMENT_BOOST if version in placing else 1.0
        passes[version] = passes.get(version, 0.0) + step


def start_clock(passes: dict[int, float], active: Iterable[int]) -> float:
    """The clock a version joining ``active`` ones starts at: the slowest one's."""
    known = [passes[v] for v in active if v in passes]
    return min(known) if known else 0.0
