"""Tournaments on a real Ray cluster: a head started on 127.0.0.1 for this module
(``ray start --head --block``, its process group killed after), the same
standings as the local executor for the same seed, and a Ray worker killed in
the middle of a game."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, FAULTY, cli, faulty
from tournament_support import make_plan

from tajmahal.arena.terms import TimeControl
from tajmahal.arena.tournament import TournamentDir, game_reference, run_tournament
from tajmahal.tajmahal.adapter import TAJMAHAL

#: Ray binds to the machine's network address unless told it is a one-machine
#: cluster; this keeps the head, its workers and the tests on 127.0.0.1 (where a
#: token is not needed, and no usage report is sent).
LOOPBACK = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
}
os.environ.update(LOOPBACK)  # before Ray is imported: it reads them once
ray = pytest.importorskip("ray")  # in the test extra: CI has it
#: Ray's behaviour does not depend on the engine (make test's first pass only), and each
#: test takes 10-30 s (left out of make test-fast).
pytestmark = [pytest.mark.once, pytest.mark.slow]

from tajmahal.arena.tournament.ray_executor import RayExecutor  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def ray_command() -> str:
    return str(Path(sys.executable).parent / "ray")


@pytest.fixture(scope="module")
def head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a Ray head with 2 CPUs on 127.0.0.1."""
    with ray_head() as (address, _):
        yield address


def wait_for_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the Ray head did not start")
        time.sleep(0.2)


def comparable(out: Path) -> dict[str, Any]:
    """What must not depend on the executor: per game its seating, scores and ranks,
    and the standings without the time used."""
    games = {}
    for line in (out / "journal.jsonl").read_bytes().splitlines():
        entry = orjson.loads(line)
        r = entry["result"]
        games[entry["number"]] = (entry["seating"], r["scores"], r["ranks"], entry["record"])
    summary = orjson.loads((out / "standings.json").read_bytes())
    for e in summary["entrants"]:
        del e["time_per_decision"]
    for name in ("entrants", "pairwise", "games", "deals", "complete"):
        games[name] = summary[name]
    return games


