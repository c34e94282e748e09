"""End to end: tournaments through the CLI, with worker processes, real bots,
faults, a worker killed, and tournaments killed (SIGKILL) or interrupted (SIGINT)
mid-run and resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, cli, faulty, interrupted, processes_with, wait_for
from tournament_support import descendants, still_running, tournament_with_a_worker_signalled

FAST = ["--time", "0.5", "--bank", "0", "--grace", "0.5", "--handshake", "5"]


def journal(out: Path) -> list[dict[str, Any]]:
    return [orjson.loads(x) for x in (out / "journal.jsonl").read_bytes().splitlines()]


def standings(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads((out / "standings.json").read_bytes())
    return data


def records(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "games").iterdir())



def test_builtin_bots_duplicate_deals_and_the_output_files(tmp_path: Path) -> None:
    out = tmp_path / "t"
    code, stdout, stderr = cli(
        "tournament", "greedy", "random", "random", "--games", "5", "--jobs", "2",
        "--seed", "3", "--seat-time", "1:0.5:2", "--out", str(out),
    )
    assert code == 0, stderr
    assert "5 games rounded up to 6: 2 deals, each played in 3 seat rotations" in stderr
    assert "tournament: greedy, random#1, random#2\n" in stdout
    assert "\n6 games (2 deals x 3 seat rotations), seed 3" in stdout
    assert "[6/6]" in stdout and "win share" in stdout and "6 of 6 games finished" in stdout
    entries = journal(out)
    assert sorted(e["number"] for e in entries) == list(range(6))
    assert records(out) == [f"{n:06d}.jsonl" for n in range(6)]
    seeds = Counter(e["seed"] for e in entries)
    assert len(seeds) == 2 and set(seeds.values()) == {3}
    setup_seeds: dict[int, set[int]] = {}
    for entry in entries:
        header = orjson.loads((out / entry["record"]).read_bytes().splitlines()[0])
        assert header["seed"] == entry["seed"]
        # drawn under the directory's key: the same for the deal's every seating
        assert header["setup"]["seed"] == header["setup_seed"] != entry["seed"]
        setup_seeds.setdefault(entry["deal"], set()).add(header["setup_seed"])
        seat_of_1 = entry["seating"].index(1)  # the time control follows the entrant
        assert header["time"][seat_of_1] == {"move": 0.5, "bank": 2.0}
        assert [p["bot"] for p in header["players"]] == [
            ["greedy", "random", "random"][e] for e in entry["seating"]
        ]
    assert [len(s) for s in setup_seeds.values()] == [1, 1]
    for deal in (0, 1):
        seatings = [e["seating"] for e in entries if e["deal"] == deal]
        for entrant in range(3):
            assert sorted(s.index(entrant) for s in seatings) == [0, 1, 2]
    summary = standings(out)
    assert summary["complete"] is True and summary["games"] == 6 and summary["deals"] == 2
    shares = [e["win_share"]["mean"] for e in summary["entrants"]]
    assert sum(shares) == pytest.approx(1.0, abs=1e-3)
    assert [e["name"] for e in summary["entrants"]] == ["greedy", "random#1", "random#2"]
    assert all(e["games"] == 6 and e["fault_games"] == 0 for e in summary["entrants"])
    csv_lines = (out / "standings.csv").read_text().splitlines()
    assert len(csv_lines) == 4 and csv_lines[1].startswith("0,greedy,greedy,6,")
    assert len((out / "games.csv").read_text().splitlines()) == 1 + 6 * 3
    assert cli("replay", "--verify", str(out / "games" / "000004.jsonl"))[0] == 0
    assert not list((out / "logs").iterdir())  # built-in bots leave no (empty) logs


def test_a_faulty_subprocess_bot_spoils_only_its_own_results(tmp_path: Path) -> None:
    out = tmp_path / "t"
    code, stdout, stderr = cli(
        "tournament", faulty("crash_midgame"), str(BOTS / "random_bot.py"), "greedy",
        "--games", "3", "--jobs", "2", "--out", str(out), "--json", *FAST,
    )
    assert code == 0, stderr
    summary = orjson.loads(stdout)
    crasher, rnd, greedy = summary["entrants"]
    assert crasher["fault_games"] == 3 and crasher["faults"] == {"crash": 3}
    assert crasher["fallback_decisions"] > 0
    assert rnd["fault_games"] == 0 and greedy["fault_games"] == 0
    assert rnd["fallback_decisions"] == 0
    assert summary["complete"] is True and len(journal(out)) == 3
    logs = sorted(p.name for p in (out / "logs").iterdir())
    crash_logs = [f"{e['number']:06d}.seat{e['seating'].index(0)}.log" for e in journal(out)]
    assert set(crash_logs) <= set(logs)  # the crasher's traceback is kept
    assert "deliberate crash" in (out / "logs" / crash_logs[0]).read_text()


def test_a_worker_that_dies_loses_only_its_game(tmp_path: Path) -> None:
    """Killed from outside (a bot outside the sandbox could, through a service of
    its user's): that game is lost, charged to the separate program, never played
    again; the others are played."""
    out = tmp_path / "t"
    marker = f"tajmahal-killed-{tmp_path.name}"
    args = ["tournament", faulty("slow", "0.02", marker), "random", "--games", "4",
            "--jobs", "2", "--seed", "1", "--out", str(out), "--no-sandbox", "--no-preflight"]
    status, stdout, stderr, killed = tournament_with_a_worker_signalled(
        [*args, "--json"], marker, signal.SIGKILL)
    assert status == 0 and killed, stderr
    summary = orjson.loads(stdout)
    assert summary["complete"] is True
    (lost,) = summary["lost_games"]
    assert "the worker process ended (signal SIGKILL)" in lost["why"]
    slow, rnd = summary["entrants"]
    assert slow["faults"] == {"lost": 1} and rnd["faults"] == {}
    assert sorted(e["number"] for e in journal(out)) == [0, 1, 2, 3]
    assert records(out) == [f"{n:06d}.jsonl" for n in range(4) if n != lost["game"]]
    assert f"game {lost['game']}: the worker process ended" in (out / "errors.log").read_text()
    code, stdout, _ = cli(*args)  # nothing is played again
    assert code == 0 and "resuming: 4 of 4 games already finished" in stdout
    assert "this run: 0 games" in stdout


def test_all_seatings(tmp_path: Path) -> None:
    out = tmp_path / "t"
    code, stdout, err = cli("tournament", "first", "random", "greedy", "--seatings", "all",
                            "--games", "6", "--jobs", "2", "--out", str(out), "-q")
    assert code == 0, err
    assert "6 games (1 deal x 6 seatings)" in stdout
    assert sorted(tuple(e["seating"]) for e in journal(out)) == [
        (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    assert orjson.loads((out / "tournament.json").read_bytes())["plan"]["seatings"] == "all"


def test_resuming_checks_the_options(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["first", "random", "--games", "2", "--out", str(out), "-q"]
    assert cli("tournament", *args, "--seed", "4")[0] == 0
    code, _, err = cli("tournament", *args, "--seed", "5")
    assert code == 2 and "--seed: stored 4, given 5" in err
    code, _, err = cli("tournament", *args, "--time", "0.3")
    assert code == 2 and "holds a tournament with other options" in err
    assert "--time, --bank, --seat-time: stored 1 s a decision + 10 s bank, given 0.3 s" in err
    code, stdout, err = cli("tournament", *args)  # the stored seed
    assert code == 0 and "2 of 2 games finished" in stdout and "this run: 0 games" in stdout
    code, stdout, err = cli("tournament", "--out", str(out), "--games", "4", "-q")
    assert code == 0, err
    assert "first, random\n4 games (2 deals x 2 seat rotations), seed 4" in stdout
    assert "resuming: 2 of 4 games already finished" in stdout
    assert sorted(e["number"] for e in journal(out)) == [0, 1, 2, 3]
    code, _, err = cli("tournament", "--out", str(out), "--games", "2", "-q")
    assert code == 2 and "4 games (2 deals); it cannot shrink to 2" in err
    code, _, err = cli("tournament", "--out", str(out), "--grace", "1")
    assert code == 2 and "--grace cannot be changed" in err
    code, _, err = cli("tournament", "--out", str(tmp_path / "new"))
    assert code == 2 and "holds no tournament to resume: give the BOTs" in err


def test_usage_errors(tmp_path: Path) -> None:
    code, _, err = cli("tournament", "random", "--out", str(tmp_path / "a"))
    assert code == 2 and "2-5 players" in err
    code, _, err = cli("tournament", "a=random", "a=first", "--out", str(tmp_path / "b"))
    assert code == 2 and "two entrants are named 'a'" in err
    code, _, err = cli("tournament", "random", "random", "--variant", "standard",
                       "--out", str(tmp_path / "c"))
    assert code == 2 and "not for 2 players" in err
    code, _, err = cli("tournament", "random", "random", "--seat-time", "2:1",
                       "--out", str(tmp_path / "d"))
    assert code == 2 and "no seat 2 among 2" in err


def start(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", "from tajmahal.cli import main; main()", "tournament", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def slow_decisions(out: Path, finished: set[int]) -> dict[int, int]:
    """How many decisions the slow bot was asked in each game not ``finished``
    (its log says "decision N" for each)."""
    asked = {}
    for log in (out / "logs").glob("*.log"):
        number = int(log.name.split(".")[0])
        lines = log.read_text().count("decision ")
        if number not in finished and lines:
            asked[number] = lines
    return asked


def assert_played_further(out: Path, cut_short: dict[int, int]) -> None:
    """The games that were stopped (``cut_short``: decisions asked then) went on
    to more decisions when played again: they had been stopped, not finished."""
    assert cut_short
    again = slow_decisions(out, set())
    for number, asked in cut_short.items():
        assert again[number] > asked, (number, asked, again[number])


def test_a_killed_tournament_resumes_with_no_game_lost_or_replayed(tmp_path: Path) -> None:
    out = tmp_path / "t"
    # A game takes about 2.5 s (the slow bot takes 0.04 s per decision).
    args = [str(BOTS / "random_bot.py"), faulty("slow", "0.04"), "random", "--games", "6",
            "--jobs", "2", "--seed", "11", "--out", str(out)]
    runner = start(args)
    try:
        def two_finished_and_one_begun() -> bool:
            if not (out / "journal.jsonl").exists():
                return False
            finished = {e["number"] for e in journal(out)}
            return len(finished) >= 2 and bool(slow_decisions(out, finished))

        wait_for(two_finished_and_one_begun)
        tree = descendants(runner.pid)
        assert len(tree) >= 4  # two workers, each with a bot or two
        runner.kill()
        runner.communicate(timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
    # The workers get SIGTERM when their parent dies: they stop their games at once,
    # kill the bots and discard the records.
    wait_for(lambda: not still_running(tree), timeout=30)
    assert not list((out / "games").glob(".*"))
    before = (out / "journal.jsonl").read_bytes()
    done = len(before.splitlines())
    assert 2 <= done < 6
    cut_short = slow_decisions(out, {e["number"] for e in journal(out)})
    code, stdout, err = cli("tournament", *args)
    assert code == 0, err
    assert_played_further(out, cut_short)  # the games under way were stopped, not finished
    assert f"resuming: {done} of 6 games already finished" in stdout
    assert f"this run: {6 - done} games" in stdout
    after = (out / "journal.jsonl").read_bytes()
    assert after.startswith(before)  # no finished game is lost or played again
    assert sorted(e["number"] for e in journal(out)) == list(range(6))
    assert records(out) == [f"{n:06d}.jsonl" for n in range(6)]
    assert standings(out)["games"] == 6


def test_ctrl_c_stops_every_worker_and_bot_at_once_and_the_tournament_resumes(
    tmp_path: Path,
) -> None:
    marker = f"tajmahal-test-tournament-{os.getpid()}"
    out = tmp_path / "t"
    # Two games at once, each about 3 s long (the slow bot takes 0.05 s per decision);
    # the children bot starts two more processes, and ignores the end.
    args = [faulty("children", marker), faulty("slow", "0.05"), "--games", "2", "--jobs", "2",
            "--seed", "2", "--grace", "0.2", "--out", str(out)]
    runner = start(args)
    tree: list[int] = []

    def ready() -> None:  # both games under way: two workers, each with two bots, two
        wait_for(lambda: len(descendants(runner.pid)) >= 12)  # children, a grandchild
        wait_for(lambda: len(slow_decisions(out, set())) == 2)  # both games have begun
        tree.extend(descendants(runner.pid))

    err = interrupted(runner, signal.SIGINT, ready)
    assert runner.returncode == 130, err
    assert b"interrupted: the games under way were stopped" in err
    assert still_running(tree) == []
    assert processes_with(marker) == []
    assert journal(out) == []
    assert not list((out / "games").iterdir())
    assert orjson.loads((out / "standings.json").read_bytes())["interrupted"] is True
    cut_short = slow_decisions(out, set())
    code, _, err2 = cli("tournament", *args)
    assert code == 0, err2
    assert sorted(e["number"] for e in journal(out)) == [0, 1]
    assert_played_further(out, cut_short)  # the games were stopped, not played to the end
    assert processes_with(marker) == []
