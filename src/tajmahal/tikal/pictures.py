"""Tikal's pictures as the HTML viewer and the browser game take them
(:class:`tajmahal.arena.game.Pictures`): the layers of :mod:`.render`, what a
person clicks for each action (a figure's move: the space it leaves, then the
one it goes to), a preview of it (the tile turned where it would lie, the path
and its AP cost), the mark of the last move, and the legend.

>>> from tajmahal.tikal import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> PICTURES.targets(state, {"type": "move", "origin": 3, "target": 4, "leader": False})
('space-3', 'space-4')
>>> PICTURES.targets(state, {"type": "end_turn"})
()
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from ..kit.svg import hexagon, points, ring, tag, text
from .actions import COSTS, Action, BuildCamp, Dig, Enter, Guard, Uncover
from .components import DEFAULT_COMPONENTS, Components
from .events import FigureMoved
from .geometry import rotated
from .render import (
    KIND_FILLS,
    PANEL_W,
    SIZE,
    SLOTS,
    UNEXPLORED,
    _at,
    _geometry,
    board_layer,
    camp_drawing,
    choice_top,
    document,
    figures_drawing,
    guard_drawing,
    public_parts,
    svg,
    tile_drawing,
)
from .rules import outlook, step
from .serialize import from_data
from .state import State
from .views import PlayerView, view

HIGHLIGHT: Final = "#e0301e"
#: The kinds of action taken on one space (the path is that space).
ON_A_SPACE: Final = ("place", "enter", "uncover", "dig", "build_camp", "guard")
_COST_OF: Final = {
    "enter": COSTS[Enter],
    "uncover": COSTS[Uncover],
    "dig": COSTS[Dig],
    "build_camp": COSTS[BuildCamp],
    "guard": COSTS[Guard],
}


def _ring(c: Components, space: int, dashed: bool = False) -> str:
    x, y = _at(c, space)
    return ring(x, y, SIZE - 2, 0, HIGHLIGHT, dashed)


def _tag(c: Components, x: float, y: float, words: str) -> str:
    return tag(x, y, words, HIGHLIGHT, within=(2.0, _geometry(c)[1] - 2.0))


def _arrow(c: Components, origin: int, target: int, dashed: bool = False) -> str:
    (x1, y1), (x2, y2) = _at(c, origin), _at(c, target)
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    sx, sy = x1 + ux * 12, y1 + uy * 12
    ex, ey = x2 - ux * 14, y2 - uy * 14
    head = [(ex + ux * 10, ey + uy * 10), (ex - uy * 7, ey + ux * 7), (ex + uy * 7, ey - ux * 7)]
    dash = ' stroke-dasharray="6 3"' if dashed else ""
    return (
        f'<line class="ring" x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
        f'stroke="{HIGHLIGHT}" stroke-width="4.5" stroke-linecap="round"{dash}/>'
        f'<polygon points="{points(head)}" fill="{HIGHLIGHT}"/>'
    )


def _cost(state: State, action: Action) -> int:
    """The AP a move costs (T25-T27: the stones on the edge it crosses; 1 for a camp
    move), from the engine's own account of it."""
    _, events = step(state, action)
    return next((e.cost for e in events if isinstance(e, FigureMoved)), 1)


def _preview(state: State, data: dict[str, Any], action: Action) -> str:
    c = state.components
    kind = data["type"]
    seat = state.to_act if state.to_act is not None else 0
    if kind == "place" and state.tile is not None:
        tile = c.tiles[state.tile]
        x, y = _at(c, data["space"])
        turned = rotated(tile.stones, data["rotation"])
        return (
            f'<g opacity="0.9">{tile_drawing(tile.kind, turned, tile.value, x, y)}</g>'
            + _ring(c, data["space"])
            + _tag(c, x, y + SIZE - 8, f"turn {data['rotation']}")
        )
    if kind in ("move", "camp_move"):
        (x1, y1), (x2, y2) = _at(c, data["origin"]), _at(c, data["target"])
        ap = _cost(state, action)
        figure = "leader" if data["leader"] else "worker"
        return _arrow(c, data["origin"], data["target"]) + _tag(
            c, (x1 + x2) / 2, (y1 + y2) / 2 - 6, f"{figure}: {ap} AP"
        )
    if kind not in ON_A_SPACE:
        return ""
    space = data["space"]
    x, y = _at(c, space)
    out = _ring(c, space)
    if kind == "enter":
        out += figures_drawing(x, y, seat, 0 if data["leader"] else 1, data["leader"])
    elif kind == "build_camp":
        out += camp_drawing(x, y, seat)
    elif kind == "guard":
        out += guard_drawing(x, y, seat, data["leader"])
    return out + _tag(c, x, y + SIZE - 8, f"{kind.replace('_', ' ')}: {_COST_OF[kind]} AP")


