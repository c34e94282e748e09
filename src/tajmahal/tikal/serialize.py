"""Tikal's values as plain JSON data, and back (round trips are equal).

Actions and events carry a ``"type"`` tag (``CampMove`` -> ``"camp_move"``), as
Taj Mahal's do.

>>> from tajmahal.tikal.actions import Move
>>> to_data(Move(3, 4))
{'type': 'move', 'origin': 3, 'target': 4, 'leader': False}
>>> from_data({"type": "end_turn"}, Action)
EndTurn()
>>> from_data({"type": "move", "origin": "x"}, Action)
Traceback (most recent call last):
...
tajmahal.tikal.serialize.DataError: bad Action: ...
"""

from __future__ import annotations

import re
from typing import Any, Final

import cattrs
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from .actions import ACTION_TYPES, Action
from .components import DEFAULT_COMPONENTS, Components
from .events import EVENT_TYPES, Event
from .state import Setup


class DataError(ValueError):
    """Data that does not describe a value of the requested type."""


def type_tag(cls: type) -> str:
    """``CampMove`` -> ``camp_move``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _make() -> cattrs.Converter:
    conv = make_converter(forbid_extra_keys=True)
    for union in (Action, Event):
        configure_tagged_union(union, conv, tag_generator=type_tag, tag_name="type")
        tagged = conv.get_unstructure_hook(union)

        def type_first(value: Any, tagged: Any = tagged) -> dict[str, Any]:
            data = tagged(value)
            return {"type": data.pop("type"), **data}

        conv.register_unstructure_hook(union, type_first)
    return conv


_CONVERTER: Final = _make()
_UNIONS: Final[dict[type, Any]] = {t: Action for t in ACTION_TYPES} | {
    t: Event for t in EVENT_TYPES
}


def to_data(value: Any) -> Any:
    """Plain JSON data for ``value`` (actions and events carry a ``"type"``)."""
    return _CONVERTER.unstructure(value, unstructure_as=_UNIONS.get(type(value), type(value)))


def from_data(data: Any, cls: Any) -> Any:
    """The value of type ``cls`` described by ``data``; raises :class:`DataError`."""
    name = "Action" if cls is Action else "Event" if cls is Event else cls.__name__
    if cls in (Action, Event) and not (isinstance(data, dict) and "type" in data):
        raise DataError(f'bad {name}: expected a JSON object with a "type"')
    try:
        return _CONVERTER.structure(data, cls)
    except Exception as e:  # cattrs raises several kinds; all mean "bad data"
        if isinstance(e, cattrs.BaseValidationError):
            detail = "; ".join(cattrs.transform_error(e))
        elif isinstance(e, KeyError) and cls in (Action, Event):
            detail = f'unknown or missing "type" ({e})'
        else:
            detail = str(e) or type(e).__name__
        raise DataError(f"bad {name}: {detail}") from None


def setup_to_data(setup: Setup) -> dict[str, Any]:
    """All of ``setup`` but its components (they are the package's data files)."""
    return {
        "players": setup.players,
        "variant": setup.variant,
        "stack": list(setup.stack),
        "treasures": list(setup.treasures),
    }


def setup_from_data(data: Any, components: Components = DEFAULT_COMPONENTS) -> Setup:
    if not isinstance(data, dict) or set(data) != {"players", "variant", "stack", "treasures"}:
        raise DataError("bad Setup: expected players, variant, stack and treasures")
    try:
        setup = Setup(
            int(data["players"]),
            str(data["variant"]),
            tuple(int(t) for t in data["stack"]),
            tuple(int(t) for t in data["treasures"]),
            components,
        )
    except (TypeError, ValueError) as e:
        raise DataError(f"bad Setup: {e}") from None
    setup.check()
    return setup


def components_data(c: Components) -> dict[str, Any]:
    """The static public setup a bot gets in the hello: board, tiles, levels, treasures."""
    board = c.board
    return {
        "board": {
            "name": board.name,
            "spaces": [list(x) for x in board.coords],
            "neighbours": [list(n) for n in board.neighbours],
            "base_camp": board.base_camp,
        },
        "tiles": [
            {
                "id": t.id,
                "back": t.back,
                "kind": t.kind,
                "stones": list(t.stones),
                "value": t.value,
                "masks": t.masks,
            }
            for t in c.tiles
        ],
        "levels": list(c.levels),
        "treasure_types": list(c.treasure_types),
        "treasure_copies": c.treasure_copies,
        "workers": c.workers,
        "camps": c.camps,
        "guards": c.guards,
        "leader_strength": c.leader_strength,
    }
