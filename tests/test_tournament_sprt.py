"""The sequential test (--sprt) and the gauntlet.

The log-likelihood ratios are checked against results fishtest published: the
final lines of Stockfish tests as quoted in Stockfish's commit messages
("LLR: 2.95 (-2.94,2.94) <0.00,2.00> ... Ptnml(0-2): 20, 1334, 3810, 1569, 35";
``<a,b>`` are normalized Elo bounds, ``{a,b}`` logistic ones), and the trinomial
ones against fastchess's test suite (app/tests/sprt_test.cpp).  The Elo
estimates against lines fastchess printed for a match (its README examples).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import cli
from tournament_support import make_plan, result

from tajmahal.arena.terms import REPRODUCIBLE_SEEDS
from tajmahal.arena.tournament import TournamentDir, run_tournament
from tajmahal.arena.tournament.display import elo_text
from tajmahal.arena.tournament.executor import GameOutcome, GameTask
from tajmahal.arena.tournament.journal import Finished
from tajmahal.arena.tournament.schedule import slot
from tajmahal.arena.tournament.sequential import SequentialTest, pair_counts
from tajmahal.arena.tournament.sprt import (
    BOUNDS,
    H0,
    H1,
    LOGISTIC,
    NORMALIZED,
    OVERSHOOT,
    TRINOMIAL,
    SprtError,
    SprtParams,
    estimate,
    llr,
    parse_sprt,
)

# (elo0, elo1, model), pentanomial LL..WW, LLR as fishtest printed it
FISHTEST = [
    ((-1.75, 0.25, NORMALIZED), [1721, 77704, 208246, 77189, 1732], 3.19),
    ((-1.75, 0.25, NORMALIZED), [210, 9236, 25655, 9432, 187], 2.93),
    ((0.0, 2.0, NORMALIZED), [20, 1334, 3810, 1569, 35], 2.95),
    ((0.0, 10.0, NORMALIZED), [0, 1, 56, 82, 0], 2.95),  # zero counts: regularized
    ((0.5, 2.5, NORMALIZED), [39, 11353, 31686, 11822, 33], 2.96),
    ((0.0, 2.0, NORMALIZED), [521, 17154, 37050, 17170, 489], -2.94),
    ((-1.75, 0.25, NORMALIZED), [390, 91902, 261789, 90790, 389], -2.97),
    ((0.0, 2.0, NORMALIZED), [336, 8437, 18332, 8798, 209], -0.01),
    ((-0.2, 1.1, LOGISTIC), [406, 8728, 41933, 8848, 493], 2.94),
    ((0.2, 0.9, LOGISTIC), [23, 1079, 15473, 1255, 14], 2.94),
    ((-0.7, 0.2, LOGISTIC), [2, 245, 4962, 291, 4], 2.95),
]


@pytest.mark.parametrize(("bounds", "pentanomial", "published"), FISHTEST)
def test_llr_of_pentanomials_is_what_fishtest_published(
    bounds: tuple[float, float, str], pentanomial: list[int], published: float
) -> None:
    elo0, elo1, model = bounds
    value = llr(SprtParams(elo0, elo1, model=model), pentanomial)
    assert value == pytest.approx(published, abs=0.005 + 1e-9)


# fastchess Stats(wins, losses, draws) as trinomial (losses, draws, wins); its
# tolerance is 1% (doctest Approx epsilon 0.01)
FASTCHESS = [
    ((0.0, 2.0, NORMALIZED), [36027, 68692, 36433], 0.92),
    ((-1.75, 0.25, NORMALIZED), [10650, 20431, 10871], 2.30),
    ((0.0, 10.0, NORMALIZED), [0, 0, 4250], 120.56),
    ((0.5, 2.5, LOGISTIC), [21184, 40708, 21404], -1.57),
]


@pytest.mark.parametrize(("bounds", "trinomial", "published"), FASTCHESS)
def test_llr_of_trinomials_is_what_fastchess_expects(
    bounds: tuple[float, float, str], trinomial: list[int], published: float
) -> None:
    elo0, elo1, model = bounds
    value = llr(SprtParams(elo0, elo1, model=model, statistic=TRINOMIAL), trinomial)
    assert value == pytest.approx(published, rel=0.01)


def test_symmetric_results_between_symmetric_hypotheses_weigh_nothing() -> None:
    # Mirror-image results are as likely under +e as under -e: the LLR is 0.
    for model in (NORMALIZED, LOGISTIC):
        params = SprtParams(-10.0, 10.0, model=model)
        assert llr(params, [5, 20, 50, 20, 5]) == pytest.approx(0.0, abs=1e-9)
        assert llr(params, [3, 0, 9, 0, 3]) == pytest.approx(0.0, abs=1e-9)


def test_bounds_follow_from_alpha_and_beta() -> None:
    # log(beta / (1 - alpha)) and log((1 - beta) / alpha): +-log(19) for 0.05/0.05
    p = SprtParams(0.0, 5.0)
    assert (p.lower, p.upper) == (pytest.approx(-2.944439), pytest.approx(2.944439))
    p = SprtParams(0.0, 5.0, alpha=0.05, beta=0.1)
    assert p.lower == pytest.approx(math.log(0.1 / 0.95)) == pytest.approx(-2.251292)
    assert p.upper == pytest.approx(math.log(18.0)) == pytest.approx(2.890372)


# fastchess printed, for Ptnml(0-2) counts: "Elo: 72.85 +/- 22.33, nElo: 132.30 +/- 39.32"
# (300 games, 60.33 %) and "Elo: 19.83 +/- 6.77, nElo: 24.25 +/- 8.26" (52.85 %).
@pytest.mark.parametrize(
    ("pentanomial", "elo", "elo_pm", "nelo", "nelo_pm", "score"),
    [
        ([1, 10, 78, 48, 13], 72.85, 22.33, 132.30, 39.32, 0.6033),
        ([352, 579, 1264, 743, 464], 19.83, 6.77, 24.25, 8.26, 0.5285),
    ],
)
def test_elo_estimates_match_fastchess(
    pentanomial: list[int], elo: float, elo_pm: float, nelo: float, nelo_pm: float, score: float
) -> None:
    e = estimate(pentanomial)
    assert e is not None and e.nelo is not None and e.nelo_low is not None
    assert e.score == pytest.approx(score, abs=5e-5)
    assert e.elo == pytest.approx(elo, abs=0.005)
    assert (e.elo_high - e.elo_low) / 2 == pytest.approx(elo_pm, abs=0.005)
    assert e.nelo == pytest.approx(nelo, abs=0.005)
    assert e.nelo - e.nelo_low == pytest.approx(nelo_pm, abs=0.005)


def test_all_alike_pairs_have_no_normalized_elo_and_a_perfect_score_a_bound() -> None:
    # 10 pairs all won: 20 games; the exact 95% interval of the score is [p, 1] with
    # p = 0.025 ** (1 / 20) = 0.831567, and -400 log10(1 / p - 1) = 277.39 Elo
    e = estimate([0, 0, 0, 0, 10])
    assert e is not None and e.nelo is None
    assert (e.elo, e.elo_high) == (None, None) and e.elo_low == pytest.approx(277.39, abs=0.01)
    assert elo_text(e, 1) == "> 277.4"
    lost = estimate([10, 0, 0])  # 10 games lost (a trinomial): p = 0.025 ** 0.1 = 0.691503
    assert lost is not None and (lost.elo, lost.elo_low) == (None, None)
    assert lost.elo_high == pytest.approx(-140.22, abs=0.01) and elo_text(lost, 0) == "< -140"
    assert estimate([0, 0, 0, 0, 0]) is None


def test_parameters_are_parsed_and_bad_ones_refused() -> None:
    p = parse_sprt("elo0=0, elo1=5,alpha=0.05,beta=0.1,model=logistic,stat=trinomial")
    assert p == SprtParams(0.0, 5.0, 0.05, 0.1, LOGISTIC, TRINOMIAL)
    assert parse_sprt("elo0=-1.75,elo1=0.25") == SprtParams(-1.75, 0.25)
    assert SprtParams.from_data(p.to_data()) == p
    bad = {
        "elo1=5": "elo0 is missing",
        "elo0=5,elo1=0": "elo0 must be below elo1",
        "elo0=0,elo1=5,alpha=1": "alpha must be between 0 and 1",
        "elo0=0,elo1=5,alpha=0.6,beta=0.5": "alpha + beta must be below 1",
        "elo0=0,elo1=x": "elo1=x: not a number",
        "elo0=0,elo1=nan": "not a finite number",
        "elo0=0,elo1=5,model=bayes": "model must be one of normalized, logistic",
        "elo0=0,elo1=5,stat=binomial": "stat must be one of",
        "elo0=0,elo1=5,gamma=1": "unknown key 'gamma'",
        "elo0=0,elo0=1,elo1=5": "elo0 is given twice",
        "elo0=0,elo1": "'elo1' is not KEY=VALUE",
        "elo0=0;elo1=5": "elo1 is missing",
    }
    for text, message in bad.items():
        with pytest.raises(SprtError, match=re.escape(message)):
            parse_sprt(text)


# --- The test over a tournament's games -------------------------------------------


def game(deal: int, rotation: int, first_wins: bool | None) -> Finished:
    """Game ``rotation`` of ``deal`` (seed 7, two entrants): entrant 0 wins, loses
    or ties (None)."""
    s = slot(7, 2, 2 * deal + rotation)
    mine, theirs = (1, 2) if first_wins else (2, 1) if first_wins is False else (1, 1)
    ranks = [mine if entrant == 0 else theirs for entrant in s.seating]
    return Finished(s.number, s.deal, s.rotation, s.seed, s.seating, "r", result([0, 0], ranks))


def test_pairs_are_counted_from_each_deal_s_two_games() -> None:
    games = [
        game(0, 0, True), game(0, 1, True),    # 2 points: WW
        game(1, 0, True), game(1, 1, None),    # 3/2: WD
        game(2, 0, False), game(2, 1, True),   # 1: WL
        game(3, 0, None), game(3, 1, None),    # 1: DD
        game(4, 0, False), game(4, 1, False),  # 0: LL
        game(5, 0, True),                      # deal 5 incomplete: not counted
    ]
    assert pair_counts(games) == ([1, 0, 2, 1, 1], [3, 3, 4])


def test_the_test_counts_whole_deals_in_order_whatever_order_they_end_in() -> None:
    params = SprtParams(0.0, 200.0, stop=BOUNDS)
    results = [True] * 30 + [False] * 4
    random.Random(3).shuffle(results)
    games = [game(n // 2, n % 2, won) for n, won in enumerate(results)]
    in_order = SequentialTest(params)
    for g in games:
        in_order.add(g)
    shuffled = games[:]
    random.Random(5).shuffle(shuffled)
    other = SequentialTest(params)
    for g in shuffled:
        other.add(g)
    assert in_order.status() == other.status()
    status = in_order.status()
    assert status.verdict == H1
    # It stopped at the first pair whose LLR reached the upper bound:
    pent = status.pentanomial
    assert llr(params, pent) >= params.upper
    counts = pair_counts([g for g in games if g.deal < status.pairs - 1])[0]
    assert llr(params, counts) < params.upper


def ladder_correction(values: list[float]) -> tuple[float, float]:
    """The expected overshoots of the lower and upper bounds after the LLRs
    ``values``, from the steps that set a new low or high (Siegmund 8.33, as
    fishtest): sum(step^2) / (2 |sum(step)|), written out again here."""
    low = high = 0.0
    downs: list[float] = []
    ups: list[float] = []
    for v in values:
        if v < low:
            downs.append(low - v)
            low = v
        if v > high:
            ups.append(v - high)
            high = v
    def correction(steps: list[float]) -> float:
        return sum(s * s for s in steps) / (2 * sum(steps)) if steps else 0.0
    return correction(downs), correction(ups)


def test_the_overshoot_correction_stops_sooner_on_the_same_games() -> None:
    rng = random.Random(11)
    # entrant 0 wins 60% of the games, ties 10%: a modest edge, decided in dozens of pairs
    results = [
        True if r < 0.6 else None if r < 0.7 else False for r in (rng.random() for _ in range(800))
    ]
    games = [game(n // 2, n % 2, won) for n, won in enumerate(results)]
    decided = {}
    for stop in (OVERSHOOT, BOUNDS):
        test = SequentialTest(SprtParams(0.0, 100.0, stop=stop))
        for g in games:
            test.add(g)
        decided[stop] = test.status()
    plain, corrected = decided[BOUNDS], decided[OVERSHOOT]
    assert plain.verdict == corrected.verdict == H1
    assert corrected.pairs < plain.pairs  # it stopped sooner
    assert plain.llr > plain.params.upper  # the plain test crossed its bound
    # the corrected one: its LLR path, recomputed pair by pair, and its bounds then
    params = corrected.params
    path = [llr(params, pair_counts(games[: 2 * n])[0]) for n in range(1, corrected.pairs + 1)]
    o0, o1 = ladder_correction(path)
    assert corrected.stops == pytest.approx((params.lower + o0, params.upper - o1))
    assert path[-1] == pytest.approx(corrected.llr) and corrected.llr > params.upper - o1
    o0, o1 = ladder_correction(path[:-1])  # one pair earlier it had not crossed
    assert params.lower + o0 < path[-2] < params.upper - o1


def test_the_stop_rule_is_a_parameter_overshoot_by_default() -> None:
    assert parse_sprt("elo0=0,elo1=5").stop == OVERSHOOT
    assert parse_sprt("elo0=0,elo1=5,stop=bounds").stop == BOUNDS
    with pytest.raises(SprtError, match="stop must be one of overshoot, bounds"):
        parse_sprt("elo0=0,elo1=5,stop=never")
    stored = SprtParams(0.0, 5.0).to_data()
    assert stored["stop"] == OVERSHOOT and SprtParams.from_data(stored).stop == OVERSHOOT
    del stored["stop"]  # a test stored before there was a choice stopped at the bounds
    assert SprtParams.from_data(stored).stop == BOUNDS


def test_a_gap_holds_the_count_back_until_it_is_filled() -> None:
    test = SequentialTest(SprtParams(0.0, 200.0))
    for g in (game(1, 0, True), game(1, 1, True), game(0, 0, True)):
        test.add(g)
    assert test.status().pairs == 0
    test.add(game(0, 1, True))
    assert test.status().pairs == 2 and test.status().pentanomial == (0, 0, 0, 0, 2)


class InOrder:
    """Plays tasks one after the other with ``winner(task)`` (the seat that wins)."""

    def __init__(self, winner: Callable[[GameTask], int]) -> None:
        self.winner = winner
        self.asked: list[int] = []

    def run(self, tasks: Iterable[GameTask]) -> Generator[GameOutcome, None, None]:
        for task in tasks:
            self.asked.append(task.number)
            ranks = [2, 2]
            ranks[self.winner(task)] = 1
            yield GameOutcome(task.number, result=result([40, 30], ranks))


def strong_a(task: GameTask) -> int:
    """Entrant a (bot "greedy") wins 9 deals of 10 twice, loses both in the tenth."""
    a_seat = task.bots.index("greedy")
    return a_seat if (task.number // 2) % 10 != 9 else 1 - a_seat


def test_a_run_stops_when_the_test_decides_and_resumes_decided(tmp_path: Path) -> None:
    plan = make_plan(bots=("a=greedy", "b=random"), deals=500, sprt=SprtParams(0.0, 100.0))
    store = TournamentDir.open(tmp_path, plan)
    executor = InOrder(strong_a)
    report = run_tournament(store, executor)
    store.close()
    assert report.sprt is not None and report.sprt.verdict == H1 and report.complete
    pairs = report.sprt.pairs
    assert executor.asked == list(range(2 * pairs))  # not one game more
    assert report.finished == 2 * pairs < plan.games
    summary = orjson.loads((tmp_path / "standings.json").read_bytes())
    assert summary["sprt"]["verdict"] == "H1" and summary["complete"] is True
    assert summary["sprt"]["pentanomial"] == list(report.sprt.pentanomial)
    store = TournamentDir.open(tmp_path, plan)
    again = InOrder(strong_a)
    report2 = run_tournament(store, again)
    store.close()
    assert again.asked == [] and report2.sprt == report.sprt


def test_h0_is_accepted_for_a_bot_that_is_no_better(tmp_path: Path) -> None:
    plan = make_plan(bots=("a=greedy", "b=random"), deals=500, sprt=SprtParams(0.0, 100.0))
    store = TournamentDir.open(tmp_path, plan)
    report = run_tournament(store, InOrder(lambda task: 0))  # seat 0 wins: 1 point per pair
    store.close()
    assert report.sprt is not None and report.sprt.verdict == H0
    assert report.sprt.pentanomial[1:] == (0, report.sprt.pairs, 0, 0)


def test_a_test_that_reaches_the_game_limit_ends_undecided(tmp_path: Path) -> None:
    plan = make_plan(bots=("a=greedy", "b=random"), deals=3, sprt=SprtParams(0.0, 5.0))
    store = TournamentDir.open(tmp_path, plan)
    report = run_tournament(store, InOrder(strong_a))
    store.close()
    assert report.sprt is not None and report.sprt.verdict is None
    assert report.complete and report.finished == 6


# --- The command -----------------------------------------------------------------


def test_sprt_on_the_command_line_stops_early_and_prints_the_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")  # the cards of seed 1's deals, on every machine
    out = tmp_path / "t"
    code, stdout, stderr = cli(
        "tournament", "greedy", "random", "--sprt", "elo0=0,elo1=100", "--seed", "1",
        "--jobs", "2", "--out", str(out), "-q",
    )
    assert code == 0, stderr
    assert "at most 100000 games" in stdout
    assert "SPRT greedy vs random: H1 accepted after" in stdout
    assert "LLR " in stdout and "(-2.94, 2.94), stops at (" in stdout
    assert "elo0 0, elo1 100 (normalized Elo, pentanomial, alpha 0.05, beta 0.05)" in stdout
    assert "Ptnml(0-2): " in stdout and "Elo: " in stdout
    summary: dict[str, Any] = orjson.loads((out / "standings.json").read_bytes())
    test = summary["sprt"]
    assert test["verdict"] == "H1" and test["stop_upper"] < test["llr"] < test["upper"]
    journal = (out / "journal.jsonl").read_bytes().splitlines()
    assert 2 * test["pairs"] <= len(journal) <= 2 * test["pairs"] + 2  # games under way kept
    code, stdout, stderr = cli("tournament", "--out", str(out), "-q")  # resumed: decided
    assert code == 0 and "this run: 0 games" in stdout and "H1 accepted" in stdout


def test_sprt_usage_errors(tmp_path: Path) -> None:
    code, _, stderr = cli("tournament", "greedy", "random", "random", "--sprt",
                          "elo0=0,elo1=5", "--out", str(tmp_path / "a"))
    assert code == 2 and "--sprt tests a two-bot match-up" in stderr
    code, _, stderr = cli("tournament", "greedy", "random", "--sprt", "elo0=5,elo1=0",
                          "--out", str(tmp_path / "b"))
    assert code == 2 and "elo0 must be below elo1" in stderr


def test_a_gauntlet_plays_one_match_up_per_opponent_on_the_same_deals(tmp_path: Path) -> None:
    out = tmp_path / "g"
    args = ("tournament", "--gauntlet", "greedy", "random", "first", "--games", "4",
            "--seed", "5", "--jobs", "2", "--out", str(out), "-q")
    code, stdout, stderr = cli(*args)
    assert code == 0, stderr
    assert "tournament: greedy, random\n" in stdout and "tournament: greedy, first\n" in stdout
    assert "win share" not in stdout  # -q: the gauntlet's table, not each match-up's
    summary = orjson.loads((out / "standings.json").read_bytes())
    rows = summary["matchups"]
    assert [r["opponent"]["name"] for r in rows] == ["random", "first"]
    assert [r["directory"] for r in rows] == ["vs1", "vs2"]
    assert all(r["games"] == 4 and r["deals"] == 2 for r in rows)
    seeds = []
    for where, opponent in (("vs1", "random"), ("vs2", "first")):
        manifest = orjson.loads((out / where / "tournament.json").read_bytes())["plan"]
        assert [e["bot"] for e in manifest["entrants"]] == ["greedy", opponent]
        lines = (out / where / "journal.jsonl").read_bytes().splitlines()
        seeds.append(sorted(orjson.loads(x)["seed"] for x in lines))
    assert seeds[0] == seeds[1]  # the same deals against each opponent
    code, stdout, _ = cli("tournament", "--out", str(out), "-q")  # resumes as a gauntlet
    assert code == 0 and stdout.count("tournament: greedy") == 2
    assert "gauntlet: greedy against each opponent" in stdout
    code, _, stderr = cli("tournament", "--gauntlet", "greedy", "mcts", "--out", str(out))
    assert code == 2 and "holds a gauntlet of other bots" in stderr
