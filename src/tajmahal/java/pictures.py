"""Java's pictures as the HTML viewer and the browser game take them
(:class:`tajmahal.arena.game.Pictures`): the layers of :mod:`.render`, what a
person clicks for each decision, a preview of it, the mark of the last move and
the legend.

An action of Java is made of small decisions (what, then where, then how:
:mod:`tajmahal.java.actions`).  The browser game joins the first two
(:meth:`JavaPictures.half_made`): a person clicks a position and picks what to
do there (a rice tile, water, a figure, a palace, the anchor of a bigger tile,
the figure to walk), then, for a bigger tile, one of its other spaces (each
shape gets a space of its own to click), for a walk its target, for a palace a
value tile of the supply; every step previewed on the board and confirmed.

>>> from tajmahal.java import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> PICTURES.targets(state, {"type": "select", "position": 80})
('pos-80',)
>>> PICTURES.targets(state, {"type": "end_turn"})
()
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from ..kit.svg import hexagon, points, ring, tag, text
from .actions import Action, PlaceLand, PlaceWater
from .components import DEFAULT_COMPONENTS, Components
from .legal import legal_actions
from .panel import hand_parts
from .render import board_layer, document, figure_drawing, palace_drawing, public_parts, svg
from .rules import step
from .serialize import from_data
from .sheet import BARE, RIM, SIZE, WATER_FILL, shade, sheet_of
from .state import POSITION, RICE, SHAPE, TARGET, VALUE, VILLAGE, State
from .views import PlayerView

HIGHLIGHT: Final = "#e0301e"
#: The phases of a half-made action (its first decision taken).
HALF_MADE: Final = (POSITION, SHAPE, TARGET, VALUE)


def _ring(state: State, position: int, dashed: bool = False) -> str:
    x, y = sheet_of(state.components).centres[position]
    return ring(x, y, SIZE - 1.5, 30, HIGHLIGHT, dashed)


def _tag(state: State, x: float, y: float, words: str) -> str:
    return tag(x, y, words, HIGHLIGHT, within=(2.0, sheet_of(state.components).width - 2.0))


def _tile(state: State, cells: Sequence[int], villages: Sequence[int]) -> str:
    """A land tile laid on ``cells`` one level up: its fields, its level, its outline."""
    sheet = sheet_of(state.components)
    level = state.height[cells[0]] + 1
    out = []
    for p in cells:
        x, y = sheet.centres[p]
        terrain = VILLAGE if p in villages else RICE
        out.append(
            f'<polygon points="{sheet.outlines[p]}" fill="{shade(terrain, level)}" '
            f'stroke="{HIGHLIGHT}" stroke-width="3" stroke-linejoin="round"/>'
            + text(x, y - 8, str(level), 11, text_anchor="middle", font_weight="bold")
        )
    return "".join(out)


def _cost(state: State, action: Action) -> int | None:
    """The action points ``action`` costs (it completes an action of the turn)."""
    after, _ = step(state, action)
    if after.to_act != state.to_act or after.phase not in ("act", *HALF_MADE):
        return None
    return state.turn.ap - after.turn.ap


def _with_cost(state: State, action: Action, x: float, y: float, words: str) -> str:
    cost = _cost(state, action)
    return _tag(state, x, y + SIZE + 4, words + (f": {cost} AP" if cost is not None else ""))


def _where(state: State, action: Action, p: int) -> str:
    """Phase ``position``: the pending action at ``p``."""
    assert state.pending is not None
    kind = state.pending.action
    sheet = sheet_of(state.components)
    x, y = sheet.centres[p]
    seat = state.to_act if state.to_act is not None else 0
    if isinstance(kind, PlaceLand):
        if kind.tile in ("rice", "village"):
            tile = _tile(state, [p], [p] if kind.tile == "village" else [])
            return tile + _with_cost(state, action, x, y, f"{kind.tile} tile")
        village = f"{kind.tile}-space: its village"
        return _tile(state, [p], [p]) + _tag(state, x, y + SIZE + 4, village)
    if isinstance(kind, PlaceWater):
        return (
            f'<polygon points="{sheet.outlines[p]}" fill="{WATER_FILL}" stroke="{HIGHLIGHT}" '
            f'stroke-width="3"/>' + _with_cost(state, action, x, y, "water")
        )
    name = type(kind).__name__
    if name == "Deploy":
        return (
            figure_drawing(x, y + 5, seat)
            + _ring(state, p)
            + _with_cost(state, action, x, y, "deploy")
        )
    if name == "Withdraw":
        cross = f"M{x - 7},{y - 2}L{x + 7},{y + 12}M{x + 7},{y - 2}L{x - 7},{y + 12}"
        return (
            _ring(state, p)
            + f'<path d="{cross}" stroke="{HIGHLIGHT}" stroke-width="3"/>'
            + _with_cost(state, action, x, y, "withdraw")
        )
    if name == "BuildPalace":
        return (
            _ring(state, p)
            + f'<rect x="{x - 9:.1f}" y="{y - 3:.1f}" width="18" height="16" rx="2" fill="#fff" '
            f'stroke="#222" stroke-dasharray="3 2"/>'
            + _tag(state, x, y + SIZE + 4, "palace: then its value")
        )
    words = {"Move": "walk from here", "ExtendPalace": "extend", "HoldFestival": "festival"}
    return _ring(state, p) + _tag(state, x, y + SIZE + 4, words.get(name, name))


def _walk(state: State, action: Action, target: int) -> str:
    """Phase ``target``: the figure's walk and its cost (J48: the cheapest path)."""
    assert state.pending is not None and state.pending.position is not None
    sheet = sheet_of(state.components)
    (x1, y1), (x2, y2) = sheet.centres[state.pending.position], sheet.centres[target]
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    ex, ey = x2 - ux * 10, y2 - uy * 10
    head = [(ex + ux * 9, ey + uy * 9), (ex - uy * 6, ey + ux * 6), (ex + uy * 6, ey - ux * 6)]
    return (
        f'<line class="ring" x1="{x1:.1f}" y1="{y1:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
        f'stroke="{HIGHLIGHT}" stroke-width="4" stroke-linecap="round"/>'
        f'<polygon points="{points(head)}" fill="{HIGHLIGHT}"/>'
        + _ring(state, target)
        + _with_cost(state, action, x2, y2, "walk")
    )


