"""The wire protocol: constants, the messages the referee sends, and the checks on
what a bot answers.  Nothing here knows any particular game.

Every message is one UTF-8 JSON object on one line, ended by ``\\n``.  The spec
for bot authors is ``protocol/README.md``; this module is its implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import orjson
from attrs import frozen

PROTOCOL: Final = "arena"
VERSION: Final = 1

#: Fault kinds, each with a distinct meaning (see ``protocol/README.md``).
CRASH: Final = "crash"  # the process exited, or an in-process bot raised
CLOSED: Final = "closed"  # the bot closed its stdout or stdin but kept running
TIMEOUT: Final = "timeout"  # no complete answer before its time (and bank) ran out
MALFORMED: Final = "malformed"  # the line is not UTF-8 JSON
OVERSIZED: Final = "oversized"  # a line longer than the limit
PROTOCOL_FAULT: Final = "protocol"  # JSON, but not the message expected now
ILLEGAL: Final = "illegal"  # a well-formed answer naming no legal action
FAULT_KINDS: Final = (CRASH, CLOSED, TIMEOUT, MALFORMED, OVERSIZED, PROTOCOL_FAULT, ILLEGAL)

#: Phases in which a fault can happen.
HELLO: Final = "hello"
ACT: Final = "act"
END: Final = "end"

Message = dict[str, Any]


class BadReply(Exception):
    """A bot's answer that breaks the protocol; ``kind`` is one of :data:`FAULT_KINDS`."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Outgoing:
    """A message to a bot: its encoded ``line`` (what a subprocess bot reads), and
    the same as ``data`` (what an in-process bot gets).  It is encoded once, and
    decoded from the line only if an in-process bot asks for the data."""

    __slots__ = ("_data", "line")

    def __init__(self, line: bytes, data: Message | None = None) -> None:
        self.line = line
        self._data = data

    @classmethod
    def of(cls, data: Message) -> Outgoing:
        return cls(orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE), data)

    @property
    def data(self) -> Message:
        if self._data is None:
            self._data = orjson.loads(self.line)
        return self._data


@frozen
class BotInfo:
    """What a bot says about itself in its hello."""

    name: str
    version: str


def encode(data: Any) -> bytes:
    """Compact UTF-8 JSON for ``data`` (no newline)."""
    return orjson.dumps(data)


def decode_line(line: bytes) -> Message:
    """The JSON object in ``line``; raises :class:`BadReply` (malformed) otherwise."""
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError as e:
        shown = line[:60].decode("utf-8", "replace")
        raise BadReply(MALFORMED, f"not a UTF-8 JSON line ({e}): {shown!r}") from None
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(data), "a number"
        )
        raise BadReply(PROTOCOL_FAULT, f"a message is a JSON object, not {kind}")
    return data


def _short(value: Any) -> str:
    text = orjson.dumps(value).decode() if _encodable(value) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _encodable(value: Any) -> bool:
    try:
        orjson.dumps(value)
    except TypeError:
        return False
    return True


def check_type(message: Message, expected: str) -> None:
    kind = message.get("type")
    if kind != expected:
        raise BadReply(
            PROTOCOL_FAULT, f'expected a "{expected}" message, got "type": {_short(kind)}'
        )


