"""Signal handling shared by the match and tournament commands and their runners."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any, Final

#: The signals that end a command: Ctrl-C, ``kill``, and the terminal going away.
STOPPING: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM and SIGHUP (a closed terminal) like Ctrl-C inside the block, so
    cleanup always runs and no bot outlives the command (main thread only)."""

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, handler) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


@contextlib.contextmanager
def uninterruptible() -> Iterator[None]:
    """Ignore SIGINT, SIGTERM and SIGHUP inside the block (main thread only): a
    second Ctrl-C must not cut a cleanup short and leave processes behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in STOPPING}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP during the block (blocked, not lost): one that
    came is handled as the block ends, as if it came then (main thread only;
    elsewhere the block runs as is).  Two system calls: cheap enough to guard
    the bookkeeping of every game."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
