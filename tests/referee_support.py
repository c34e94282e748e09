"""Helpers for the referee's tests: run the CLI, look for leftover processes."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from tajmahal.arena import sandbox
from tajmahal.cli import main

ROOT = Path(__file__).resolve().parent.parent
FAULTY = Path(__file__).resolve().parent / "faulty_bots"
HOSTILE = Path(__file__).resolve().parent / "hostile_bots"
BOTS = ROOT / "bots"
NODE = shutil.which("node")


def faulty(name: str, *args: str) -> str:
    """The command line of a deliberately broken bot."""
    return shlex.join([str(FAULTY / f"{name}.py"), *args])


def hostile(name: str, *args: str) -> str:
    """The command line of a bot that attacks the referee (tests/hostile_bots)."""
    return shlex.join([str(HOSTILE / f"{name}.py"), *args])


def cli(*args: str, columns: int = 160) -> tuple[int, str, str]:
    """Run ``tajmahal ARGS`` in process, its output ``columns`` wide: exit code,
    stdout, stderr."""
    result = CliRunner().invoke(
        main, list(args), catch_exceptions=False, env={"COLUMNS": str(columns)}
    )
    return result.exit_code, result.stdout, result.stderr


def match_json(*args: str) -> dict[str, Any]:
    code, out, err = cli("match", "--json", *args)
    assert code == 0, err
    data: dict[str, Any] = orjson.loads(out)
    return data


def processes_with(marker: str) -> list[str]:
    """Command lines of running processes that mention ``marker`` (not zombies)."""
    return [cmdline for _, cmdline in _running_with(marker)]


def pids_with(marker: str) -> list[int]:
    """The running processes that mention ``marker`` (not zombies)."""
    return [pid for pid, _ in _running_with(marker)]


def _running_with(marker: str) -> list[tuple[int, str]]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        state = stat.rsplit(")", 1)[-1].split()[0]
        if marker.encode() in cmdline and state != "Z":
            found.append((int(pid), cmdline.replace(b"\0", b" ").decode(errors="replace")))
    return found


def plain_user_cli() -> tuple[list[str], dict[str, str]]:
    """The command line (and environment) that runs ``tajmahal`` as an unprivileged
    user: as root, a bot could read any memory whatever the referee does."""
    code = "from tajmahal.cli import main; main()"
    if os.geteuid() != 0:
        return [sys.executable, "-c", code], dict(os.environ)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot run as a plain user")
    import tajmahal  # its source, and the packages it needs, must be found by that user

    source = str(Path(tajmahal.__file__).parent.parent)
    paths = [source, *(p for p in sys.path if "site-packages" in p)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    user = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    pythons = [sys.executable, "/usr/bin/python3", shutil.which("python3") or ""]
    for python in dict.fromkeys(pythons):
        if python and subprocess.run(
            [*user, "/bin/sh", "-c", f'exec "{python}" -c "import tajmahal.cli"'],
            env=env, capture_output=True, cwd="/", timeout=60,
        ).returncode == 0:
            return [*user, python, "-c", code], env
    pytest.skip("no Python here that an unprivileged user may run with tajmahal")


def wait_for(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    """Return once ``predicate()`` holds; fail the test if it never does (a bound
    on waiting, not a measure of speed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def interrupted(proc: subprocess.Popen[bytes], signum: int, ready: Callable[[], None]) -> bytes:
    """Once ``ready()`` returns (it raises if that moment never comes), send
    ``signum`` to ``proc``; its stderr when it has exited.  Killed if anything fails."""
    try:
        ready()
        proc.send_signal(signum)
        return proc.communicate(timeout=30)[1]
    finally:
        if proc.poll() is None:
            proc.kill()


PYTHON = sys.executable
#: Why the sandbox cannot be had here (None: it can).  Its tests are skipped then,
#: but fail on CI (CI=1), which installs bubblewrap.
NO_SANDBOX = sandbox.unavailable()
needs_sandbox = pytest.mark.skipif(
    NO_SANDBOX is not None and not os.environ.get("CI"), reason=str(NO_SANDBOX)
)


def skip_without_sandbox() -> None:
    """Skip the test where the sandbox cannot be had (not on CI)."""
    if NO_SANDBOX is not None and not os.environ.get("CI"):
        pytest.skip(NO_SANDBOX)


def Undrawn(game: Any) -> Any:
    """``game`` as it would be without the optional ``pictures()`` and ``terminal()``
    (a game of a subclass whose two parts say None)."""
    plain = type(
        f"Undrawn{type(game).__name__}",
        (type(game),),
        {"pictures": lambda self: None, "terminal": lambda self, *args: None},
    )
    return plain()
