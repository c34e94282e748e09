"""JSON text of immutable values, kept from one decision to the next.

The referee encodes, for every decision, the acting seat's view and its legal
actions: a few kB of JSON, most of it unchanged since the decision before.  The
engine shares unchanged parts between successive states (a seat's record, the
tuple of them, the bonus tiles), and reuses its action objects, so their JSON
text can be kept by identity and spliced in as an :class:`orjson.Fragment`.

This module is compiled with mypyc along with the engine (``setup.py``), which
halves its cost; it knows no game.  :class:`Texts` reads the fields of views and
events and keeps the text of their parts, :class:`ArrayTexts` the text of each
action.

Kept by identity means: an entry holds its object, so the object's ``id`` cannot
be reused while the entry lives.  Every cache is emptied when it reaches its limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs
import orjson

_SCALARS: Final = frozenset({int, str, bool, type(None)})
#: The item types of a tuple orjson encodes as the converter does (not None first:
#: a tuple of optional attrs values may start with one).
_PLAIN: Final = frozenset({int, str, bool, float})
_FIELDS: Final[dict[type, tuple[str, ...]]] = {}


def field_names(kind: type) -> tuple[str, ...]:
    """The field names of the attrs class ``kind``, in order (kept per class)."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in attrs.fields(kind))
    return names


def plain(
    value: Any, otherwise: Callable[[Any], Any], converted: frozenset[type] = frozenset()
) -> Any:
    """What orjson needs to encode an engine value as the converter's data does:
    attrs values become dicts (fields in order); tuples of scalars stay as they are;
    anything else, and the classes ``converted`` (members of the converter's tagged
    unions: an action inside a view), is given to ``otherwise``."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:
        if not value or type(value[0]) in _PLAIN:
            return value
        return [plain(x, otherwise, converted) for x in value]
    if kind in converted or not attrs.has(kind):
        return otherwise(value)
    return {f: plain(getattr(value, f), otherwise, converted) for f in field_names(kind)}


class Texts:
    """The JSON texts of a game's views and events, built straight from its values.

    :meth:`fields` gives the dict of a view (or an event) for orjson, the value of
    each compound field through :meth:`part`: numbers, strings and tuples of them go
    to orjson as they are; a compound value (a tuple of attrs values, an attrs
    value) is kept by identity, attrs values also by value, and comes back as a JSON
    fragment.
    ``otherwise`` gives the data of a value that is neither, and of the classes
    ``converted`` (the game's converter, for its tagged actions).
    """

    def __init__(
        self,
        otherwise: Callable[[Any], Any],
        limit: int,
        converted: frozenset[type] = frozenset(),
    ) -> None:
        self.otherwise = otherwise
        self.converted = converted
        self.limit = limit
        #: id -> (object, JSON text): the object is held, so its id is not reused.
        self.shared: dict[int, tuple[Any, bytes]] = {}
        #: small attrs values (a score, a pending withdrawal) -> JSON text.
        self.values: dict[Any, bytes] = {}

    def fields(self, value: Any, names: tuple[str, ...]) -> dict[str, Any]:
        """The dict orjson encodes as the converter's data of the attrs ``value``,
        its fields ``names`` in order: scalars and tuples of scalars as they are,
        every compound field through :meth:`part`."""
        out: dict[str, Any] = {}
        for name in names:
            field = getattr(value, name)
            kind = type(field)
            if (
                kind in _SCALARS
                or kind is float
                or (kind is tuple and (not field or type(field[0]) in _PLAIN))
            ):
                out[name] = field
            else:
                out[name] = self.part(field)
        return out

    def tagged(self, value: Any, tag: str, names: tuple[str, ...]) -> dict[str, Any]:
        """:meth:`fields` of a member of a tagged union, its ``"type"`` first."""
        out: dict[str, Any] = {"type": tag}
        out.update(self.fields(value, names))
        return out

    def keep(self, value: Any, text: bytes) -> None:
        if len(self.shared) >= self.limit:
            self.shared.clear()
        self.shared[id(value)] = (value, text)

    def part(self, value: Any) -> Any:
        """A compound ``value`` (a tuple, an attrs value, or None) as a fragment of
        JSON."""
        if value is None:
            return None
        entry = self.shared.get(id(value))
        if entry is not None and entry[0] is value:
            return orjson.Fragment(entry[1])
        text = self.array(value) if type(value) is tuple else self.value(value)
        self.keep(value, text)
        return orjson.Fragment(text)

    def array(self, items: tuple[Any, ...]) -> bytes:
        """The JSON array of ``items``: attrs values (or None) each by value."""
        parts = []
        for item in items:
            if item is None:
                parts.append(b"null")
            elif attrs.has(type(item)):  # most are unchanged since the last decision
                entry = self.shared.get(id(item))
                if entry is not None and entry[0] is item:
                    parts.append(entry[1])
                else:
                    text = self.value(item)
                    self.keep(item, text)
                    parts.append(text)
            else:  # scalars, tuples: as they are
                whole: bytes = orjson.dumps(plain(items, self.otherwise, self.converted))
                return whole
        return b"[" + b",".join(parts) + b"]"

    def value(self, value: Any) -> bytes:
        """The JSON of an attrs value, kept by value."""
        try:
            found = self.values.get(value)
        except TypeError:  # not hashable: nothing is kept
            text: bytes = orjson.dumps(plain(value, self.otherwise, self.converted))
            return text
        if found is None:
            if len(self.values) >= self.limit:
                self.values.clear()
            found = orjson.dumps(plain(value, self.otherwise, self.converted))
            self.values[value] = found
        return found


class ArrayTexts:
    """The JSON text of a game's actions, kept for all its matches (a game has
    hundreds of actions, and every decision lists several).  An action is found by
    identity first, then by value: the engine reuses most action objects, and
    hashing one is a Python call."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.by_value: dict[Any, bytes] = {}
        self.by_id: dict[int, tuple[Any, bytes]] = {}

    def array(self, data: Callable[[Any], Any], actions: Sequence[Any]) -> bytes:
        """The JSON array of ``actions``; ``data`` gives an action's JSON data."""
        by_id = self.by_id
        parts = []
        for action in actions:
            entry = by_id.get(id(action))
            if entry is None or entry[0] is not action:
                try:
                    text = self.by_value.get(action)
                except TypeError:  # actions that cannot be dict keys: nothing is kept
                    whole: bytes = orjson.dumps([data(a) for a in actions])
                    return whole
                if text is None:
                    text = orjson.dumps(data(action))
                    if len(self.by_value) >= self.limit:
                        self.by_value.clear()
                    self.by_value[action] = text
                if len(by_id) >= self.limit:
                    by_id.clear()
                entry = by_id[id(action)] = (action, text)  # holds the action: its id stays
            parts.append(entry[1])
        return b"[" + b",".join(parts) + b"]"
