"""Helpers for the referee's tests: run the CLI, look for leftover processes."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner

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
            found.append(cmdline.replace(b"\0", b" ").decode(errors="replace"))
    return found


PYTHON = sys.executable


class Undrawn:
    """A game as it is without the optional ``pictures()`` and ``terminal()``."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        if name in ("pictures", "terminal"):
            raise AttributeError(name)
        return getattr(self.game, name)
