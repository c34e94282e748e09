"""The sandbox's filter needs libseccomp (libseccomp2) and its binding pyseccomp;
a machine without them still imports the package and plays unsandboxed, and
``--sandbox`` says in one line what is missing and how to install it.

Each case runs the commands in a mount namespace of bubblewrap's (the whole
system as it is) where one part is missing for real: the library's file
covered and the dynamic linker's cache made again without it (as on a system
that never had libseccomp2: ctypes finds no library), the file covered but
still in the cache (a library that cannot be loaded), or the binding's module
covered (pyseccomp not installed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from referee_support import BOTS

pytestmark = [
    pytest.mark.once,  # the system, not the engine
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap"),
]


def _library() -> str:
    """The file of the libseccomp this process loads (through pyseccomp)."""
    import pyseccomp  # noqa: F401  (it loads the library)

    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libseccomp" in line}
    (path,) = paths
    return os.path.realpath(path)


def _without(part: str, where: Path) -> list[str]:
    """bubblewrap's options for a system without ``part``."""
    if part == "pyseccomp":
        import pyseccomp

        return ["--ro-bind", "/dev/null", pyseccomp.__file__]
    covered = ["--ro-bind", "/dev/null", _library()]
    if part == "unloadable":
        return covered
    cache = where / "ld.so.cache"
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    subprocess.run(["bwrap", "--dev-bind", "/", "/", *covered, "--", ldconfig, "-X", "-C",
                    str(cache)], check=True, capture_output=True)
    return [*covered, "--ro-bind", str(cache), "/etc/ld.so.cache"]


@pytest.mark.parametrize(("part", "said"), [
    ("library", "Unable to find libseccomp"),
    ("unloadable", "libseccomp"),
    ("pyseccomp", "the sandbox needs pyseccomp (pip install pyseccomp)"),
])
def test_without_libseccomp_all_but_the_sandbox_works(
    tmp_path: Path, part: str, said: str
) -> None:
    hidden = _without(part, tmp_path)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        argv = ["bwrap", "--dev-bind", "/", "/", *hidden, "--", sys.executable, *args]
        return subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=tmp_path)

    found = run("-c", "import ctypes.util; print(ctypes.util.find_library('seccomp'))")
    assert found.stdout.strip() == ("None" if part == "library" else "libseccomp.so.2")
    why = run("-c", "import tajmahal.arena.syscalls as s; print(s.unavailable())")
    assert why.returncode == 0 and said in why.stdout, why.stderr
    if part != "pyseccomp":
        assert "apt-get install libseccomp2" in why.stdout
    assert run("-m", "tajmahal", "--help").returncode == 0
    bot = str(BOTS / "random_bot.py")
    plain = run("-m", "tajmahal", "match", bot, "random", "--seed", "1")
    assert plain.returncode == 0 and "Traceback" not in plain.stderr, plain.stderr
    refused = run("-m", "tajmahal", "match", bot, "random", "--seed", "1", "--sandbox")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    (line,) = [x for x in refused.stderr.splitlines() if x.startswith("Error:")]
    assert said in line and line.endswith("(or give --no-sandbox)"), refused.stderr
    played = run("-m", "tajmahal", "tournament", bot, "random", "--games", "2", "--jobs", "1",
                 "--out", str(tmp_path / "t"), "-q")
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    assert f"warning: the bots are not sandboxed: {why.stdout.strip()}" in played.stderr
