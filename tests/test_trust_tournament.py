"""Referee trust, attacks 2 and 3: a bot must not rig a tournament's standings.

2. A bot that spoils its game (kills or stops its worker) whenever it is losing:
   the game is charged to it (a fault, a loss), never played again, and listed.
3. A result the tournament did not get from a record that exists and replays to
   it (a line a bot wrote into its worker's pipe) is not believed.

The hostile bot (tests/hostile_bots/sore_loser.py) plays at random from its
hello's seed, so the same tournament with its honest twin plays the same games
up to the point where it spoils one: the twin's standings are what the bot
would have earned by playing on.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, cli, hostile
from tournament_support import make_plan, result

from tajmahal.arena.record import replay
from tajmahal.arena.tournament.charges import LOST, lost_result
from tajmahal.arena.tournament.executor import GameOutcome, GameTask, InlineExecutor, play_task
from tajmahal.arena.tournament.journal import TournamentDir
from tajmahal.arena.tournament.runner import RETRIES, run_tournament
from tajmahal.arena.tournament.standings import game_credits
from tajmahal.tajmahal.adapter import TAJMAHAL

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")
SEED = "5"


def tournament(out: Path, mode: str, games: int = 12) -> dict[str, Any]:
    """A tournament of the sore loser in ``mode`` against the built-in random bot:
    its standings.json (the run must succeed)."""
    code, stdout, stderr = cli(
        "tournament", hostile("sore_loser", mode), "random", "--games", str(games),
        "--seed", SEED, "--jobs", "2", "--out", str(out), "-q",
    )
    assert code == 0, stdout + stderr
    data: dict[str, Any] = orjson.loads((out / "standings.json").read_bytes())
    return data


def journal(out: Path) -> dict[int, dict[str, Any]]:
    entries = [orjson.loads(line) for line in (out / "journal.jsonl").read_bytes().splitlines()]
    return {e["number"]: e for e in entries}


def won(entry: dict[str, Any], entrant: int) -> float:
    return game_credits(entry["result"])[entry["seating"].index(entrant)]


def check_no_gain(spoiler: Path, twin: Path, spoiled: dict[str, Any],
                  honest: dict[str, Any]) -> None:
    """The spoiler won no game it would not have won playing on; every game it
    spoiled is charged to it alone and listed; each game was tried once."""
    games, played_on = journal(spoiler), journal(twin)
    assert sorted(games) == sorted(played_on) == list(range(12))  # all there, once each
    lost = [n for n, e in sorted(games.items()) if e["result"].get("lost")]
    assert lost, "the bot never spoiled a game: the test proves nothing"
    for number, entry in games.items():
        if number in lost:
            assert won(entry, 0) == 0.0 and won(entry, 1) == 1.0
            (fault,) = entry["result"]["faults"]
            assert fault["kind"] == LOST and entry["seating"][fault["seat"]] == 0
        else:  # played to its end: the very game its twin played, record and all
            assert entry["result"]["ranks"] == played_on[number]["result"]["ranks"]
            done = replay(TAJMAHAL, spoiler / entry["record"], describe=False)
            assert done.result["ranks"] == entry["result"]["ranks"]
    bot = spoiled["entrants"][0]
    assert bot["faults"] == {LOST: len(lost)} and bot["fault_games"] == len(lost)
    assert [g["game"] for g in spoiled["lost_games"]] == lost
    assert all(g["charged"] == [bot["name"]] for g in spoiled["lost_games"])
    wins = sum(won(e, 0) for e in games.values())
    assert bot["win_share"]["mean"] == pytest.approx(wins / 12, abs=1e-4)
    assert bot["win_share"]["mean"] <= honest["entrants"][0]["win_share"]["mean"]
    assert spoiled["entrants"][1]["win_share"]["mean"] == pytest.approx(1 - wins / 12, abs=1e-4)
    errors = (spoiler / "errors.log").read_text().splitlines()
    assert len(errors) == len(lost)  # none was played again: no second draw


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("honest") / "t"
    data = tournament(out, "honest")
    assert data["lost_games"] == [] and data["complete"]
    return out, data


@linux
def test_attack_2_a_bot_that_kills_its_worker_when_losing_gains_nothing(
    tmp_path: Path, honest: tuple[Path, dict[str, Any]]
) -> None:
    spoiled = tournament(tmp_path / "t", "kill")
    assert spoiled["complete"]
    check_no_gain(tmp_path / "t", honest[0], spoiled, honest[1])
    assert all("SIGKILL" in g["why"] for g in spoiled["lost_games"])


@linux
def test_attack_3_a_result_a_bot_writes_into_the_workers_pipe_is_not_believed(
    tmp_path: Path, honest: tuple[Path, dict[str, Any]]
) -> None:
    """Where /proc lets it (root; the worker is not dumpable), the bot writes a
    winning result for its game into its worker's pipes, then kills the worker."""
    spoiled = tournament(tmp_path / "t", "forge")
    check_no_gain(tmp_path / "t", honest[0], spoiled, honest[1])


