"""Java as pictures: a top view of the 3D board in SVG, for Jupyter, the HTML
replay viewer and the browser game (:mod:`tajmahal.java.pictures`).

Each position is a hex (pointy-topped) with its row letter and column number on
the board's edge (``A1`` top left, as the log names them): the rim green
(lowland) or dark grey (mountains), water blue, rice fields green and villages
ochre, darker the higher they lie, each with its level written at the top.  A
thick line runs round every land tile (its spaces share a serial number), so
that one sees which tile lies where and on what (J27, J28).  Figures are discs
in their seat's colour, palaces squares with their value (white side up, or red,
J56).  Beside the board: the turn, its action points and what is half made; the
common supply (three-space tiles, water, palace tiles by value), the display
card and the draw pile; per seat its score, figures, tokens and own tiles; a
festival under way.  A seat's hand is its own layer.  Every hex has a tooltip.

>>> from tajmahal.java import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> picture = svg(state)
>>> picture.startswith("<svg") and picture.count('class="pos"') == 202
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence

from attrs import frozen

from ..kit.svg import hexagon, points, svg_document, text, title
from .components import Components
from .hidden import determinize
from .panel import festival, hand_parts, seat_block, supply, turn_words
from .sheet import (
    BARE,
    FESTIVAL_H,
    PANEL_W,
    RIM,
    SEAT_COLORS,
    SEAT_H,
    SEATS_TOP,
    SHEETS,
    SIZE,
    WATER_FILL,
    Sheet,
    shade,
    sheet_of,
)
from .state import NONE, RICE, VILLAGE, WATER, State
from .views import PlayerView


def board_layer(c: Components) -> str:
    """The grid, the rim's colours, the printed tanks and the coordinates on the
    board's edge (the same all game)."""
    sheet = sheet_of(c)
    board = c.board
    parts = ['<g class="board">']
    for p, outline in enumerate(sheet.outlines):
        if p >= board.grid_size:
            fill = RIM.get(board.edge_cost[p], "#ccc")
        else:
            fill = WATER_FILL if p in board.tanks else BARE
        parts.append(
            f'<polygon points="{outline}" fill="{fill}" stroke="#9a9384" stroke-width="0.7"/>'
        )
    parts.append(_coordinates(sheet))
    parts.append("</g>")
    return "".join(parts)


def _coordinates(sheet: Sheet) -> str:
    """Row letters left and right of the grid, column numbers above and below it."""
    c = sheet.components
    grid = range(c.board.grid_size)
    rows: dict[str, list[tuple[float, float]]] = {}
    columns: dict[str, list[tuple[float, float]]] = {}
    for p in grid:
        name = sheet.names[p]
        rows.setdefault(name[0], []).append(sheet.centres[p])
        columns.setdefault(name[1:], []).append(sheet.centres[p])
    out = ['<g class="coordinates" pointer-events="none">']
    for letter, spots in rows.items():
        y = spots[0][1] + 4.5
        out.append(text(8, y, letter, 13, font_weight="bold", fill="#555", text_anchor="start"))
        out.append(
            text(sheet.width - 8, y, letter, 13, font_weight="bold", fill="#555", text_anchor="end")
        )
    for number, spots in columns.items():
        top = min(spots, key=lambda s: s[1])
        low = max(spots, key=lambda s: s[1])
        out.append(
            text(top[0], 17, number, 12, font_weight="bold", fill="#555", text_anchor="middle")
        )
        out.append(
            text(
                low[0],
                sheet.height - 7,
                number,
                12,
                font_weight="bold",
                fill="#555",
                text_anchor="middle",
            )
        )
    out.append("</g>")
    return "".join(out)


def tile_edges(sheet: Sheet, position: int, same: Sequence[bool]) -> str:
    """The thick line round a land tile: the sides of ``position`` towards each
    neighbour not of the same tile (``same`` by side)."""
    lines = "".join(
        f"M{a[0]},{a[1]}L{b[0]},{b[1]}"
        for (_, a, b), joined in zip(sheet.sides[position], same, strict=True)
        if not joined
    )
    return (
        f'<path d="{lines}" fill="none" stroke="#2f2a22" stroke-width="2.4" '
        f'stroke-linecap="round"/>'
    )


@frozen
class _Spot:
    """What lies on one position, as the picture shows it."""

    terrain: int
    height: int
    tile: int
    same: tuple[bool, ...]  # per side: the neighbour is of the same land tile
    figure: int
    palace: int
    red: bool


