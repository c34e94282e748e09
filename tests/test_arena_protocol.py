"""The protocol's building blocks, without processes."""

from __future__ import annotations

import orjson
import pytest

from tajmahal.arena.connection import LineReader
from tajmahal.arena.protocol import (
    FAULT_KINDS,
    ActOutgoing,
    BadReply,
    Outgoing,
    act,
    act_outgoing,
    check_hello_reply,
    decode_line,
    events,
    events_outgoing,
    read_action_reply,
)


def test_fault_kinds_are_distinct() -> None:
    assert len(set(FAULT_KINDS)) == len(FAULT_KINDS) == 7


def test_line_reader_splits_and_keeps_partial_lines() -> None:
    reader = LineReader(limit=10)
    assert reader.feed(b'{"a":1}\n{"b"') is None
    assert reader.pop() == b'{"a":1}'
    assert reader.pop() is None and reader.pending
    assert reader.feed(b":2}\n\n") is None
    assert reader.pop() == b'{"b":2}'
    assert reader.pop() == b""
    assert not reader.pending


def test_line_reader_bounds_a_line_without_newline() -> None:
    reader = LineReader(limit=10)
    assert reader.feed(b"x" * 8) is None
    problem = reader.feed(b"x" * 8)
    assert problem is not None and "more than 10 bytes" in problem
    assert len(reader.buffer) == 0  # nothing of it is kept
    assert reader.feed(b"y" * 1000 + b"\n") is None and reader.pop() is None


def test_line_reader_rejects_a_long_line_even_with_its_newline() -> None:
    reader = LineReader(limit=4)
    assert reader.feed(b"12345\n") is not None


def test_outgoing_is_encoded_once_as_one_line() -> None:
    out = Outgoing.of({"type": "events", "events": [{"s": "é"}]})
    assert out.line.endswith(b"\n") and out.line.count(b"\n") == 1
    assert "é".encode() in out.line


def test_messages_from_encoded_parts_are_the_same_lines_and_data() -> None:
    view = {"seat": 1, "hand": [3, 84], "players": [{"score": {"palaces": 2}}], "dummy": None}
    legal = [{"type": "play", "card": 3}, {"type": "withdraw"}]
    out = act_outgoing(7, orjson.dumps(view), orjson.dumps(legal), 1.0, 9.87654)
    expected = Outgoing.of(act(7, view, legal, 1.0, 9.87654))
    assert out.line == expected.line
    assert out.data == expected.data == orjson.loads(out.line)  # decoded when asked
    assert out.data is out.data

    # For an in-process bot that reads no views: the act but for its view, which is
    # encoded only if something (the trace) reads the line.
    encoded: list[dict[str, object]] = []

    def view_json() -> bytes:
        encoded.append(view)
        return orjson.dumps(view)

    blind = ActOutgoing(7, view_json, orjson.dumps(legal), 1.0, 9.87654)
    brief = dict(expected.data)
    del brief["view"]
    assert blind.without_view() == brief
    assert encoded == []
    assert blind.line == expected.line and blind.data == expected.data
    assert blind.line is blind.line and len(encoded) == 1  # encoded once
    items = [{"type": "played", "seat": 0, "card": 3, "extra": None}, {"type": "visit_ended"}]
    out = events_outgoing(12, [orjson.dumps(x) for x in items])
    assert out.line == Outgoing.of(events(12, items)).line
    assert events_outgoing(13, []).line == Outgoing.of(events(13, [])).line


@pytest.mark.parametrize(
    ("move", "bank"),
    [(1.0, 59.5), (1, 0), (0.1, 1e-05), (2.5, -0.0001), (1e16, 123456.7891), (3.0, -0.0)],
)
def test_an_act_line_is_the_encoded_act_whatever_the_clock_says(move: float, bank: float) -> None:
    """The act line is joined from its parts; its numbers must read as orjson writes
    them (1e-05 and -0.0 are where Python's own formatting differs)."""
    view, legal = {"hand": [3, 84], "name": "é"}, [{"type": "withdraw"}]
    out = act_outgoing(3, orjson.dumps(view), orjson.dumps(legal), move, bank)
    assert out.line == Outgoing.of(act(3, view, legal, move, bank)).line


