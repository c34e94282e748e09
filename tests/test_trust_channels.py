"""Referee trust, round 4: what the kernel shares between sandboxes carries no bit.

Two copies of tests/hostile_bots/channel_probe.py in one game take locks on a
file every sandbox binds (POSIX, open file description and ``flock`` locks) and
look for each other's, and try the other calls the sandbox's seccomp filter
refuses (``io_uring``, the page cache's state, file watches, the kernel log,
keyrings, ``AF_VSOCK``, the machine-wide counters of ``/proc``).  Without the
sandbox (the control) they hear each other on every lock channel; in it, on none.
Bots in C, Java, Node.js and Python still play under the filter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, NODE, cli, hostile, needs_sandbox

from tajmahal.arena import syscalls

FAST = ["--time", "5", "--bank", "0", "--grace", "1", "--seed", "5", "-q"]
LANGUAGE_BOTS = Path(__file__).resolve().parent / "language_bots"
ROOT = Path(__file__).resolve().parent.parent


def probe_reports(where: Path, *options: str) -> list[dict[str, Any]]:
    record = where / "records" / "g.jsonl"
    probe = hostile("channel_probe")
    code, _, stderr = cli("match", "first", probe, probe, *FAST, "--record", str(record),
                          *options)
    assert code == 0, stderr
    reports = []
    for seat in (1, 2):
        log = (where / "records" / f"g.seat{seat}.log").read_text()
        (line,) = [x for x in log.splitlines() if x.startswith("probe: ")]
        reports.append(orjson.loads(line.removeprefix("probe: ")))
    shutil.rmtree(where / "records")
    return reports


#: The calls the probe makes that the filter refuses (each reports its error).
REFUSED = ("lease", "dnotify", "inotify", "io_uring", "cachestat", "mincore", "fadvise",
           "nowait_read", "pageout", "syslog", "keyctl", "perf", "vsock", "file_nr",
           "proc_locks")


@needs_sandbox
@pytest.mark.once  # the kernel, not the engine
def test_sandboxed_bots_hear_nothing_through_locks_or_other_shared_kernel_objects(
    tmp_path: Path,
) -> None:
    control = probe_reports(tmp_path, "--no-sandbox")
    # Outside the sandbox each copy reads the other's seat from its locks.
    assert [r["heard_posix"] for r in control] == [[2], [1]]
    assert [r["heard_ofd"] for r in control] == [[2], [1]]
    assert [r["heard_flock"] for r in control] == [True, True]
    assert all(r[k] == "done" for r in control for k in ("inotify", "fadvise", "keyctl"))
    for report in probe_reports(tmp_path, "--sandbox"):
        # Locks are granted (the Java VM and SQLite take some), without effect...
        assert {report[k] for k in ("posix_lock", "ofd_lock", "flock", "high_bits_lock")} == {
            "done"}
        # ... so no copy hears another; asking for another's locks is refused.
        assert (report["heard_posix"], report["heard_ofd"]) == ("ENOLCK", "ENOLCK")
        assert report["heard_flock"] is False
        assert {k: report[k] for k in REFUSED if report[k] == "done"} == {}


@needs_sandbox
@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the x32 ABI is x86_64's")
def test_a_system_call_of_another_abi_kills_the_bot(tmp_path: Path) -> None:
    """An x32 call (the same architecture, numbers with bit 30) is not filtered by
    its number: the filter kills the process instead."""
    code, out, stderr = cli("match", "first", hostile("channel_probe", "x32"), *FAST[:-1],
                            "--json", "--sandbox")
    assert code == 0, stderr
    (fault,) = orjson.loads(out)["faults"]
    assert (fault["seat"], fault["kind"], fault["detail"]) == (1, "crash", "exited (signal SIGSYS)")


def language_bots(where: Path) -> list[str]:
    """A bot in each language the tests have a compiler or runtime for: C (built
    with cc), Java (javac; run by a script in its folder, whose folder is the one
    the sandbox binds), Node.js and Python."""
    bots = [str(BOTS / "random_bot.py")]
    if NODE is not None:
        bots.append(str(BOTS / "random_bot.js"))
    folder = where / "bots"
    folder.mkdir()
    if shutil.which("cc"):
        subprocess.run(["cc", "-O2", "-o", str(folder / "first_bot"),
                        str(LANGUAGE_BOTS / "first_bot.c")], check=True)
        bots.append(str(folder / "first_bot"))
    if shutil.which("javac") and shutil.which("java"):
        subprocess.run(["javac", "-d", str(folder), str(LANGUAGE_BOTS / "FirstBot.java")],
                       check=True)
        script = folder / "java_bot.sh"
        script.write_text('#!/bin/sh\nexec java -cp "$(dirname "$0")" FirstBot\n')
        script.chmod(0o755)
        bots.append(str(script))
    return bots


@needs_sandbox
@pytest.mark.once
def test_bots_in_c_java_node_and_python_play_under_the_filter(tmp_path: Path) -> None:
    bots = language_bots(tmp_path)
    if os.environ.get("CI"):  # the machine CI runs on has every one of them
        assert len(bots) == 4, bots
    code, out, stderr = cli("match", *bots, *FAST[:-1], "--json", "--sandbox",
                            "--record", str(tmp_path / "records" / "g.jsonl"))
    assert code == 0, stderr
    result = orjson.loads(out)
    assert result["faults"] == [], result["faults"]
    assert all(s["fallback_decisions"] == 0 for s in result["seats"])
    for log in (tmp_path / "records").glob("*.log"):  # nothing went wrong inside either
        assert "flock" not in log.read_text() and "Error" not in log.read_text()


def test_every_call_the_filter_names_is_known_and_named_in_the_docs() -> None:
    trust = (ROOT / "docs" / "cli.md").read_text()
    missing = [call for call in syscalls.calls() if f"`{call}`" not in trust]
    assert missing == []
    if syscalls.unavailable() is None:  # libseccomp knows each (the build raises otherwise)
        assert len(syscalls.program()) % 8 == 0 and syscalls.program()
