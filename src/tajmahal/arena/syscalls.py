"""The system calls a sandboxed bot may not make: the sandbox's seccomp filter.

Namespaces keep a bot's processes, network, IPC and files apart from every
other sandbox's, but the kernel still has objects that every process on the
machine shares, and that a bot can set in one sandbox and read in another: the
lock table of a file (a read lock on a byte of ``/usr/lib/...`` is seen by
``F_GETLK`` in every sandbox that binds the same file), the page cache (a file
cached or not), the watches on a file (``inotify`` sees another process open
it), the kernel log, the keyrings, ``AF_VSOCK`` sockets (not in any network
namespace).  The filter built here, handed to bubblewrap (``--seccomp FD``),
refuses the calls that reach them, with an error the bot's runtime handles
(the kernel's own answer where the feature is missing: ``ENOSYS`` for
``io_uring``, ``EOPNOTSUPP`` for ``RWF_NOWAIT``; a lock is granted without
effect), and the calls that only widen
the attack surface of the kernel the sandbox shares (``bpf``, ``userfaultfd``,
module loading, mounts).  :data:`BLOCKED` and :data:`BLOCKED_WHEN` are the
whole list, each entry with why (docs/cli.md, *The system calls*, says the same).

The filter is built with libseccomp (through ``pyseccomp``, its ctypes binding),
which also checks the architecture: a call made with another architecture's
convention (i386's ``int 0x80``, or the x32 ABI's numbers on x86_64) kills the
process, since it would not be filtered by its number (32-bit bots are not
supported in the sandbox).  Comparisons of an ``int`` argument look at its low
32 bits only: the kernel ignores the rest, so ``fcntl(fd, 0x100000006)`` is a
``F_SETLK`` and is refused as one.
"""

from __future__ import annotations

import errno
import functools
import importlib
import os
import tempfile
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Final

from attrs import frozen

