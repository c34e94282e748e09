"""A function of an immutable value, kept by the value's identity: :func:`by_identity`.

A view is made anew at every decision, but most of what it shows is unchanged
since the decision before: the engine shares the unchanged parts of successive
states (a seat's record, the tuple of them, a space).  A part of a view made from
such a part (a seat's public record, a space as everybody sees it) is made once,
kept by the identity of what it was made from, and given again while that is
unchanged; the view's JSON text then finds it kept too, by identity
(:class:`tajmahal.arena.jsontext.Texts`).

>>> from attrs import frozen
>>> @frozen
... class Seat:
...     hand: tuple[int, ...]
>>> hand_size = by_identity(lambda seat: len(seat.hand))
>>> seat = Seat((3, 5))
>>> hand_size(seat), hand_size(seat)
(2, 2)
>>> hand_sizes = each(lambda seat: len(seat.hand))
>>> hand_sizes((seat, Seat((1,))))
(2, 1)

Kept by identity means: an entry holds its key, so the key's ``id`` cannot be
reused while the entry lives; the entries are dropped all at once at the limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: How many values a function keeps (then it forgets them all and starts again).
LIMIT: Final = 4096


class ByIdentity(Generic[K, V]):
    """``make``, its results kept by the identity of its argument (see the module)."""

    def __init__(self, make: Callable[[K], V], limit: int = LIMIT) -> None:
        self.make = make
        self.limit = limit
        self.kept: dict[int, tuple[K, V]] = {}
        self.__doc__ = make.__doc__

    def __call__(self, key: K) -> V:
        entry = self.kept.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        value = self.make(key)
        if len(self.kept) >= self.limit:
            self.kept.clear()
        self.kept[id(key)] = (key, value)
        return value

    def __repr__(self) -> str:
        return f"by_identity({getattr(self.make, '__qualname__', self.make)!r})"


def by_identity(make: Callable[[K], V]) -> ByIdentity[K, V]:
    """``make`` (a pure function of one immutable value), its results kept by the
    identity of its argument; usable as a decorator."""
    return ByIdentity(make)


def each(make: Callable[[K], V]) -> ByIdentity[tuple[K, ...], tuple[V, ...]]:
    """``make`` of every item of a tuple (a state's seats, its spaces), each result
    kept by its item's identity and the whole tuple by the tuple's: a decorator."""
    one = by_identity(make)

    def items(values: tuple[K, ...]) -> tuple[V, ...]:
        return tuple([one(v) for v in values])

    items.__doc__ = make.__doc__
    return ByIdentity(items)
