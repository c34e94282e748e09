"""Referee trust, attacks 4 and 5: what a bot process can do to escape the referee
or to cheat from the same machine.

4. Children that leave the bot's process group or session must not outlive the
   match, nor leak a reader thread or file descriptors in the referee.
5. A bot must not find the seed on a command line, read the referee's memory or
   write into its output; a bot stopped or killed by another one is named so.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import pytest
from referee_support import (
    BOTS,
    cli,
    faulty,
    hostile,
    interrupted,
    match_json,
    pids_with,
    plain_user_cli,
    processes_with,
    skip_without_sandbox,
    wait_for,
)

from tajmahal.arena import BotSpec, MatchConfig, TimeControl, run_match, sandbox
from tajmahal.tajmahal.adapter import TAJMAHAL

FAST = ["--time", "2", "--bank", "0", "--grace", "0.5", "--seed", "1"]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")


def _marker(tmp_path: Path, what: str) -> str:
    return f"tajmahal-escape-{what}-{os.getpid()}-{tmp_path.name}"


# -- attack 4: children escape the process group


@linux
@pytest.mark.parametrize("how", ["setsid", "setsid_cmd", "setpgrp", "daemon", "runaway"])
def test_attack_4_children_that_leave_the_group_die_with_the_match(
    tmp_path: Path, how: str
) -> None:
    marker = _marker(tmp_path, how)
    result = match_json("first", hostile("escape", how, marker), *FAST)
    assert result["faults"] == []
    assert processes_with(marker) == []  # gone when the match returns
    # The stderr reader did not wait for the daemon holding the pipe: it has ended.
    assert not [t for t in threading.enumerate() if t.name == "bot-stderr"]


@linux
@pytest.mark.parametrize("sandboxed", [False, True], ids=["unsandboxed", "sandboxed"])
def test_attack_4_an_interrupted_referee_leaves_nothing_of_a_runaway_chain(
    tmp_path: Path, sandboxed: bool
) -> None:
    """A chain that forks on without end, each process an orphan at once, while the
    referee is interrupted: nothing of it outlives the referee."""
    if sandboxed:
        skip_without_sandbox()
    marker = _marker(tmp_path, f"runaway-{sandboxed}")
    referee = subprocess.Popen(
        [sys.executable, "-c", "from tajmahal.cli import main; main()", "match",
         hostile("escape", "runaway", marker), faulty("slow", "0.2"), "--time", "5",
         "--sandbox" if sandboxed else "--no-sandbox"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    # The bot, and a process of the chain besides it.
    err = interrupted(
        referee, signal.SIGTERM, lambda: wait_for(lambda: len(processes_with(marker)) >= 2)
    )
    assert referee.returncode == 130, err
    assert processes_with(marker) == []


@linux
def test_attack_4_no_thread_or_descriptor_leaks_across_matches(tmp_path: Path) -> None:
    marker = _marker(tmp_path, "leak")
    specs = [BotSpec.parse("first", ["first"]),
             BotSpec.parse(hostile("escape", "all", marker), ["first"])]
    config = MatchConfig(time=TimeControl(2.0, 0.0), grace=0.5)

    def census() -> tuple[int, int]:
        return len(os.listdir("/proc/self/fd")), threading.active_count()

    run_match(TAJMAHAL, TAJMAHAL.random_setup(2, 1), specs, config, seed=1)  # warm up
    before = census()
    for seed in range(3):
        result = run_match(TAJMAHAL, TAJMAHAL.random_setup(2, seed), specs, config, seed=seed)
        assert result.faults == []
    assert census() == before
    assert processes_with(marker) == []


@linux
def test_attack_4_a_tournament_of_escaping_bots_leaves_nothing_behind(tmp_path: Path) -> None:
    marker = _marker(tmp_path, "tournament")
    out = tmp_path / "t"
    code, stdout, err = cli("tournament", hostile("escape", "all", marker), "random",
                            "--games", "6", "--jobs", "2", "--out", str(out), "-q",
                            "--time", "2", "--grace", "0.5")
    assert code == 0, err
    assert "6 of 6 games finished" in stdout
    assert processes_with(marker) == []


# -- attack 5: same-user cheating


def _spy_findings(log: Path) -> dict[str, str]:
    found = {}
    for line in log.read_text().splitlines():
        if line.startswith("spy: "):
            what, result = line[5:].rsplit(": ", 1)
            found[what] = result
    return found


@linux
@pytest.mark.parametrize("command", ["match", "tournament"])
def test_attack_5_a_bot_finds_no_seed_no_memory_and_no_output_of_its_referee(
    shared_dir: Path, command: str
) -> None:
    seed = "31415926535"
    (shared_dir / "seed").write_text(seed)
    spy = hostile("spy", str(shared_dir / "seed"))
    if command == "match":
        args = ["match", spy, "random", "--seed", seed, "--time", "5", "-q",
                "--record", str(shared_dir / "g.jsonl")]
        log = shared_dir / "g.seat0.log"
    else:
        args = ["tournament", spy, "random", "--seed", seed, "--games", "2", "--jobs", "1",
                "--out", str(shared_dir / "t"), "-q", "--time", "5", "--no-sandbox"]
        log = shared_dir / "t" / "logs" / "000000.seat0.log"
    argv, env = plain_user_cli()
    done = subprocess.run([*argv, *args], capture_output=True, timeout=120, cwd=shared_dir,
                          env=env)
    assert done.returncode == 0, done.stderr
    found = _spy_findings(log)
    assert found == {
        "seed in an ancestor's cmdline": "absent",
        "seed in an ancestor's environ": found["seed in an ancestor's environ"],
        "referee memory": "denied",
        "referee stdout": "denied",
    }, found
    assert found["seed in an ancestor's environ"] != "seen"


@linux
def test_attack_5_records_traces_and_logs_are_private(tmp_path: Path) -> None:
    record, trace = tmp_path / "g.jsonl", tmp_path / "t.jsonl"
    trace.write_text("")
    trace.chmod(0o644)  # an existing file is made private too
    greedy = str(BOTS / "greedy_bot.py")
    match_json(hostile("escape", "setsid", _marker(tmp_path, "perm")), greedy,
               "--record", str(record), "--trace", str(trace), *FAST)
    for path in (record, trace, tmp_path / "g.seat1.log"):  # greedy_bot.py logs its result
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert not (tmp_path / "g.seat0.log").exists()  # a bot that wrote nothing: no log


@linux
@pytest.mark.parametrize(("how", "kind", "signal_name"),
                         [("stop", "timeout", "SIGSTOP"), ("kill", "crash", "SIGKILL")])
def test_attack_5_a_bot_stopped_or_killed_by_another_process_is_named_so(
    tmp_path: Path, how: str, kind: str, signal_name: str
) -> None:
    record = tmp_path / "g.jsonl"
    marker = _marker(tmp_path, how)
    victim = faulty("slow", "0.05", marker)  # a game of a second or two
    signum = signal.SIGSTOP if how == "stop" else signal.SIGKILL

    def attack() -> None:  # another process of the same user, once the game is under way
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for pid in pids_with(marker):
                time.sleep(0.3)
                os.kill(pid, signum)
                return
            time.sleep(0.02)

    attacker = threading.Thread(target=attack)
    attacker.start()
    result = match_json("first", victim, "--time", "1", "--bank", "0", "--grace", "0.5",
                        "--seed", "2", "--record", str(record), "--no-preflight")
    attacker.join()
    (fault,) = result["faults"]
    assert (fault["seat"], fault["kind"], fault["signal"]) == (1, kind, signal_name), fault
    assert f"{'stopped' if how == 'stop' else 'killed'} by {signal_name}" in fault["detail"]
    assert "did not send" in fault["detail"]
    lines = [orjson.loads(x) for x in record.read_bytes().splitlines()]
    (line,) = [x for x in lines if x["type"] == "fault"]
    assert line["signal"] == signal_name
    assert processes_with(marker) == []


@pytest.mark.skipif(not sandbox.scope_available(), reason="needs Landlock ABI 6 (Linux 6.12)")
@pytest.mark.parametrize("how", ["stop", "kill"])
def test_attack_5_a_bot_cannot_signal_the_other_bots_of_its_game(how: str) -> None:
    """Even without the sandbox: Landlock keeps its signals within its own tree."""
    victim = str(Path(__file__).parent.parent / "bots" / "random_bot.py")
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "g.jsonl"
        result = match_json(hostile("signaller", how), victim, "--time", "1", "--bank", "0",
                            "--seed", "2", "--record", str(record))
        log = (Path(tmp) / "g.seat0.log").read_text()
    assert result["faults"] == []
    assert "could not signal" in log and "signalled" not in log