#: The "error" of a call that is not made but reports success: a lock the bot
#: takes is granted and does nothing (the Java VM, SQLite and others lock their
#: own files, and would fail or complain on stdout if refused), so locks can
#: neither carry a bit nor exclude anything; a bot's own processes cannot
#: exclude each other with file locks in the sandbox.
GRANTED: Final = 0
#: Whole calls refused: the call, the error it returns (:data:`GRANTED`: none), and why.
BLOCKED: Final[dict[str, tuple[int, str]]] = {
    # Shared objects that carry bits from one sandbox to another.
    "flock": (GRANTED, "file locks are in one table for the whole machine"),
    "inotify_init": (errno.EPERM, "a watch sees other processes (other sandboxes) open files"),
    "inotify_init1": (errno.EPERM, "a watch sees other processes (other sandboxes) open files"),
    "inotify_add_watch": (errno.EPERM, "a watch sees other processes open files"),
    "fanotify_init": (errno.EPERM, "a watch sees other processes open files"),
    "fanotify_mark": (errno.EPERM, "a watch sees other processes open files"),
    "cachestat": (errno.ENOSYS, "tells which pages of a shared file are cached"),
    "mincore": (errno.ENOSYS, "tells which pages of a shared file are cached"),
    "fadvise64": (errno.EPERM, "drops or loads pages of a shared file in the page cache"),
    "fadvise64_64": (errno.EPERM, "drops or loads pages of a shared file in the page cache"),
    "process_madvise": (errno.EPERM, "pages out memory, shared files' pages included"),
    "syslog": (errno.EPERM, "the kernel log is shared (one bot's crash is written there)"),
    "keyctl": (errno.EPERM, "kernel keyrings"),
    "add_key": (errno.EPERM, "kernel keyrings"),
    "request_key": (errno.EPERM, "kernel keyrings"),
    "perf_event_open": (errno.EACCES, "hardware counters: a timing channel, and kernel surface"),
    # Asynchronous I/O that bypasses this filter (io_uring runs calls the filter
    # never sees) or counts in a machine-wide total (aio-nr).
    "io_uring_setup": (errno.ENOSYS, "runs system calls this filter never sees"),
    "io_uring_enter": (errno.ENOSYS, "runs system calls this filter never sees"),
    "io_uring_register": (errno.ENOSYS, "runs system calls this filter never sees"),
    "io_setup": (errno.ENOSYS, "Linux AIO contexts count in a machine-wide total"),
    "io_submit": (errno.ENOSYS, "Linux AIO"),
    # The kernel's attack surface: calls no bot needs.
    "bpf": (errno.EPERM, "kernel surface"),
    "userfaultfd": (errno.EPERM, "kernel surface (stalls the kernel at will)"),
    "kexec_load": (errno.EPERM, "kernel surface"),
    "kexec_file_load": (errno.EPERM, "kernel surface"),
    "init_module": (errno.EPERM, "kernel surface"),
    "finit_module": (errno.EPERM, "kernel surface"),
    "delete_module": (errno.EPERM, "kernel surface"),
    "reboot": (errno.EPERM, "kernel surface"),
    "swapon": (errno.EPERM, "kernel surface"),
    "swapoff": (errno.EPERM, "kernel surface"),
    "acct": (errno.EPERM, "kernel surface"),
    "quotactl": (errno.EPERM, "kernel surface"),
    "quotactl_fd": (errno.EPERM, "kernel surface"),
    "lookup_dcookie": (errno.EPERM, "kernel surface"),
    "name_to_handle_at": (errno.EPERM, "file handles reach files outside the sandbox's view"),
    "open_by_handle_at": (errno.EPERM, "file handles reach files outside the sandbox's view"),
    "mount": (errno.EPERM, "kernel surface"),
    "umount2": (errno.EPERM, "kernel surface"),
    "pivot_root": (errno.EPERM, "kernel surface"),
    "fsopen": (errno.EPERM, "kernel surface"),
    "fsconfig": (errno.EPERM, "kernel surface"),
    "fsmount": (errno.EPERM, "kernel surface"),
    "fspick": (errno.EPERM, "kernel surface"),
    "move_mount": (errno.EPERM, "kernel surface"),
    "open_tree": (errno.EPERM, "kernel surface"),
    "mount_setattr": (errno.EPERM, "kernel surface"),
    "setns": (errno.EPERM, "kernel surface"),
    "settimeofday": (errno.EPERM, "the clock is shared"),
    "clock_settime": (errno.EPERM, "the clock is shared"),
    "clock_adjtime": (errno.EPERM, "the clock is shared"),
    "iopl": (errno.EPERM, "kernel surface"),
    "ioperm": (errno.EPERM, "kernel surface"),
    "modify_ldt": (errno.EPERM, "kernel surface"),
    "uselib": (errno.EPERM, "kernel surface (obsolete)"),
    "vhangup": (errno.EPERM, "kernel surface"),
}


@frozen
class ArgumentRule:
    """Refuse ``call`` when its argument ``arg`` (from 0), its low 32 bits masked
    with ``mask``, equals one of ``values``; it then returns ``error``."""

    call: str
    arg: int
    values: tuple[int, ...]
    error: int
    why: str
    mask: int = 0xFFFFFFFF


# fcntl's commands that lock, lease or watch (asm-generic/fcntl.h, linux/fcntl.h).
F_GETLK, F_SETLK, F_SETLKW = 5, 6, 7
F_GETLK64, F_SETLK64, F_SETLKW64 = 12, 13, 14
F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 36, 37, 38
F_SETLEASE, F_GETLEASE, F_NOTIFY = 1024, 1025, 1026
_TAKE_LOCK: Final = (F_SETLK, F_SETLKW, F_SETLK64, F_SETLKW64, F_OFD_SETLK, F_OFD_SETLKW)
_ASK_LOCK: Final = (F_GETLK, F_GETLK64, F_OFD_GETLK)
#: The address families a bot may open a socket of: Unix and IP (in its own
#: network namespace) and netlink (its own namespace's interfaces, which the
#: C library's getaddrinfo asks for).  Every other family is refused: ``AF_VSOCK``
#: is not in any network namespace (a socket reaches every sandbox), and the
#: rest (``AF_PACKET``, ``AF_ALG``, Bluetooth...) is kernel surface a bot does not use.
SOCKET_FAMILIES: Final = (1, 2, 10, 16)  # AF_UNIX, AF_INET, AF_INET6, AF_NETLINK
_AF_MAX: Final = 64  # above every family the kernel has (AF_MAX is 46 in Linux 6.x)
RWF_NOWAIT: Final = 0x8
MADV_COLD, MADV_PAGEOUT = 20, 21

