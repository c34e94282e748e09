"""The output directory, the journal and resuming, with executors that fake games."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

import orjson
import pytest
from tournament_support import make_plan, result

from tajmahal.arena.replayer import replay
from tajmahal.arena.terms import TimeControl
from tajmahal.arena.tournament.executor import GameOutcome, GameTask, InlineExecutor
from tajmahal.arena.tournament.journal import (
    JOURNAL,
    MANIFEST,
    TournamentDir,
    TournamentError,
    stored_plan,
)
from tajmahal.arena.tournament.runner import run_tournament, task_for
from tajmahal.arena.tournament.schedule import slot
from tajmahal.tajmahal.adapter import TAJMAHAL


def open_dir(root: Path, **changes: Any) -> TournamentDir:
    return TournamentDir.open(root, make_plan(**changes))


def finish(store: TournamentDir, *numbers: int) -> None:
    for n in numbers:
        store.append(slot(store.plan.seed, store.plan.seats, n), result([10, 20], [2, 1]))


def test_a_new_directory_gets_the_manifest_and_an_empty_journal(tmp_path: Path) -> None:
    root = tmp_path / "t"
    store = open_dir(root)
    store.close()
    assert sorted(p.name for p in root.iterdir()) == [".key", ".lock", "games", "journal.jsonl",
                                                      "logs", "tournament.json"]
    assert stored_plan(root) == make_plan()
    assert (root / JOURNAL).read_bytes() == b""
    assert store.finished == []


def test_finished_games_are_read_back(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    finish(store, 0, 3)
    store.close()
    again = open_dir(tmp_path)
    assert [g.number for g in again.finished] == [0, 3]
    assert again.finished[1].slot == slot(7, 2, 3)
    assert again.finished[1].record == "games/000003.jsonl"
    assert again.finished[1].result["ranks"] == [2, 1]
    again.close()


def test_a_line_cut_short_by_a_crash_is_dropped_and_cut_off(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    finish(store, 0, 1)
    store.close()
    journal = tmp_path / JOURNAL
    whole = journal.read_bytes()
    journal.write_bytes(whole + b'{"number": 2, "deal": 1, "rot')
    again = open_dir(tmp_path)
    assert [g.number for g in again.finished] == [0, 1]
    assert journal.read_bytes() == whole
    finish(again, 2)
    again.close()
    assert [orjson.loads(x)["number"] for x in journal.read_bytes().splitlines()] == [0, 1, 2]


def test_a_garbled_last_line_is_dropped_but_not_a_garbled_line_before(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    finish(store, 0, 1)
    store.close()
    journal = tmp_path / JOURNAL
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines) + b"\0\0\0\0\n")
    again = open_dir(tmp_path)
    assert [g.number for g in again.finished] == [0, 1]
    again.close()
    journal.write_bytes(lines[0] + b"\0\0\0\0\n" + lines[1])
    with pytest.raises(TournamentError, match="line 2: not a journal entry"):
        open_dir(tmp_path)


def test_entries_must_match_the_schedule(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    finish(store, 0)
    store.close()
    journal = tmp_path / JOURNAL
    entry = orjson.loads(journal.read_bytes())
    entry["seed"] += 1
    journal.write_bytes(orjson.dumps(entry) + b"\n")
    with pytest.raises(TournamentError, match="game 0 does not match the schedule"):
        open_dir(tmp_path)
    entry["number"] = 6  # 3 deals of 2 games: 0..5
    journal.write_bytes(orjson.dumps(entry) + b"\n")
    with pytest.raises(TournamentError, match="game 6 is not in the schedule"):
        open_dir(tmp_path)


def test_a_line_there_twice_is_kept_once_and_said_but_two_different_lines_stop(
    tmp_path: Path,
) -> None:
    """The same line twice (a retried write): one is kept, the journal is mended
    and errors.log says so; two different lines for a game: which is true cannot
    be told, and the resume stops saying where."""
    store = open_dir(tmp_path)
    finish(store, 0, 1)
    store.close()
    journal = tmp_path / JOURNAL
    first, second = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(first + second + first + second[:20])  # and a line cut short
    again = open_dir(tmp_path)
    assert [g.number for g in again.finished] == [0, 1] and again.unsealed == []
    assert [(r.number, r.line, r.first) for r in again.repeated] == [(0, 3, 1)]
    assert journal.read_bytes() == first + second
    errors = (tmp_path / "errors.log").read_text()
    assert errors.count("game 0: its journal line 3 repeats line 1 exactly: one is kept") == 1
    finish(again, 2)
    again.close()
    reopened = open_dir(tmp_path)
    assert [g.number for g in reopened.finished] == [0, 1, 2] and reopened.repeated == []
    reopened.close()
    other = orjson.loads(first)
    other["result"]["ranks"] = [1, 2]
    journal.write_bytes(first + second + orjson.dumps(other) + b"\n")
    with pytest.raises(TournamentError) as error:
        open_dir(tmp_path)
    assert "line 3: game 0 is in the journal twice, differently (line 1 says otherwise)" in str(
        error.value)


def test_other_options_are_refused_with_what_differs(tmp_path: Path) -> None:
    open_dir(tmp_path).close()
    with pytest.raises(TournamentError) as error:
        open_dir(tmp_path, seed=8, time=(TimeControl(0.5, 1.0), TimeControl()))
    text = str(error.value)
    assert "holds a tournament with other options" in text
    assert "--seed: stored 7, given 8" in text
    assert ("--time, --bank, --seat-time: stored 1 s a decision + 10 s bank, given BOT 0: "
            "0.5 s a decision + 1 s bank; BOT 1: 1 s a decision + 10 s bank") in text
    with pytest.raises(TournamentError, match="cannot shrink to 4"):
        open_dir(tmp_path, deals=2)


def test_more_deals_extend_the_tournament(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    finish(store, 5)
    store.close()
    bigger = open_dir(tmp_path, deals=5)
    assert bigger.plan.games == 10 and [g.number for g in bigger.finished] == [5]
    bigger.close()
    assert stored_plan(tmp_path) == make_plan(deals=5)
    assert orjson.loads((tmp_path / MANIFEST).read_bytes())["plan"]["games"] == 10


def test_a_directory_with_other_things_or_in_use_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("x")
    with pytest.raises(TournamentError, match="not empty .mine.txt. and holds no tournament"):
        open_dir(tmp_path)
    root = tmp_path / "t"
    first = open_dir(root)
    with pytest.raises(TournamentError, match="another tournament is running there"):
        open_dir(root)
    first.close()
    open_dir(root).close()


def test_partial_records_of_killed_games_are_removed(tmp_path: Path) -> None:
    open_dir(tmp_path).close()
    part = tmp_path / "games" / ".000001.jsonl.123.abcd.part"
    part.write_text("{}")
    open_dir(tmp_path).close()
    assert not part.exists()


class FakeExecutor:
    """Answers each task at once with ``answer(task)``: a result, or an error text;
    raises KeyboardInterrupt after ``stop_after`` outcomes."""

    def __init__(self, answer: Callable[[GameTask], dict[str, Any] | str],
                 stop_after: int | None = None) -> None:
        self.answer = answer
        self.stop_after = stop_after
        self.asked: list[int] = []
        self.closed = False

    def run(self, tasks: Iterable[GameTask]) -> Generator[GameOutcome, None, None]:
        try:
            for task in tasks:
                if self.stop_after is not None and len(self.asked) == self.stop_after:
                    raise KeyboardInterrupt
                self.asked.append(task.number)
                answer = self.answer(task)
                if isinstance(answer, str):
                    yield GameOutcome(task.number, error=answer)
                else:
                    yield GameOutcome(task.number, result=answer)
        finally:
            self.closed = True


def first_seat_wins(task: GameTask) -> dict[str, Any]:
    return result([50, 10], [1, 2])


def test_failed_games_are_not_journaled_and_are_retried_on_resume(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    flaky = FakeExecutor(lambda t: "Boom: disk full" if t.number in (1, 4) else first_seat_wins(t))
    report = run_tournament(store, flaky)
    store.close()
    assert flaky.asked == [0, 1, 2, 3, 4, 5, 1, 4, 1, 4]  # tried again twice, after the rest
    assert [n for n, _ in report.failed] == [1, 4] and not report.complete
    assert report.finished == report.played == 4
    assert (tmp_path / "errors.log").read_text().count("Boom: disk full") == 6
    store = open_dir(tmp_path)
    retry = FakeExecutor(first_seat_wins)
    report = run_tournament(store, retry)
    store.close()
    assert retry.asked == [1, 4]  # the finished games are not played again
    assert report.complete and report.played == 2 and report.failed == ()
    numbers = [orjson.loads(x)["number"] for x in (tmp_path / JOURNAL).read_bytes().splitlines()]
    assert sorted(numbers) == [0, 1, 2, 3, 4, 5]
    summary = orjson.loads((tmp_path / "standings.json").read_bytes())
    assert summary["complete"] is True and summary["games"] == 6
    # Seat 0 always wins and each entrant sits there once per deal: 1/2 each.
    assert [e["win_share"]["mean"] for e in summary["entrants"]] == [0.5, 0.5]


def test_a_game_lost_once_is_played_again_in_the_same_run_and_counted_once(
    tmp_path: Path,
) -> None:
    store = open_dir(tmp_path)
    lost: set[int] = set()

    def lose_once(task: GameTask) -> dict[str, Any] | str:
        if task.number in (0, 3) and task.number not in lost:
            lost.add(task.number)
            return "the worker process ended (killed by SIGKILL) during the game"
        return first_seat_wins(task)

    flaky = FakeExecutor(lose_once)
    report = run_tournament(store, flaky)
    store.close()
    assert flaky.asked == [0, 1, 2, 3, 4, 5, 0, 3]
    assert report.complete and report.failed == () and report.played == 6
    numbers = [orjson.loads(x)["number"] for x in (tmp_path / JOURNAL).read_bytes().splitlines()]
    assert sorted(numbers) == [0, 1, 2, 3, 4, 5]


class Twice(FakeExecutor):
    """Reports every outcome twice (an executor that retried a game behind the
    runner's back): the second must not count."""

    def run(self, tasks: Iterable[GameTask]) -> Generator[GameOutcome, None, None]:
        for outcome in super().run(tasks):
            yield outcome
            yield outcome


def test_an_outcome_reported_twice_counts_once(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    report = run_tournament(store, Twice(first_seat_wins))
    store.close()
    assert report.complete and report.played == 6 and len(report.standings.games) == 6
    assert len((tmp_path / JOURNAL).read_bytes().splitlines()) == 6
    assert (tmp_path / "errors.log").read_text().count("not under way") == 6


def test_an_interrupted_run_keeps_its_finished_games(tmp_path: Path) -> None:
    store = open_dir(tmp_path)
    stopping = FakeExecutor(first_seat_wins, stop_after=3)
    report = run_tournament(store, stopping)
    store.close()
    assert report.interrupted and report.finished == 3 and stopping.closed
    summary = orjson.loads((tmp_path / "standings.json").read_bytes())
    assert summary["interrupted"] is True and summary["finished"] == 3
    store = open_dir(tmp_path)
    rest = FakeExecutor(first_seat_wins)
    assert run_tournament(store, rest).complete
    store.close()
    assert rest.asked == [3, 4, 5]


def test_each_seat_gets_the_bot_and_time_control_of_its_entrant(tmp_path: Path) -> None:
    plan = make_plan(bots=("a=greedy", "b=bots/x.py --fast"),
                     time=(TimeControl(0.5, 1.0), TimeControl(2.0, 3.0)))
    store = TournamentDir.open(tmp_path, plan)
    second = task_for(plan, slot(plan.seed, 2, 1), store)  # rotation 1: b sits at seat 0
    store.close()
    assert second.bots == ("bots/x.py --fast", "greedy")
    assert second.time == (TimeControl(2.0, 3.0), TimeControl(0.5, 1.0))
    assert second.seed == slot(plan.seed, 2, 0).seed
    assert second.record == str((tmp_path / "games" / "000001.jsonl").resolve())
    assert GameTask.from_data(orjson.loads(orjson.dumps(second.to_data()))) == second


def test_the_inline_executor_plays_real_games(tmp_path: Path) -> None:
    store = TournamentDir.open(tmp_path, make_plan(bots=("first", "random"), deals=1))
    report = run_tournament(store, InlineExecutor(TAJMAHAL))
    store.close()
    assert report.complete and report.failed == ()
    for game in report.standings.games:
        done = replay(TAJMAHAL, tmp_path / game.record, describe=False)
        assert done.result["scores"] == game.result["scores"]
        assert done.header["seed"] == game.seed
        names = [p["bot"] for p in done.header["players"]]
        assert names == [("first", "random")[e] for e in game.seating]
