"""The matchmaker's promises, for any number of bots, seats and ratings
(hypothesis): every pair meets, seats are balanced, nobody is starved, new
versions play their placement games first; and the runner hands out
requested games before the schedule's."""

from __future__ import annotations

import itertools
import math
import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from tajmahal.arena.ladder.matchmaking import (
    PLACEMENT_BOOST,
    SLACK,
    Candidate,
    Tally,
    advance,
    choose,
    start_clock,
)

ratings = st.tuples(st.floats(0.0, 50.0), st.floats(0.5, 25.0 / 3.0))


def play(
    rated: list[tuple[float, float]], seats: int, games: int, seed: int, placement: int = 0
) -> tuple[Tally, list[tuple[int, ...]]]:
    """Schedule ``games`` games among bots of ``rated`` (fixed) ratings."""
    tally, passes, schedule = Tally(), dict.fromkeys(range(len(rated)), 0.0), []
    for number in range(games):
        placing = {v for v in range(len(rated)) if tally.games(v) < placement}
        candidates = [Candidate(v, mu, sigma, passes[v], v in placing)
                      for v, (mu, sigma) in enumerate(rated)]
        chosen = choose(candidates, tally, random.Random(f"{seed}:{number}"), seats)
        assert chosen is not None
        tally.add(chosen)
        advance(passes, chosen, placing)
        schedule.append(chosen)
    return tally, schedule


def games_for_every_pair(bots: int, seats: int) -> int:
    """Enough games for every pair to meet: three times the pairs over the pairs a
    game holds, and one game a bot."""
    return math.ceil(3 * bots * (bots - 1) / (seats * (seats - 1))) + bots


@st.composite
def ladders(draw: st.DrawFn) -> tuple[list[tuple[float, float]], int, int]:
    seats = draw(st.integers(2, 5))
    bots = draw(st.integers(seats, 10))
    rated = draw(st.lists(ratings, min_size=bots, max_size=bots))
    return rated, seats, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(ladders())
def test_every_pair_meets_nobody_is_starved_and_seats_are_balanced(
    ladder: tuple[list[tuple[float, float]], int, int],
) -> None:
    rated, seats, seed = ladder
    bots = len(rated)
    tally, schedule = play(rated, seats, games_for_every_pair(bots, seats), seed)
    for a, b in itertools.combinations(range(bots), 2):
        assert tally.met(a, b) >= 1, f"bots {a} and {b} never met"
    counts = [tally.games(v) for v in range(bots)]
    assert max(counts) - min(counts) <= SLACK + 1  # nobody starved
    for v in range(bots):  # each bot at each seat about as often
        at = tally.seat_counts(v, seats)
        assert max(at) - min(at) <= 3
    assert all(len(set(game)) == seats for game in schedule)  # a bot sits once a game


@settings(max_examples=30, deadline=None)
@given(ladders(), st.integers(40, 120))
def test_in_a_long_run_meetings_and_games_stay_even(
    ladder: tuple[list[tuple[float, float]], int, int], games: int
) -> None:
    rated, seats, seed = ladder
    tally, _ = play(rated, seats, games, seed)
    met = [tally.met(a, b) for a, b in itertools.combinations(range(len(rated)), 2)]
    assert max(met) - min(met) <= 4
    counts = [tally.games(v) for v in range(len(rated))]
    assert max(counts) - min(counts) <= SLACK + 1


@settings(max_examples=30, deadline=None)
@given(ladders(), st.integers(1, 12))
def test_a_new_version_plays_its_placement_games_first(
    ladder: tuple[list[tuple[float, float]], int, int], placement: int
) -> None:
    """A version that joins late starts at the slowest clock and plays more often
    than the others until its placement games are played."""
    rated, seats, seed = ladder
    bots = len(rated)
    tally, passes = Tally(), dict.fromkeys(range(bots - 1), 0.0)
    rng = random.Random(seed)
    for _ in range(30):  # the others play first
        candidates = [Candidate(v, *rated[v], passes[v]) for v in range(bots - 1)]
        if len(candidates) < seats:
            break
        chosen = choose(candidates, tally, rng, seats)
        assert chosen is not None
        tally.add(chosen)
        advance(passes, chosen, set())
    new = bots - 1
    passes[new] = start_clock(passes, range(bots - 1))
    assert passes[new] == min(passes[v] for v in range(bots - 1))
    before = {v: tally.games(v) for v in range(bots)}
    games = 0
    while tally.games(new) < placement:
        placing = {new} if tally.games(new) < placement else set()
        candidates = [Candidate(v, *rated[v], passes[v], v in placing) for v in range(bots)]
        chosen = choose(candidates, tally, rng, seats)
        assert chosen is not None
        tally.add(chosen)
        advance(passes, chosen, placing)
        games += 1
        assert games <= PLACEMENT_BOOST * placement * bots  # it does get its games
    others = [tally.games(v) - before[v] for v in range(bots - 1)]
    assert placement >= max(others) - SLACK - 1  # nobody else played more meanwhile


@settings(max_examples=50, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=30))
def test_requested_games_are_handed_out_first(kinds: list[bool]) -> None:
    """Whatever order requested (True) and rated games were queued in, the runner
    hands out every requested one before any rated one."""
    from tajmahal.arena.ladder.runner import Ladder
    from tajmahal.arena.ladder.schedule import Planned

    state = Ladder.__new__(Ladder)
    state.pending, state.requested, state.rated = {}, deque(), deque()
    state.planner = type("P", (), {"basis": lambda self: 10**9})()
    state.rated_slots = 0
    for number, requested in enumerate(kinds, 1):
        state.queue(Planned(number, None if requested else number, 0, (0, 1)))
    order = []
    while (game := state.next_game()) is not None:
        order.append(game.slot is None)
    assert order == sorted(kinds, reverse=True)
