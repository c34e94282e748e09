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
import math
from collections.abc import Iterable, Sequence
from typing import Final

from attrs import field, frozen

from ..kit.svg import FONT, attrs, hexagon, plural, points, text, title
from .components import PALACE_VALUES, Components
from .state import NONE, RICE, VILLAGE, WATER, Seat, State

SIZE: Final = 22.0  # hex radius
EDGE: Final = 26.0  # room for the coordinates round the board
PANEL_W: Final = 390.0
SEAT_COLORS: Final = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
RIM: Final = {1: "#a9cf8f", 2: "#6b6b6b"}  # J46: lowland, mountains
BARE: Final = "#f1ede4"
WATER_FILL: Final = "#5b9bd5"
FILL: Final = {RICE: (150, 200, 90), VILLAGE: (214, 160, 90)}
CARD_FILL: Final = "#fff6d8"
CARD_W: Final = 38
#: The seats' rows in the panel: where the first begins, how tall each is.
SEATS_TOP: Final = 140.0
SEAT_H: Final = 96.0


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


@frozen
class _Sheet:
    """What the pictures of one set of components share all game: each position's
    centre, outline and name, the neighbours in each direction, the board's size."""

    serial: int
    components: Components = field(eq=False, repr=False)
    centres: tuple[tuple[float, float], ...]
    outlines: tuple[str, ...]
    names: tuple[str, ...]
    #: per position: (neighbour, the two corners of the shared edge)
    sides: tuple[tuple[tuple[int, tuple[float, float], tuple[float, float]], ...], ...]
    width: float
    height: float


_SHEETS: dict[int, tuple[Components, _Sheet]] = {}
_BY_SERIAL: dict[int, _Sheet] = {}


def position_name(c: Components, position: int) -> str:
    """A position as the log names it (row letter, column number: ``A1`` top left)."""
    from .adapter import position_label

    return position_label(c, position)


def _sheet(c: Components) -> _Sheet:
    cached = _SHEETS.get(id(c))
    if cached is not None and cached[0] is c:
        return cached[1]
    board = c.board
    raw = [_centre(q, r) for q, r in board.coords]
    xs, ys = zip(*raw, strict=True)
    half = SIZE * math.sqrt(3) / 2
    left, top = min(xs) - half - EDGE, min(ys) - SIZE - EDGE
    at = tuple((round(x - left, 1), round(y - top, 1)) for x, y in raw)
    sides = []
    for p, (x, y) in enumerate(at):
        towards = {
            round(math.degrees(math.atan2(at[n][1] - y, at[n][0] - x))) % 360: n
            for n in board.neighbours[p]
        }
        sides.append(tuple(_side(x, y, 60 * k, towards.get(60 * k, NONE)) for k in range(6)))
    sheet = _Sheet(
        serial=len(_BY_SERIAL) + 1,
        components=c,
        centres=at,
        outlines=tuple(points(hexagon(x, y, SIZE, 30)) for x, y in at),
        names=tuple(position_name(c, p) for p in range(len(at))),
        sides=tuple(sides),
        width=max(xs) + half + EDGE - left,
        height=max(ys) + SIZE + EDGE - top,
    )
    if len(_SHEETS) > 8:
        _SHEETS.clear()
    _SHEETS[id(c)] = (c, sheet)
    _BY_SERIAL[sheet.serial] = sheet
    return sheet


def _side(
    x: float, y: float, angle: int, neighbour: int
) -> tuple[int, tuple[float, float], tuple[float, float]]:
    """The side of the hex at ``(x, y)`` facing ``angle`` degrees (0 east, 90 south):
    the neighbour beyond it (:data:`NONE` off the board) and its two corners."""
    a, b = (
        (
            round(x + SIZE * math.cos(math.radians(angle + d)), 1),
            round(y + SIZE * math.sin(math.radians(angle + d)), 1),
        )
        for d in (-30, 30)
    )
    return neighbour, a, b


def _shade(terrain: int, height: int) -> str:
    r, g, b = FILL[terrain]
    k = max(0.45, 1 - 0.13 * (height - 1))
    return f"rgb({round(r * k)},{round(g * k)},{round(b * k)})"


def board_layer(c: Components) -> str:
    """The grid, the rim's colours, the printed tanks and the coordinates on the
    board's edge (the same all game)."""
    sheet = _sheet(c)
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


def _coordinates(sheet: _Sheet) -> str:
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


def tile_edges(sheet: _Sheet, position: int, same: Sequence[bool]) -> str:
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


