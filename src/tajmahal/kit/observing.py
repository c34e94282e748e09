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
...          Part(lambda s: s[1], lambda s, e: [e.put("chips", q, c) for q, c in enumerate(s[1])])]
>>> observer = Observer(layout, parts, lambda state, seat, writer: None)
>>> observer.observation((3, (5, 7)), 0).tolist(), observer.observation((3, (5, 7)), 1).tolist()
([3.0, 5.0, 7.0], [3.0, 7.0, 5.0])

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Generic, TypeVar

import numpy as np
import numpy.typing as npt
from attrs import frozen

from .encoding import ObservationLayout, Vector, Writer

S = TypeVar("S")

__all__ = ["Emit", "Items", "Observer", "Part", "rotations"]

Indices = npt.NDArray[np.intp]
_NOTHING: Final[Indices] = np.zeros(0, np.intp)
_UNSEEN: Final = object()  # the key of a part not written yet


class Emit:
    """What a part writes, by block name and flat position in the block (rows of
    per-seat blocks by absolute seat): elements that hold 1 (:meth:`one`,
    :meth:`ones`), others (:meth:`put`), whole blocks (:meth:`dense`)."""

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

    def ones(self, name: str, positions: Iterable[int]) -> None:
        base = self.offset[name]
        self._ones.extend([base + p for p in positions])

    def put(self, name: str, position: int, value: float) -> None:
        if value:
            self._at.append(self.offset[name] + position)
            self._values.append(value)

    def dense(self, name: str, values: Any) -> None:
        """The whole block ``name`` (any array of its size, flattened)."""
        self._dense.append((self.offset[name], np.asarray(values, np.float32).ravel()))

    def apply(self, vec: Vector) -> tuple[Indices, list[slice]]:
        """Write what was collected into ``vec`` and forget it; returns where it
        wrote (scattered indices, dense spans), to clear next time."""
        spans = []
        for start, values in self._dense:
            span = slice(start, start + len(values))
            vec[span] = values
            spans.append(span)
        ones, at = self._ones, self._at
        if ones:
            vec[ones] = 1.0
        if at:
            vec[at] = self._values
        where = np.array(ones + at, np.intp) if ones or at else _NOTHING
        self._ones, self._at, self._values, self._dense = [], [], [], []
        return where, spans


@frozen
class Part(Generic[S]):
    """One part of an observation: ``key(state)`` is what it reads (the part is
    rewritten when it is not the last one, by identity, then equality), and
    ``write(state, emit)`` writes its elements."""

    key: Callable[[S], object]
    write: Callable[[S, Emit], None]


@frozen
class Items(Generic[S]):
    """A part made of the items of a sequence of fixed length (a board's spaces):
    ``items(state)`` is the sequence, ``write(state, i, item, emit)`` writes item
    ``i``; only the items that changed are rewritten."""

    items: Callable[[S], Sequence[object]]
    write: Callable[[S, int, Any, Emit], None]


def rotations(layout: ObservationLayout) -> list[Indices]:
    """For each seat, the gather that turns an observation in seat 0's frame into
    the seat's: every axis of a per-seat block (``"n"`` in its declared shape: the
    layout's player count at that place) rotated so that the seat comes first."""
    n = layout.players
    out = []
    for seat in range(n):
        pieces = []
        for block in layout.blocks:
            index = np.arange(block.offset, block.stop).reshape(block.shape)
            for axis in block.seat_axes:
                index = np.roll(index, -seat, axis=axis)
            pieces.append(index.ravel())
        out.append(np.concatenate(pieces) if pieces else _NOTHING)
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
        self._where: list[Any] = [(_NOTHING, [])] * count

    def update(self, state: S) -> Vector:
        """The vector of every part (seat 0's frame, nobody's private blocks) of
        ``state``, rewriting the parts that changed since the last state."""
        if state is self.last:
            return self.vec
        vec, emit, keys, where = self.vec, self.emit, self._keys, self._where
        for i, part in enumerate(self.parts):
            if isinstance(part, Part):
                key = part.key(state)
                old = keys[i]
                if key is old or (old is not _UNSEEN and key == old):
                    continue
                keys[i] = key
                _clear(vec, where[i])
                part.write(state, emit)
                where[i] = emit.apply(vec)
            else:
                self._update_items(i, part, state)
        self.last = state
        return vec

    def _update_items(self, i: int, part: Items[S], state: S) -> None:
        items = part.items(state)
        old = self._keys[i]
        if items is old:
            return
        vec, emit = self.vec, self.emit
        if old is _UNSEEN or len(old) != len(items):
            old = [_UNSEEN] * len(items)
            self._where[i] = [(_NOTHING, [])] * len(items)
        spots = self._where[i]
        for k, (item, before) in enumerate(zip(items, old, strict=True)):
            if item is before or (before is not _UNSEEN and item == before):
                continue
            _clear(vec, spots[k])
            part.write(state, k, item, emit)
            spots[k] = emit.apply(vec)
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


def _clear(vec: Vector, where: tuple[Indices, list[slice]]) -> None:
    scattered, spans = where
    if len(scattered):
        vec[scattered] = 0.0
    for span in spans:
        vec[span] = 0.0
