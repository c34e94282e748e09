"""The launcher that confines one bot process, then becomes the bot.

The referee starts a bot through this file, run as a script by the same Python
(``python -I -S confine.py OPTIONS -- BOT ARGV...``), inside the sandbox's
namespaces (see :mod:`~tajmahal.arena.sandbox`) or, without the sandbox, as is:
it applies its limits to itself and then *executes* the bot, which keeps them
(as does every process the bot starts), under the same process id.

Options:

- ``--cgroup FILE`` (repeatable): join a control group, writing this process's id
  into its ``cgroup.procs`` FILE, before anything else (the bot's group: its
  memory bound and CPU share, see :mod:`~tajmahal.arena.cgroups`); this is done
  by a launcher *outside* the sandbox, which then becomes ``bwrap``;
- ``--processes N``: at most N processes of the bot's user at once
  (``RLIMIT_NPROC``; in the sandbox's own user namespace, the bot's alone);
- ``--read DIR``, ``--write DIR`` and ``--devices DIR`` (repeatable): a Landlock
  domain in which the bot reads only beneath these directories, changes files
  only beneath the ``--write`` ones (and writes to existing files beneath the
  ``--devices`` ones: ``/dev/null``), connects and binds no TCP socket, and
  (Landlock ABI 6) signals and reaches abstract Unix sockets only within its own
  process tree: as much of that as the kernel's Landlock offers;
- ``--scope``: only the last of those (signals and abstract sockets kept to its
  own tree), files and network left alone: what a bot outside the sandbox gets
  where the kernel has Landlock ABI 6.

Core dumps are always off and ``no_new_privs`` is set before Landlock (set-user-id
programs do not raise the bot's privileges).  (Memory is bounded by the bot's
cgroup, for its whole process tree: an address-space limit per process would
count reservations, not memory, and keep Node.js and the JVM from starting.)
This module imports only the standard library, and nothing of the referee's: it
runs in the bot's process.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import sys
from collections.abc import Sequence
from typing import Final

_SYS_CREATE_RULESET: Final = 444  # the same number on every architecture
_SYS_ADD_RULE: Final = 445
_SYS_RESTRICT_SELF: Final = 446
_CREATE_RULESET_VERSION: Final = 1
_RULE_PATH_BENEATH: Final = 1
_PR_SET_NO_NEW_PRIVS: Final = 38

# Filesystem rights: ABI 1, then REFER (2), TRUNCATE (3), IOCTL_DEV (5).
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1, 2, 4, 8
_REMOVE_DIR, _REMOVE_FILE, _MAKE_CHAR, _MAKE_DIR = 16, 32, 64, 128
_MAKE_REG, _MAKE_SOCK, _MAKE_FIFO, _MAKE_BLOCK, _MAKE_SYM = 256, 512, 1024, 2048, 4096
_REFER, _TRUNCATE = 1 << 13, 1 << 14
_READ: Final = _EXECUTE | _READ_FILE | _READ_DIR
_CHANGE: Final = (
    _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_CHAR | _MAKE_DIR | _MAKE_REG
    | _MAKE_SOCK | _MAKE_FIFO | _MAKE_BLOCK | _MAKE_SYM
)
#: The rights each Landlock ABI version adds to the filesystem's.
_FS_BY_ABI: Final = {1: _READ | _CHANGE, 2: _REFER, 3: _TRUNCATE}
# Network rights (ABI 4) and scopes (ABI 6).
_BIND_TCP, _CONNECT_TCP = 1, 2
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1, 2
#: The Landlock ABI that keeps signals within a process tree.
SCOPE_ABI: Final = 6


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


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _no_new_privs() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def restrict(
    readable: Sequence[str], writable: Sequence[str], devices: Sequence[str], files: bool
) -> int:
    """Put this process in a new Landlock domain: with ``files``, reads beneath
    the directories given only, changes beneath ``writable`` only, writes to
    existing files beneath ``devices``, and no TCP; in any case signals and
    abstract Unix sockets within its own tree (as far as the kernel's ABI goes).
    Returns the ABI used (0: none to be had)."""
    abi = landlock_abi()
    if abi == 0 or (not files and abi < SCOPE_ABI):
        return 0
    fs = 0
    if files:
        for version, rights in _FS_BY_ABI.items():
            if abi >= version:
                fs |= rights
    net = _BIND_TCP | _CONNECT_TCP if files and abi >= 4 else 0
    scoped = _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET if abi >= SCOPE_ABI else 0
    attr = _RulesetAttr(fs, net, scoped)
    ruleset = _syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0)
    try:
        device = _READ | _WRITE_FILE | _TRUNCATE
        rules = [(d, fs & _READ) for d in readable] + [(d, fs) for d in writable]
        rules += [(d, fs & device) for d in devices]
        for path, access in rules if fs else []:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            if not os.path.isdir(path):  # a file: only the rights of files
                access &= _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE
            try:
                rule = _PathBeneath(access, fd)
                _syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
            finally:
                os.close(fd)
        _no_new_privs()
        _syscall(_SYS_RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)
    return abi


def _limit(which: int, value: int) -> None:
    resource.setrlimit(which, (value, value))


def main(args: list[str]) -> None:
    """``[OPTIONS] -- ARGV...``: confine this process, then execute ARGV."""
    groups: list[str] = []
    processes: int | None = None
    readable: list[str] = []
    writable: list[str] = []
    devices: list[str] = []
    scope = False
    while args and args[0] != "--":
        option = args.pop(0)
        if option == "--scope":
            scope = True
            continue
        value = args.pop(0)
        if option == "--cgroup":
            groups.append(value)
        elif option == "--processes":
            processes = int(value)
        elif option == "--read":
            readable.append(value)
        elif option == "--write":
            writable.append(value)
        elif option == "--devices":
            devices.append(value)
    argv = args[1:]
    try:
        for group in groups:
            with open(group, "w") as procs:
                procs.write(str(os.getpid()))
        _limit(resource.RLIMIT_CORE, 0)
        if processes is not None:
            _limit(resource.RLIMIT_NPROC, processes)
        if readable or writable or devices:
            restrict(readable, writable, devices, files=True)
        elif scope:
            restrict((), (), (), files=False)
    except (OSError, ValueError) as e:
        print(f"tajmahal sandbox: cannot confine the bot: {e}", file=sys.stderr, flush=True)
        os._exit(126)
    with contextlib.suppress(OSError):
        os.execvp(argv[0], argv)
    print(f"tajmahal sandbox: cannot run {argv[0]!r}", file=sys.stderr, flush=True)
    os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
