"""Standings math, checked against numbers worked out by hand."""

from __future__ import annotations

import csv
import io
import math
import random

import pytest
from tournament_support import hand_games, make_plan, result

from tajmahal.arena.tournament.journal import Finished
from tajmahal.arena.tournament.schedule import slot
from tajmahal.arena.tournament.standings import (
    Standings,
    games_csv,
    standings_csv,
    win_credits,
)
from tajmahal.arena.tournament.stats import Moments, clustered_mean, t_cdf, t_quantile

# Student t 97.5% quantiles from printed tables.
T975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 9: 2.2622, 29: 2.0452, 120: 1.9799}


@pytest.mark.parametrize(("df", "expected"), sorted(T975.items()))
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_t_cdf() -> None:
    assert t_cdf(0.0, 5) == pytest.approx(0.5)
    assert t_cdf(1.0, 1) == pytest.approx(0.75)  # Cauchy: 1/2 + atan(1)/pi
    # df = 2 has a closed form: F(t) = 1/2 + t / (2 sqrt(2 + t^2))
    assert t_cdf(-2.0, 2) == pytest.approx(0.5 - 2 / (2 * math.sqrt(6)))


def test_clustered_mean_with_equal_clusters_is_the_t_interval_of_cluster_means() -> None:
    # Clusters of 2 with means 1, 2, 6: mean 3, sd sqrt(((-2)^2 + (-1)^2 + 3^2) / 2) = sqrt(7),
    # SE sqrt(7/3) = 1.52753, half-width 4.3027 * 1.52753 = 6.5725.
    e = clustered_mean([(2.0, 2), (4.0, 2), (12.0, 2)])
    assert e.mean == 3.0
    assert e.half == pytest.approx(6.5725, abs=1e-3)
    assert (e.low, e.high) == (pytest.approx(3 - 6.5725, abs=1e-3), pytest.approx(9.5725, abs=1e-3))


def test_clustered_mean_with_unequal_clusters() -> None:
    # Sums 3, 0, 3 over counts 3, 1, 2: mean 6/6 = 1; residuals S - n = 0, -1, 1;
    # SE^2 = 3/2 * (0 + 1 + 1) / 36 = 1/12; half-width 4.3027 * 0.288675 = 1.24208.
    e = clustered_mean([(3.0, 3), (0.0, 1), (3.0, 2)])
    assert e.mean == 1.0
    assert e.half == pytest.approx(1.24208, abs=1e-4)


def test_clustered_mean_clips_and_needs_two_clusters() -> None:
    e = clustered_mean([(1.0, 1), (0.0, 1)], bounds=(0.0, 1.0))  # half-width 12.7 * 0.5
    assert (e.mean, e.low, e.high) == (0.5, 0.0, 1.0)
    assert e.half == pytest.approx(6.3531, abs=1e-3)
    one = clustered_mean([(3.0, 2)])
    assert (one.mean, one.low, one.high) == (1.5, None, None)
    assert math.isnan(clustered_mean([]).mean)


def test_moments_give_the_clustered_mean_of_their_clusters() -> None:
    """The sums a database keeps (a ladder's head-to-heads) give the same estimate
    as the clusters themselves: the unequal clusters above (sums 3, 0, 3 over
    counts 3, 1, 2: sum S^2 = 18, sum S n = 15, sum n^2 = 14), and shares of
    1/2 steps in random clusters."""
    e = Moments(clusters=3, count=6, total=6.0, squares=18.0, cross=15.0,
                count_squares=14).estimate()
    assert e.mean == 1.0 and e.half == pytest.approx(1.24208, abs=1e-4)
    rng = random.Random(7)
    for _ in range(200):
        clusters = [(rng.randint(0, 2 * n) / 2, n) for n in
                    (rng.randint(1, 5) for _ in range(rng.randint(1, 9)))]
        moments = Moments(len(clusters), sum(n for _, n in clusters),
                          sum(s for s, _ in clusters), sum(s * s for s, _ in clusters),
                          sum(s * n for s, n in clusters), sum(n * n for _, n in clusters))
        got, expected = moments.estimate((0.0, 1.0)), clustered_mean(clusters, (0.0, 1.0))
        assert got.to_data() == expected.to_data()
        assert got.half == pytest.approx(expected.half, abs=1e-12) or got.half is None
    assert math.isnan(Moments(0, 0, 0.0, 0.0, 0.0, 0).estimate().mean)


def test_win_credits_share_first_place() -> None:
    assert win_credits([1, 2, 3, 4]) == [1, 0, 0, 0]
    assert win_credits([2, 1, 1, 3]) == [0, 0.5, 0.5, 0]
    assert win_credits([1, 1, 1]) == pytest.approx([1 / 3] * 3)


