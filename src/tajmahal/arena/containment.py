"""Keeping bot processes, and everything they start, inside the referee's reach.

A bot may start children that leave its process group and session (``setsid``,
``setpgrp``, a double-forking daemon): a ``killpg`` of the bot's group misses
them.  On Linux the referee therefore

- becomes a *child subreaper* while a match is played (:func:`guarded`): a
  process whose parent exits is handed to the referee instead of to init, so
  nothing a bot starts can leave the referee's tree;
- stops and kills a bot's whole tree at the end (:func:`kill_tree`): every
  descendant found through ``/proc``, whatever its group or session;
- after the last match under way, kills and reaps the orphans it was handed
  (:func:`guarded`'s exit);
- is not *dumpable* while it plays (``PR_SET_DUMPABLE`` 0): another process of
  the same (non-root) user cannot read its memory (``/proc/PID/mem``, the deck)
  or open its file descriptors (``/proc/PID/fd``).

Everything degrades to nothing on other systems, or where ``prctl`` is refused.
:func:`hide_argument` blanks a value (the seed) in this process's command line
as other processes see it (``/proc/PID/cmdline``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

_PR_GET_DUMPABLE: Final = 3
_PR_SET_DUMPABLE: Final = 4
_PR_SET_CHILD_SUBREAPER: Final = 36
_PR_GET_CHILD_SUBREAPER: Final = 37
#: Rounds of stopping newly found descendants before giving up on a fork bomb.
_ROUNDS: Final = 50

_LINUX: Final = sys.platform.startswith("linux")


def _libc() -> ctypes.CDLL | None:
    if not _LINUX:
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC: Final = _libc()


def _prctl(option: int, value: int) -> bool:
    """``prctl(option, value)``; False if refused or not on Linux."""
    if _LIBC is None:
        return False
    try:
        return int(_LIBC.prctl(option, value, 0, 0, 0)) == 0
    except (AttributeError, OSError):
        return False


def _get_subreaper() -> int:
    if _LIBC is None:
        return 0
    flag = ctypes.c_int(0)
    try:
        if _LIBC.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) != 0:
            return 0
    except (AttributeError, OSError):
        return 0
    return flag.value


def _get_dumpable() -> int:
    if _LIBC is None:
        return 1
    try:
        return int(_LIBC.prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0))
    except (AttributeError, OSError):
        return 1


def make_undumpable() -> bool:
    """Make this process non-dumpable for good (a worker, a command line run):
    no core dumps, and its memory and descriptors closed to other processes of
    the same user.  False where that cannot be done."""
    return _prctl(_PR_SET_DUMPABLE, 0)


class _Guard:
    """The state :func:`guarded` keeps for the whole process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.subreaper = 0
        self.dumpable = 1
        self.active = False
        #: Children this process had before (they are not bots': never swept).
        self.before: set[int] = set()
        #: Bot processes started under the guard and still running.
        self.bots: set[int] = set()


_GUARD: Final = _Guard()


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """While the block runs (matches may nest or run in threads), this process is
    a child subreaper and not dumpable.  When the last block ends, the orphans
    handed to it (processes bots left behind) are killed with their trees and
    reaped, and the previous settings come back."""
    with _GUARD.lock:
        if _GUARD.depth == 0:
            _GUARD.subreaper, _GUARD.dumpable = _get_subreaper(), _get_dumpable()
            _GUARD.active = _prctl(_PR_SET_CHILD_SUBREAPER, 1)
            _prctl(_PR_SET_DUMPABLE, 0)
            _GUARD.before = set(children(os.getpid())) if _GUARD.active else set()
        _GUARD.depth += 1
    try:
        yield
    finally:
        with _GUARD.lock:
            _GUARD.depth -= 1
            if _GUARD.depth == 0:
                if _GUARD.active:
                    sweep_orphans(keep=_GUARD.before | _GUARD.bots)
                    _prctl(_PR_SET_CHILD_SUBREAPER, _GUARD.subreaper)
                _prctl(_PR_SET_DUMPABLE, _GUARD.dumpable)
                _GUARD.active = False


def started(pid: int) -> None:
    """A bot process was started (it is not an orphan to sweep)."""
    _GUARD.bots.add(pid)


def ended(pid: int) -> None:
    """A bot process was stopped and reaped."""
    _GUARD.bots.discard(pid)


def sweep(keep: Iterable[int] = ()) -> int:
    """Inside :func:`guarded`, kill the orphans handed to this process so far (its
    children other than ``keep``, the bots under way and the children it had
    before); a worker that died leaves its bots to the tournament this way.
    Returns how many processes were killed (0 outside a guard)."""
    with _GUARD.lock:
        if not _GUARD.active:
            return 0
        return sweep_orphans(set(keep) | _GUARD.before | _GUARD.bots)


def sweep_orphans(keep: Iterable[int] = ()) -> int:
    """Kill (with their trees) and reap the children of this process that are not
    in ``keep``: under a subreaper, those are what bots left behind.  Returns
    how many were killed."""
    keep = set(keep)
    count = 0
    for _ in range(_ROUNDS):
        orphans = [pid for pid in children(os.getpid()) if pid not in keep]
        if not orphans:
            break
        for pid in orphans:
            count += kill_tree(pid, include_root=True)
        for pid in orphans:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)  # dead (killed): returns at once
    return count