def _sketch(state: State, data: Any, done: bool) -> str:
    if not isinstance(data, dict):
        return ""
    kind = data.get("type")
    sheet = sheet_of(state.components)
    if kind == "select":
        p = data["position"]
        if done:
            return _ring(state, p, dashed=True)
        action = from_data(data, Action)
        return _walk(state, action, p) if state.phase == TARGET else _where(state, action, p)
    if kind == "shape" and state.pending is not None:
        cells = data["cells"]
        if done:
            return "".join(_ring(state, p, dashed=True) for p in cells)
        anchor = state.pending.position
        x, y = sheet.centres[cells[0]]
        action = from_data(data, Action)
        return _tile(state, cells, [anchor] if anchor is not None else []) + _with_cost(
            state, action, x, y, f"level {state.height[cells[0]] + 1}"
        )
    if kind == "value" and state.pending is not None and state.pending.position is not None:
        p = state.pending.position
        if done:
            return _ring(state, p, dashed=True)
        x, y = sheet.centres[p]
        return _ring(state, p) + palace_drawing(x, y + 5, data["value"], False)
    return ""


def _representatives(state: State) -> dict[tuple[int, ...], int]:
    """Phase ``shape``: for each shape of the tile, the space a person clicks for it:
    one of its spaces beside the anchor, each shape a space of its own where it can."""
    anchor = state.pending.position if state.pending is not None else None
    used: dict[int, int] = {}
    chosen: dict[tuple[int, ...], int] = {}
    for action in legal_actions(state):
        cells = tuple(getattr(action, "cells", ()))
        others = [p for p in cells if p != anchor] or list(cells)
        pick = min(others, key=lambda p: (used.get(p, 0), p))
        used[pick] = used.get(pick, 0) + 1
        chosen[cells] = pick
    return chosen


