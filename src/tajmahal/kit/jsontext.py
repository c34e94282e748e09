"""JSON text of immutable values, kept from one decision to the next.

The referee encodes, for every decision, the acting seat's view and its legal
actions: a few kB of JSON, most of it unchanged since the decision before.  The
engine shares unchanged parts between successive states (a seat's record, the
tuple of them, the bonus tiles), and reuses its action objects, so their JSON
text can be kept by identity and spliced in as an :class:`orjson.Fragment`.

This module is compiled with mypyc along with the engine (``setup.py``), which
halves its cost; it knows no game.  :class:`ViewJson` is given the functions that
build a view's dict from a state (``tajmahal.tajmahal.adapter`` compiles them from the
view's fields), :class:`ArrayTexts` the function that gives an action's data.

Kept by identity means: an entry holds its object, so the object's ``id`` cannot
be reused while the entry lives.  Every cache is emptied when it reaches its limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs
import orjson

_SCALARS: Final = frozenset({int, str, bool, type(None)})
_FIELDS: Final[dict[type, tuple[str, ...]]] = {}


def field_names(kind: type) -> tuple[str, ...]:
    """The field names of the attrs class ``kind``, in order (kept per class)."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in attrs.fields(kind))
    return names


def plain(value: Any, otherwise: Callable[[Any], Any]) -> Any:
    """What orjson needs to encode an engine value as the converter's data does:
    attrs values become dicts (fields in order); tuples of scalars stay as they are;
    anything else is given to ``otherwise``."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:
        if not value or (type(value[0]) in _SCALARS and value[0] is not None):
            return value
        return [plain(x, otherwise) for x in value]
    if not attrs.has(kind):
        return otherwise(value)
    return {f: plain(getattr(value, f), otherwise) for f in field_names(kind)}


class ViewJson:
    """The JSON text of views, built straight from states.

    ``view_dict(state, seat, players, part)`` gives the view's dict, with
    ``players`` (the JSON of the seats' public records, a fragment) and ``part``
    (this object's :meth:`part`) for its compound fields; ``seat_dict(record,
    part)`` gives a seat's public record from the player's state itself, or from
    ``record(player)`` if given.  Numbers, strings
    and tuples of them go to orjson as they are; a compound value (a tuple of attrs
    values, an attrs value) is kept by identity, attrs values also by value.
    """

    def __init__(
        self,
        view_dict: Callable[..., dict[str, Any]],
        seat_dict: Callable[[Any, Callable[[Any], Any]], dict[str, Any]],
        record: Callable[[Any], Any] | None,
        otherwise: Callable[[Any], Any],
        limit: int,
    ) -> None:
        self.view_dict = view_dict
        self.seat_dict = seat_dict
        self.record = record
        self.otherwise = otherwise
        self.limit = limit
        #: id -> (object, JSON text): the object is held, so its id is not reused.
        self.shared: dict[int, tuple[Any, bytes]] = {}
        #: small attrs values (a score, a pending withdrawal) -> JSON text.
        self.values: dict[Any, bytes] = {}

    def encode(self, state: Any, seat: int) -> bytes:
        """The view of ``seat`` in ``state``, as compact JSON."""
        players = orjson.Fragment(self.players(state.players))
        text: bytes = orjson.dumps(self.view_dict(state, seat, players, self.part))
        return text

    def players(self, players: tuple[Any, ...]) -> bytes:
        """The JSON array of every seat's public record."""
        shared = self.shared
        entry = shared.get(id(players))
        if entry is not None and entry[0] is players:
            return entry[1]
        texts = []
        for player in players:  # most are unchanged: look them up here, not in seat()
            entry = shared.get(id(player))
            if entry is not None and entry[0] is player:
                texts.append(entry[1])
            else:
                texts.append(self.seat(player))
        text = b"[" + b",".join(texts) + b"]"
        self.keep(players, text)
        return text

    def seat(self, player: Any) -> bytes:
        """The JSON of one seat's public record."""
        entry = self.shared.get(id(player))
        if entry is not None and entry[0] is player:
            return entry[1]
        record = player if self.record is None else self.record(player)
        text: bytes = orjson.dumps(self.seat_dict(record, self.part))
        self.keep(player, text)
        return text

    def keep(self, value: Any, text: bytes) -> None:
        if len(self.shared) >= self.limit:
            self.shared.clear()
        self.shared[id(value)] = (value, text)

    def part(self, value: Any) -> Any:
        """A compound ``value`` (a tuple of attrs values, an attrs value, or None) as
        a fragment of JSON."""
        if value is None:
            return None
        entry = self.shared.get(id(value))
        if entry is not None and entry[0] is value:
            return orjson.Fragment(entry[1])
        if type(value) is tuple:
            text: bytes = orjson.dumps(plain(value, self.otherwise))
        else:
            found = self.values.get(value)
            if found is None:
                if len(self.values) >= self.limit:
                    self.values.clear()
                found = self.values[value] = orjson.dumps(plain(value, self.otherwise))
            text = found
        self.keep(value, text)
        return orjson.Fragment(text)


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
