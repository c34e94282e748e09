"""A bot command that runs outside the sandbox runs inside it too: an interpreter
that a version manager puts on the PATH as a shim (pyenv, asdf, mise; the home
folder it lives in is hidden in the sandbox) is asked for its real path and its
installation is bound read-only; a shim of another program is refused before the
game, naming what the sandbox hides and how to get past it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from referee_support import BOTS, cli, match_json, needs_sandbox

from tajmahal.arena import sandbox

REAL_PYTHON = os.path.realpath(sys.executable)


def shim(root: Path, name: str, target: str) -> Path:
    """A version manager of its own under ``root`` (as ~/.pyenv): ``shims/NAME``
    runs ``libexec/manager``, which runs ``target`` with the arguments."""
    (root / "shims").mkdir(parents=True, exist_ok=True)
    (root / "libexec").mkdir(exist_ok=True)
    manager = root / "libexec" / "manager"
    manager.write_text(f'#!/bin/sh\nexec {target} "$@"\n')
    path = root / "shims" / name
    path.write_text(f'#!/bin/sh\nexec "{manager}" "$@"\n')
    for script in (manager, path):
        script.chmod(0o755)
    return path


@needs_sandbox
def test_a_python_shim_runs_in_the_sandbox_by_its_real_interpreter(tmp_path: Path) -> None:
    python3 = shim(tmp_path / "manager", "python3", REAL_PYTHON)
    found = sandbox.interpreter(str(python3))
    assert found is not None and found[0] == REAL_PYTHON
    assert all(not Path(d).is_relative_to(tmp_path) for d in found[1])  # its installation
    bot = f"{python3} {BOTS / 'random_bot.py'}"
    data = match_json(bot, "random", "--sandbox", "--seed", "1", "--time", "5")
    seat = data["seats"][0]
    assert seat["fault"] is None and seat["name"] == "random_bot.py", seat
    # the referee's view of what the bot reads: the shim's installation, never the
    # folder holding the manager's own programs, nor a home folder
    readable = sandbox.readable_paths([str(python3), str(BOTS / "random_bot.py")])
    assert str(tmp_path / "manager" / "libexec") not in readable
    assert os.path.expanduser("~") not in readable


@needs_sandbox
@pytest.mark.skipif(
    "/shims/" not in (shutil.which("python3") or ""), reason="python3 is no shim here"
)
def test_the_machine_s_own_python3_shim_runs_in_the_sandbox() -> None:
    # python3 on this PATH is a version manager's shim (pyenv's): as a user types it
    data = match_json(f"python3 {BOTS / 'random_bot.py'}", "random", "--sandbox", "--seed", "2")
    assert data["seats"][0]["fault"] is None, data["seats"][0]


@needs_sandbox
def test_a_shim_of_another_program_is_refused_naming_what_is_hidden(tmp_path: Path) -> None:
    tool = shim(tmp_path / "manager", "mybot", f"{REAL_PYTHON} {BOTS / 'random_bot.py'}")
    code, out, err = cli("match", str(tool), "random", "--sandbox", "--seed", "1")
    assert code == 2 and out == ""
    assert f"{tool} is a script that runs {tmp_path / 'manager' / 'libexec' / 'manager'}" in err
    assert "which the sandbox hides" in err and "--no-sandbox" in err
    assert "real path" in err and "`manager which mybot` prints it" in err
    # outside the sandbox it plays
    data = match_json(str(tool), "random", "--no-sandbox", "--seed", "1")
    assert data["seats"][0]["fault"] is None


def test_an_interpreter_in_the_system_folders_is_left_as_it_is() -> None:
    assert sandbox.interpreter("sh") is None  # not an interpreter the sandbox asks
    assert sandbox.resolved(["cat", "x"]) == ["cat", "x"]
    assert sandbox.interpreter(sys.executable) is None  # the referee's own Python
