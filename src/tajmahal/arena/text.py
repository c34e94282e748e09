"""Text that came from a bot, made safe to quote and to print.

Everything a bot controls (its lines, its name and version, its stderr, and
whatever a record file says) may be hostile: nested a thousand levels deep, a
megabyte long, or full of terminal escape codes.  :func:`quote` describes any
value in a bounded number of characters without recursion, and :func:`printable`
makes a text harmless for a terminal.  Both never raise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final, cast

import orjson

#: How deep :func:`quote` shows nested arrays and objects.
MAX_DEPTH: Final = 6

# C0 controls (but newline, when kept), DEL, C1 controls, and the Unicode format
# characters that reorder or hide text on a terminal (bidirectional overrides and
# isolates, zero-width characters, the BOM).
_CONTROL: Final = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
_CONTROL_AND_NEWLINE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
# An escape sequence: ESC [ ... final byte, ESC ] ... BEL/ST, or ESC and one character.
_ESCAPE: Final = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.?)", re.S)


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, newlines: bool = False, limit: int | None = None) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``,
    ``\\u202e``) instead of acting on the terminal; whole escape sequences
    (colours, cursor moves, titles) are shown as escapes too.  Newlines are kept
    if ``newlines``.  ``limit`` cuts the result to that many characters."""
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 3)] + "..."
    if text.isprintable() and "\x1b" not in text:
        return text  # the usual case: nothing to do
    text = _ESCAPE.sub(lambda m: printable_escape(m.group()), text)
    pattern = _CONTROL if newlines else _CONTROL_AND_NEWLINE
    return pattern.sub(_visible, text)


def printable_escape(sequence: str) -> str:
    """An escape sequence, every character of it shown (``\\x1b[31m``)."""
    return "".join(f"\\x{ord(c):02x}" if ord(c) < 0x20 or ord(c) == 0x7F else c for c in sequence)


def quote(value: Any, limit: int = 80) -> str:
    """A short JSON-like text for ``value`` (anything: what a bot sent, decoded),
    at most ``limit`` characters, arrays and objects shown :data:`MAX_DEPTH` deep,
    control characters escaped.  Iterative: no depth of nesting makes it fail."""
    try:
        parts: list[str] = []
        size = 0
        for part in _tokens(value):
            parts.append(part)
            size += len(part)
            if size > limit:
                break
        text = "".join(parts)
    except Exception:  # a hostile object of an in-process bot: say what it is
        text = f"<{type(value).__name__}>"
    text = printable(text)
    if len(text) > limit:
        text = text[: max(0, limit - 3)] + "..."
    return text


def _scalar(value: Any) -> str:
    if value is None or value is True or value is False:
        return "null" if value is None else ("true" if value else "false")
    if isinstance(value, int):
        if value.bit_length() > 64:
            digits = int(value.bit_length() * 0.30103)
            return f"<an integer of about {digits} digits>"
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return orjson.dumps(value[:200]).decode()
    return f"<{type(value).__name__}>"


class _Frame:
    """An array or object being written: its remaining items, and how many so far."""

    __slots__ = ("closer", "count", "is_object", "items")

    def __init__(self, items: Iterator[Any], is_object: bool, closer: str) -> None:
        self.items = items
        self.is_object = is_object
        self.closer = closer
        self.count = 0


_DONE: Final[Any] = object()


def _tokens(value: Any) -> Iterator[str]:
    """The pieces of :func:`quote`'s text, in order, from an explicit stack."""
    stack: list[_Frame] = []
    current: Any = value
    while True:
        if isinstance(current, dict | list | tuple):
            is_object = isinstance(current, dict)
            opener, closer = ("{", "}") if is_object else ("[", "]")
            if len(stack) >= MAX_DEPTH and current:
                yield opener + "..." + closer
            else:
                yield opener
                items: Iterator[Any] = (
                    iter(current.items()) if isinstance(current, dict) else iter(current)
                )
                stack.append(_Frame(items, is_object, closer))
        else:
            yield _scalar(current)
        while True:  # the next item of the innermost open array or object
            if not stack:
                return
            frame = stack[-1]
            item = next(frame.items, _DONE)
            if item is _DONE:
                stack.pop()
                yield frame.closer
                continue
            separator = "," if frame.count else ""
            frame.count += 1
            if frame.is_object:
                key, current = cast(tuple[Any, Any], item)
                yield separator + _scalar(str(key)) + ":"
            else:
                yield separator
                current = item
            break
