"""The wire protocol: constants, the messages the referee sends, and the checks on
what a bot answers.  Nothing here knows any particular game.

Every message is one UTF-8 JSON object on one line, ended by ``\\n``.  The spec
for bot authors is ``protocol/README.md``; this module is its implementation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

import orjson
from attrs import frozen

from .text import printable, quote

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


class ActOutgoing(Outgoing):
    """An ``act`` request for an in-process bot that does not read views
    (:attr:`~tajmahal.arena.player.Player.reads_view`): :meth:`without_view` is what
    it gets; the view is encoded only if something reads the ``line`` (the trace)."""

    __slots__ = ("_parts", "_text")

    def __init__(
        self,
        decision: int,
        view_json: Callable[[], bytes],
        legal_json: bytes,
        move: float,
        bank: float,
    ) -> None:
        self._parts = (decision, view_json, legal_json, move, bank)
        self._text: bytes | None = None
        self._data = None

    @property
    def line(self) -> bytes:  # type: ignore[override]
        if self._text is None:
            decision, view_json, legal_json, move, bank = self._parts
            self._text = _act_line(decision, view_json(), legal_json, move, bank)
        return self._text

    def without_view(self) -> Message:
        """The message's data but its ``view`` (which is not encoded for it)."""
        decision, _, legal_json, move, bank = self._parts
        message = act(decision, None, orjson.loads(legal_json), move, bank)
        del message["view"]
        return message


@frozen
class BotInfo:
    """What a bot says about itself in its hello."""

    name: str
    version: str


def encode(data: Any) -> bytes:
    """Compact UTF-8 JSON for ``data`` (no newline)."""
    return orjson.dumps(data)


_BOM: Final = b"\xef\xbb\xbf"


def decode_line(line: bytes) -> Message:
    """The JSON object in ``line``; raises :class:`BadReply` (malformed, protocol)
    and nothing else, whatever the line holds.  A UTF-8 byte order mark before the
    object is accepted (some runtimes write one)."""
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError as e:
        if line.startswith(_BOM):
            return decode_line(line[len(_BOM) :])
        reason = printable(str(e), limit=120)
        shown = quote_bytes(line)
        raise BadReply(MALFORMED, f"not a UTF-8 JSON line ({reason}): {shown}") from None
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(data), "a number"
        )
        raise BadReply(PROTOCOL_FAULT, f"a message is a JSON object, not {kind}")
    return data


def quote_bytes(line: bytes, limit: int = 60) -> str:
    """The start of a raw line, for a fault report (bounded, control characters escaped)."""
    return quote(line[: limit * 4].decode("utf-8", "replace"), limit)


class _Missing:
    """A field the bot left out."""


_MISSING: Final = _Missing()


def _given(value: Any) -> str:
    """What a bot gave for a field, for a fault report (``missing`` if nothing)."""
    return "nothing: it is missing" if value is _MISSING else quote(value)


def check_type(message: Message, expected: str) -> None:
    kind = message.get("type", _MISSING)
    if kind != expected:
        raise BadReply(
            PROTOCOL_FAULT, f'expected a "{expected}" message, got "type": {_given(kind)}'
        )


def check_hello_reply(message: Message) -> BotInfo:
    """Check a bot's answer to the hello; raises :class:`BadReply` (protocol)."""
    check_type(message, "hello")
    version = message.get("protocol_version", _MISSING)
    if type(version) is not int:
        raise BadReply(
            PROTOCOL_FAULT,
            f'the hello must give "protocol_version": {VERSION} (an integer), '
            f"got {_given(version)}",
        )
    if version != VERSION:
        raise BadReply(
            PROTOCOL_FAULT,
            f"the bot speaks {PROTOCOL} protocol version {version}, but this referee speaks "
            f"version {VERSION}; update the bot (tajmahal docs protocol)",
        )
    name, bot_version = message.get("name", _MISSING), message.get("version", _MISSING)
    if not isinstance(name, str) or not name.strip() or len(name) > 100 or not name.isprintable():
        raise BadReply(
            PROTOCOL_FAULT,
            f'"name" must be a non-empty printable string of at most 100 characters, '
            f"got {_given(name)}",
        )
    if not isinstance(bot_version, str) or len(bot_version) > 100 or not bot_version.isprintable():
        raise BadReply(
            PROTOCOL_FAULT,
            f'"version" must be a printable string of at most 100 characters, '
            f"got {_given(bot_version)}",
        )
    extra = set(message) - {"type", "protocol_version", "name", "version"}
    if extra:
        raise BadReply(PROTOCOL_FAULT, f"unknown fields in the hello: {_keys(extra)}")
    return BotInfo(name.strip(), bot_version)


