"""The converter between a game's values and plain JSON data, as the games share it.

Each game's ``serialize`` module (:mod:`tajmahal.tajmahal.serialize`,
:mod:`tajmahal.tikal.serialize`, :mod:`tajmahal.java.serialize`) makes one
:class:`TaggedConverter` for its own classes and names its methods ``to_data``,
``from_data``, ``dumps`` and ``loads``; bad data raises :class:`DataError`.
Frozen attrs values become dicts (fields in order), tuples lists; the members of
a union (a game's actions, its events) carry a ``"type"`` tag first, the class
name in snake case; data turns back into values exactly, and keys a class does
not have are refused.

Reading is strict about JSON types: an integer field takes a JSON integer only
(not ``"3"``, ``3.0`` or ``true``), a boolean field ``true`` or ``false`` only (not
``"false"``, which Python would read as true), a string field a string, an array
field an array.  Errors name the path of the field, from ``root``.

>>> from tajmahal.tajmahal.actions import Action, Play
>>> converter = TaggedConverter({"Action": Action})
>>> converter.to_data(Play(3))
{'type': 'play', 'card': 3, 'extra': None}
>>> converter.from_data({"type": "play", "card": 3, "extra": None}, Action)
Play(card=3, extra=None)
>>> converter.from_data({"card": 3}, Action)
Traceback (most recent call last):
...
tajmahal.kit.tagged.DataError: bad Action: expected a JSON object with a "type"
>>> converter.from_data({"type": "play", "card": "3"}, Action, root="action")
Traceback (most recent call last):
...
tajmahal.kit.tagged.DataError: bad Action: expected an integer, got "3" @ action.card
>>> converter.loads('{"type": "withdraw"}', Action)
Withdraw()
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final

import cattrs
from cattrs.cols import homogenous_tuple_structure_factory
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception


def type_tag(cls: type) -> str:
    """The ``"type"`` tag of a class: ``BuildMogulPalace`` -> ``build_mogul_palace``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _no_hooks(converter: cattrs.Converter) -> None:
    return None


class DataError(ValueError):
    """Data that does not describe a value of the requested type."""


class WrongType(TypeError):
    """A JSON value of the wrong type for its field (the message says which)."""


def _shown(value: Any) -> str:
    """``value`` as JSON, shortened."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


#: The JSON type each Python scalar type takes, and its name in errors.
_SCALARS: Final[dict[type, tuple[tuple[type, ...], str]]] = {
    int: ((int,), "an integer"),
    bool: ((bool,), "a boolean (true or false)"),
    str: ((str,), "a string"),
    float: ((int, float), "a number"),
}


def _strict(kind: type) -> Callable[[Any, type], Any]:
    """A structure hook that takes exactly the JSON values of ``kind``."""
    accepted, name = _SCALARS[kind]

    def structure(value: Any, _: type) -> Any:
        if type(value) not in accepted:
            raise WrongType(f"expected {name}, got {_shown(value)}")
        return value

    return structure


def _is_array(hint: Any) -> bool:
    """``tuple[X, ...]``: a JSON array."""
    args = typing.get_args(hint)
    return typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis


def _array(hint: Any, converter: cattrs.BaseConverter) -> Callable[[Any, type], Any]:
    items = homogenous_tuple_structure_factory(hint, converter)

    def structure(value: Any, cls: type) -> Any:
        if type(value) is not list:
            raise WrongType(f"expected an array, got {_shown(value)}")
        return items(value, cls)

    return structure


def _strict_hooks(converter: cattrs.Converter) -> None:
    """JSON types taken strictly (see the module docstring)."""
    for kind in _SCALARS:
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_structure_hook_factory(_is_array, _array)


def _problem(exc: BaseException, kind: type | None) -> str:
    """An error for people: the strict hooks' own messages, else cattrs'."""
    if isinstance(exc, WrongType):
        return str(exc)
    if kind is not None and isinstance(exc, TypeError | ValueError) and _union(kind):
        return f"expected {kind}, got another value"
    return format_exception(exc, kind)


def _union(kind: Any) -> bool:
    return typing.get_origin(kind) in (typing.Union, types.UnionType)


class TaggedConverter:
    """``to_data`` and ``from_data`` for one game's values.

    ``unions`` names each union whose members carry the ``"type"`` tag (the name is
    for error messages: ``{"Action": Action, "Event": Event}``); bad data raises
    ``error`` (:class:`DataError`).  ``hooks`` registers the game's own cattrs hooks
    before the unions are configured.
    """

    def __init__(
        self,
        unions: Mapping[str, Any],
        error: Callable[[str], Exception] = DataError,
        hooks: Callable[[cattrs.Converter], None] = _no_hooks,
    ) -> None:
        converter = make_converter(forbid_extra_keys=True)
        _strict_hooks(converter)
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

    def union(self, name: str) -> Any:
        """The union named ``name`` (``"Action"``)."""
        for union, union_name in self.names.items():
            if union_name == name:
                return union
        raise KeyError(name)

    def to_data(self, value: Any) -> Any:
        """Plain JSON data for ``value`` (members of the unions carry a ``"type"``)."""
        kind = type(value)
        return self.converter.unstructure(value, unstructure_as=self.unions.get(kind, kind))

    def from_data(self, data: Any, cls: Any, root: str = "$") -> Any:
        """The value of type ``cls`` (a class, or one of the unions) described by
        ``data``; raises the game's error, naming ``cls`` and the path of each bad
        field from ``root`` (the name of ``data`` for people: ``$``, ``action``)."""
        union = cls in self.names
        name = self.names[cls] if union else getattr(cls, "__name__", None) or repr(cls)
        if union and not (isinstance(data, dict) and "type" in data):
            raise self.error(f'bad {name}: expected a JSON object with a "type"')
        try:
            return self.converter.structure(data, cls)
        except Exception as e:  # cattrs raises several kinds; all mean "bad data"
            if isinstance(e, cattrs.BaseValidationError):
                detail = "; ".join(cattrs.transform_error(e, root, _problem))
            elif isinstance(e, KeyError) and union:
                detail = f'unknown "type" {_shown(data["type"])} @ {root}.type'
            elif isinstance(e, WrongType):
                detail = f"{e} @ {root}"
            else:
                detail = str(e) or type(e).__name__
            raise self.error(f"bad {name}: {detail}") from None

    def dumps(self, value: Any) -> str:
        """Compact JSON text for ``value``."""
        return json.dumps(self.to_data(value), separators=(",", ":"))

    def loads(self, text: str | bytes, cls: Any) -> Any:
        """The value of type ``cls`` in the JSON ``text``; raises the game's error."""
        try:
            data = json.loads(text)
        except ValueError as e:
            raise self.error(f"not JSON: {e}") from None
        return self.from_data(data, cls)
