"""A bot's stderr, drained by a thread into its log file.

:class:`StderrLog` keeps at most ``cap`` bytes of what a bot writes to stderr (the
rest is counted and dropped, so a flood never blocks the bot nor fills the disk)
and its last line, which a crash report quotes.  A bot that writes nothing
leaves no log.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
from pathlib import Path
from typing import IO, Final

from .connection import open_private
from .text import printable

#: The most bytes read from a bot's pipe at once.
CHUNK: Final = 1 << 16


class StderrLog:
    """Drains a pipe into a file in a thread, keeping at most ``cap`` bytes and the
    last line seen (to quote in a crash report).

    The pipe is read without blocking, the thread waiting in ``poll`` on it and on
    a wake-up pipe: :meth:`stop` ends the thread at once, even if some process
    the bot started (and the referee could not kill) still holds the pipe open."""

    #: Chunks read after :meth:`stop` at most (what the bot wrote before it ended).
    _LAST_CHUNKS: Final = 64

    def __init__(self, pipe: IO[bytes], path: Path | None, cap: int) -> None:
        self.fd = pipe.fileno()
        os.set_blocking(self.fd, False)
        self.pipe = pipe
        self.path = path
        self.cap = cap
        self.tail = b""
        self.dropped = 0
        self.kept = 0
        self.out: IO[bytes] | None = None
        self.wake_read, self.wake_write = os.pipe()
        self.thread = threading.Thread(target=self._run, name="bot-stderr", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        if self.path is not None and self.cap > 0:  # no room at all: no log
            try:
                self.out = open_private(self.path)
            except OSError:  # no log then, but stderr is still drained
                self.out = None
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        poller.register(self.wake_read, select.POLLIN)
        try:
            while True:
                ready = poller.poll()
                if any(fd == self.wake_read for fd, _ in ready):
                    self._drain(self._LAST_CHUNKS)
                    break
                if not self._drain(None):
                    break
            if self.out is not None and self.dropped:
                self.out.write(
                    f"\n[referee: {self.dropped} more bytes of stderr dropped; "
                    f"the log keeps {self.cap} bytes]\n".encode()
                )
        finally:
            if self.out is not None:
                self.out.close()
                if self.kept == 0 and self.path is not None:  # a silent bot leaves no log
                    with contextlib.suppress(OSError):
                        self.path.unlink()

    def _drain(self, chunks: int | None) -> bool:
        """Read what the pipe holds now (at most ``chunks`` chunks); False at its end."""
        while chunks is None or chunks > 0:
            try:
                chunk = os.read(self.fd, CHUNK)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self._keep(chunk)
            if chunks is not None:
                chunks -= 1
        return True

    def _keep(self, chunk: bytes) -> None:
        self.tail = (self.tail + chunk)[-4096:]
        if self.out is not None and self.kept < self.cap:
            part = chunk[: self.cap - self.kept]
            self.out.write(part)
            self.out.flush()
            self.kept += len(part)
            self.dropped += len(chunk) - len(part)
        else:
            self.dropped += len(chunk)

    def last_line(self) -> str:
        lines = [x for x in self.tail.decode("utf-8", "replace").splitlines() if x.strip()]
        return printable(lines[-1].strip(), limit=200) if lines else ""

    def stop(self, timeout: float) -> None:
        """Take what is left in the pipe, end the thread, close the pipes."""
        with contextlib.suppress(OSError):
            os.write(self.wake_write, b"x")
        self.thread.join(timeout)
        if not self.thread.is_alive():
            for fd in (self.wake_read, self.wake_write):
                with contextlib.suppress(OSError):
                    os.close(fd)
            with contextlib.suppress(OSError):
                self.pipe.close()
