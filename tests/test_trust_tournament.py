"""Referee trust, attacks 2 and 3: a bot must not rig a tournament's standings.

2. A bot that spoils its game (kills or stops its worker) whenever it is losing.
   In the sandbox it sees no worker to signal; outside it, on Linux 6.12+, its
   signals are kept to its own processes: either way the attempt fails in the
   bot (a fault of its own, the fallback plays on), head-to-head included.
   Where a worker dies anyway (an older kernel, something else killing it), the
   game is charged to the seats that could have done it, never played again,
   and listed; in the sandbox no bot can have done it, and it is played again.
3. A result the tournament did not get from a record that exists and replays to
   it (a line a bot wrote into its worker's pipe) is not believed.

The hostile bot (tests/hostile_bots/sore_loser.py) plays at random from its
hello's seed, so the same tournament with its honest twin plays the same games
up to the point where it spoils one.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, cli, faulty, hostile, needs_sandbox, skip_without_sandbox
from tournament_support import make_plan, result, tournament_with_a_worker_signalled

from tajmahal.arena import sandbox
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS
from tajmahal.arena.tournament.charges import LOST, lost_result
from tajmahal.arena.tournament.executor import GameOutcome, GameTask, InlineExecutor, play_task
from tajmahal.arena.tournament.journal import TournamentDir
from tajmahal.arena.tournament.runner import RETRIES, run_tournament
from tajmahal.arena.tournament.standings import game_credits
from tajmahal.tajmahal.adapter import TAJMAHAL

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")
needs_scope = pytest.mark.skipif(
    not sandbox.scope_available(), reason="needs Landlock ABI 6 (Linux 6.12)"
)
SEED = "5"


def head_to_head(out: Path, mode: str, *options: str) -> dict[str, Any]:
    """The sore loser in ``mode`` against its honest twin, a separate program too:
    the standings.json of 8 games (the run must succeed)."""
    code, stdout, stderr = cli(
        "tournament", hostile("sore_loser", mode), hostile("sore_loser", "honest"),
        "--games", "8", "--seed", SEED, "--jobs", "2", "--out", str(out), "-q",
        "--time", "0.5", "--bank", "0", "--grace", "0.5", *options,
    )
    assert code == 0, stdout + stderr
    data: dict[str, Any] = orjson.loads((out / "standings.json").read_bytes())
    return data


def journal(out: Path) -> dict[int, dict[str, Any]]:
    entries = [orjson.loads(line) for line in (out / "journal.jsonl").read_bytes().splitlines()]
    return {e["number"]: e for e in entries}


def check_attempts_cost_only_the_spoiler(out: Path, data: dict[str, Any]) -> None:
    """Every game was played to its end; the spoiler has a fault of its own in
    each game it tried to spoil, its honest opponent none."""
    assert data["complete"] and data["lost_games"] == []
    games = journal(out)
    assert sorted(games) == list(range(8))
    spoiled = []
    for number, entry in games.items():
        log = out / "logs" / f"{number:06d}.seat{entry['seating'].index(0)}.log"
        if log.exists() and "spoiled" in log.read_text():
            spoiled.append(number)
        faulted = {entry["seating"][f["seat"]] for f in entry["result"]["faults"]}
        assert faulted == ({0} if number in spoiled else set()), (number, entry)
        assert entry["record"] and (out / entry["record"]).is_file()
    assert spoiled, "the bot never tried to spoil a game: the test proves nothing"
    assert data["entrants"][1]["faults"] == {}
    assert not (out / "errors.log").exists()


@needs_sandbox
@pytest.mark.once  # the sandbox, not the engine
@pytest.mark.parametrize("mode", ["kill", "forge"])
def test_attack_2_in_the_sandbox_a_bot_cannot_spoil_its_game_head_to_head(
    tmp_path: Path, mode: str
) -> None:
    """Sandboxed by default: the worker is not in the bot's world."""
    data = head_to_head(tmp_path / "t", mode)
    check_attempts_cost_only_the_spoiler(tmp_path / "t", data)


@needs_scope
@pytest.mark.once
@pytest.mark.parametrize("mode", ["kill", "stop", "forge"])
def test_attack_2_outside_the_sandbox_a_bot_cannot_signal_its_worker(
    tmp_path: Path, mode: str
) -> None:
    data = head_to_head(tmp_path / "t", mode, "--no-sandbox")
    check_attempts_cost_only_the_spoiler(tmp_path / "t", data)
    logs = "".join(p.read_text() for p in (tmp_path / "t" / "logs").iterdir())
    assert "PermissionError" in logs


