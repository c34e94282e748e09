"""Opt-in confinement of bot processes: ``--sandbox`` and ``--memory MB``.

The referee starts a confined bot through this file, run as a script by the
same Python (``python -I -S sandbox.py OPTIONS -- BOT ARGV...``): it applies the
limits to itself and then *executes* the bot, which keeps them (as does every
process the bot starts), under the same process id.

``--memory MB`` (works anywhere with ``setrlimit``): the address space of each
bot process is capped (``RLIMIT_AS``); an allocation beyond it fails in the bot
(a Python MemoryError, a crash: its fault), not in the machine.  Runtimes that
reserve much address space up front (Node.js, the JVM) need a generous limit.

``--sandbox`` (Linux 6.12+ with Landlock, which unprivileged processes may use)
puts the bot's whole process tree in its own Landlock domain:

- it can send signals only within its own tree (not to the referee, a tournament
  worker, or another seat's bot), and reach no abstract Unix socket outside it;
- it cannot trace or inspect processes outside its tree: no ``/proc/PID/mem``,
  ``fd``, ``cwd`` or ``environ`` of the referee, even when run as root;
- it can read and execute only beneath the system directories, the Python (and
  Node.js) installation, the directories Python imports from, and the bot's own
  directory; it can write only in a fresh private directory (its ``HOME`` and
  ``TMPDIR``, removed after the game) and to ``/dev`` (``/dev/null``): no record,
  trace, log or journal of the referee's is within its reach, unless put in one
  of those directories;
- it can neither bind nor connect TCP sockets;
- it gains no privileges (``no_new_privs``: set-user-id programs do not raise
  them) and its environment holds only ``PATH``, ``LANG``, ``HOME``, ``TMPDIR``.

What it does not stop: CPU use (time limits are wall-clock; keep ``--jobs`` at
the number of cores), UDP, reading what the directories above hold, filling the
disk from its private directory, or timing channels.  :func:`unavailable` says
why ``--sandbox`` cannot be had here (then the command refuses to run).

This module imports only the standard library, and nothing of the referee's:
it runs before the bot, in the bot's process.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

_SYS_CREATE_RULESET: Final = 444  # the same number on every architecture
_SYS_ADD_RULE: Final = 445
_SYS_RESTRICT_SELF: Final = 446
_CREATE_RULESET_VERSION: Final = 1
_RULE_PATH_BENEATH: Final = 1
_PR_SET_NO_NEW_PRIVS: Final = 38

# Filesystem rights (ABI 1, then REFER in 2, TRUNCATE in 3).
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1, 2, 4, 8
_REMOVE_DIR, _REMOVE_FILE, _MAKE_CHAR, _MAKE_DIR = 16, 32, 64, 128
_MAKE_REG, _MAKE_SOCK, _MAKE_FIFO, _MAKE_BLOCK, _MAKE_SYM = 256, 512, 1024, 2048, 4096
_REFER, _TRUNCATE = 1 << 13, 1 << 14
_READ: Final = _EXECUTE | _READ_FILE | _READ_DIR
_CHANGE: Final = (
    _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_CHAR | _MAKE_DIR | _MAKE_REG
    | _MAKE_SOCK | _MAKE_FIFO | _MAKE_BLOCK | _MAKE_SYM
)
# Network rights (ABI 4) and scopes (ABI 6).
_BIND_TCP, _CONNECT_TCP = 1, 2
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1, 2
#: The Landlock ABI --sandbox needs: signal scoping came with version 6.
NEEDED_ABI: Final = 6

#: Where any program finds its libraries, configuration and devices.
SYSTEM_DIRS: Final = (
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt",
    "/proc", "/sys", "/dev", "/run",
)


def _syscall(*args: object) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    result = int(libc.syscall(*args))
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    return result


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        return _syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    except (OSError, AttributeError):
        return 0


def unavailable() -> str | None:
    """Why ``--sandbox`` cannot confine bots on this system (None: it can)."""
    if not sys.platform.startswith("linux"):
        return "--sandbox needs Linux (Landlock)"
    abi = landlock_abi()
    if abi < NEEDED_ABI:
        have = f"Landlock ABI {abi}" if abi else "no Landlock (disabled, or kernel before 5.13)"
        return (
            f"--sandbox needs Linux Landlock ABI {NEEDED_ABI} (kernel 6.12 or later) to keep "
            f"bots from signalling other processes; this system has {have}"
        )
    return None


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def readable_dirs(argv: Sequence[str]) -> list[str]:
    """The directories a sandboxed bot may read: the system's, Python's (its
    installation and import path) and Node's, and those of the bot's program and
    script (the first arguments that name files)."""
    dirs = list(SYSTEM_DIRS)
    dirs += [sys.prefix, sys.base_prefix, sys.exec_prefix]
    dirs.append(str(Path(os.path.realpath(sys.executable)).parent.parent))
    here = os.getcwd()  # on the import path of `python -m` (a tournament worker)
    dirs += [p for p in sys.path if p and os.path.isabs(p) and p != here and os.path.isdir(p)]
    node = shutil.which("node")
    if node is not None:
        dirs.append(str(Path(os.path.realpath(node)).parent.parent))
    for arg in argv[:2]:
        program = arg if os.sep in arg else shutil.which(arg)
        if program and os.path.isfile(program):
            dirs.append(str(Path(os.path.realpath(program)).parent))
            dirs.append(str(Path(os.path.abspath(program)).parent))
    return sorted({d for d in dirs if os.path.isdir(d)})


def command(
    argv: Sequence[str], sandbox: bool, memory: int | None, home: str | None = None
) -> list[str]:
    """The command line that starts ``argv`` confined (``home``: the bot's private
    directory, for ``--sandbox``)."""
    options = []
    if memory is not None:
        options += ["--memory", str(memory)]
    if sandbox:
        assert home is not None
        options += ["--home", home]
        for directory in readable_dirs(argv):
            options += ["--read", directory]
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), *options, "--", *argv]


def environment(home: str) -> dict[str, str]:
    """A sandboxed bot's environment: nothing of the referee's but the path and
    the language."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": home, "TMPDIR": home}
    for key in ("LANG", "LC_ALL"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def private_dir() -> str:
    """A fresh directory only this user can enter, for one bot's files."""
    return tempfile.mkdtemp(prefix="tajmahal-bot-")


def remove_private_dir(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _restrict(home: str, readable: Sequence[str]) -> None:
    """Put this process in a new Landlock domain (see the module's text)."""
    abi = landlock_abi()
    if abi < NEEDED_ABI:
        raise OSError(f"Landlock ABI {abi}, {NEEDED_ABI} needed")
    change = _CHANGE | _REFER | _TRUNCATE
    attr = _RulesetAttr(_READ | change, _BIND_TCP | _CONNECT_TCP,
                        _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET)
    ruleset = _syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0)
    try:
        rules = [(d, _READ) for d in readable]
        rules += [(home, _READ | change), ("/dev", _READ | _WRITE_FILE | _TRUNCATE)]
        for path, access in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                rule = _PathBeneath(access, fd)
                _syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
            finally:
                os.close(fd)
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        _syscall(_SYS_RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)


def main(args: list[str]) -> None:
    """``[--memory MB] [--home DIR --read DIR...] -- ARGV...``: confine this
    process, then execute ARGV."""
    memory: int | None = None
    home: str | None = None
    readable: list[str] = []
    while args and args[0] != "--":
        option, value, args = args[0], args[1], args[2:]
        if option == "--memory":
            memory = int(value)
        elif option == "--home":
            home = value
        elif option == "--read":
            readable.append(value)
    argv = args[1:]
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if memory is not None:
            limit = memory << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if home is not None:
            _restrict(home, readable)
    except (OSError, ValueError) as e:
        print(f"tajmahal sandbox: cannot confine the bot: {e}", file=sys.stderr, flush=True)
        os._exit(126)
    with contextlib.suppress(OSError):
        os.execvp(argv[0], argv)
    print(f"tajmahal sandbox: cannot run {argv[0]!r}", file=sys.stderr, flush=True)
    os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
