"""Generate protocol/schema/java.json from Java's value classes (tajmahal.java).

    python protocol/make_java_schema.py          # rewrite schema/java.json
    python protocol/make_java_schema.py --check  # exit 1 if it is stale

The view, the actions and the events are frozen attrs classes that the adapter
turns into JSON with cattrs (tajmahal.java.serialize); this script walks the same
classes and their type hints, so the schema cannot drift from what the referee
sends.  The hello's setup and the end's breakdown are plain dicts, described here.
"""

from __future__ import annotations

import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

import attrs

from tajmahal.java.actions import ACTION_TYPES, TILES, Action, PlaceLand
from tajmahal.java.events import EVENT_TYPES
from tajmahal.java.serialize import type_tag
from tajmahal.java.state import PHASES
from tajmahal.java.views import JavaView

SCHEMA = Path(__file__).resolve().parent / "schema" / "java.json"
INT: dict[str, Any] = {"type": "integer"}
VALUES = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}


def of(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of a type hint (classes go to ``defs`` under their snake name)."""
    origin = typing.get_origin(hint)
    if hint == Action:  # the half-made action of the view's pending
        return {"$ref": "#/$defs/action"}
    if hint is int:
        return dict(INT)
    if hint is bool:
        return {"type": "boolean"}
    if hint is str:
        return {"type": "string"}
    if hint is type(None):
        return {"type": "null"}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [of(h, defs) for h in typing.get_args(hint)]}
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": of(args[0], defs)}
        items = [of(a, defs) for a in args]
        return {
            "type": "array",
            "prefixItems": items,
            "minItems": len(items),
            "maxItems": len(items),
        }
    if attrs.has(hint):
        name = {"seat": "seat_state"}.get(type_tag(hint), type_tag(hint))
        if name not in defs:
            defs[name] = {}  # a placeholder against recursion
            defs[name] = record(hint, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no schema for {hint!r}")


def record(cls: type, defs: dict[str, Any], tag: str | None = None) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {}
    if tag is not None:
        properties["type"] = {"const": tag}
    for f in attrs.fields(cls):
        properties[f.name] = of(hints[f.name], defs)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    if cls.__doc__:
        schema["description"] = " ".join(cls.__doc__.split())
    return schema


def build() -> dict[str, Any]:
    defs: dict[str, Any] = {
        "game": {"const": "java"},
        "seat": {"type": "integer", "minimum": 0, "maximum": 3},
    }
    view = of(JavaView, defs)
    defs["view"] = defs.pop("java_view")
    defs["view"]["properties"]["phase"] = {"enum": list(PHASES)}
    del view
    actions = [record(c, defs, type_tag(c)) for c in ACTION_TYPES]
    actions[ACTION_TYPES.index(PlaceLand)]["properties"]["tile"] = {"enum": list(TILES)}
    defs["action"] = {"oneOf": actions}
    defs["event"] = {"oneOf": [record(c, defs, type_tag(c)) for c in EVENT_TYPES]}
    board = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "positions": {"type": "array", "items": {"type": "array", "items": INT}},
            "grid_size": INT,
            "neighbours": {"type": "array", "items": {"type": "array", "items": INT}},
            "tanks": {"type": "array", "items": INT},
            "edge_cost": {"type": "array", "items": INT},
        },
        "additionalProperties": False,
    }
    board["required"] = list(board["properties"])
    setup: dict[str, Any] = {
        "type": "object",
        "properties": {
            "board": board,
            "action_points": INT,
            "figures": INT,
            "action_tokens": INT,
            "three_tiles": INT,
            "water_tiles": INT,
            "palaces": VALUES,
            "festival_tie": VALUES,
            "water_points": INT,
            "symbols": {"type": "array", "items": {"type": "string"}},
            "cards": {"type": "array", "items": {"type": "array", "items": INT}},
        },
        "additionalProperties": False,
    }
    setup["required"] = list(setup["properties"])
    defs["public_setup"] = setup
    parts = ("water", "palaces", "festivals", "final")
    defs["breakdown"] = {
        "type": "object",
        "properties": {p: INT for p in parts},
        "required": list(parts),
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Java: the game-specific parts of the arena protocol",
        "description": (
            "Generated by protocol/make_java_schema.py. The same names as tajmahal.json: "
            'for a game of Java (hello "game": "java"), read every reference to '
            "tajmahal.json#/$defs/NAME in the message schemas as java.json#/$defs/NAME. "
            "Positions index the board's positions, cards the setup's cards."
        ),
        "$defs": dict(sorted(defs.items())),
    }


def text() -> str:
    return json.dumps(build(), indent=2) + "\n"


def main(argv: list[str]) -> int:
    if "--check" in argv:
        return 0 if SCHEMA.read_text() == text() else 1
    SCHEMA.write_text(text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