@pytest.mark.parametrize(
    ("message", "result"),
    [
        ({"type": "action", "choice": 2}, 2),
        ({"choice": 0, "type": "action"}, 0),
        ({"type": "action", "choice": 3}, "illegal"),
        ({"type": "action", "choice": -1}, "illegal"),
        ({"type": "action", "choice": True}, "protocol"),
        ({"type": "action", "choice": 1.0}, "protocol"),
        ({"type": "act", "choice": 1}, "protocol"),
        ({"type": "action", "choice": 1, "x": 1}, "protocol"),
        ({"type": "action", "action": {"type": "withdraw"}}, {"type": "withdraw"}),
    ],
)
def test_read_action_reply(message: dict[str, object], result: object) -> None:
    if isinstance(result, str):
        with pytest.raises(BadReply) as e:
            read_action_reply(message, 3)
        assert e.value.kind == result
    else:
        assert read_action_reply(message, 3) == result


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b"not json", "malformed"),
        (b"\xff\xfe", "malformed"),
        (b"", "malformed"),
        (b"[1, 2]", "protocol"),
        (b'"text"', "protocol"),
        (b"3", "protocol"),
        (b"null", "protocol"),
    ],
)
def test_decode_line_faults(line: bytes, kind: str) -> None:
    with pytest.raises(BadReply) as e:
        decode_line(line)
    assert e.value.kind == kind


def test_decode_line_accepts_an_object() -> None:
    assert decode_line(b'{"type": "action", "choice": 0}') == {"type": "action", "choice": 0}


GOOD_HELLO = {"type": "hello", "name": "b", "version": "1.0", "protocol_version": 1}


@pytest.mark.parametrize(
    ("change", "text"),
    [
        ({"type": "hi"}, 'expected a "hello"'),
        ({"protocol_version": 2}, "speaks arena protocol version 2"),
        ({"protocol_version": "1"}, '"protocol_version": 1'),
        ({"protocol_version": None}, '"protocol_version": 1'),
        ({"name": ""}, '"name"'),
        ({"name": 7}, '"name"'),
        ({"version": 1}, '"version"'),
        ({"colour": "red"}, "unknown fields"),
    ],
)
def test_hello_reply_faults(change: dict[str, object], text: str) -> None:
    with pytest.raises(BadReply) as e:
        check_hello_reply({**GOOD_HELLO, **change})
    assert e.value.kind == "protocol" and text in e.value.detail


def test_hello_reply_ok() -> None:
    info = check_hello_reply(GOOD_HELLO)
    assert (info.name, info.version) == ("b", "1.0")


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ({"type": "action", "choice": 5}, "illegal"),
        ({"type": "action", "choice": -1}, "illegal"),
        ({"type": "action", "choice": True}, "protocol"),
        ({"type": "action", "choice": 1.0}, "protocol"),
        ({"type": "action"}, "protocol"),
        ({"type": "action", "choice": 0, "action": {"type": "withdraw"}}, "protocol"),
        ({"type": "action", "action": [1]}, "protocol"),
        ({"type": "hello", "choice": 0}, "protocol"),
        ({"choice": 0}, "protocol"),
        ({"type": "action", "choice": 0, "x": 1}, "protocol"),
    ],
)
def test_action_reply_faults(message: dict[str, object], kind: str) -> None:
    with pytest.raises(BadReply) as e:
        read_action_reply(message, legal=5)
    assert e.value.kind == kind


def test_action_reply_choice_or_action() -> None:
    assert read_action_reply({"type": "action", "choice": 4}, legal=5) == 4
    action = {"type": "withdraw"}
    assert read_action_reply({"type": "action", "action": action}, legal=5) == action


def test_seat_seeds_are_reproducible_distinct_and_do_not_reveal_the_match_seed() -> None:
    from tajmahal.arena.terms import seat_seed

    assert seat_seed(7, 0) == seat_seed(7, 0)
    seeds = {seat_seed(7, seat) for seat in range(5)}
    assert len(seeds) == 5 and all(0 <= s < 2**31 for s in seeds)
    # The old linear formula gave 7 * 1_000_003 + 1 for seat 0 of match 7, from
    # which a bot could work back the match seed (and so the deck).
    assert seat_seed(7, 0) != 7 * 1_000_003 + 1
    assert seat_seed(8, 0) - seat_seed(7, 0) != seat_seed(9, 0) - seat_seed(8, 0)
