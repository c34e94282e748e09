"""Referee trust, attack 1 fuzzed: whatever bytes a bot writes, reading, checking
and describing them raises nothing but the protocol's BadReply, with a bounded
and printable detail; the referee finishes the game."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal import Setup
from tajmahal.arena import FAULT_KINDS, MatchConfig, play_match
from tajmahal.arena.connection import LineReader
from tajmahal.arena.protocol import BadReply, check_hello_reply, decode_line, read_action_reply
from tajmahal.arena.scripted import Answer, ScriptedConnection
from tajmahal.arena.text import printable, quote
from tajmahal.tajmahal.adapter import TAJMAHAL

_PIECES = [
    b"{", b"}", b"[", b"]", b",", b":", b'"type"', b'"action"', b'"hello"', b'"choice"',
    b'"action"', b'"name"', b'"version"', b'"protocol_version"', b"0", b"1", b"-1",
    b"100000000000000000000000", b"18446744073709551616", b"1e400", b"1.5", b"null",
    b"true", b'"\\u0000"', b'"\\ud800"', b'"\x1b[31m"', b"\xef\xbb\xbf", b"\xff\xfe",
    b"\xc3\x28", b"\x00", b"\r", b"\t", b" ", b"\xe2\x80\xae",
]


@st.composite
def hostile_lines(draw: st.DrawFn) -> bytes:
    """Bytes near the protocol: valid replies mangled, deep nesting, huge numbers,
    byte order marks, control characters and invalid UTF-8."""
    kind = draw(st.sampled_from(["pieces", "deep", "raw", "reply"]))
    if kind == "deep":
        depth = draw(st.integers(1, 3000))
        inner = b"[" * depth + b"]" * depth
        field = draw(st.sampled_from([b"choice", b"type", b"action", b"name", b"version"]))
        return b'{"type":"action","%s":%s}' % (field, inner)
    if kind == "raw":
        return draw(st.binary(max_size=300)).replace(b"\n", b" ")
    if kind == "reply":
        prefix = draw(st.sampled_from([b"", b"\xef\xbb\xbf", b" ", b"\xef\xbb\xbf\xef\xbb\xbf"]))
        choice = draw(st.one_of(
            st.integers(-(2**70), 2**70).map(lambda n: str(n).encode()),
            st.sampled_from([b"0", b"1e23", b"0.0", b'"0"', b"[0]", b"{}"]),
        ))
        return prefix + b'{"type":"action","choice":' + choice + b"}"
    pieces = draw(st.lists(st.sampled_from(_PIECES), max_size=40))
    return b"".join(pieces)


def _bounded(e: BadReply) -> None:
    assert e.kind in FAULT_KINDS
    assert len(e.detail) < 1000
    assert printable(e.detail) == e.detail  # nothing left to escape


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=hostile_lines(), chunk=st.integers(1, 64), legal=st.integers(1, 30))
def test_reading_any_line_raises_only_a_bounded_bad_reply(
    line: bytes, chunk: int, legal: int
) -> None:
    reader = LineReader(1 << 16)
    data = line + b"\n"
    for start in range(0, len(data), chunk):
        assert reader.feed(data[start : start + chunk]) is None
    (got,) = reader.lines
    assert got == line
    for check in ("hello", "act"):
        try:
            message = decode_line(got)
            if check == "hello":
                check_hello_reply(message)
            else:
                choice = read_action_reply(message, legal, got)
                assert isinstance(choice, dict) or 0 <= choice < legal
        except BadReply as e:
            _bounded(e)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=5),
    max_leaves=50,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, limit=st.integers(10, 200))
def test_quote_is_bounded_and_printable(value: Any, limit: int) -> None:
    text = quote(value, limit)
    assert len(text) <= limit
    assert printable(text) == text


def test_quote_survives_what_repr_does_not() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    assert quote(deep) == "[[[[[[" + "[...]" + "]]]]]]"  # six levels, then cut
    assert quote(10**5000) == "<an integer of about 5000 digits>"
    assert quote({"a": "\x1b[2J"}) == '{"a":"\\u001b[2J"}'


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=hostile_lines(), at_hello=st.booleans())
def test_the_referee_finishes_the_game_whatever_one_line_holds(
    line: bytes, at_hello: bool
) -> None:
    script = [Answer(line)] if at_hello else [Answer({"type": "hello", "name": "x",
                                                      "version": "1", "protocol_version": 1}),
                                              Answer(line)]
    conns = [ScriptedConnection(), ScriptedConnection(script), ScriptedConnection()]
    result = play_match(TAJMAHAL, Setup.random(3, 5), conns, MatchConfig())
    assert result.decisions > 100
    assert all(f.seat == 1 and f.kind in FAULT_KINDS for f in result.faults)
    for fault in result.faults:
        assert len(fault.detail) < 2100 and printable(fault.detail) == fault.detail
