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
tajmahal.kit.tagged.DataError: bad Action: ...
"""

from __future__ import annotations

from typing import Any, Final

from ..kit.tagged import DataError, TaggedConverter
from ..kit.tagged import type_tag as type_tag
from .actions import Action
from .components import DEFAULT_COMPONENTS, Components
from .events import Event
from .state import Setup

CONVERTER: Final = TaggedConverter({"Action": Action, "Event": Event})
to_data: Final = CONVERTER.to_data
from_data: Final = CONVERTER.from_data


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
