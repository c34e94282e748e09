"""Java's values as JSON data, and back (round trips are equal), by the kit's
converter (:data:`CONVERTER`): ``HoldFestival`` travels as ``"hold_festival"``; a
malformed action is refused with the path of its bad field.  The hello's setup is
:func:`components_data`.

>>> from tajmahal.java.actions import PlaceLand, Select
>>> to_data(PlaceLand("three")), to_data(Select(17))
({'type': 'place_land', 'tile': 'three'}, {'type': 'select', 'position': 17})
>>> from_data({"type": "select", "position": "x"}, Action)
Traceback (most recent call last):
...
tajmahal.kit.tagged.DataError: bad Action: expected an integer, got "x" @ $.position
"""

from __future__ import annotations

from typing import Any, Final

from ..kit.tagged import TaggedConverter
from ..kit.tagged import type_tag as type_tag
from .actions import Action
from .components import PALACE_VALUES, Board, Components
from .events import Event

CONVERTER: Final = TaggedConverter({"Action": Action, "Event": Event})
to_data: Final = CONVERTER.to_data
from_data: Final = CONVERTER.from_data


def components_data(components: Components) -> dict[str, Any]:
    """The static public setup a bot gets in the hello: the board (positions, the
    grid's size, neighbours, printed tanks, edge costs) and the components."""
    c = components
    return {
        "board": _board_data(c.board),
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


def _board_data(board: Board) -> dict[str, Any]:
    """The hello's ``board`` (protocol/README.md)."""
    return {
        "name": board.name,
        "positions": [list(x) for x in board.coords],
        "grid_size": board.grid_size,
        "neighbours": [list(n) for n in board.neighbours],
        "tanks": list(board.tanks),
        "edge_cost": list(board.edge_cost),
    }