def check_hello_reply(message: Message) -> BotInfo:
    """Check a bot's answer to the hello; raises :class:`BadReply` (protocol)."""
    check_type(message, "hello")
    version = message.get("protocol_version")
    if type(version) is not int:
        raise BadReply(
            PROTOCOL_FAULT,
            f'the hello must give "protocol_version": {VERSION} (an integer), '
            f"got {_short(version)}",
        )
    if version != VERSION:
        raise BadReply(
            PROTOCOL_FAULT,
            f"the bot speaks {PROTOCOL} protocol version {version}, but this referee speaks "
            f"version {VERSION}; update the bot (see protocol/README.md)",
        )
    name, bot_version = message.get("name"), message.get("version")
    if not isinstance(name, str) or not name.strip() or len(name) > 100 or not name.isprintable():
        raise BadReply(
            PROTOCOL_FAULT,
            f'"name" must be a non-empty printable string of at most 100 characters, '
            f"got {_short(name)}",
        )
    if not isinstance(bot_version, str) or len(bot_version) > 100:
        raise BadReply(PROTOCOL_FAULT, f'"version" must be a string, got {_short(bot_version)}')
    extra = set(message) - {"type", "protocol_version", "name", "version"}
    if extra:
        raise BadReply(PROTOCOL_FAULT, f"unknown fields in the hello: {sorted(extra)}")
    return BotInfo(name.strip(), bot_version)


def read_action_reply(message: Message, legal: int) -> int | Any:
    """The choice in an action message: an index into the ``legal`` actions, or the
    action data the bot sent (to be matched by the caller).  Raises :class:`BadReply`."""
    choice = message.get("choice")
    if (  # the usual answer, checked in full
        type(choice) is int
        and 0 <= choice < legal
        and len(message) == 2
        and message.get("type") == "action"
    ):
        return choice
    check_type(message, "action")
    has_choice, has_action = "choice" in message, "action" in message
    extra = set(message) - {"type", "choice", "action"}
    if extra:
        raise BadReply(PROTOCOL_FAULT, f"unknown fields in the action message: {sorted(extra)}")
    if has_choice == has_action:
        raise BadReply(PROTOCOL_FAULT, 'an action message has exactly one of "choice" and "action"')
    if has_action:
        action = message["action"]
        if not isinstance(action, dict):
            raise BadReply(PROTOCOL_FAULT, f'"action" must be an object, got {_short(action)}')
        return action
    choice = message["choice"]
    if type(choice) is not int:
        raise BadReply(PROTOCOL_FAULT, f'"choice" must be an integer, got {_short(choice)}')
    if not 0 <= choice < legal:
        raise BadReply(
            ILLEGAL, f"choice {choice} is out of range: {legal} legal actions, 0-{legal - 1}"
        )
    return choice


# --------------------------------------------------------------------------- messages


def hello(
    *,
    game: str,
    seat: int,
    players: int,
    variant: str,
    time: Message,
    seed: int,
    setup: Any,
) -> Message:
    """The referee's opening message to one seat."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "protocol_version": VERSION,
        "game": game,
        "seat": seat,
        "players": players,
        "variant": variant,
        "time": time,
        "seed": seed,
        "setup": setup,
    }


def act(decision: int, view: Any, legal: Sequence[Any], move: float, bank: float) -> Message:
    """A request for a decision: the seat's view and its legal actions."""
    return {
        "type": "act",
        "decision": decision,
        "view": view,
        "legal": legal,
        "time": {"move": move, "bank": round(bank, 3)},
    }


def act_outgoing(
    decision: int, view_json: bytes, legal_json: bytes, move: float, bank: float
) -> Outgoing:
    """The :func:`act` message, ready to send, for a view and legal actions already
    encoded (JSON text)."""
    message = act(decision, orjson.Fragment(view_json), orjson.Fragment(legal_json), move, bank)
    return Outgoing(orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE))


def events(decision: int, items: Sequence[Any]) -> Message:
    """What happened in one decision, as a seat may see it."""
    return {"type": "events", "decision": decision, "events": items}


def events_outgoing(decision: int, items_json: Sequence[bytes]) -> Outgoing:
    """The :func:`events` message, ready to send, for events already encoded."""
    message = events(decision, [orjson.Fragment(x) for x in items_json])
    return Outgoing(orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE))


def end(result: Message) -> Message:
    """The final message: scores, breakdown, ranks and faults."""
    return {"type": "end", **result}


def error(kind: str, detail: str) -> Message:
    """Sent to a bot just before it is stopped for a fault."""
    return {"type": "error", "fault": kind, "message": detail}