def children(pid: int) -> list[int]:
    """The child processes of ``pid``, from ``/proc`` (none where it cannot be read)."""
    task = Path(f"/proc/{pid}/task")
    found: list[int] = []
    try:
        threads = os.listdir(task)
    except OSError:
        return found
    for tid in threads:
        try:
            text = (task / tid / "children").read_bytes()
        except FileNotFoundError:
            if not (task / tid).exists():
                continue  # the thread ended
            return _children_by_scan(pid)  # a kernel without the children file
        except OSError:
            continue
        found += [int(x) for x in text.split()]
    return found


def _children_by_scan(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry}/stat").read_bytes()
                if int(stat.rsplit(b")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` in the process tree, parents before children."""
    found: list[int] = []
    todo = [pid]
    seen = {pid}
    while todo:
        for child in children(todo.pop()):
            if child not in seen:
                seen.add(child)
                found.append(child)
                todo.append(child)
    return found


def kill_tree(root: int, include_root: bool = False) -> int:
    """SIGKILL every descendant of ``root`` (and ``root`` itself if
    ``include_root``), whatever process group or session it moved to.

    The tree is first stopped (SIGSTOP), round after round, until a round finds
    no new process; each round waits until the processes it signalled *are*
    stopped (a signal is delivered when the process next runs: on a busy machine,
    later) before it looks for their children: a stopped process cannot fork, so
    every child it made is seen, and even a fork bomb is caught whole.  Then all
    are killed at once, and waited for until they are gone (or zombies): by then
    any process one of them left behind has been handed to the subreaper, where
    :func:`sweep` finds it.  Returns how many processes were signalled."""
    stopped: list[int] = []
    seen: set[int] = set()
    deadline = time.monotonic() + _SETTLE
    if include_root:
        _signal(root, signal.SIGSTOP)
        _settle([root], _STOPPED, deadline)
        stopped.append(root)
        seen.add(root)
    for _ in range(_ROUNDS):
        new = [pid for pid in descendants(root) if pid not in seen]
        if not new:
            break
        for pid in new:
            _signal(pid, signal.SIGSTOP)
        _settle(new, _STOPPED, deadline)
        stopped += new
        seen.update(new)
    for pid in stopped:
        _signal(pid, signal.SIGKILL)
    _settle(stopped, _DEAD, time.monotonic() + _SETTLE)
    return len(stopped)


#: Seconds to wait for processes to stop, or to die (one in the kernel may take long).
_SETTLE: Final = 5.0
_STOPPED: Final = frozenset(b"TtZX")
_DEAD: Final = frozenset(b"ZX")


def _settle(pids: Iterable[int], states: frozenset[int], deadline: float) -> None:
    """Wait until each of ``pids`` is in one of ``states`` (``/proc``'s letters)
    or gone, or the deadline passes."""
    waiting = list(pids)
    pause = 0.0
    while waiting and time.monotonic() < deadline:
        waiting = [pid for pid in waiting if _state(pid) not in states]
        if waiting:
            time.sleep(pause)
            pause = min(0.01, pause + 0.001)


def _state(pid: int) -> int:
    """The state letter of ``pid`` (``ord("X")``: gone, or ``/proc`` unreadable)."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1][1]
    except (OSError, IndexError):
        return ord("X")


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def stop_signal(pid: int) -> str | None:
    """The signal that stopped child ``pid`` (``SIGSTOP``, ``SIGTSTP`` ...), if it is
    stopped now; None otherwise.  The child is not reaped."""
    try:
        info = os.waitid(os.P_PID, pid, os.WSTOPPED | os.WNOHANG | os.WNOWAIT)
    except (ChildProcessError, OSError):
        info = None
    if info is not None and info.si_code == os.CLD_STOPPED:
        return signal_name(info.si_status)
    try:  # a stop already reported, or not our child: ask /proc
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    return "SIGSTOP" if state in (b"T", b"t") else None


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


#: Signals a process brings on itself (a fault in its own code); any other signal
#: that ends a bot came from outside it.
SELF_INFLICTED: Final = frozenset(
    {
        "SIGSEGV",
        "SIGBUS",
        "SIGILL",
        "SIGFPE",
        "SIGABRT",
        "SIGTRAP",
        "SIGSYS",
        "SIGPIPE",
        "SIGXCPU",
        "SIGXFSZ",
    }
)


def hide_option(name: str) -> bool:
    """Blank the value of option ``name`` (``--seed 42`` or ``--seed=42``) in this
    process's command line as other processes see it (``/proc/PID/cmdline``): the
    original argument memory is overwritten with ``*``.  Python's ``sys.argv`` is a
    copy and keeps it.  False if there was nothing to hide, or where this cannot
    be done."""
    if not _LINUX:
        return False
    try:
        fields = Path("/proc/self/stat").read_bytes().rsplit(b")", 1)[1].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end (fields 48, 49)
        raw = Path("/proc/self/cmdline").read_bytes()
    except (OSError, IndexError, ValueError):
        return False
    if not start or end <= start or len(raw) > end - start:
        return False
    option = name.encode()
    hidden = False
    offset = 0
    follows = False
    for arg in raw.split(b"\0"):
        at = -1
        if follows and arg:
            at = offset
        elif arg.startswith(option + b"=") and len(arg) > len(option) + 1:
            at = offset + len(option) + 1
        follows = arg == option
        if at >= 0:
            ctypes.memset(start + at, ord("*"), offset + len(arg) - at)
            hidden = True
        offset += len(arg) + 1
    return hidden