def legend(c: Components = DEFAULT_COMPONENTS) -> list[tuple[str, str]]:
    """Each symbol of the picture (an SVG fragment in a 28 x 28 box) and what it means."""

    def hex_key(fill: str, words: str = "") -> str:
        mark = text(14, 12, words, 10, text_anchor="middle", font_weight="bold") if words else ""
        return (
            f'<polygon points="{points(hexagon(14, 14, 13, 30))}" fill="{fill}" stroke="#555"/>'
            + mark
        )

    symbols = ", ".join(f"{s[0].upper()} {s}" for s in c.symbols)
    return [
        (hex_key(shade(RICE, 1), "1"), "rice field; the number is its level (tiles under it + 1)"),
        (hex_key(shade(VILLAGE, 2), "2"), "village (darker: higher)"),
        (hex_key(WATER_FILL), "water (and the printed tanks)"),
        (hex_key(BARE), "bare board"),
        (hex_key(RIM[1]), "rim, lowland: deploying here costs 1 AP"),
        (hex_key(RIM[2]), "rim, mountains: deploying here costs 2 AP"),
        (
            '<path d="M4,6 L24,6 L24,22 L4,22 Z" fill="none" stroke="#2f2a22" stroke-width="2.4"/>',
            "the outline of a land tile (1, 2 or 3 spaces)",
        ),
        (figure_drawing(14, 14, 0), "a figure, in its seat's colour"),
        (palace_drawing(14, 14, 6, False), "a palace and its value (red: turned after a festival)"),
        (
            '<rect x="3" y="5" width="22" height="17" rx="3" fill="#fff6d8" stroke="#7a5c00"/>'
            + text(14, 18, "D", 11, text_anchor="middle", font_weight="bold"),
            f"a festival card: its symbols' initials ({symbols})",
        ),
    ]


class JavaPictures:
    """The layers, targets, previews and legend of Java's pictures."""

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        self.components = components
        self.players = 4
        self._shapes: tuple[State, dict[tuple[int, ...], int]] | None = None

    def board(self, state: State) -> str:
        self.players = len(state.players)  # the picture's height follows (its panel)
        return board_layer(state.components)

    def public(self, state: State, names: Sequence[str]) -> list[str]:
        return public_parts(state, names)

    def hand(self, state: State, seat: int) -> list[str]:
        return hand_parts(state, seat)

    def document(self, body: str) -> str:
        return document(self.components, body, self.players)

    def picture(self, value: State | PlayerView) -> str:
        return svg(value)

    def half_made(self, state: State) -> bool:
        """Whether ``state`` waits for the rest of a half-made action: the browser
        game offers an action's first two decisions (what, where) as one."""
        return state.phase in HALF_MADE

    def targets(self, state: State, action: Any) -> tuple[str, ...]:
        """A position clicked (where, a walk's target); for a tile's shape the space
        standing for it; a palace value tile of the supply; the display card or the
        pile; a card of the hand in a festival. What to do (phase ``act``) is picked
        with the position, or is a button (use a token, end the turn, end the bid,
        pass)."""
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "select":
            return (f"pos-{action['position']}",)
        if kind == "shape":
            if self._shapes is None or self._shapes[0] is not state:
                self._shapes = (state, _representatives(state))
            pick = self._shapes[1].get(tuple(action["cells"]))
            return (f"pos-{pick}",) if pick is not None else ()
        if kind == "value":
            return (f"palace-{action['value']}",)
        if kind == "take_card":
            return ("display-card",) if action["display"] else ("draw-pile",)
        if kind == "lay":
            return (f"hand-card-{action['card']}",)
        return ()

    def preview(self, state: State, action: Any) -> str:
        """The action drawn where it happens: the tile at its level, the water, the
        figure, the walk and its AP, the palace with its value."""
        return _sketch(state, action, done=False)

    def mark(self, state: State, action: Any) -> str:
        """The positions of the last move (dashed)."""
        return _sketch(state, action, done=True)

    def legend(self) -> list[tuple[str, str]]:
        return legend(self.components)


PICTURES: Final = JavaPictures()


def pictures(components: Components) -> JavaPictures:
    """The pictures of ``components`` (the adapter's ``pictures()``)."""
    return JavaPictures(components)
