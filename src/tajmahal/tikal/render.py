"""Tikal as pictures: an SVG of the board from its data, for Jupyter, the HTML
replay viewer and the browser game (:class:`tajmahal.arena.viewer.Pictures`).

The board is a grid of flat-topped hexes (``board.json``; unexplored spaces
pale).  An explored space is filled by its kind (jungle green, temple grey,
treasure gold, volcano dark red, the base camp brown) and shows the stones on
its edges as they lie (rotated as placed, T20), a temple's value, the face-down
treasures as small squares (counted only: nobody has seen them, T21), a camp as
a tent and a guard as a square with ``G`` in its seat's colour (T38, T40), and
each seat's figures as a disc in its colour with the number of workers (``L``
the leader, ``2+L`` both).  Beside the board: the turn, the tile in hand, the
stack by back letter, the supply, the level tokens left, the revealed tiles of
the auction variant, and per seat its score, figures, camps, guards and the
treasures it holds face up.

Nothing of Tikal is private to one seat: the face-down treasures and the order
of the stack are hidden from every seat.  So the picture is always drawn from a
seat's :func:`~tajmahal.tikal.views.view` (a state and every seat's view draw
alike) and the hand layer is empty.

Clickable parts carry ids: ``space-N`` for each space (an outline drawn over
everything, with the space's label), ``choice-T`` for a revealed tile T of the
auction variant.  States and views show themselves as this picture in Jupyter
(``_repr_svg_``).

>>> from tajmahal.tikal import Setup, new_game
>>> picture = svg(new_game(Setup.random(players=2, seed=1)), ["ann", "bob"])
>>> picture.startswith("<svg") and picture.count('class="space"') == 63
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final
from xml.sax.saxutils import escape

from .adapter import space_label, tile_text
from .components import DEFAULT_COMPONENTS, TOP_LEVEL, Components
from .state import GONE, RESERVE, State
from .terminal import figures_text, treasures_text
from .views import SpaceView, TikalView, view

SIZE: Final = 40.0  # hex radius in pixels
MARGIN: Final = 12.0
PANEL_W: Final = 400.0
MIN_H: Final = 470.0
SEAT_COLORS: Final = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
KIND_FILLS: Final = {
    "base": "#b08850",
    "jungle": "#8cc47a",
    "temple": "#bdb6a4",
    "treasure": "#e6c65c",
    "volcano": "#7a2b1f",
}
UNEXPLORED: Final = "#ece7d9"
#: Where each seat's figures stand on a space (offsets from its centre).
SLOTS: Final = ((-11.0, 6.0), (11.0, 6.0), (-11.0, 21.0), (11.0, 21.0))


def _centre(q: int, r: int) -> tuple[float, float]:
    """Flat-topped hexes in axial coordinates (direction 5, ``(0, 1)``, is south)."""
    return SIZE * 1.5 * q, SIZE * math.sqrt(3) * (r + q / 2)


def _frame(c: Components) -> tuple[float, float, float, float]:
    """The board's left and top edge, width and height in pixels."""
    xs, ys = zip(*(_centre(q, r) for q, r in c.board.coords), strict=True)
    half = SIZE * math.sqrt(3) / 2
    left, top = min(xs) - SIZE - MARGIN, min(ys) - half - MARGIN
    return left, top, max(xs) + SIZE + MARGIN - left, max(ys) + half + MARGIN - top


def _at(c: Components, space: int) -> tuple[float, float]:
    left, top, _, _ = _frame(c)
    x, y = _centre(*c.board.coords[space])
    return x - left, y - top


def _points(x: float, y: float, radius: float = SIZE) -> str:
    return " ".join(
        f"{x + radius * math.cos(math.radians(60 * k)):.1f},"
        f"{y + radius * math.sin(math.radians(60 * k)):.1f}"
        for k in range(6)
    )


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())


def _text(x: float, y: float, text: str, size: float = 10, **attrs: str) -> str:
    attrs.setdefault("text_anchor", "middle")
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{_attrs(attrs)}>{escape(text)}</text>'


def _size(c: Components) -> tuple[float, float]:
    _, _, width, height = _frame(c)
    return width + PANEL_W, max(height, MIN_H)


def board_layer(c: Components) -> str:
    """Every space of the board, unexplored (the same all game)."""
    parts = [
        f'<polygon points="{_points(*_at(c, s))}" fill="{UNEXPLORED}"/>' for s in c.board.spaces
    ]
    return '<g class="board">' + "".join(parts) + "</g>"


def _stones(x: float, y: float, stones: Sequence[int]) -> str:
    """T20: the stones on each edge, inside the hex along that edge (direction d
    points 30 - 60 d degrees from east, clockwise as y grows downwards)."""
    parts = []
    inner = SIZE * math.sqrt(3) / 2 * 0.86
    for d, n in enumerate(stones):
        angle = math.radians(30 - 60 * d)
        ex, ey = x + inner * math.cos(angle), y + inner * math.sin(angle)
        tx, ty = math.sin(angle), math.cos(angle)  # along the edge
        for i in range(n):
            off = (i - (n - 1) / 2) * 6
            parts.append(
                f'<circle class="stone" data-edge="{d}" cx="{ex + off * tx:.1f}" '
                f'cy="{ey + off * ty:.1f}" r="2.4" fill="#3d3d3d"/>'
            )
    return "".join(parts)