def test_standings_by_hand() -> None:
    standings = Standings(make_plan().entrants)
    for game in hand_games():
        standings.add(game)
    a, b = standings.table()
    # A's win credits per deal: (1, 1/2), (0, 1), (1, 1): means 0.75, 0.5, 1; overall
    # 0.75; sd 0.25, SE 0.25 / sqrt 3 = 0.144338, half-width 4.3027 * SE = 0.62104.
    assert a.win_share.mean == 0.75
    assert a.win_share.low == pytest.approx(0.75 - 0.62104, abs=1e-4)
    assert a.win_share.high == 1.0  # clipped
    assert b.win_share.mean == 0.25
    assert (b.win_share.low, b.win_share.high) == (0.0, pytest.approx(0.87104, abs=1e-4))
    # A's scores per deal: 95, 85, 135 over 2 games: means 47.5, 42.5, 67.5; overall
    # 52.5; sd sqrt((25 + 100 + 225) / 2) = 13.2288, SE 7.63763, half-width 32.862.
    assert a.score.mean == 52.5
    assert a.score.half == pytest.approx(32.862, abs=1e-3)
    # 52.5 +- 32.862 = [19.64, 85.36] reaches past every score A made (30 to 70): the
    # mean cannot lie there, so the interval is clipped to the scores seen.
    assert (a.score.low, a.score.high) == (30.0, 70.0)
    # B: 40, 45, 60, 35, 20, 25, deal means 42.5, 47.5, 22.5, mean 37.5, the same
    # half-width: [4.64, 70.36], clipped to [20, 60].
    assert b.score.mean == 37.5 and (b.score.low, b.score.high) == (20.0, 60.0)
    # A's ranks per deal: means 1, 1.5, 1; overall 7/6; sd sqrt(1/12), SE 1/6,
    # half-width 0.71711; the low end clips at rank 1.
    assert a.rank.mean == pytest.approx(7 / 6)
    assert (a.rank.low, a.rank.high) == (1.0, pytest.approx(7 / 6 + 0.71711, abs=1e-4))
    assert b.rank.mean == pytest.approx(10 / 6)  # ranks 2, 1, 1, 2, 2, 2
    assert a.fault_games == 0 and a.faults == {}
    assert b.fault_games == 1 and b.faults == {"timeout": 1}
    assert a.games == b.games == 6
    assert a.decisions == 60 and a.time_used == pytest.approx(3.0)
    assert a.rating.mu > 25 > b.rating.mu
    ahead = standings.pairwise()
    assert ahead[0][0] is None and ahead[1][1] is None
    assert ahead[0][1] is not None and ahead[0][1].mean == 0.75  # two seats: as win share
    assert ahead[1][0] is not None and ahead[1][0].mean == 0.25


def test_pairwise_in_a_three_seat_game() -> None:
    plan = make_plan(bots=("a=random", "b=random", "c=random"), deals=1)
    standings = Standings(plan.entrants)
    s = slot(plan.seed, 3, 0)  # seats hold entrants 0, 1, 2
    standings.add(Finished(0, 0, 0, s.seed, s.seating, "r", result([5, 9, 5], [2, 1, 2])))
    ahead = standings.pairwise()
    assert [[None if e is None else e.mean for e in row] for row in ahead] == [
        [None, 0.0, 0.5],
        [1.0, None, 1.0],
        [0.5, 0.0, None],
    ]
    assert [s.win_share.mean for s in standings.table()] == [0.0, 1.0, 0.0]


def test_final_ratings_do_not_depend_on_the_order_games_finish() -> None:
    games = hand_games()
    in_order, shuffled = Standings(make_plan().entrants), Standings(make_plan().entrants)
    for game in games:
        in_order.add(game)
    mixed = list(games)
    random.Random(3).shuffle(mixed)
    for game in mixed:
        shuffled.add(game)
    assert [s.rating for s in in_order.table()] == [s.rating for s in shuffled.table()]
    assert [s.win_share for s in in_order.table()] == [s.win_share for s in shuffled.table()]


def test_a_tie_leaves_equal_ratings() -> None:
    standings = Standings(make_plan().entrants)
    s = slot(7, 2, 0)
    standings.add(Finished(0, 0, 0, s.seed, s.seating, "r", result([30, 30], [1, 1])))
    a, b = standings.table()
    assert a.rating == b.rating


def test_csv_files() -> None:
    standings = Standings(make_plan().entrants)
    for game in hand_games():
        standings.add(game)
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings.table()))))
    assert [r["name"] for r in rows] == ["a", "b"]
    assert rows[0]["win_share"] == "0.75" and rows[0]["win_share_high"] == "1.0"
    assert rows[1]["faults"] == "timeout=1" and rows[1]["fault_games"] == "1"
    per_seat = list(csv.DictReader(io.StringIO(games_csv(standings.games, standings.entrants))))
    assert len(per_seat) == 12
    tie = [r for r in per_seat if r["game"] == "1"]
    assert [(r["seat"], r["name"], r["win"]) for r in tie] == [("0", "b", "0.5"), ("1", "a", "0.5")]
    assert [r["fault"] for r in per_seat if r["game"] == "3"] == ["timeout", ""]