def _spot(state: State, sheet: Sheet, p: int) -> _Spot:
    tile = state.top[p]
    same = tuple(tile != NONE and n != NONE and state.top[n] == tile for n, _, _ in sheet.sides[p])
    return _Spot(
        state.terrain[p],
        state.height[p],
        tile,
        same,
        state.figures[p],
        state.palace[p],
        p in state.red,
    )


@functools.lru_cache(maxsize=8192)
def _position(serial: int, p: int, spot: _Spot) -> str:
    """A position with what lies on it (empty when nothing does)."""
    sheet = SHEETS.serial(serial)
    x, y = sheet.centres[p]
    out = []
    if spot.terrain == WATER and p not in sheet.components.board.tanks:
        out.append(
            f'<polygon points="{sheet.outlines[p]}" fill="{WATER_FILL}" stroke="#3d6f9c" '
            f'stroke-width="1"/>'
        )
    elif spot.terrain in (RICE, VILLAGE):
        out.append(
            f'<polygon points="{sheet.outlines[p]}" fill="{shade(spot.terrain, spot.height)}"/>'
        )
        out.append(
            text(
                x,
                y - 8,
                str(spot.height),
                11,
                fill="#1d1d1d" if spot.height < 4 else "#fff",
                text_anchor="middle",
                font_weight="bold",
                class_="level",
            )
        )
        out.append(tile_edges(sheet, p, spot.same))
    if spot.palace:
        out.append(palace_drawing(x, y + 5, spot.palace, spot.red))
    elif spot.figure != NONE:
        out.append(figure_drawing(x, y + 5, spot.figure))
    if not out:
        return ""
    return f'<g class="spot" data-position="{p}">' + "".join(out) + "</g>"


def palace_drawing(x: float, y: float, value: int, red: bool) -> str:
    return (
        f'<rect class="palace" data-value="{value}" x="{x - 9:.1f}" y="{y - 8:.1f}" '
        f'width="18" height="16" rx="2" '
        f'fill="{"#c0392b" if red else "#fff"}" stroke="#222" stroke-width="1.3"/>'
        + text(
            x,
            y + 4.5,
            str(value),
            11.5,
            fill="#fff" if red else "#000",
            text_anchor="middle",
            font_weight="bold",
        )
    )


def figure_drawing(x: float, y: float, seat: int) -> str:
    return (
        f'<circle class="figure" data-seat="{seat}" cx="{x:.1f}" cy="{y:.1f}" r="8" '
        f'fill="{SEAT_COLORS[seat % 4]}" stroke="#fff" '
        f'stroke-width="1.6"/>'
    )


def _spot_title(c: Components, name: str, p: int, spot: _Spot, labels: Sequence[str]) -> str:
    board = c.board
    if p >= board.grid_size and spot.terrain not in (RICE, VILLAGE):
        return f"rim: {'mountains' if board.edge_cost[p] == 2 else 'lowland'}"
    words = []
    if spot.terrain in (RICE, VILLAGE):
        kind = "rice" if spot.terrain == RICE else "village"
        words.append(f"{kind}, level {spot.height}")
    elif spot.terrain == WATER:
        words.append("water" + (" (a printed tank)" if p in board.tanks else ""))
    else:
        words.append("bare")
    if spot.palace:
        words.append(f"palace of value {spot.palace}" + (" (red side up)" if spot.red else ""))
    elif spot.figure != NONE:
        words.append(f"figure of {labels[spot.figure]}")
    return f"{name}: " + "; ".join(words)


@functools.lru_cache(maxsize=8192)
def _hit(serial: int, p: int, spot: _Spot, labels: tuple[str, ...]) -> str:
    """What a person points at and clicks: the position's outline, over everything."""
    sheet = SHEETS.serial(serial)
    tip = _spot_title(sheet.components, sheet.names[p], p, spot, labels)
    return (
        f'<g id="pos-{p}" class="pos">{title(tip)}<polygon class="hit" '
        f'points="{sheet.outlines[p]}" fill="#fff" fill-opacity="0"/></g>'
    )


@functools.lru_cache(maxsize=512)
def _pending(serial: int, position: int) -> str:
    """The position a half-made action was given (its anchor, figure or palace)."""
    if position == NONE:
        return ""
    x, y = SHEETS.serial(serial).centres[position]
    return (
        f'<polygon id="pending" points="{points(hexagon(x, y, SIZE - 1.5, 30))}" fill="none" '
        f'stroke="#1f6fd1" stroke-width="3.5" stroke-dasharray="5 3"/>'
    )