def _space(v: TikalView, c: Components, space: int, s: SpaceView) -> str:
    x, y = _at(c, space)
    fill = KIND_FILLS.get(s.kind, "#ccc")
    tile = f' data-tile="{s.tile}"' if s.tile is not None else ""
    out = [
        f'<g id="tile-{space}" class="tile" data-kind="{s.kind}" data-tokens="{s.tokens}"{tile}>',
        f'<polygon points="{_points(x, y)}" fill="{fill}"/>',
        _stones(x, y, s.stones),
    ]
    if s.kind == "temple":
        out.append(_text(x, y - 8, str(s.value), 15, font_weight="bold", class_="value"))
    elif s.kind in ("base", "volcano"):
        out.append(_text(x, y - 9, s.kind, 9, fill="#fff" if s.kind == "volcano" else "#222"))
    for i in range(s.tokens):
        tx = x + (i - (s.tokens - 1) / 2) * 8
        out.append(
            f'<rect class="token" x="{tx - 3:.1f}" y="{y - 16:.1f}" width="6" height="6" '
            f'fill="#7a5c12" stroke="#fff" stroke-width="0.6"/>'
        )
    if s.camp is not None:
        colour = SEAT_COLORS[s.camp % 4]
        out.append(
            f'<polygon id="camp-{space}" class="camp" data-seat="{s.camp}" '
            f'points="{x - 28:.1f},{y - 6:.1f} {x - 20:.1f},{y - 20:.1f} {x - 12:.1f},{y - 6:.1f}" '
            f'fill="{colour}" stroke="#fff" stroke-width="0.8"/>'
        )
    if s.guard is not None:
        colour = SEAT_COLORS[s.guard % 4]
        out.append(
            f'<g id="guard-{space}" class="guard" data-seat="{s.guard}" '
            f'data-leader="{int(s.guard_leader)}"><rect x="{x + 12:.1f}" y="{y - 21:.1f}" '
            f'width="13" height="13" fill="{colour}" stroke="#fff"/>'
            + _text(x + 18.5, y - 11, "GL" if s.guard_leader else "G", 7, fill="#fff")
            + "</g>"
        )
    for seat, workers in enumerate(v.workers[space]):
        leader = v.players[seat].leader == space
        if not (workers or leader):
            continue
        dx, dy = SLOTS[seat % 4]
        stroke = ' stroke="#000" stroke-width="2"' if leader else ' stroke="#fff"'
        out.append(
            f'<g id="figures-{space}-{seat}" class="figures" data-seat="{seat}" '
            f'data-workers="{workers}" data-leader="{int(leader)}">'
            f'<circle cx="{x + dx:.1f}" cy="{y + dy:.1f}" r="7.5" '
            f'fill="{SEAT_COLORS[seat % 4]}"{stroke}/>'
            + _text(x + dx, y + dy + 2.5, figures_text(workers, leader), 7, fill="#fff")
            + "</g>"
        )
    out.append("</g>")
    return "".join(out)


def _seat_lines(v: TikalView, c: Components, seat: int) -> list[str]:
    p = v.players[seat]
    if p.leader == RESERVE:
        leader = "in reserve"
    elif p.leader == GONE:
        leader = "gone"
    else:
        leader = f"on {space_label(c, p.leader)}"
    held = treasures_text(c, p.treasures)
    lines = [
        f"{p.reserve} workers in reserve, {p.removed} removed; leader {leader}",
        f"camps left {c.camps - len(p.camps)}, guards left {c.guards - len(p.guards)}",
    ]
    words, line = held.split(", "), "treasures:"
    for i, word in enumerate(words):
        if len(line) + len(word) > 62:
            lines.append(line + ",")
            line = "  "
        line += (" " if i == 0 or line == "  " else ", ") + word
    lines.append(line)
    return lines


