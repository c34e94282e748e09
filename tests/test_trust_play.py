"""``tajmahal play``: the opponent bots do not get at the person's game.

Its bots run sandboxed by default (no network: the game's server is out of
reach); outside the sandbox the server still wants the token, which they do not
have; the seed is blanked from the command line; and SIGTERM or SIGHUP (a closed
terminal) stop the game with every process the bots started.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import hostile, interrupted, processes_with, skip_without_sandbox

pytest.importorskip("uvicorn")
SECRET = "1618033988749"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def spy_report(log: Path, deadline: float) -> dict[str, Any]:
    while time.monotonic() < deadline:
        if log.exists():
            for line in log.read_text().splitlines():
                if line.startswith("spy: "):
                    report: dict[str, Any] = orjson.loads(line.removeprefix("spy: "))
                    return report
        time.sleep(0.05)
    raise AssertionError(f"no report in {log}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")
@pytest.mark.parametrize(("sandboxed", "signum"), [(True, signal.SIGTERM),
                                                    (False, signal.SIGHUP)])
def test_play_keeps_its_bots_from_the_persons_game(
    tmp_path: Path, sandboxed: bool, signum: int
) -> None:
    if sandboxed:
        skip_without_sandbox()
    port, marker = free_port(), f"tajmahal-play-escape-{tmp_path.name}"
    spy = hostile("play_spy", str(port), SECRET[::-1], marker)
    record = tmp_path / "game.jsonl"
    argv = [sys.executable, "-m", "tajmahal", "play", "human", spy, "--port", str(port),
            "--no-browser", "--seed", SECRET, "--record", str(record)]
    if not sandboxed:
        argv.append("--no-sandbox")
    reports: list[dict[str, Any]] = []

    def ready() -> None:  # the spy has looked, its escaped child runs
        reports.append(spy_report(tmp_path / "game.seat1.log", time.monotonic() + 60))
        deadline = time.monotonic() + 30
        while not processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(marker)
        assert SECRET not in Path(f"/proc/{play.pid}/cmdline").read_text()

    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as play:
        stderr = interrupted(play, signum, ready)
    (report,) = reports
    assert play.returncode == 130, stderr
    assert b"interrupted" in stderr
    notice = b"the bots run sandboxed" if sandboxed else b"warning: the bots are not sandboxed"
    assert (notice in stderr) == sandboxed
    assert report["secret_seen"] == []
    if sandboxed:  # no network at all
        assert report["server"] in ("ConnectionRefusedError", "URLError"), report
    else:  # the server, but without the token
        assert report["server"] == "HTTP 403", report
    assert processes_with(marker) == []
