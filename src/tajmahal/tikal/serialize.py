"""Tikal's values as JSON data: :data:`CONVERTER` (``to_data``, ``from_data``;
actions and events tagged with their ``"type"``, ``CampMove`` as ``"camp_move"``)
and the components a bot gets in the hello (:func:`components_data`).

>>> from tajmahal.tikal.actions import Move
>>> to_data(Move(3, 4)), from_data({"type": "end_turn"}, Action)
({'type': 'move', 'origin': 3, 'target': 4, 'leader': False}, EndTurn())
"""

from __future__ import annotations

from typing import Any, Final

from ..kit.tagged import TaggedConverter
from ..kit.tagged import type_tag as type_tag
from .actions import Action
from .components import Board, Components
from .events import Event

CONVERTER: Final = TaggedConverter({"Action": Action, "Event": Event})
to_data: Final = CONVERTER.to_data
from_data: Final = CONVERTER.from_data


def components_data(components: Components) -> dict[str, Any]:
    """The static public setup a bot gets in the hello: board, tiles, levels, treasures."""
    c = components
    return {
        "board": _board_data(c.board),
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


def _board_data(board: Board) -> dict[str, Any]:
    """The hello's ``board`` (protocol/README.md)."""
    return {
        "name": board.name,
        "spaces": [list(x) for x in board.coords],
        "neighbours": [list(n) for n in board.neighbours],
        "base_camp": board.base_camp,
    }