def test_the_same_seed_gives_the_same_standings_on_ray_as_locally(
    head: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bots").symlink_to(FAULTY)
    monkeypatch.chdir(tmp_path)  # the subprocess bot by a relative path, as users give it
    # A bot program that draws nothing from the seed of its hello (secret, and fresh
    # for every tournament directory): it plays the same game in both.  The cards
    # follow from the directory's key: the Ray run's brings the local run's.
    common = ("tournament", "greedy", "random", "bots/log_input.py", "--games", "9",
              "--seed", "11", "--jobs", "2", "-q")
    code, _, stderr = cli(*common, "--out", "local")
    assert code == 0, stderr
    Path("ray").mkdir()
    shutil.copy("local/.key", "ray/.key")
    code, stdout, stderr = cli(*common, "--executor", "ray", "--address", head, "--out", "ray")
    assert code == 0, stderr
    assert f"on Ray ({head}), 2 jobs" in stdout
    assert comparable(tmp_path / "local") == comparable(tmp_path / "ray")
    assert sorted(os.listdir("ray/games")) == [f"{n:06d}.jsonl" for n in range(9)]
    # A resumed Ray tournament plays nothing again.
    code, stdout, _ = cli(*common, "--executor", "ray", "--address", head, "--out", "ray")
    assert code == 0 and "this run: 0 games" in stdout


def game_processes() -> list[int]:
    """Ray workers playing a game now (Ray titles a busy worker by its task)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{entry}/cmdline").read_bytes().startswith(b"ray::play_remote"):
                    found.append(int(entry))
    return found


@contextlib.contextmanager
def signalling_a_game(signum: int, after: float = 0.0) -> Iterator[list[int]]:
    """While the block runs, send ``signum`` to the first Ray worker seen playing a
    game (``after`` seconds later, if it still is); yields the pids signalled."""
    signalled: list[int] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set() and not signalled:
            for pid in game_processes():
                time.sleep(after)
                if pid in game_processes():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signum)
                        signalled.append(pid)
                break
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        yield signalled
    finally:
        done.set()
        watcher.join()


def test_a_game_whose_worker_is_killed_is_played_again_and_counted_once(
    head: str, tmp_path: Path
) -> None:
    slow = faulty("slow", "0.01")  # a game of a second or two: killed well inside it
    plan = make_plan(bots=(f"a={slow}", f"b={slow}"), deals=6)
    store = TournamentDir.open(tmp_path, plan)
    executor = RayExecutor(game_reference(TAJMAHAL), jobs=2, address=head)
    try:
        with signalling_a_game(signal.SIGKILL, after=0.3) as killed:
            report = run_tournament(store, executor)
    finally:
        executor.close()
        store.close()
    assert killed, "no Ray worker was caught playing a game"
    assert report.complete and report.failed == () and report.played == 12
    numbers = [orjson.loads(x)["number"] for x in (tmp_path / "journal.jsonl").read_bytes()
               .splitlines()]
    assert sorted(numbers) == list(range(12))  # the lost game once, none twice
    errors = (tmp_path / "errors.log").read_text()
    assert errors.count("the Ray task was lost during the game") == 1
    assert len(report.standings.games) == 12


def test_a_game_whose_worker_is_stopped_is_killed_and_played_again(
    head: str, tmp_path: Path
) -> None:
    """A SIGSTOPped Ray worker would hang the tournament: the driver kills a game
    that makes no progress for longer than its time limits allow.  The bots are
    sandboxed (they cannot have stopped it): the game is played again."""
    slow = faulty("slow", "0.02")  # a game of a few seconds
    quick = TimeControl(0.5, 0.0)
    plan = make_plan(bots=(f"a={slow}", f"b={slow}"), deals=2, sandbox=True, handshake=2.0,
                     grace=0.5, time=(quick, quick))
    store = TournamentDir.open(tmp_path, plan)
    executor = RayExecutor(game_reference(TAJMAHAL), jobs=2, address=head)
    try:  # half a second into a game: its first progress reported
        with signalling_a_game(signal.SIGSTOP, after=0.5) as stopped:
            report = run_tournament(store, executor, game=TAJMAHAL)
    finally:
        executor.close()
        store.close()
    assert stopped, "no Ray worker was caught playing a game"
    assert report.complete and report.failed == () and report.lost is None
    assert report.standings.games and not any(g.result.get("lost") for g in report.standings.games)
    errors = (tmp_path / "errors.log").read_text()
    assert errors.count("made no progress for 8 s") == 1
    assert not Path(f"/proc/{stopped[0]}").exists() or b"Z" in Path(
        f"/proc/{stopped[0]}/stat").read_bytes().rsplit(b")", 1)[1][:3]


def test_a_lost_cluster_ends_the_run_with_its_standings_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The head's raylet killed mid-tournament (Ray then ends the process that
    joined it: the driver, not the tournament): the standings of the games
    finished are written, the run says how to resume, and resuming (here on this
    machine) plays the rest, nothing twice."""
    monkeypatch.setenv("RAY_gcs_rpc_server_reconnect_timeout_s", "3")
    out = tmp_path / "t"
    with ray_head() as (address, temp):
        args = ("tournament", "random", f"{BOTS / 'random_bot.py'}", "--games", "12",
                "--seed", "3", "--jobs", "2", "--out", str(out), "-q", "--no-sandbox",
                "--time", "0.5")
        killed: list[int] = []

        def kill_raylet() -> None:
            deadline = time.monotonic() + 120
            journal = out / "journal.jsonl"
            while time.monotonic() < deadline and not killed:
                if journal.exists() and len(journal.read_bytes().splitlines()) >= 3:
                    for pid in raylets(temp):
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                time.sleep(0.05)

        killer = threading.Thread(target=kill_raylet)
        killer.start()
        code, _, stderr = cli(*args, "--executor", "ray", "--address", address)
        killer.join()
    assert killed
    assert code == 1, stderr
    assert "stopped: the Ray driver ended" in stderr and "run the same command" in stderr
    summary = orjson.loads((out / "standings.json").read_bytes())
    finished = summary["finished"]
    assert 3 <= finished < 12 and summary["interrupted"] and not summary["complete"]
    code, stdout, stderr = cli(*args)  # the rest, on this machine
    assert code == 0, stderr
    assert f"resuming: {finished} of 12 games already finished" in stdout
    numbers = [orjson.loads(x)["number"] for x in (out / "journal.jsonl").read_bytes()
               .splitlines()]
    assert sorted(numbers) == list(range(12))


@contextlib.contextmanager
def ray_head() -> Iterator[tuple[str, str]]:
    """A Ray head with 2 CPUs on 127.0.0.1 (``ray start --head --block``, its process
    group killed after): its address and temporary directory."""
    temp = tempfile.mkdtemp(prefix="tjray", dir="/tmp")
    port = free_port()
    proc = subprocess.Popen(
        [ray_command(), "start", "--head", "--node-ip-address", "127.0.0.1", "--port",
         str(port), "--include-dashboard=false", "--disable-usage-stats", "--num-cpus", "2",
         "--temp-dir", temp, "--block"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        wait_for_port(port, proc)
        yield f"127.0.0.1:{port}", temp
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        shutil.rmtree(temp, ignore_errors=True)


def raylets(temp: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                if argv[0].endswith(b"raylet") and any(temp.encode() in a for a in argv):
                    found.append(int(entry))
    return found
