"""Referee trust: the sandbox (bots in namespaces of their own) and ``--memory``.

Each attack of the red team's is tried by one probe bot (tests/hostile_bots/
sandbox_probe.py) against things the test sets up outside: a TCP and a UDP
listener, a Unix socket (path and abstract), System V shared memory, a
terminal, the seed on an ancestor's command line (the way ``timeout 600
tajmahal match ... --seed 7`` shows it), the record directory; and two probes of
one game try to reach each other (UDP, abstract socket, shared memory).  The
same match without the sandbox is the control: the probe does get through there.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import cli, hostile, match_json, needs_sandbox, plain_user_cli

from tajmahal.arena import cgroups
from tajmahal.arena import options as arena_options

FAST = ["--time", "2", "--bank", "0", "--grace", "0.5", "--seed", "1"]
SECRET = "271828182845"
IPC_CREAT, IPC_RMID = 0o1000, 0


def probe_reports(logs: list[Path]) -> list[dict[str, Any]]:
    reports = []
    for log in logs:
        (line,) = [x for x in log.read_text().splitlines() if x.startswith("probe: ")]
        reports.append(orjson.loads(line.removeprefix("probe: ")))
    return reports


@contextlib.contextmanager
def targets(where: Path) -> Iterator[dict[str, Any]]:
    """What the probes try to reach, set up outside any sandbox."""
    libc = ctypes.CDLL(None, use_errno=True)
    tcp = socket.create_server(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(where / "sock"))
    unix.listen()
    os.chmod(where / "sock", 0o777)
    name = f"tajmahal-probe-{os.getpid()}-{where.name}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + name)
    abstract.listen()
    key = 0x7A000000 + os.getpid() % 0x10000 * 16
    segment = libc.shmget(key, 4096, IPC_CREAT | 0o666)
    leader, follower = os.openpty()
    os.chmod(os.ttyname(follower), 0o666)
    config = {"dir": str(where), "tcp": tcp.getsockname()[1], "udp": udp.getsockname()[1],
              "unix": str(where / "sock"), "abstract": name, "shm": key,
              "pty": os.ttyname(follower), "pid": os.getpid(), "secret": SECRET[::-1]}
    try:
        yield {"config": config, "udp": udp}
    finally:
        for s in (tcp, udp, unix, abstract):
            s.close()
        for fd in (leader, follower):
            os.close(fd)
        libc.shmctl(segment, IPC_RMID, None)
        for seat in (1, 2):  # the probes' own segments, made outside a sandbox (control)
            made = libc.shmget(key + 1 + seat, 0, 0)
            if made >= 0:
                libc.shmctl(made, IPC_RMID, None)


def received(udp: socket.socket) -> list[bytes]:
    got = []
    with contextlib.suppress(BlockingIOError):
        while True:
            got.append(udp.recv(100))
    return got


def probe_match(where: Path, config: dict[str, Any], *options: str,
                user: str = "root") -> list[dict[str, Any]]:
    """A match of ``first`` and two probes, run as a command under ``timeout``
    (its command line shows the seed); the two probes' reports."""
    argv, env = plain_user_cli() if user == "nobody" else (
        [sys.executable, "-c", "from tajmahal.cli import main; main()"], dict(os.environ))
    probe = hostile("sandbox_probe", orjson.dumps(config).decode())
    record = where / "records" / "g.jsonl"
    record.parent.mkdir()
    record.parent.chmod(0o777)
    timeout = shutil.which("timeout")
    assert timeout is not None
    done = subprocess.run(
        [timeout, "120", *argv, "match", "first", probe, probe, "--seed", SECRET,
         "--time", "5", "--record", str(record), "-q", *options],
        capture_output=True, timeout=150, cwd=where, env=env)
    assert done.returncode == 0, done.stderr
    assert b"fault" not in done.stderr, done.stderr
    return probe_reports([where / "records" / f"g.seat{s}.log" for s in (1, 2)])


REACHED_OUTSIDE = ("tcp", "mptcp", "raw", "packet", "unix", "abstract", "shm", "shadow", "pty",
                   "tty", "signal", "ancestor_cmdline", "ancestor_environ", "ancestor_maps",
                   "ancestor_fd", "list_records", "write_outside")


def check_sandboxed(reports: list[dict[str, Any]], udp: socket.socket, where: Path) -> None:
    for report in reports:
        reached = [k for k in REACHED_OUTSIDE if report[k] == "done"]
        assert reached == [], report
        assert report["write_home"] == "done"
        assert report["secret_seen"] == [] and report["heard"] == []
        assert report["others"] == [], report  # no process but its own
        assert set(report["env"]) <= {"HOME", "LANG", "LC_ALL", "PATH", "PWD", "TMPDIR"}
    assert received(udp) == []
    assert not (where / "planted").exists()


@needs_sandbox
@pytest.mark.once  # namespaces, not the engine
def test_a_sandboxed_bot_reaches_nothing_outside_its_sandbox(shared_dir: Path) -> None:
    with targets(shared_dir) as t:
        control = probe_match(shared_dir, t["config"], "--no-sandbox")
        # Without the sandbox the probe gets through (as root, even to /etc/shadow)...
        for report in control:
            assert {k: report[k] for k in ("tcp", "unix", "shm", "pty", "ancestor_cmdline",
                                           "list_records")} == dict.fromkeys(
                ("tcp", "unix", "shm", "pty", "ancestor_cmdline", "list_records"), "done")
            assert report["secret_seen"] and report["heard"] and report["others"]
        assert received(t["udp"])
        (shared_dir / "planted").unlink()
        shutil.rmtree(shared_dir / "records")
        # ... and with it, nowhere.
        check_sandboxed(probe_match(shared_dir, t["config"], "--sandbox"), t["udp"], shared_dir)


