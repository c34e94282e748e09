"""The converter between a game's values and plain JSON data, as the games share it.

Each game's ``serialize`` module (:mod:`tajmahal.tajmahal.serialize`,
:mod:`tajmahal.tikal.serialize`, :mod:`tajmahal.java.serialize`) makes one
:class:`TaggedConverter` for its own classes.  Frozen attrs values become dicts
(fields in order), tuples lists; the members of a union (a game's actions, its
events) carry a ``"type"`` tag first, the class name in snake case; data turns
back into values exactly, and keys a class does not have are refused.

>>> from tajmahal.tajmahal.actions import Action, Play
>>> converter = TaggedConverter({"Action": Action}, ValueError)
>>> converter.to_data(Play(3))
{'type': 'play', 'card': 3, 'extra': None}
>>> converter.from_data({"type": "play", "card": 3, "extra": None}, Action)
Play(card=3, extra=None)
>>> converter.from_data({"card": 3}, Action)
Traceback (most recent call last):
...
ValueError: bad Action: expected a JSON object with a "type"
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Mapping
from typing import Any

import cattrs
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union


def type_tag(cls: type) -> str:
    """The ``"type"`` tag of a class: ``BuildMogulPalace`` -> ``build_mogul_palace``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _no_hooks(converter: cattrs.Converter) -> None:
    return None


class TaggedConverter:
    """``to_data`` and ``from_data`` for one game's values.

    ``unions`` names each union whose members carry the ``"type"`` tag (the name is
    for error messages: ``{"Action": Action, "Event": Event}``); bad data raises
    ``error`` (the game's ``DataError``).  ``hooks`` registers the game's own
    cattrs hooks before the unions are configured.
    """

    def __init__(
        self,
        unions: Mapping[str, Any],
        error: Callable[[str], Exception],
        hooks: Callable[[cattrs.Converter], None] = _no_hooks,
    ) -> None:
        converter = make_converter(forbid_extra_keys=True)
        hooks(converter)
        for union in unions.values():
            configure_tagged_union(union, converter, tag_generator=type_tag, tag_name="type")
            tagged = converter.get_unstructure_hook(union)

            def type_first(value: Any, tagged: Any = tagged) -> dict[str, Any]:
                data = tagged(value)
                return {"type": data.pop("type"), **data}

            converter.register_unstructure_hook(union, type_first)
        self.converter = converter
        self.error = error
        self.names: dict[Any, str] = {union: name for name, union in unions.items()}
        #: Each member class, with the union it is unstructured as (to get its tag).
        self.unions: dict[type, Any] = {
            member: union for union in unions.values() for member in typing.get_args(union)
        }

    def to_data(self, value: Any) -> Any:
        """Plain JSON data for ``value`` (members of the unions carry a ``"type"``)."""
        kind = type(value)
        return self.converter.unstructure(value, unstructure_as=self.unions.get(kind, kind))

    def from_data(self, data: Any, cls: Any) -> Any:
        """The value of type ``cls`` (a class, or one of the unions) described by
        ``data``; raises the game's error, naming ``cls``."""
        union = cls in self.names
        name = self.names[cls] if union else getattr(cls, "__name__", None) or repr(cls)
        if union and not (isinstance(data, dict) and "type" in data):
            raise self.error(f'bad {name}: expected a JSON object with a "type"')
        try:
            return self.converter.structure(data, cls)
        except Exception as e:  # cattrs raises several kinds; all mean "bad data"
            if isinstance(e, cattrs.BaseValidationError):
                detail = "; ".join(cattrs.transform_error(e))
            elif isinstance(e, KeyError) and union:
                detail = f'unknown or missing "type" ({e})'
            else:
                detail = str(e) or type(e).__name__
            raise self.error(f"bad {name}: {detail}") from None
