"""A scripted fake bot, so that the referee's protocol logic can be tested without
processes (and timeouts without waiting).

Each request the referee sends (the hello, then each act) is answered by the next
entry of the script:

- :class:`Answer` — a message (dict) or a raw line (bytes), after a simulated
  ``delay`` in seconds (more than the time allowed: a timeout);
- :class:`Fail` — a transport fault (``crash``, ``closed``, ``oversized``,
  ``timeout``) as a real connection would report it.

When the script runs out the fake plays correctly: it answers a hello with a
valid hello and every act with choice 0.  Everything sent to it is kept in
:attr:`ScriptedConnection.received`, as data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson
from attrs import frozen

from .connection import Connection, Received
from .protocol import (
    CLOSED,
    CRASH,
    OVERSIZED,
    PROTOCOL_FAULT,
    TIMEOUT,
    VERSION,
    Message,
    Outgoing,
    quote_bytes,
)

#: The detail of a :class:`Fail` of each kind unless it gives one: what a real
#: connection reports (a record of the game verifies).
DETAILS = {
    CRASH: "exited (exit 1)",
    CLOSED: "closed its stdout but is still running",
    OVERSIZED: "a line of more than 65536 bytes (65537 read without a newline)",
}


@frozen
class Answer:
    reply: Message | bytes
    delay: float = 0.0
    #: A line the fake writes after its answer, unasked.
    unasked: bytes | None = None


@frozen
class Fail:
    """A transport fault; its detail by default as a real connection words it (a
    timeout's names the time it had)."""

    kind: str
    detail: str | None = None


def correct_answer(request: Message, name: str = "scripted") -> Message:
    """What a correct bot answers to ``request``."""
    if request["type"] == "hello":
        return {"type": "hello", "name": name, "version": "1", "protocol_version": VERSION}
    return {"type": "action", "choice": 0}


class ScriptedConnection(Connection):
    def __init__(self, script: Iterable[Answer | Fail] = (), name: str = "scripted") -> None:
        self.script = list(script)
        self.name = name
        self.label = f"scripted:{name}"
        self.received: list[Message] = []
        self.pending: Received | None = None
        self.unasked: bytes | None = None
        self.started = False
        self.killed = False
        self.input_closed = False

    def start(self) -> str | None:
        self.started = True
        return None

    def send(self, message: Outgoing, request: bool = False, hold: bool = False) -> None:
        if self.killed or self.input_closed:
            return
        data = orjson.loads(message.line)  # what a real bot would read
        self.received.append(data)
        if not request:
            return
        entry = self.script.pop(0) if self.script else Answer(correct_answer(data, self.name))
        if isinstance(entry, Fail):
            detail = entry.detail if entry.detail is not None else DETAILS.get(entry.kind, "")
            self.pending = Received(0.0, fault=(entry.kind, detail))
            return
        reply = entry.reply
        line = reply if isinstance(reply, bytes) else orjson.dumps(reply)
        self.pending = Received(entry.delay, line=line)
        self.unasked = entry.unasked

    def receive(self, timeout: float) -> Received:
        got, self.pending = self.pending, None
        if got is None or got.fault == (TIMEOUT, ""):
            return Received(timeout, fault=(TIMEOUT, f"no answer within {timeout:.3f} s"))
        if got.fault is None and got.elapsed > timeout:
            return Received(timeout, fault=(TIMEOUT, f"no answer within {timeout:.3f} s"))
        return got

    def unexpected(self) -> tuple[str, str] | None:
        if self.unasked is not None:
            line, self.unasked = self.unasked, None
            return (PROTOCOL_FAULT, f"wrote without being asked: {quote_bytes(line)}")
        return None

    def close_input(self, deadline: float) -> None:
        self.input_closed = True

    def kill(self) -> None:
        self.killed = True
        if self.exit_status is None:
            self.exit_status = "killed"

    @property
    def types(self) -> list[Any]:
        """The ``type`` of every message received, in order."""
        return [m.get("type") for m in self.received]