@needs_sandbox
@pytest.mark.once
def test_the_sandbox_holds_for_a_user_that_is_not_root(shared_dir: Path) -> None:
    with targets(shared_dir) as t:
        reports = probe_match(shared_dir, t["config"], "--sandbox", user="nobody")
        check_sandboxed(reports, t["udp"], shared_dir)


@needs_sandbox
def test_a_sandboxed_bot_in_a_tournament_sees_no_tournament(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sandboxed by default; the output directory is hidden even when it lies in
    a directory the bot may read (here: beneath its own)."""
    bots = tmp_path / "bots"
    shutil.copytree(Path(hostile("x")).parent, bots)
    monkeypatch.chdir(bots)
    with targets(tmp_path) as t:
        config = dict(t["config"], dir=str(bots / "t"))
        probe = shlex_join([str(bots / "sandbox_probe.py"), orjson.dumps(config).decode()])
        args = ("tournament", "first", probe, "--games", "2", "--jobs", "1", "--out", "t",
                "-q", "--time", "5")
        code, _, stderr = cli(*args)
        assert code == 0, stderr
        logs = sorted((bots / "t" / "logs").glob("*.log"))
        assert len(logs) == 2
        for report in probe_reports(logs):
            assert report["list_records"] != "done" and report["write_outside"] != "done"
            assert report["signal"] != "done"
    manifest = orjson.loads((bots / "t" / "tournament.json").read_bytes())
    assert manifest["plan"]["sandbox"] is True
    code, _, stderr = cli(*args, "--no-sandbox")  # resumed without the sandbox: refused
    assert code == 2 and "--sandbox: stored on, given off" in stderr


def shlex_join(argv: list[str]) -> str:
    import shlex

    return shlex.join(argv)


def test_the_sandbox_is_refused_up_front_by_match_where_it_cannot_be_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arena_options, "sandbox_unavailable", lambda: "the sandbox needs X")
    code, stdout, stderr = cli("match", "random", "random", "--sandbox")
    assert code == 2 and "the sandbox needs X" in stderr and stdout == ""


OOM = "killed by the out-of-memory killer: it went over its memory bound"
needs_cgroups = pytest.mark.skipif(
    cgroups.unavailable() is not None and not os.environ.get("CI"),
    reason=str(cgroups.unavailable()))


@needs_cgroups
@pytest.mark.parametrize("where", ["heap", "memfd", "shm"])
def test_memory_bounds_all_a_bot_holds_memory_files_and_shared_memory_too(where: str) -> None:
    """--memory is a cgroup's bound on the bot's whole tree: a 2 GB memory file
    (no address space) held the host's memory before; now the bot is killed."""
    result = match_json("first", hostile("hog", "300", where), *FAST, "--memory", "200")
    (fault,) = result["faults"]
    assert (fault["seat"], fault["kind"]) == (1, "crash") and OOM in fault["detail"]
    assert match_json("first", hostile("hog", "100", where), *FAST, "--memory", "200")[
        "faults"] == []


@needs_sandbox
@needs_cgroups
def test_memory_bounds_a_sandboxed_bot_and_its_children() -> None:
    result = match_json("first", hostile("hog", "300", "memfd"), *FAST, "--memory", "200",
                        "--sandbox")
    (fault,) = result["faults"]
    assert (fault["seat"], fault["kind"]) == (1, "crash") and OOM in fault["detail"]
    # A child holding it is killed, the bot plays on (its group is bounded as a whole).
    result = match_json("first", hostile("hog", "300", "child"), *FAST, "--memory", "200",
                        "--sandbox")
    assert result["faults"] == [] and result["seats"][1]["fallback_decisions"] == 0


def test_memory_is_refused_where_no_cgroup_can_bound_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arena_options, "cgroups_unavailable", lambda: "no cgroup here")
    code, stdout, stderr = cli("match", "random", "random", "--memory", "200")
    assert code == 2 and "no cgroup here" in stderr and "--memory" in stderr and stdout == ""


@needs_sandbox
def test_outputs_a_sandboxed_bot_could_read_while_it_plays_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flat layout (bots, record, logs and trace in one folder): the sandbox
    shows the bot its own folder, so the other seats' logs, and with --trace
    every hand, would be readable; it is refused before any bot starts.  In a
    folder of their own beneath it they are hidden (the test above)."""
    bots = tmp_path / "bots"
    shutil.copytree(Path(hostile("x")).parent, bots)
    monkeypatch.chdir(bots)
    for options in (["--record", "game.jsonl"], ["--trace", "trace.jsonl"],
                    ["--record", "games/g.jsonl", "--log-dir", "."]):
        code, _, stderr = cli("match", "./spy.py", "random", "--sandbox", *options)
        assert code == 2, stderr
        assert f"{bots} is a folder the sandbox lets bot './spy.py' read" in stderr
    assert sorted(p.name for p in bots.iterdir()) == sorted(
        p.name for p in Path(hostile("x")).parent.iterdir())  # nothing written
    code, _, stderr = cli("tournament", "./spy.py", "random", "--out", ".", "--games", "2")
    assert code == 2 and f"--out .: {bots} is a folder the sandbox" in stderr, stderr
    code, _, stderr = cli("match", "./channel_probe.py", "random", "--no-sandbox", "-q",
                          "--record", "game.jsonl", "--time", "5")
    assert code == 0, stderr  # unsandboxed, the bots read your files anyway
