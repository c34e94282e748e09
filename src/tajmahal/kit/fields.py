"""Constructors compiled from attrs fields: :func:`copier`.

A view is mostly its state's fields under the same names (a picture's scene
likewise); written by hand, each game lists every field twice, and a field added
to both classes must be added to the copy too.  :func:`copier` writes that
function once, from the target class's fields, as attrs writes ``__init__``: the
source of one call is built and compiled at import, so it costs what the hand-
written call cost (a loop over the fields at run time measured about 40% slower
on Taj Mahal's view).  Only the fields that are not copied are declared.

>>> from attrs import frozen
>>> @frozen
... class Point:
...     x: int
...     y: int
...     label: str
>>> @frozen
... class Marked:
...     x: int
...     y: int
...     label: str
...     seen_by: int
>>> mark = copier(Marked, "point, seen_by", label="point.label.upper()")
>>> mark(Point(1, 2, "a"), 3)
Marked(x=1, y=2, label='A', seen_by=3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs


def copier(
    cls: type,
    args: str,
    namespace: Mapping[str, Any] | None = None,
    left: Sequence[str] = (),
    **by_hand: str,
) -> Callable[..., Any]:
    """A function of ``args`` (its parameter list, the source object first) that
    returns a ``cls`` built from its fields, in order: a field named like a
    parameter takes that parameter, a field of ``by_hand`` that expression (of the
    parameters and of ``namespace``'s names), and every other field the like-named
    attribute of the source.  The fields ``left`` keep their defaults (they must
    come last), as do those ``__init__`` does not take."""
    params = [a.split(":")[0].split("=")[0].strip() for a in args.split(",")]
    source = params[0]
    values: list[str] = []
    skipped = None  # the first field left to its default
    for f in attrs.fields(cls):
        if not f.init:
            continue
        if f.name in by_hand:
            value = by_hand[f.name]
        elif f.name in params:
            value = f.name
        elif f.name not in left:
            value = f"{source}.{f.name}"
        else:
            skipped = skipped or f.name
            continue
        if skipped is not None:
            raise TypeError(f"{cls.__name__}.{f.name} comes after {skipped}, left to its default")
        values.append(value)
    unknown = (set(by_hand) | set(left)) - set(attrs.fields_dict(cls))
    if unknown:
        raise TypeError(f"{cls.__name__} has no fields {sorted(unknown)}")
    name = f"{cls.__name__.lower()}_of"
    scope: dict[str, Any] = {**(namespace or {}), "_cls": cls}
    exec(f"def {name}({args}):\n    return _cls({', '.join(values)})\n", scope)
    return scope[name]  # type: ignore[no-any-return]