def _spot(state: State, sheet: _Sheet, p: int) -> _Spot:
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
    sheet = _BY_SERIAL[serial]
    x, y = sheet.centres[p]
    out = []
    if spot.terrain == WATER and p not in sheet.components.board.tanks:
        out.append(
            f'<polygon points="{sheet.outlines[p]}" fill="{WATER_FILL}" stroke="#3d6f9c" '
            f'stroke-width="1"/>'
        )
    elif spot.terrain in (RICE, VILLAGE):
        out.append(
            f'<polygon points="{sheet.outlines[p]}" fill="{_shade(spot.terrain, spot.height)}"/>'
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
    sheet = _BY_SERIAL[serial]
    tip = _spot_title(sheet.components, sheet.names[p], p, spot, labels)
    return (
        f'<g id="pos-{p}" class="pos">{title(tip)}<polygon class="hit" '
        f'points="{sheet.outlines[p]}" fill="#fff" fill-opacity="0"/></g>'
    )


# --------------------------------------------------------------------------- the panel


class _Lines:
    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        self.parts: list[str] = []

    def line(self, content: str, size: float = 12, **extra: object) -> None:
        self.parts.append(text(self.x, self.y, content, size, **extra))
        self.y += size + 5


def _turn_words(state: State, labels: Sequence[str]) -> str:
    if state.to_act is None:
        return "Java: game over"
    who = labels[state.to_act]
    if state.festival is not None:
        return f"festival at {position_name(state.components, state.festival.palace)}: {who} bids"
    words = f"{who}'s turn: {state.turn.ap} AP left"
    if state.pending is not None:
        from .adapter import action_text

        words += f"; {action_text(state, state.pending.action)}: {state.phase}"
    return words


@functools.lru_cache(maxsize=1024)
def _supply(
    serial: int,
    x: float,
    threes: int,
    water: int,
    palaces: tuple[int, ...],
    display: int,
    pile: int,
) -> str:
    """The common supply (J7): three-space tiles, water tiles and palace tiles by
    value, each a part to click for taking one; the display card and the pile (J61)."""
    c = _BY_SERIAL[serial].components
    out = [text(x, 56, "Supply", 13, font_weight="bold")]
    out.append(
        f'<g id="supply-three">{title(f"{threes} three-space tiles left")}'
        f'<rect class="hit" x="{x}" y="64" width="70" height="28" rx="4" fill="{_shade(RICE, 1)}" '
        f'stroke="#2f2a22" stroke-width="1.5"/>'
        + text(x + 35, 83, f"3-tile x{threes}", 11.5, text_anchor="middle", font_weight="bold")
        + "</g>"
    )
    out.append(
        f'<g id="supply-water">{title(f"{water} water tiles left")}'
        f'<rect class="hit" x="{x + 76}" y="64" width="66" height="28" rx="4" fill="{WATER_FILL}" '
        f'stroke="#3d6f9c" stroke-width="1.5"/>'
        + text(
            x + 107,
            83,
            f"water x{water}",
            11.5,
            text_anchor="middle",
            fill="#fff",
            font_weight="bold",
        )
        + "</g>"
    )
    for k, (value, left) in enumerate(zip(PALACE_VALUES, palaces, strict=True)):
        px = x + 146 + k * 46
        out.append(
            f'<g id="palace-{value}">{title(f"{left} palace tiles of value {value} left")}'
            f'<rect class="hit" x="{px}" y="64" width="40" height="32" rx="3" fill="#fff" '
            f'stroke="#222" stroke-width="1.3"/>'
            + text(px + 20, 78, str(value), 12.5, text_anchor="middle", font_weight="bold")
            + text(px + 20, 92, f"x{left}", 11, text_anchor="middle", fill="#555")
            + "</g>"
        )
    out.append(text(x, 116, "Festival cards: display", 12, font_weight="bold"))
    if display >= 0:
        out.append(_card(x + 168, 100, c, display, "display-card"))
    out.append(
        f'<g id="draw-pile">{title("the draw pile: " + plural(pile, "card"))}'
        f'<rect class="hit" x="{x + 222}" y="100" width="96" height="24" rx="4" fill="#8d6e4c" '
        f'stroke="#222"/>'
        + text(x + 270, 116, f"pile: {pile}", 11.5, text_anchor="middle", fill="#fff")
        + "</g>"
    )
    return "".join(out)


def _card(x: float, y: float, c: Components, card: int, ident: str | None) -> str:
    """A festival card: its symbols' initials (the tooltip names them)."""
    return _card_at(_sheet(c).serial, x, y, card, ident)


@functools.lru_cache(maxsize=4096)
def _card_at(serial: int, x: float, y: float, card: int, ident: str | None) -> str:
    words = card_words(_BY_SERIAL[serial].components, card)
    short = "+".join(w[0].upper() for w in words.split("+"))
    return (
        f'<g{attrs(id=ident)} class="card" data-card="{card}">{title(words)}'
        f'<rect class="hit" x="{x}" y="{y}" width="{CARD_W}" height="24" rx="4" '
        f'fill="{CARD_FILL}" stroke="#7a5c00" stroke-width="1.2"/>'
        + text(x + CARD_W / 2, y + 16.5, short, 12, text_anchor="middle", font_weight="bold")
        + "</g>"
    )


def card_words(c: Components, card: int) -> str:
    return "+".join(c.symbols[s] for s in c.cards[card])


@functools.lru_cache(maxsize=4096)
def _seat_block(x: float, y: float, seat: int, label: str, acting: bool, p: Seat) -> str:
    color = SEAT_COLORS[seat % 4]
    out = [
        f'<g class="seat" id="seat-{seat}"><rect x="{x - 6}" y="{y}" width="{PANEL_W - 4}" '
        f'height="{SEAT_H - 6}" rx="5" fill="#fff" stroke="{"#c0392b" if acting else "#bbb"}" '
        f'stroke-width="{2.5 if acting else 1}"/>',
        f'<circle cx="{x + 5}" cy="{y + 15}" r="6.5" fill="{color}"/>',
        text(x + 16, y + 20, label, 13, font_weight="bold", fill=color),
        text(
            x + PANEL_W - 14,
            y + 20,
            plural(p.score, "point"),
            13,
            text_anchor="end",
            font_weight="bold",
        ),
        text(
            x,
            y + 38,
            f"water {p.water}, palaces {p.palaces}, festivals {p.festivals}, final {p.final}",
            11.5,
            fill="#444",
        ),
        text(
            x,
            y + 55,
            f"figures {p.supply}, tokens {p.tokens}; own tiles: 2-space {p.twos}, "
            f"rice {p.rice}, village {p.villages}",
            11.5,
            fill="#444",
        ),
        "</g>",
    ]
    return "".join(out)


def _festival(state: State, x: float, y: float, labels: Sequence[str]) -> str:
    f = state.festival
    if f is None:
        return ""
    c = state.components
    needed = ", ".join(c.symbols[s] for s in f.required)
    lines = _Lines(x, y)
    lines.line(
        f"Festival at {position_name(c, f.palace)} (needs {needed})",
        12.5,
        font_weight="bold",
        fill="#8b0000",
    )
    for k, seat in enumerate(f.bidders):
        laid = ", ".join(card_words(c, card) for card in f.laid[k]) or "nothing"
        out = " (out)" if f.passed[k] else ""
        lines.line(f"{labels[seat]}: {laid}{out}", 11.5, fill=SEAT_COLORS[seat % 4])
    if f.bid:
        lines.line(f"this bid: {', '.join(card_words(c, card) for card in f.bid)}", 11.5)
    return '<g id="festival">' + "".join(lines.parts) + "</g>"


@functools.lru_cache(maxsize=512)
def _pending(serial: int, position: int) -> str:
    """The position a half-made action was given (its anchor, figure or palace)."""
    if position == NONE:
        return ""
    x, y = _BY_SERIAL[serial].centres[position]
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
    sheet = _sheet(c)
    labels = _labels(names, len(state.players))
    drawn, hits = _positions(state, sheet, labels)
    parts = ['<g class="public">', *drawn]
    x = sheet.width + 14
    parts.append(
        text(
            x,
            24,
            _turn_words(state, labels),
            13.5,
            font_weight="bold",
            fill=SEAT_COLORS[state.to_act % 4] if state.to_act is not None else "#222",
            id="turn",
        )
    )
    display = state.display if state.display is not None else NONE
    parts.append(
        _supply(
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
        parts.append(_seat_block(x, y, seat, labels[seat], state.to_act == seat, player))
        y += SEAT_H
    parts.append(_festival(state, x, y + 14, labels))
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


def _positions(state: State, sheet: _Sheet, labels: tuple[str, ...]) -> tuple[list[str], list[str]]:
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


def hand_parts(state: State, seat: int) -> list[str]:
    """What only ``seat`` sees: its festival cards, in its row of the panel
    (``hand-card-N``: what a person clicks to lay one in a festival)."""
    c = state.components
    x = _sheet(c).width + 14
    y = SEATS_TOP + SEAT_H * seat + 64
    hand = state.players[seat].hand
    step = min(CARD_W + 4.0, (PANEL_W - 60) / max(len(hand), 1))
    return [
        f'<g class="hand" id="hand-{seat}">',
        text(x, y + 16, "hand:", 11.5, fill="#444"),
        *(_card(x + 40 + k * step, y, c, card, f"hand-card-{card}") for k, card in enumerate(hand)),
        "</g>",
    ]


def _size(c: Components) -> tuple[float, float]:
    sheet = _sheet(c)
    return sheet.width + PANEL_W + 20, max(sheet.height, SEATS_TOP + 4 * SEAT_H + 120)


def document(c: Components, body: str) -> str:
    width, height = _size(c)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="{FONT}">'
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbf8f1"/>{body}</svg>'
    )


def svg(state: State, names: Sequence[str] | None = None) -> str:
    """The whole picture of ``state``, every hand shown."""
    c = state.components
    hands = "".join("".join(hand_parts(state, s)) for s in range(len(state.players)))
    return document(c, board_layer(c) + "".join(public_parts(state, names)) + hands)
