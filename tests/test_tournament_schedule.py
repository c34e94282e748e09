"""The tournament's schedule: entrants, rotations, seeds, plans."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter

import pytest
from tournament_support import make_plan

from tajmahal.arena.terms import TimeControl
from tajmahal.arena.tournament.plan import Plan
from tajmahal.arena.tournament.schedule import (
    ALL,
    deal_seed,
    deals_for,
    parse_entrants,
    schedule,
    seating,
    seatings_per_deal,
    slot,
)


def test_entrants_are_named_by_their_bot_and_numbered_when_repeated() -> None:
    entrants = parse_entrants(["mcts", "greedy", "greedy", "greedy"])
    assert [e.name for e in entrants] == ["mcts", "greedy#1", "greedy#2", "greedy#3"]
    assert [e.bot for e in entrants] == ["mcts", "greedy", "greedy", "greedy"]
    assert [e.index for e in entrants] == [0, 1, 2, 3]


def test_name_equals_bot_names_an_entrant_but_a_command_with_equals_is_a_command() -> None:
    entrants = parse_entrants(["deep=bots/greedy_bot.py --depth=3", "python bot.py --x=1"])
    assert (entrants[0].name, entrants[0].bot) == ("deep", "bots/greedy_bot.py --depth=3")
    assert (entrants[1].name, entrants[1].bot) == ("python bot.py --x=1",) * 2


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (["a=random", "a=greedy"], "two entrants are named 'a'"),
        (["greedy#1=random", "greedy", "greedy"], "two entrants are named 'greedy#1'"),
        (["x=", "random"], "no bot"),
    ],
)
def test_bad_entrants(bots: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_entrants(bots)


def test_deal_seed_is_sha256_of_the_tournament_seed_and_deal_cut_to_63_bits() -> None:
    digest = hashlib.sha256(b"arena-tournament-deal:12345:7").digest()
    assert deal_seed(12345, 7) == int.from_bytes(digest[:8], "big") // 2
    seeds = [deal_seed(1, d) for d in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) > 2**60  # small tournament seeds do not give small game seeds


def test_each_entrant_sits_each_seat_once_per_deal() -> None:
    assert seating(3, 0) == (0, 1, 2)
    assert seating(3, 1) == (2, 0, 1)  # entrant 0 moved to seat 1
    assert seating(3, 2) == (1, 2, 0)
    games = list(schedule(5, 4, 3))
    assert len(games) == 12
    for deal in range(3):
        rotations = [g for g in games if g.deal == deal]
        assert [g.rotation for g in rotations] == [0, 1, 2, 3]
        assert len({g.seed for g in rotations}) == 1  # the same cards
        for entrant in range(4):
            assert sorted(g.seating.index(entrant) for g in rotations) == [0, 1, 2, 3]
    assert Counter(g.seed for g in games) == {deal_seed(5, d): 4 for d in range(3)}


def test_all_seatings_are_every_order_of_the_entrants() -> None:
    assert seatings_per_deal(4, ALL) == 24 and seatings_per_deal(4) == 4
    games = list(schedule(5, 4, 2, ALL))
    assert len(games) == 48
    first = [g.seating for g in games if g.deal == 0]
    assert sorted(first) == sorted(itertools.permutations(range(4)))
    assert first[0] == (0, 1, 2, 3) and first[23] == (3, 2, 1, 0)
    for entrant in range(4):  # each seat 3! = 6 times, after each other entrant 8 times
        assert Counter(s.index(entrant) for s in first) == {0: 6, 1: 6, 2: 6, 3: 6}
        before = Counter(s[(s.index(entrant) - 1) % 4] for s in first)
        assert before == {e: 8 for e in range(4) if e != entrant}
    assert games[30] == slot(5, 4, 30, ALL)
    assert (games[30].deal, games[30].rotation) == (1, 6)


def test_cyclic_rotations_keep_the_neighbours() -> None:
    games = list(schedule(5, 4, 1))
    assert {s.seating[(s.seating.index(1) - 1) % 4] for s in games} == {0}  # 0 before 1


def test_the_schedule_is_reproducible_and_numbered_deal_by_deal() -> None:
    assert list(schedule(9, 3, 4)) == list(schedule(9, 3, 4))
    assert [g.seed for g in schedule(9, 3, 4)] != [g.seed for g in schedule(10, 3, 4)]
    games = list(schedule(9, 3, 4))
    assert [g.number for g in games] == list(range(12))
    assert all(slot(9, 3, g.number) == g for g in games)
    assert list(schedule(9, 3, 6))[:12] == games  # more deals extend, never reshuffle


def test_games_round_up_to_whole_deals() -> None:
    assert deals_for(200, 4) == 50
    assert deals_for(201, 4) == 51
    assert deals_for(1, 5) == 1
    assert deals_for(6, 2) == 3


def test_plan_round_trips_and_names_what_differs() -> None:
    plan = make_plan(time=(TimeControl(0.5, 2.0), TimeControl()))
    assert Plan.from_data(plan.to_data()) == plan
    assert plan.games == 6 and plan.seats == 2
    every = make_plan(bots=("a=random", "b=random", "c=random"), seatings=ALL)
    assert Plan.from_data(every.to_data()) == every
    assert every.games == 18 and every.slot(7) == slot(7, 3, 7, ALL)
    other = make_plan(seed=8, deals=5, grace=1.0, time=plan.time)
    assert plan.differences(other) == [
        "--seed: stored 7, given 8",
        "--grace: stored 2, given 1",
    ]
    assert plan.differences(plan.with_deals(9)) == []


def test_a_plan_from_code_that_deals_otherwise_is_refused() -> None:
    data = make_plan().to_data()
    data["seeding"] = "sequential"
    with pytest.raises(ValueError, match="deals seeds or seats entrants differently"):
        Plan.from_data(data)
