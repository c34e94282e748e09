"""JSON Schemas of a game's part of the protocol, generated from its classes.

The message schemas of ``protocol/schema/`` (``hello.json``, ``act.json`` ...)
refer to a game's part by name: ``#/$defs/view``, ``action``, ``event``,
``public_setup``, ``breakdown``, ``game``.  :func:`game_schema` makes that part for
any game declared on the kit (:class:`tajmahal.kit.adapter.Adapter`) by walking the
same classes and type hints its converter writes, so the schema cannot drift from
what the referee sends; the game's :class:`SchemaHints` add what a type hint does
not say (a card id's range, the names of an enum, descriptions) and describe the
data that has no class (the hello's setup of Tikal and Java).
``protocol/make_schema.py`` writes one file per game.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Collection, Mapping
from typing import Any, Final, Protocol

import attrs
from attrs import field, frozen

from ..arena.jsontext import field_names
from .tagged import type_tag


class Declared(Protocol):
    """What the schema reads of a game's declaration (a kit
    :class:`~tajmahal.kit.adapter.Adapter`'s class attributes)."""

    name: str
    max_players: int
    score_sources: tuple[str, ...]
    action_type: Any
    event_types: tuple[type, ...]
    view_type: type
    view_skip: tuple[str, ...]
    public_setup_type: Any


INTEGER: Final[dict[str, Any]] = {"type": "integer"}
COUNT: Final[dict[str, Any]] = {"type": "integer", "minimum": 0}


def ref(name: str) -> dict[str, Any]:
    """A reference to the def ``name``."""
    return {"$ref": f"#/$defs/{name}"}


def array(items: Any, size: int | None = None) -> dict[str, Any]:
    """An array of ``items`` (of exactly ``size`` if given)."""
    schema: dict[str, Any] = {"type": "array", "items": items}
    if size is not None:
        schema["minItems"] = schema["maxItems"] = size
    return schema


def record(properties: Mapping[str, Any], optional: Collection[str] = ()) -> dict[str, Any]:
    """An object with exactly ``properties``, all required but ``optional``."""
    return {
        "type": "object",
        "properties": dict(properties),
        "required": [p for p in properties if p not in optional],
        "additionalProperties": False,
    }


@frozen
class SchemaHints:
    """What a game adds to the schema its classes give (keys ``"name"`` apply to a
    field of that name in any class, ``"Class.name"`` to one class's only):

    - ``defs``: named schemas (``card``, ``symbol``) that the others refer to;
    - ``fields``: the schema of a field's scalar values (the items of an array,
      the value of an optional field);
    - ``whole``: the schema of a whole field;
    - ``describe``: a field's description;
    - ``names``: a class's def name (default: its name in snake case);
    - ``classes``: a class's whole schema (a data format of its own);
    - ``optional``: fields that may be left out (``"Play.extra"``);
    - ``public_setup``, ``breakdown``: those defs, when no class gives them
      (default breakdown: an integer for each score source).
    """

    title: str
    description: str
    defs: Mapping[str, Any] = field(factory=dict)
    fields: Mapping[str, Any] = field(factory=dict)
    whole: Mapping[str, Any] = field(factory=dict)
    describe: Mapping[str, str] = field(factory=dict)
    names: Mapping[type, str] = field(factory=dict)
    classes: Mapping[type, Any] = field(factory=dict)
    optional: Collection[str] = ()
    public_setup: Any = None
    breakdown: Any = None