@linux
@pytest.mark.parametrize("sandboxed", [True, False])
def test_attack_2_a_worker_stopped_from_outside_is_not_waited_for(
    tmp_path: Path, sandboxed: bool
) -> None:
    """Sandboxed, no bot can have stopped it: the game is played again.  Outside
    the sandbox, the bot could have (through a service of its user's, say): the
    game is charged to it, and never played again."""
    if sandboxed:
        skip_without_sandbox()
    out = tmp_path / "t"
    marker = f"tajmahal-stopped-{tmp_path.name}"
    args = ["tournament", faulty("slow", "0.02", marker), "random", "--games", "2", "--seed",
            SEED, "--jobs", "1", "--out", str(out), "-q", "--no-preflight",
            "--sandbox" if sandboxed else "--no-sandbox"]
    status, _, stderr, stopped = tournament_with_a_worker_signalled(args, marker,
                                                                    signal.SIGSTOP)
    assert status == 0 and stopped, stderr
    data = orjson.loads((out / "standings.json").read_bytes())
    assert data["complete"]
    errors = (out / "errors.log").read_text()
    assert "stopped (SIGSTOP)" in errors
    if sandboxed:
        assert data["lost_games"] == [] and data["entrants"][0]["faults"] == {}
    else:
        (lost,) = data["lost_games"]
        assert "stopped (SIGSTOP)" in lost["why"]
        assert data["entrants"][0]["faults"] == {LOST: 1}


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
    """Real games, real records, but the reported ranks are not the record's (a
    tie told as a win, a win as the other seat's): with built-in bots only (no
    one to charge) the games are tried again, then reported failed; the records
    that did not match are kept aside, not as the games' records."""
    plan = make_plan(bots=("a=random", "b=first"), deals=1)
    store = TournamentDir.open(tmp_path, plan)

    def forged(task: GameTask) -> GameOutcome:
        outcome = play_task(TAJMAHAL, task)
        assert outcome.result is not None
        ranks = outcome.result["ranks"]  # reversed, a tie ([1, 1]) would be the truth
        outcome.result["ranks"] = [2, 1] if ranks == [1, 2] else [1, 2]
        return outcome

    lying = Lying(forged)
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


def test_resuming_believes_only_the_games_the_tournament_journaled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The red team's bot rewrote journal.jsonl and stopped the run: on resume its
    lines counted, games without records included.  Now a line counts as it
    stands only under the directory's seal; otherwise its record must replay to
    it, or the game is played again."""
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")  # the same games in two directories
    def run(out: Path, games: int) -> dict[str, Any]:
        code, _, stderr = cli("tournament", "random", "first", "--games", str(games),
                              "--seed", SEED, "--jobs", "1", "--out", str(out), "-q")
        assert code == 0, stderr
        data: dict[str, Any] = orjson.loads((out / "standings.json").read_bytes())
        return data

    honest = run(tmp_path / "honest", 8)
    out = tmp_path / "t"
    run(out, 4)
    lines = (out / "journal.jsonl").read_bytes().splitlines()
    flipped = orjson.loads(lines[1])
    flipped["result"]["ranks"] = flipped["result"]["ranks"][::-1]
    forged = [orjson.loads(x) for x in (tmp_path / "honest" / "journal.jsonl").read_bytes()
              .splitlines()[4:]]  # games 4-7, never played here, as wins for the first entrant
    for entry in forged:
        first = entry["seating"].index(0)
        entry["result"]["ranks"] = [1 if s == first else 2 for s in range(2)]
    forged[0]["result"]["lost"] = "forged"
    (out / "games" / "000005.jsonl").write_bytes((out / "games" / "000000.jsonl").read_bytes())
    tampered = [lines[0], orjson.dumps(flipped), *lines[2:], *map(orjson.dumps, forged)]
    (out / "journal.jsonl").write_bytes(b"\n".join(tampered) + b"\n")
    data = run(out, 8)
    errors = (out / "errors.log").read_text()
    assert [int(x.split("game ")[1].split(":")[0]) for x in errors.splitlines()] == [1, 4, 5, 6, 7]
    assert errors.count("its journal line is not believed") == 5
    for key in ("finished", "complete", "lost_games"):
        assert data[key] == honest[key]
    assert [e["win_share"] for e in data["entrants"]] == [
        e["win_share"] for e in honest["entrants"]]
    code, stdout, stderr = cli("tournament", "--out", str(out))  # sealed now: nothing doubted
    assert code == 0 and "resuming: 8 of 8 games" in stdout and "not believed" not in stderr


def test_the_bots_logs_of_a_whole_tournament_stay_within_its_budget(tmp_path: Path) -> None:
    """Each seat's log keeps --max-log bytes; --max-logs bounds them all: a bot that
    floods its stderr in every game fills no disk, and the tournament says so."""
    flood = faulty("stderr_flood")
    code, _, stderr = cli("tournament", flood, "first", "--games", "6", "--jobs", "1",
                          "--max-log", "30000", "--max-logs", "100000", "--no-sandbox",
                          "--no-preflight", "--out", str(tmp_path / "t"), "-q", "--seed", "1")
    assert code == 0, stderr
    logs = list((tmp_path / "t" / "logs").glob("*.log"))
    assert sum(p.stat().st_size for p in logs) <= 100_000
    assert max(p.stat().st_size for p in logs) <= 30_000 + 200  # and the referee's note
    # Game 0 keeps 30000 bytes (and a note); game 1, handed out while 0 ends, gets
    # half of what is left after 0's share, and so on.
    assert "reached the tournament's budget (--max-logs 100000 bytes) at game 1" in stderr


def test_a_journal_line_there_twice_is_kept_once_and_the_resume_says_so(tmp_path: Path) -> None:
    """A line present twice stopped every resume for good (exit 2); now one is kept."""
    out = tmp_path / "t"
    code, _, stderr = cli("tournament", "random", "first", "--games", "2", "--seed", SEED,
                          "--jobs", "1", "--out", str(out), "-q")
    assert code == 0, stderr
    journal = out / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines) + lines[0])
    number = orjson.loads(lines[0])["number"]
    code, stdout, stderr = cli("tournament", "--out", str(out))
    assert code == 0, stderr
    assert f"game {number}: its journal line 3 repeats line 1 exactly: one is kept" in stderr
    assert "resuming: 2 of 2 games" in stdout and journal.read_bytes() == b"".join(lines)