def _choice_ring(state: State, tile: int) -> str:
    auction = state.auction
    if auction is None or tile not in auction.display:
        return ""
    _, width, _ = _geometry(state.components)
    y = choice_top(auction.display.index(tile))
    return (
        f'<rect class="ring" x="{width + 1:.1f}" y="{y - 3:.1f}" width="{PANEL_W - 18:.0f}" '
        f'height="28" rx="4" fill="none" stroke="{HIGHLIGHT}" stroke-width="3.5"/>'
    )


def _figure_key(seat: int, workers: int, leader: bool) -> str:
    """A seat's figures drawn in the middle of a legend's box."""
    dx, dy = SLOTS[seat % len(SLOTS)]
    return f'<g transform="translate({-dx:.1f},{-dy:.1f})">' + (
        figures_drawing(14, 14, seat, workers, leader) + "</g>"
    )


def legend() -> list[tuple[str, str]]:
    """Each symbol of the picture (an SVG fragment in a 28 x 28 box) and what it means."""
    hexes = [
        (f'<polygon points="{points(hexagon(14, 14, 13))}" fill="{fill}" stroke="#6d6654"/>', kind)
        for kind, fill in [*KIND_FILLS.items(), ("unexplored", UNEXPLORED)]
    ]
    return [
        *hexes,
        (
            '<circle cx="8" cy="14" r="3" fill="#3d3d3d"/><circle cx="20" cy="14" r="3" '
            'fill="#3d3d3d"/>',
            "stones on an edge: crossing it costs 1 AP a stone, from both sides",
        ),
        (text(14, 20, "3", 16, text_anchor="middle", font_weight="bold"), "a temple's value"),
        (
            '<rect x="11" y="11" width="7" height="7" fill="#7a5c12" stroke="#fff"/>',
            "a treasure still to dig (face down)",
        ),
        (_figure_key(0, 2, False), "a seat's workers (the number)"),
        (_figure_key(1, 1, True), "L: the leader (black ring); 1+L: both"),
        (camp_drawing(14 + 20, 14 + 13, 2), "a camp"),
        (guard_drawing(14 - 19, 14 + 16.5, 3, False), "a guard (GL: the leader guards)"),
    ]


class TikalPictures:
    """The layers, targets, previews and legend of Tikal's pictures."""

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        self.components = components

    def board(self, state: State) -> str:
        return board_layer(state.components)

    def public(self, state: State, names: Sequence[str]) -> list[str]:
        """What everybody sees, with what each seat would score at a scoring round
        now (T44) beside its score."""
        return public_parts(view(state, 0), state.components, names, outlook(state))

    def hand(self, state: State, seat: int) -> list[str]:
        """Nothing: no part of Tikal is seen by one seat only."""
        return []

    def document(self, body: str) -> str:
        return document(self.components, body)

    def picture(self, value: State | PlayerView) -> str:
        return svg(value, components=self.components)

    def targets(self, state: State, action: Any) -> tuple[str, ...]:
        """The space of an action on one space; for a move the space the figure
        leaves, then the one it goes to; the revealed tile chosen; nothing for the
        rest (buttons: end the turn, exchange, bid, pass)."""
        if not isinstance(action, dict):
            return ()
        kind = action.get("type")
        if kind in ("move", "camp_move"):
            return (f"space-{action['origin']}", f"space-{action['target']}")
        if kind == "choose":
            return (f"choice-{action['tile']}",)
        if kind in ON_A_SPACE:
            return (f"space-{action['space']}",)
        return ()

    def preview(self, state: State, action: Any) -> str:
        """The tile turned where it would lie; the figure's path and its AP cost;
        the camp, guard or figure where it would go, and each action's AP cost."""
        if not isinstance(action, dict):
            return ""
        if action.get("type") == "choose":
            return _choice_ring(state, action["tile"])
        return _preview(state, action, from_data(action, Action))

    def mark(self, state: State, action: Any) -> str:
        """The space of the last move (dashed), or the path of a figure's."""
        if not isinstance(action, dict):
            return ""
        c = state.components
        kind = action.get("type")
        if kind in ("move", "camp_move"):
            return _arrow(c, action["origin"], action["target"], dashed=True)
        if kind in ON_A_SPACE:
            return _ring(c, action["space"], dashed=True)
        return ""

    def legend(self) -> list[tuple[str, str]]:
        return legend()

    def half_made(self, state: State) -> bool:
        """Never: every action of the game is one decision."""
        return False


PICTURES: Final = TikalPictures()


def pictures(components: Components) -> TikalPictures:
    """The pictures of ``components`` (the adapter's ``pictures()``)."""
    return TikalPictures(components)