#: Calls refused for some values of an argument.
BLOCKED_WHEN: Final[tuple[ArgumentRule, ...]] = (
    *(ArgumentRule(call, 1, _TAKE_LOCK, GRANTED, "file locks are in one table for the "
                   "whole machine: granted, without effect") for call in ("fcntl", "fcntl64")),
    *(ArgumentRule(call, 1, _ASK_LOCK, errno.ENOLCK, "would show another sandbox's locks")
      for call in ("fcntl", "fcntl64")),
    *(ArgumentRule(call, 1, (F_SETLEASE, F_GETLEASE, F_NOTIFY), errno.EPERM,
                   "leases and directory watches see other processes open files")
      for call in ("fcntl", "fcntl64")),
    ArgumentRule("socket", 0, tuple(f for f in range(_AF_MAX) if f not in SOCKET_FAMILIES),
                 errno.EAFNOSUPPORT, "AF_VSOCK reaches every sandbox; the others are unused"),
    *(ArgumentRule(call, 5, (RWF_NOWAIT,), errno.EOPNOTSUPP,
                   "RWF_NOWAIT tells whether a shared file's pages are cached", mask=RWF_NOWAIT)
      for call in ("preadv2", "pwritev2")),
    ArgumentRule("madvise", 2, (MADV_COLD, MADV_PAGEOUT), errno.EPERM,
                 "pages out shared files' pages from the page cache"),
)


def _binding() -> ModuleType:
    """libseccomp's binding; raises ImportError (or OSError) where it or the
    library cannot be had: the binding not installed, no libseccomp found (it
    raises RuntimeError), a file that is no library or one too old for the
    binding (ctypes raises OSError, AttributeError for a missing function)."""
    try:
        return importlib.import_module("pyseccomp")
    except (RuntimeError, AttributeError) as e:
        raise OSError(str(e)) from None


@functools.cache
def unavailable() -> str | None:
    """Why the filter cannot be built here (None: it can)."""
    try:
        program()
    except ImportError:
        return "the sandbox needs pyseccomp (pip install pyseccomp)"
    except (OSError, AttributeError) as e:  # AttributeError: a libseccomp too old
        return (
            f"the sandbox's system call filter cannot be built ({e}): it needs libseccomp "
            "(Debian, Ubuntu: apt-get install libseccomp2; Fedora: dnf install libseccomp)"
        )
    return None


@functools.cache
def program() -> bytes:
    """The filter, as the BPF program bubblewrap's ``--seccomp`` reads: every call
    allowed but those of :data:`BLOCKED` and :data:`BLOCKED_WHEN`; a call of
    another architecture (or ABI) kills the process.  Raises ImportError or
    OSError where it cannot be built."""
    seccomp = _binding()
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    rules.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    for call, (error, _) in BLOCKED.items():
        _add(seccomp, rules, call, error)
    for rule in BLOCKED_WHEN:
        for value in rule.values:
            condition = seccomp.Arg(rule.arg, seccomp.MASKED_EQ, rule.mask, value)
            _add(seccomp, rules, rule.call, rule.error, condition)
    with tempfile.TemporaryFile() as out:
        rules.export_bpf(out)
        out.seek(0)
        return out.read()


def _add(seccomp: ModuleType, rules: Any, call: str, error: int, *conditions: Any) -> None:
    """Refuse ``call`` with ``error`` (under ``conditions``).  A call this
    architecture does not have (``fcntl64`` on x86_64) is skipped by libseccomp;
    one libseccomp does not know at all is an error of this table."""
    number = seccomp.resolve_syscall(seccomp.Arch.NATIVE, call)
    if number == -1:  # __NR_SCMP_ERROR
        raise OSError(errno.EINVAL, f"libseccomp does not know the system call {call!r}")
    rules.add_rule(seccomp.ERRNO(error), call, *conditions)


def descriptor() -> int:
    """A new file descriptor from which the filter can be read once, from its
    start (bubblewrap reads it to its end): the caller passes it to bubblewrap,
    then closes it."""
    data = program()
    fd = os.memfd_create("tajmahal-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd


def calls() -> Sequence[str]:
    """Every call the filter names (whole or by argument)."""
    return [*BLOCKED, *dict.fromkeys(rule.call for rule in BLOCKED_WHEN)]
