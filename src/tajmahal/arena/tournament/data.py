"""The tournament's own JSON data (tasks for the workers, outcomes, journal lines,
the sequential test's parameters), written and read by cattrs.

A class's data is an object of its fields, in their order; reading converts each
value to its field's type (``int(...)``, ``str(...)``, nested attrs classes) and
gives a field that is left out its default.  Bad data raises Python's own errors
(KeyError, ValueError, TypeError), which the callers turn into theirs.
"""

from __future__ import annotations

from typing import Any, Self

import cattrs

CONVERTER = cattrs.Converter(detailed_validation=False)


class Data:
    """:meth:`to_data` and :meth:`from_data` for an attrs class, by :data:`CONVERTER`
    (a class with other names for its fields registers its own hooks there)."""

    __slots__ = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = CONVERTER.unstructure(self)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return CONVERTER.structure(data, cls)
