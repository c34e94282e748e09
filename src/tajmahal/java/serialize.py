"""Java's values as plain JSON data, and back (round trips are equal).

Actions and events carry a ``"type"`` tag (``HoldFestival`` -> ``"hold_festival"``), as
Taj Mahal's do.

>>> from tajmahal.java.actions import PlaceLand, Select
>>> to_data(PlaceLand("three")), to_data(Select(17))
({'type': 'place_land', 'tile': 'three'}, {'type': 'select', 'position': 17})
>>> from_data({"type": "end_turn"}, Action)
EndTurn()
>>> from_data({"type": "select", "position": "x"}, Action)
Traceback (most recent call last):
...
tajmahal.java.serialize.DataError: bad Action: ...
"""

from __future__ import annotations

from typing import Any, Final

from ..kit.tagged import TaggedConverter
from ..kit.tagged import type_tag as type_tag
from .actions import Action
from .components import DEFAULT_COMPONENTS, PALACE_VALUES, Components
from .events import Event
from .state import Setup


class DataError(ValueError):
    """Data that does not describe a value of the requested type."""


_CONVERTER: Final = TaggedConverter({"Action": Action, "Event": Event}, DataError)


def to_data(value: Any) -> Any:
    """Plain JSON data for ``value`` (actions and events carry a ``"type"``)."""
    return _CONVERTER.to_data(value)


def from_data(data: Any, cls: Any) -> Any:
    """The value of type ``cls`` described by ``data``; raises :class:`DataError`."""
    return _CONVERTER.from_data(data, cls)


def setup_to_data(setup: Setup) -> dict[str, Any]:
    """All of ``setup`` but its components (they are the package's data files)."""
    return {
        "players": setup.players,
        "variant": setup.variant,
        "deck": list(setup.deck),
        "seed": setup.seed,
    }


def setup_from_data(data: Any, components: Components = DEFAULT_COMPONENTS) -> Setup:
    if not isinstance(data, dict) or set(data) != {"players", "variant", "deck", "seed"}:
        raise DataError("bad Setup: expected players, variant, deck and seed")
    try:
        setup = Setup(
            int(data["players"]),
            str(data["variant"]),
            tuple(int(t) for t in data["deck"]),
            int(data["seed"]),
            components,
        )
    except (TypeError, ValueError) as e:
        raise DataError(f"bad Setup: {e}") from None
    setup.check()
    return setup


def components_data(c: Components) -> dict[str, Any]:
    """The static public setup a bot gets in the hello: the board (positions, the
    grid's size, neighbours, printed tanks, edge costs) and the components."""
    board = c.board
    return {
        "board": {
            "name": board.name,
            "positions": [list(x) for x in board.coords],
            "grid_size": board.grid_size,
            "neighbours": [list(n) for n in board.neighbours],
            "tanks": list(board.tanks),
            "edge_cost": list(board.edge_cost),
        },
        "action_points": c.action_points,
        "figures": c.figures,
        "action_tokens": c.action_tokens,
        "three_tiles": c.three_tiles,
        "water_tiles": c.water_tiles,
        "palaces": {str(v): n for v, n in zip(PALACE_VALUES, c.palaces, strict=True)},
        "festival_tie": {str(v): n for v, n in zip(PALACE_VALUES, c.festival_tie, strict=True)},
        "water_points": c.water_points,
        "symbols": list(c.symbols),
        "cards": [list(card) for card in c.cards],
    }