def public_layer(v: TikalView, c: Components, names: Sequence[str] | None = None) -> str:
    """What every seat sees: the explored spaces and their figures, and the panel."""
    parts = ['<g class="public">']
    for space, s in enumerate(v.spaces):
        if s is not None:
            parts.append(_space(v, c, space, s))
    _, _, width, _ = _frame(c)
    x, y = width + 4, 24.0
    labels = [
        names[k] if names is not None and k < len(names) else f"seat {k}"
        for k in range(len(v.players))
    ]

    def line(text: str, size: float = 10, **attrs: str) -> None:
        nonlocal y
        parts.append(_text(x, y, text, size, text_anchor="start", **attrs))
        y += size + 5

    line(
        f"Tikal ({v.variant})" + (": game over" if v.to_act is None else ""), 14, font_weight="bold"
    )
    if v.to_act is not None:
        turn = f"{labels[v.to_act]} (seat {v.to_act}) to act: {v.phase}"
        if v.phase == "act":
            turn += f", {v.ap} AP left" + (" (scoring turn)" if v.turn == "scoring" else "")
        line(turn, 11, fill=SEAT_COLORS[v.to_act % 4], font_weight="bold")
    if v.tile is not None:
        line(f"in hand: {tile_text(c, v.tile)}", 11, id="in-hand")
    backs = Counter(v.stack)
    stack = " ".join(f"{b}{backs[b]}" for b in sorted(backs)) or "empty"
    line(f"stack: {len(v.stack)} tiles ({stack})", id="stack")
    line(f"supply: {v.supply} face-down treasures")
    levels = " ".join(
        f"{value}:{n}" for value, n in zip(range(2, TOP_LEVEL + 1), v.levels, strict=True)
    )
    line(f"level tokens left {levels}")
    if v.round is not None:
        order = ", ".join(labels[k] for k in v.round.order)
        line(f"scoring round: {order}", fill="#a33")
    if v.auction is not None:
        a = v.auction
        high = f"; high bid {a.high} by {labels[a.bidder]}" if a.bidder is not None else ""
        line(f"auction: revealed tiles{high}")
        for t in a.display:
            parts.append(
                f'<g id="choice-{t}" class="choice" data-tile="{t}">'
                f'<rect x="{x:.1f}" y="{y - 12:.1f}" width="{PANEL_W - 24:.0f}" height="16" '
                f'fill="{KIND_FILLS.get(c.tiles[t].kind, "#ccc")}" stroke="#666"/>'
                + _text(x + 4, y, tile_text(c, t), 10, text_anchor="start")
                + "</g>"
            )
            y += 19
    y += 6
    for seat, p in enumerate(v.players):
        mark = "> " if v.to_act == seat else ""
        line(
            f"{mark}{labels[seat]}: {p.score} points (temples {p.temple_points}, treasures "
            f"{p.treasure_points}, capital {p.capital})",
            11,
            fill=SEAT_COLORS[seat % 4],
            font_weight="bold",
            id=f"seat-{seat}",
        )
        for text in _seat_lines(v, c, seat):
            line(text, 10, fill="#333")
        y += 4
    parts.append("</g>")
    return "".join(parts)


def _overlay(c: Components) -> str:
    """The spaces' outlines and labels over everything: what a person clicks."""
    parts = ['<g class="spaces">']
    for s in c.board.spaces:
        x, y = _at(c, s)
        parts.append(
            f'<g id="space-{s}" class="space"><polygon points="{_points(x, y)}" fill="#fff" '
            f'fill-opacity="0" stroke="#8f8877" stroke-width="0.8"/>'
            + _text(x - 35, y + 3, space_label(c, s), 7, text_anchor="start", fill="#555")
            + "</g>"
        )
    return "".join(parts) + "</g>"


def document(c: Components, body: str) -> str:
    """Layers joined into one SVG document (with the spaces' outlines on top)."""
    width, height = _size(c)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" '
        f'font-family="DejaVu Sans, Verdana, sans-serif">'
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbf8f1"/>{body}{_overlay(c)}</svg>'
    )


def _view_of(obj: State | TikalView, components: Components | None) -> tuple[TikalView, Components]:
    if isinstance(obj, State):
        return view(obj, 0), obj.components
    if isinstance(obj, TikalView):
        return obj, components or DEFAULT_COMPONENTS
    raise TypeError(f"svg() draws a Tikal State or TikalView, not {type(obj).__name__}")


def svg(
    obj: State | TikalView,
    names: Sequence[str] | None = None,
    components: Components | None = None,
) -> str:
    """An SVG picture of a state or a seat's view (alike: see above); ``names``
    label the seats; ``components`` those of a view (default: the package's)."""
    v, c = _view_of(obj, components)
    return document(c, board_layer(c) + public_layer(v, c, names))


class TikalPictures:
    """The layers, as the HTML viewer and the browser game take them."""

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        self.components = components

    def board(self, state: State) -> str:
        return board_layer(state.components)

    def public(self, state: State, names: Sequence[str]) -> str:
        return public_layer(view(state, 0), state.components, names)

    def hand(self, state: State, seat: int) -> str:
        """Nothing: no part of Tikal is seen by one seat only."""
        return ""

    def document(self, body: str) -> str:
        return document(self.components, body)

    def target(self, action: Any) -> str | None:
        """The space a person clicks for an action on one space (a tile placed, a
        figure brought in, a temple uncovered, a treasure dug, a camp built, a guard
        posted) or the space a figure moves to; the revealed tile chosen."""
        if not isinstance(action, dict):
            return None
        kind = action.get("type")
        if kind in ("move", "camp_move") and isinstance(action.get("target"), int):
            return f"space-{action['target']}"
        if kind == "choose" and isinstance(action.get("tile"), int):
            return f"choice-{action['tile']}"
        if kind in ("place", "enter", "uncover", "dig", "build_camp", "guard") and isinstance(
            action.get("space"), int
        ):
            return f"space-{action['space']}"
        return None
