"""Building frozen attrs values fast, for engines that make a new state every step.

A frozen slotted attrs class sets each field in its ``__init__`` through
``object.__setattr__`` (about a thousand interpreter instructions a field).  An
engine that builds many such values can set the slots through their own
descriptors instead: :func:`slot_setters` gives the ``__set__`` of each slot in
field order, and the engine writes one small builder per class::

    _NEW: Final = object.__new__
    _SEAT_SET: Final = slot_setters(Seat)

    def _seat(reserve: int, leader: int) -> Seat:
        s: Seat = _NEW(Seat)
        _SEAT_SET[0](s, reserve)
        _SEAT_SET[1](s, leader)
        return s

The instance is the same as ``Seat(reserve, leader)``, provided the class has
nothing its ``__init__`` would add: no validators, converters, post-init or fields
left out of ``__init__`` -- :func:`slot_setters` refuses such a class, so a
validator added later fails at import instead of being skipped.  Every field must
be given (defaults are not filled in).  Twice as fast as ``__init__`` from
mypyc-compiled code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each of ``cls``'s slots, in field order."""
    fields = attrs.fields(cls)
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__}: built by its slots, it must not need a post-init")
    for f in fields:
        if f.validator is not None or f.converter is not None or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: built by its slot, it must be plain")
    return tuple(cls.__dict__[f.name].__set__ for f in fields)