def _labels(names: Sequence[str] | None, n: int) -> tuple[str, ...]:
    return tuple(
        names[k] if names is not None and k < len(names) else f"seat {k}" for k in range(n)
    )


def public_parts(state: State, names: Sequence[str] | None = None) -> list[str]:
    """What every seat sees, in fragments: the positions and what lies on them,
    the panel, and each position's outline to click (with its tooltip)."""
    c = state.components
    sheet = sheet_of(c)
    labels = _labels(names, len(state.players))
    drawn, hits = _positions(state, sheet, labels)
    parts = ['<g class="public">', *drawn]
    x = sheet.width + 14
    parts.append(
        text(
            x,
            24,
            turn_words(state, labels),
            13.5,
            font_weight="bold",
            fill=SEAT_COLORS[state.to_act % 4] if state.to_act is not None else "#222",
            id="turn",
        )
    )
    display = state.display if state.display is not None else NONE
    parts.append(
        supply(
            sheet.serial,
            x,
            state.threes,
            state.water_left,
            state.palaces_left,
            display,
            len(state.pile),
        )
    )
    y = SEATS_TOP
    for seat, player in enumerate(state.players):
        parts.append(seat_block(x, y, seat, labels[seat], state.to_act == seat, player))
        y += SEAT_H
    parts.append(festival(state, x, y + 14, labels))
    chosen = state.pending.position if state.pending is not None else None
    parts.append(_pending(sheet.serial, NONE if chosen is None else chosen))
    parts.append('</g><g class="positions">')
    parts += hits
    parts.append("</g>")
    return parts


#: What lies on the board, position by position: the state's tuples a picture was
#: drawn from, and its fragments (see :func:`_positions`).
Board = tuple[tuple[int, ...], ...]
_LAST: dict[tuple[int, tuple[str, ...]], tuple[Board, list[str], list[str]]] = {}


def _positions(state: State, sheet: Sheet, labels: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Each position drawn, and its outline to click.  A game's steps change few
    positions, and a state keeps the tuples that did not change: only the
    positions that differ from the last picture drawn (and their neighbours, whose
    tile outlines they touch) are drawn again."""
    board: Board = (state.height, state.terrain, state.top, state.figures, state.palace, state.red)
    key = (sheet.serial, labels)
    last = _LAST.get(key)
    everything = range(len(sheet.centres))
    if last is None or last[0][5] != state.red:
        todo: Iterable[int] = everything
        drawn, hits = [""] * len(everything), [""] * len(everything)
    else:
        changed = {
            p
            for old, new in zip(last[0][:5], board[:5], strict=True)
            if old is not new
            for p in everything
            if old[p] != new[p]
        }
        todo = changed | {n for p in changed for n, _, _ in sheet.sides[p] if n != NONE}
        drawn, hits = list(last[1]), list(last[2])
    for p in todo:
        spot = _spot(state, sheet, p)
        drawn[p] = _position(sheet.serial, p, spot)
        hits[p] = _hit(sheet.serial, p, spot, labels)
    if len(_LAST) > 16:
        _LAST.clear()
    _LAST[key] = (board, drawn, hits)
    return drawn, hits


def _size(c: Components, players: int) -> tuple[float, float]:
    sheet = sheet_of(c)
    return sheet.width + PANEL_W + 20, max(sheet.height, SEATS_TOP + players * SEAT_H + FESTIVAL_H)


def document(c: Components, body: str, players: int = 4) -> str:
    """The layers joined into one picture, as tall as the panel of ``players``
    seats needs."""
    width, height = _size(c, players)
    board = sheet_of(c).width
    areas = ((0.0, 0.0, board, sheet_of(c).height), (board, 0.0, width - board, height))
    return svg_document(body, width, height, areas=areas)


def svg(obj: State | PlayerView, names: Sequence[str] | None = None) -> str:
    """The whole picture of a state, every hand shown, or of a seat's view, its own
    hand only (drawn from a state the view cannot tell from the real one: the
    public layer and the seat's hand show nothing else)."""
    if isinstance(obj, PlayerView):
        state = determinize(obj, random.Random(0))
        seats: Iterable[int] = (obj.seat,)
    else:
        state = obj
        seats = range(len(state.players))
    c = state.components
    hands = "".join("".join(hand_parts(state, s)) for s in seats)
    body = board_layer(c) + "".join(public_parts(state, names)) + hands
    return document(c, body, len(state.players))
