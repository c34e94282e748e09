"""Observations fast enough for environments, written once for every game.

An environment asks for one seat's observation after every step, and a step
changes little: the seat that acted, a card or two, whose turn it is.  A game
that declares its observation in *parts* (:class:`Part`, :class:`Items`) gets
an :class:`Observer` that rewrites only the parts whose inputs changed since the
last state it saw, and serves every seat from the same numbers:

- the parts write what every seat sees, in the frame of seat 0 (row ``q`` of a
  per-seat block is seat ``q``); a seat's observation is that vector with its
  per-seat axes turned to the seat (:func:`rotations`: row 0 the observing seat,
  row 1 the next one ...), a single gather;
- the game's ``observe(state, seat, writer)`` then writes what that seat alone
  sees (its hand: the encoding's ``private`` blocks).

A part names what it reads (``key``: compared with the last state's by identity,
then equality; the engines' states are immutable and share what a step leaves
alone, so an unchanged part costs one comparison) and writes its elements
(``write``).  Parts write disjoint elements.  The result is the same as writing
every part afresh (tests compare them), which :meth:`Observer.fresh` does.

>>> from tajmahal.kit.encoding import observation_layout
>>> layout = observation_layout(2, [("turn", (1,), 9, "the turn"),
...                                  ("chips", ("n",), 20, "chips by relative seat")])
>>> parts = [Part(lambda s: s[0], lambda s, e: e.put("turn", 0, s[0])),
...          Items(lambda s: s[1], (Field.whole(lambda q, c, e: e.put("chips", q, c)),))]
>>> observer = Observer(layout, parts, lambda state, seat, writer: None)
>>> observer.observation((3, (5, 7)), 0).tolist(), observer.observation((3, (5, 7)), 1).tolist()
([3.0, 5.0, 7.0], [3.0, 7.0, 5.0])

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, Final, Generic, TypeVar

import numpy as np
import numpy.typing as npt
from attrs import frozen

from .encoding import ObservationLayout, Vector, Writer, scatter

S = TypeVar("S")

__all__ = ["Emit", "Field", "Items", "Observer", "Part", "rotations"]

Indices = npt.NDArray[np.intp]
_UNSEEN: Final = object()  # the key of a part not written yet


class Emit:
    """What a part writes, by block name and flat position in the block (rows of
    per-seat blocks by absolute seat): elements that hold 1 (:meth:`one`,
    :meth:`ones`), others (:meth:`put`, :meth:`row`), whole blocks (:meth:`dense`)."""

    __slots__ = ("_at", "_dense", "_ones", "_values", "layout", "offset")

    def __init__(self, layout: ObservationLayout) -> None:
        self.layout = layout
        self.offset = layout.offsets
        self._ones: list[int] = []
        self._at: list[int] = []
        self._values: list[float] = []
        self._dense: list[tuple[int, Vector]] = []

    def one(self, name: str, position: int = 0) -> None:
        self._ones.append(self.offset[name] + position)

    def ones(self, name: str, positions: Iterable[int], shift: int = 0) -> None:
        """1 at each of ``positions`` (plus ``shift``: a row's start, say)."""
        self._ones.extend(map((self.offset[name] + shift).__add__, positions))

    def put(self, name: str, position: int, value: float) -> None:
        if value:
            self._at.append(self.offset[name] + position)
            self._values.append(value)

    def row(self, name: str, position: int, values: Sequence[float]) -> None:
        """The elements of block ``name`` from flat ``position`` on: ``values`` (zeros
        included), a row of a per-seat block, say."""
        start = self.offset[name] + position
        self._at.extend(range(start, start + len(values)))
        self._values.extend(values)

    def dense(self, name: str, values: Any) -> None:
        """The whole block ``name`` (any array of its size, flattened)."""
        self._dense.append((self.offset[name], np.asarray(values, np.float32).ravel()))

    def mark(self) -> tuple[int, int, int]:
        """Where the next part's elements will start (see :meth:`since`)."""
        return len(self._ones), len(self._at), len(self._dense)

    def since(self, mark: tuple[int, int, int]) -> Where:
        """Where the elements collected since ``mark`` go: their positions, and the
        spans of the whole blocks."""
        o, a, d = mark
        return self._ones[o:] + self._at[a:], [
            slice(start, start + len(values)) for start, values in self._dense[d:]
        ]

    def flush(self, vec: Vector) -> None:
        """Write everything collected into ``vec`` (a few numpy calls for all the
        parts of a state) and forget it."""
        if self._ones:
            scatter(vec, self._ones, 1.0)
            self._ones = []
        if self._at:
            scatter(vec, self._at, self._values)
            self._at, self._values = [], []
        if self._dense:
            for start, values in self._dense:
                vec[start : start + len(values)] = values
            self._dense = []


#: Where a part wrote: element positions, spans of whole blocks.
Where = tuple[list[int], list[slice]]
_NOWHERE: Final[Where] = ([], [])


@frozen
class Part(Generic[S]):
    """One part of an observation: ``key(state)`` is what it reads (the part is
    rewritten when it is not the last one, by identity, then equality), and
    ``write(state, emit)`` writes its elements."""

    key: Callable[[S], object]
    write: Callable[[S, Emit], None]


@frozen
class Field:
    """One piece of an item of :class:`Items`: ``key(item)`` is what it reads,
    ``write(i, item, emit)`` writes it for item ``i``.  ``Field.whole(write)`` is
    the item as one piece."""

    key: Callable[[Any], object]
    write: Callable[[int, Any, Emit], None]

    @classmethod
    def whole(cls, write: Callable[[int, Any, Emit], None]) -> Field:
        return cls(_itself, write)


def _itself(item: object) -> object:
    return item


@frozen
class Items(Generic[S]):
    """A part made of the items of a sequence of fixed length (the seats, a board's
    spaces): ``items(state)`` is the sequence, each item written in ``fields``;
    only the fields of the items that changed are rewritten."""

    items: Callable[[S], Sequence[object]]
    fields: tuple[Field, ...]


@cache
def rotations(layout: ObservationLayout) -> list[Indices]:
    """For each seat, the gather that turns an observation in seat 0's frame into
    the seat's: every axis of a per-seat block (``"n"`` in its declared shape: the
    layout's player count at that place) rotated so that the seat comes first
    (made once per layout: do not change them)."""
    n = layout.players
    out = []
    for seat in range(n):
        pieces = []
        for block in layout.blocks:
            index = np.arange(block.offset, block.stop).reshape(block.shape)
            for axis in block.seat_axes:
                index = np.roll(index, -seat, axis=axis)
            pieces.append(index.ravel())
        out.append(np.concatenate(pieces) if pieces else np.zeros(0, np.intp))
    return out


class Observer(Generic[S]):
    """Every seat's observation of a game's states, from its parts (the module
    docstring): one per user that observes a sequence of states (an environment)."""

    def __init__(
        self,
        layout: ObservationLayout,
        parts: Sequence[Part[S] | Items[S]],
        private: Callable[[S, int, Writer], None],
    ) -> None:
        self.layout = layout
        self.parts = tuple(parts)
        self.private = private
        self.perms = rotations(layout)
        self.vec: Vector = layout.zeros()
        self.emit = Emit(layout)
        self.last: Any = _UNSEEN
        count = len(self.parts)
        self._keys: list[Any] = [_UNSEEN] * count
        self._where: list[Any] = [_NOWHERE] * count
        #: The elements to clear at the next flush.
        self._cleared: list[int] = []
        self._whole = [isinstance(part, Part) for part in self.parts]

    def update(self, state: S) -> Vector:
        """The vector of every part (seat 0's frame, nobody's private blocks) of
        ``state``, rewriting the parts that changed since the last state."""
        if state is self.last:
            return self.vec
        keys, where, cleared = self._keys, self._where, self._cleared
        for i, part in enumerate(self.parts):
            if self._whole[i]:
                assert isinstance(part, Part)
                self._refresh(keys, where, i, part.key(state), part.write, state)
            else:
                assert isinstance(part, Items)
                self._update_items(i, part, state)
        vec = self.vec
        if cleared:
            scatter(vec, cleared, 0.0)
            cleared.clear()
        self.emit.flush(vec)
        self.last = state
        return vec

    def _refresh(
        self,
        keys: list[Any],
        where: list[Where],
        i: int,
        key: object,
        write: Callable[..., None],
        *args: Any,
    ) -> None:
        """Rewrite piece ``i`` (``write(*args, emit)``) unless ``key`` is its last."""
        old = keys[i]
        if key is old or (old is not _UNSEEN and key == old):
            return
        keys[i] = key
        self._forget(where[i])
        emit = self.emit
        mark = emit.mark()
        write(*args, emit)
        where[i] = emit.since(mark)

    def _forget(self, where: Where) -> None:
        """Clear what a part wrote: its elements at the next flush (before what is
        written then), its whole blocks now."""
        scattered, spans = where
        if scattered:
            self._cleared.extend(scattered)
        for span in spans:
            self.vec[span] = 0.0

    def _update_items(self, i: int, part: Items[S], state: S) -> None:
        items = part.items(state)
        old = self._keys[i]
        if items is old:
            return
        fields = part.fields
        if old is _UNSEEN or len(old) != len(items):
            old = [_UNSEEN] * len(items)
            self._where[i] = [([_UNSEEN] * len(fields), [_NOWHERE] * len(fields)) for _ in items]
        spots = self._where[i]
        for k, (item, before) in enumerate(zip(items, old, strict=True)):
            if item is before:
                continue
            keys, where = spots[k]
            for f, field in enumerate(fields):
                self._refresh(keys, where, f, field.key(item), field.write, k, item)
        self._keys[i] = items

    def observation(self, state: S, seat: int, out: Vector | None = None) -> Vector:
        """What ``seat`` sees of ``state`` (into ``out`` if given, else a new array)."""
        vec = self.update(state)
        if out is None:
            out = vec.take(self.perms[seat])
        else:
            if out.shape != vec.shape:
                raise ValueError(f"out must have shape {vec.shape}, not {out.shape}")
            np.take(vec, self.perms[seat], out=out)
        writer = Writer(self.layout, out, clear=False)
        self.private(state, seat, writer)
        return writer.finish()

    def fresh(self, state: S, seat: int) -> Vector:
        """The same observation with every part written afresh (for tests)."""
        return Observer(self.layout, self.parts, self.private).observation(state, seat)
