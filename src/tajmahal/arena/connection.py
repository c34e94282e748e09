"""How the referee reaches a bot: the :class:`Connection` interface.

Three implementations: :class:`~tajmahal.arena.process.ProcessConnection` (a
subprocess over pipes), :class:`InProcessConnection` (a Python
:class:`~tajmahal.arena.player.Player`) and
:class:`~tajmahal.arena.scripted.ScriptedConnection` (a fake for tests).  The
referee only sends messages and waits for answer lines; what can go wrong on the
way comes back as a fault kind (crash, closed, timeout, oversized), never as an
exception.
"""

from __future__ import annotations

import contextlib
import os
import time
import traceback
from abc import ABC, abstractmethod
from pathlib import Path
from typing import IO, NamedTuple

from .player import Player
from .protocol import CRASH, TIMEOUT, ActOutgoing, Message, Outgoing


class Received(NamedTuple):
    """What came back for a request: a raw ``line`` (subprocess), a ``message``
    (in-process), or a ``fault`` (kind, detail).  ``elapsed`` counts seconds from
    the request being sent to the answer being complete."""

    elapsed: float
    line: bytes | None = None
    message: Message | None = None
    fault: tuple[str, str] | None = None


class Connection(ABC):
    """One bot, as the referee drives it."""

    #: How the bot was given (a command line or a built-in's name), for people.
    label: str = "bot"
    #: How the bot ended: ``"exit 0"``, ``"signal 9"``, ``"killed"`` ... (None: still on).
    exit_status: str | None = None
    #: A signal the bot did not raise itself that stopped or ended it
    #: (``"SIGSTOP"``, ``"SIGKILL"``), once a fault was found because of it.
    signal: str | None = None
    #: Whether the bot is sent ``events`` messages (every bot over a pipe is).
    reads_events: bool = True
    #: Whether the bot's ``act`` messages carry its view (every bot over a pipe's do).
    reads_view: bool = True

    @abstractmethod
    def start(self) -> str | None:
        """Start the bot; a text saying why it could not start, or None."""

    @abstractmethod
    def send(self, message: Outgoing, request: bool = False, hold: bool = False) -> None:
        """Queue ``message``; never blocks.  ``request``: an answer is expected, and
        its time counts from now.  ``hold``: it may wait to go out with the next
        message that is not held (same lines, same order, fewer writes)."""

    @abstractmethod
    def receive(self, timeout: float) -> Received:
        """Wait at most ``timeout`` seconds (from the last request) for the next line."""

    def unexpected(self) -> tuple[str, str] | None:
        """Before a request: a fault if the bot said something unasked or died."""
        return None

    def log_tail(self) -> str:
        """The last line the bot wrote to its log (stderr), if any."""
        return ""

    def close_input(self, deadline: float) -> None:
        """Deliver what is queued (until ``deadline``, a :func:`time.monotonic` time)
        and signal the end of input.  Nothing to do for bots without a stream."""
        del deadline

    def wait_exit(self, deadline: float) -> bool:
        """Wait until the bot has exited (True) or ``deadline`` passes (False)."""
        return True

    @abstractmethod
    def kill(self) -> None:
        """Stop the bot and everything it started, now; idempotent."""


def open_private(path: Path) -> IO[bytes]:
    """``path`` opened for writing (emptied), readable by its owner only (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # also if it existed with wider permissions
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, "wb")


class LineReader:
    """Splits a byte stream into lines, holding at most ``limit`` bytes of a line.

    :meth:`feed` returns None, or a fault text once a line is longer than the limit
    (the rest is then ignored: memory stays bounded whatever the bot writes).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.lines: list[bytes] = []
        self.overflow = False

    def feed(self, data: bytes) -> str | None:
        if self.overflow:
            return None
        start = len(self.buffer)
        self.buffer += data
        while (end := self.buffer.find(b"\n", start)) >= 0:
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            start = 0
            if len(line) > self.limit:
                return self._overflow(len(line))
            self.lines.append(line)
        if len(self.buffer) > self.limit:
            return self._overflow(len(self.buffer))
        return None

    def _overflow(self, size: int) -> str:
        self.overflow = True
        self.buffer.clear()
        return f"a line of more than {self.limit} bytes ({size} read without a newline)"

    def pop(self) -> bytes | None:
        return self.lines.pop(0) if self.lines else None

    @property
    def pending(self) -> bool:
        """Anything received beyond the lines already taken."""
        return bool(self.lines or self.buffer)


class InProcessConnection(Connection):
    """A :class:`Player` run inside the referee.

    The same time limits apply, checked after the fact (a Python call cannot be
    interrupted): an answer that took longer than allowed is a timeout.  An
    exception is a crash; its traceback goes to ``log_path``.
    """

    def __init__(self, player: Player, label: str, log_path: Path | None = None) -> None:
        self.player = player
        self.label = label
        self.log_path = log_path
        self.reply: Received | None = None
        self.stopped = False
        # A player that keeps the default hooks ignores events: none are encoded
        # for it.  One that does not read views gets its acts without them.
        kind = type(player)
        self.reads_events = (
            kind.handle is not Player.handle or kind.on_events is not Player.on_events
        )
        self.reads_view = player.reads_view

    def start(self) -> str | None:
        if self.log_path is not None:  # no log of an earlier game; none unless it fails
            with contextlib.suppress(FileNotFoundError):
                self.log_path.unlink()
        return None

    def send(self, message: Outgoing, request: bool = False, hold: bool = False) -> None:
        if self.stopped:
            return
        if isinstance(message, ActOutgoing) and not self.reads_view:
            data = message.without_view()
        else:
            data = message.data  # encoded and decoded before the bot's time starts
        start = time.perf_counter()
        try:
            answer = self.player.handle(data)
        except Exception as e:
            elapsed = time.perf_counter() - start
            self._log(traceback.format_exc())
            self.reply = Received(elapsed, fault=(CRASH, f"raised {type(e).__name__}: {e}"))
            self.stopped = True
            return
        elapsed = time.perf_counter() - start
        if request:
            if answer is None:
                self.reply = Received(elapsed, fault=(CRASH, "gave no answer to a request"))
            else:
                self.reply = Received(elapsed, message=answer)

    def receive(self, timeout: float) -> Received:
        reply, self.reply = self.reply, None
        if reply is None:
            return Received(0.0, fault=(CRASH, "has stopped"))
        if reply.fault is None and reply.elapsed > timeout:
            return Received(
                reply.elapsed,
                fault=(TIMEOUT, f"answered after {reply.elapsed:.3f} s, allowed {timeout:.3f} s"),
            )
        return reply

    def kill(self) -> None:
        self.stopped = True
        if self.exit_status is None:
            self.exit_status = "done"

    def _log(self, text: str) -> None:
        if self.log_path is not None:
            fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as f:
                f.write(text)