def _keys(keys: set[str]) -> str:
    """Unknown field names, sorted, quoted and bounded."""
    return quote(sorted(keys), 120)


def read_action_reply(message: Message, legal: int, line: bytes | None = None) -> int | Any:
    """The choice in an action message: an index into the ``legal`` actions, or the
    action data the bot sent (to be matched by the caller).  Raises :class:`BadReply`.
    ``line`` is the message as the bot wrote it, if it came as a line: an integer
    too large to decode is quoted as written."""
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
        raise BadReply(PROTOCOL_FAULT, f"unknown fields in the action message: {_keys(extra)}")
    if has_choice == has_action:
        raise BadReply(PROTOCOL_FAULT, 'an action message has exactly one of "choice" and "action"')
    if has_action:
        action = message["action"]
        if not isinstance(action, dict):
            raise BadReply(PROTOCOL_FAULT, f'"action" must be an object, got {quote(action)}')
        return action
    choice = message["choice"]
    if type(choice) is not int:
        if isinstance(choice, float) and choice.is_integer() and abs(choice) >= 2.0**63:
            # JSON decoding turns an integer beyond 64 bits into a float
            written = _integer_written(line) or quote(choice)
            raise BadReply(
                PROTOCOL_FAULT,
                f'"choice" must be an index from 0 to {legal - 1}: {written} is not an '
                "integer the protocol allows (more than 64 bits)",
            )
        raise BadReply(PROTOCOL_FAULT, f'"choice" must be an integer, got {quote(choice)}')
    if not 0 <= choice < legal:
        raise BadReply(
            ILLEGAL, f"choice {quote(choice)} is out of range: {legal} legal actions, 0-{legal - 1}"
        )
    return choice


_CHOICE_DIGITS: Final = re.compile(rb'"choice"\s*:\s*(-?[0-9]+)(?![0-9.eE])')


def _integer_written(line: bytes | None) -> str | None:
    """The digits of ``"choice"`` as written in ``line`` (shortened), if an integer."""
    if line is None:
        return None
    found = _CHOICE_DIGITS.search(line)
    if found is None:
        return None
    digits = found.group(1).decode()
    return digits if len(digits) <= 40 else f"{digits[:20]}... ({len(digits)} digits)"


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
    return Outgoing(_act_line(decision, view_json, legal_json, move, bank))


def _act_line(
    decision: int, view_json: bytes, legal_json: bytes, move: float, bank: float
) -> bytes:
    """The line of :func:`act`, joined from its parts: the referee's per-decision
    path (three times cheaper than encoding the dict with fragments); a test checks
    it against the encoded :func:`act` message."""
    return _ACT_LINE % (
        decision,
        view_json,
        legal_json,
        orjson.dumps(move),
        orjson.dumps(round(bank, 3)),
    )


_ACT_LINE: Final = (
    b'{"type":"act","decision":%d,"view":%b,"legal":%b,"time":{"move":%b,"bank":%b}}\n'
)


def events(decision: int, items: Sequence[Any]) -> Message:
    """What happened in one decision, as a seat may see it."""
    return {"type": "events", "decision": decision, "events": items}


def events_outgoing(decision: int, items_json: Sequence[bytes]) -> Outgoing:
    """The :func:`events` message, ready to send, for events already encoded."""
    return Outgoing(
        b'{"type":"events","decision":%d,"events":[%b]}\n' % (decision, b",".join(items_json))
    )  # joined, not encoded: a test checks it against the encoded events() message


def end(result: Message) -> Message:
    """The final message: scores, breakdown, ranks and faults."""
    return {"type": "end", **result}


def error(kind: str, detail: str) -> Message:
    """Sent to a bot just before it is stopped for a fault."""
    return {"type": "error", "fault": kind, "message": detail}