class _Walk:
    """Schemas of type hints, classes going to ``defs`` under their names."""

    def __init__(
        self, hints: SchemaHints, defs: dict[str, Any], unions: Mapping[Any, str]
    ) -> None:
        self.hints = hints
        self.defs = defs
        self.unions = unions  # a tagged union -> its def's name

    def lookup(self, table: Mapping[str, Any], owner: type, name: str) -> Any:
        return table.get(f"{owner.__name__}.{name}", table.get(name))

    def field(self, owner: type, name: str, hint: Any) -> dict[str, Any]:
        whole = self.lookup(self.hints.whole, owner, name)
        schema = dict(whole) if whole is not None else self.of(hint, self.lookup(
            self.hints.fields, owner, name))
        described = self.lookup(self.hints.describe, owner, name)
        if described is not None:
            schema = {"description": described, **schema}
        return schema

    def of(self, hint: Any, leaf: Any = None) -> dict[str, Any]:
        """The schema of ``hint``; ``leaf`` replaces its scalar values' schema."""
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint is type(None):
            return {"type": "null"}
        if hint in self.unions:
            return ref(self.unions[hint])
        if origin in (typing.Union, types.UnionType):
            members = [a for a in args if a is not type(None)]
            if all(attrs.has(m) for m in members) and len(members) > 1:
                inner = self.union(hint)
            else:
                inner_list = [self.of(m, leaf) for m in members]
                inner = inner_list[0] if len(inner_list) == 1 else {"anyOf": inner_list}
            if len(members) < len(args):
                return {"anyOf": [inner, {"type": "null"}]}
            return inner
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return array(self.of(args[0], leaf))
            items = [self.of(a, leaf) for a in args]
            return {"type": "array", "prefixItems": items, "items": False,
                    "minItems": len(items)}
        if leaf is not None and hint in (int, str, float):  # a bool stays a boolean
            return dict(leaf)
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return dict(INTEGER)
        if hint is float:
            return {"type": "number"}
        if hint is str:
            return {"type": "string"}
        if attrs.has(hint):
            name = self.name(hint)
            if name not in self.defs:
                self.defs[name] = {}  # a placeholder against recursion
                self.defs[name] = self.hints.classes.get(hint) or self.record(hint)
            return ref(name)
        raise TypeError(f"no schema for {hint!r}")

    def name(self, cls: type) -> str:
        return self.hints.names.get(cls) or _snake(cls.__name__)

    def record(
        self, cls: type, tag: str | None = None, skip: Collection[str] = (), sent: bool = False
    ) -> Any:
        """The object schema of the attrs class ``cls`` (with its ``"type"`` ``tag``,
        without the fields ``skip``); for what a bot ``sent``, a field with a default
        may be left out, as the converter reads it."""
        hints = typing.get_type_hints(cls)
        properties: dict[str, Any] = {}
        if tag is not None:
            properties["type"] = {"const": tag}
        names = [n for n in field_names(cls) if n not in skip]
        for n in names:
            properties[n] = self.field(cls, n, hints[n])
        optional = {n for n in names if f"{cls.__name__}.{n}" in self.hints.optional}
        if sent:
            fields = attrs.fields_dict(cls)
            optional |= {n for n in names if fields[n].default is not attrs.NOTHING}
        schema = record(properties, optional)
        if cls.__doc__:
            schema = {"description": " ".join(cls.__doc__.split()), **schema}
        return schema

    def union(self, union: Any, sent: bool = False) -> dict[str, Any]:
        """A tagged union: ``oneOf`` its members, each with its ``"type"``."""
        members = typing.get_args(union)
        return {"oneOf": [self.record(c, type_tag(c), sent=sent) for c in members]}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def game_schema(game: Declared, hints: SchemaHints) -> dict[str, Any]:
    """The schema of ``game``'s part of the protocol (see the module docstring)."""
    defs: dict[str, Any] = {
        "game": {"const": game.name},
        "seat": {"type": "integer", "minimum": 0, "maximum": game.max_players - 1},
        **hints.defs,
    }
    walk = _Walk(hints, defs, {game.action_type: "action"})
    for cls in hints.names:  # named classes that a whole field's schema refers to
        walk.of(cls)
    defs["view"] = walk.record(game.view_type, skip=game.view_skip)
    defs["action"] = walk.union(game.action_type, sent=True)
    defs["event"] = {"oneOf": [walk.record(c, type_tag(c)) for c in game.event_types]}
    if hints.public_setup is not None:
        defs["public_setup"] = hints.public_setup
    else:
        defs["public_setup"] = walk.record(game.public_setup_type)
    defs["breakdown"] = hints.breakdown or record({s: INTEGER for s in game.score_sources})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": hints.title,
        "description": hints.description,
        "$defs": dict(sorted(defs.items())),
    }


__all__ = ["COUNT", "INTEGER", "SchemaHints", "array", "game_schema", "record", "ref"]