@linux
def test_attack_2_a_worker_stopped_by_its_bot_is_lost_not_waited_for(tmp_path: Path) -> None:
    out = tmp_path / "t"
    argv = [sys.executable, "-c", "from tajmahal.cli import main; main()", "tournament",
            hostile("sore_loser", "stop"),
            "random", "--games", "4", "--seed", SEED, "--jobs", "2", "--out", str(out), "-q"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = orjson.loads((out / "standings.json").read_bytes())
    assert data["complete"] and data["lost_games"]
    assert all("stopped (SIGSTOP)" in g["why"] for g in data["lost_games"])
    assert data["entrants"][0]["faults"] == {LOST: len(data["lost_games"])}


# -- the runner, with executors that lie


class Lying:
    """Reports for each task what ``answer(task)`` says, as an executor would."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.asked: list[int] = []

    def run(self, tasks: Iterable[GameTask]) -> Generator[GameOutcome, None, None]:
        for task in tasks:
            self.asked.append(task.number)
            yield self.answer(task)


def test_attack_3_a_result_without_its_record_is_charged_to_the_separate_programs(
    tmp_path: Path,
) -> None:
    plan = make_plan(bots=("a=random", "b=bots/random_bot.py"), deals=2)
    store = TournamentDir.open(tmp_path, plan)
    forged = Lying(lambda task: GameOutcome(task.number, result=result([1, 0], [1, 2])))
    report = run_tournament(store, forged, game=TAJMAHAL)
    store.close()
    assert forged.asked == [0, 1, 2, 3]  # each once: no second draw
    assert report.complete and report.failed == ()
    for game in report.standings.games:
        seat = game.seating.index(1)  # the separate program is charged, the built-in wins
        assert [(f["seat"], f["kind"]) for f in game.result["faults"]] == [(seat, LOST)]
        assert game_credits(game.result)[seat] == 0.0 and game.record == ""
    table = report.standings.table()
    assert table[0].win_share.mean == 1.0 and table[1].win_share.mean == 0.0
    assert table[1].faults == {LOST: 4}
    assert "no record 000000.jsonl is on disk" in (tmp_path / "errors.log").read_text()


def test_attack_3_a_result_that_is_not_its_records_is_not_believed(tmp_path: Path) -> None:
    """Real games, real records, but the reported ranks are swapped: with built-in
    bots only (no one to charge) the games are tried again, then reported failed;
    the records that did not match are kept aside, not as the games' records."""
    plan = make_plan(bots=("a=random", "b=first"), deals=1)
    store = TournamentDir.open(tmp_path, plan)

    def swapped(task: GameTask) -> GameOutcome:
        outcome = play_task(TAJMAHAL, task)
        assert outcome.result is not None
        outcome.result["ranks"] = outcome.result["ranks"][::-1]
        return outcome

    lying = Lying(swapped)
    report = run_tournament(store, lying, game=TAJMAHAL)
    store.close()
    assert lying.asked == [0, 1] * (1 + RETRIES)
    assert report.standings.games == [] and [n for n, _ in report.failed] == [0, 1]
    assert "the reported ranks" in report.failed[0][1]
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [
        "000000.jsonl.rejected", "000001.jsonl.rejected"]
    store = TournamentDir.open(tmp_path, plan)  # an honest executor: believed
    report = run_tournament(store, InlineExecutor(TAJMAHAL), game=TAJMAHAL)
    store.close()
    assert report.complete and len(report.standings.games) == 2


def test_a_game_lost_by_every_seat_is_won_by_nobody() -> None:
    both = lost_result(2, [0, 1], "the worker process ended")
    assert game_credits(both) == [0.0, 0.0] and both["ranks"] == [2, 2]
    one = lost_result(3, [1], "the worker process ended")
    assert game_credits(one) == [0.5, 0.0, 0.5] and one["ranks"] == [1, 3, 1]


def test_a_game_lost_by_the_executor_is_tried_again_then_charged(tmp_path: Path) -> None:
    """A lost machine (``transient``) is not the bots' doing: the game is played
    again, up to RETRIES more times; one that never comes back is then charged."""
    plan = make_plan(bots=("a=random", f"b={BOTS / 'random_bot.py'}"), deals=1)
    store = TournamentDir.open(tmp_path, plan)
    attempts: dict[int, int] = {}

    def node_lost(task: GameTask) -> GameOutcome:
        attempts[task.number] = attempts.get(task.number, 0) + 1
        if task.number == 0 and attempts[0] == 2:  # comes back the second time
            return play_task(TAJMAHAL, task)
        return GameOutcome(task.number, error="the node was lost", transient=True)

    lying = Lying(node_lost)
    report = run_tournament(store, lying, game=TAJMAHAL)
    store.close()
    assert lying.asked == [0, 1, 0, 1, 1] and RETRIES == 2
    assert report.complete and report.failed == ()
    first, second = sorted(report.standings.games, key=lambda g: g.number)
    assert not first.result.get("lost") and first.record == "games/000000.jsonl"
    assert second.result["lost"].endswith("the node was lost")
    assert [f["seat"] for f in second.result["faults"]] == [second.seating.index(1)]
