"""Where Taj Mahal's map puts things, worked out once per board (:func:`layout`).

The board's data gives each city a position on the printed map; the picture
needs more: cities far enough apart to click (Agra, Fatehpur Sikri and Mathura
lie 20 map units apart), provinces as regions that touch as on the board, and
labels that never cover each other.  So:

- the positions are fitted to the picture's map box, then pushed apart until
  every two cities are :data:`SPACING` apart (each also pulled back towards where
  the map puts it, so the map keeps its shape);
- each city gets the part of the land nearer to it than to any other city (its
  Voronoi cell, cut to the land: the cities' rounded hull, and a disk around the
  city); a province is the union of its cities' cells, so neighbouring provinces
  share their borders;
- the province names, then the city names, take the first of a few places
  around their point that covers no marker and no label placed before (the
  most crowded cities choose first).

>>> from tajmahal.tajmahal.board import DEFAULT_BOARD
>>> m = layout(DEFAULT_BOARD)
>>> len(m.cities) == len(m.cells) == len(m.city_labels) == 49
True
>>> min(distance(a, b) for i, a in enumerate(m.cities) for b in m.cities[i + 1:]) >= SPACING - 1
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from attrs import field, frozen

from ..kit.svg import Kept, text_width
from .board import Board

Point = tuple[float, float]
#: A segment of a region's edge and what lies beyond it: another city's id, or -1
#: (no city: the sea or the map's edge).
Edge = tuple[Point, Point, int]
#: A label's box: left, top, right, bottom.
Box = tuple[float, float, float, float]

#: The map's box in the picture: left, top, width, height.
MAP_BOX: Final = (10.0, 48.0, 850.0, 842.0)
#: The least distance between two cities' markers.
SPACING: Final = 52.0
#: Half the side of the square a city's marker (and its click target) takes.
MARKER: Final = 15.0
CITY_FONT: Final = 13.0
PROVINCE_FONT: Final = 14.0
#: How far a city's region reaches at most (beyond: the sea).
REACH: Final = 105.0
#: Soft fills of the provinces; neighbours never share one.
FILLS: Final = ("#f1dcb0", "#d9e6bf", "#f0cfbd", "#e6d5ee", "#efe7b6", "#e3d3bd", "#cfe6cf")


@frozen
class Label:
    """A label's text anchor point (``x`` the middle, ``y`` the baseline) and box."""

    x: float
    y: float
    box: Box


@frozen
class MapLayout:
    """Everything of the map that stays the same all game, in picture coordinates
    (``serial`` numbers the layouts made: :func:`layout_of` finds one again)."""

    serial: int
    board: Board = field(eq=False, repr=False)
    cities: tuple[Point, ...]
    cells: tuple[tuple[Point, ...], ...]
    edges: tuple[tuple[Edge, ...], ...]  # by city: its cell's edges
    fills: tuple[str, ...]  # by province
    city_labels: tuple[Label, ...]
    province_labels: tuple[Label, ...]


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


# --------------------------------------------------------------------------- positions


def _fitted(board: Board) -> list[Point]:
    """The board's positions scaled into the map's box (room left for names:
    more on the right, where long names run out of the box)."""
    left, top, width, height = MAP_BOX
    xs = [c.x for c in board.cities]
    ys = [c.y for c in board.cities]
    pad_left, pad_right, pad_y = 45.0, 80.0, 48.0
    span_x, span_y = max(max(xs) - min(xs), 1.0), max(max(ys) - min(ys), 1.0)
    scale = min((width - pad_left - pad_right) / span_x, (height - 2 * pad_y) / span_y)
    dx = left + pad_left + (width - pad_left - pad_right - span_x * scale) / 2 - min(xs) * scale
    dy = top + (height - span_y * scale) / 2 - min(ys) * scale
    return [(c.x * scale + dx, c.y * scale + dy) for c in board.cities]


def _spread(home: list[Point], spacing: float = SPACING, rounds: int = 120) -> list[Point]:
    """Push cities apart until each pair is ``spacing`` apart, each pulled back
    a little towards its ``home`` every round."""
    at = [list(p) for p in home]
    n = len(at)
    near = [
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if distance(home[i], home[j]) < 3 * spacing
    ]
    for _ in range(rounds):
        moved = False
        for i, j in near:
            dx, dy = at[j][0] - at[i][0], at[j][1] - at[i][1]
            d = math.hypot(dx, dy)
            if d >= spacing:
                continue
            if d < 1e-6:
                dx, dy, d = 1.0, 0.0, 1.0
            push = (spacing - d) / 2 + 0.01
            ux, uy = dx / d * push, dy / d * push
            at[i][0] -= ux
            at[i][1] -= uy
            at[j][0] += ux
            at[j][1] += uy
            moved = True
        if not moved:
            break
        for p, h in zip(at, home, strict=True):
            p[0] += (h[0] - p[0]) * 0.02
            p[1] += (h[1] - p[1]) * 0.02
    left, top, width, height = MAP_BOX
    return [
        (
            round(min(max(x, left + MARKER + 8), left + width - MARKER - 8), 1),
            round(min(max(y, top + MARKER + 8), top + height - MARKER - 8), 1),
        )
        for x, y in at
    ]


# --------------------------------------------------------------------------- regions


def _cut(edges: list[Edge], a: float, b: float, c: float, label: int) -> list[Edge]:
    """The convex polygon ``edges`` cut to the half-plane ``a x + b y <= c``; the
    new edge along the cut is labelled ``label``."""

    def inside(p: Point) -> bool:
        return a * p[0] + b * p[1] <= c + 1e-9

    def crossing(p: Point, q: Point) -> Point:
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        t = fp / (fp - fq)
        return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)

    out: list[Edge | None] = []
    exit_at: Point | None = None
    entry_at: Point | None = None
    for p, q, lab in edges:
        pin, qin = inside(p), inside(q)
        if pin and qin:
            out.append((p, q, lab))
        elif pin:
            exit_at = crossing(p, q)
            out.append((p, exit_at, lab))
            out.append(None)  # the cut's edge goes here
        elif qin:
            entry_at = crossing(p, q)
            out.append((entry_at, q, lab))
    if exit_at is None or entry_at is None:
        return [e for e in out if e is not None] if out else []
    return [e if e is not None else (exit_at, entry_at, label) for e in out]


def _polygon_edges(corners: Sequence[Point], label: int) -> list[Edge]:
    return [(corners[k], corners[(k + 1) % len(corners)], label) for k in range(len(corners))]


def _hull(points: Sequence[Point]) -> list[Point]:
    """The convex hull, counter-clockwise in picture coordinates (y down)."""
    pts = sorted(set(points))

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def half(seq: Sequence[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and cross(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return lower[:-1] + upper[:-1]


def _circle(x: float, y: float, r: float, n: int = 20) -> list[Point]:
    return [
        (x + r * math.cos(2 * math.pi * k / n), y + r * math.sin(2 * math.pi * k / n))
        for k in range(n)
    ]


def _half_planes(corners: Sequence[Point]) -> list[tuple[float, float, float]]:
    """The half-planes ``a x + b y <= c`` whose meet is the convex polygon ``corners``."""
    cx = sum(p[0] for p in corners) / len(corners)
    cy = sum(p[1] for p in corners) / len(corners)
    out = []
    for k, p in enumerate(corners):
        q = corners[(k + 1) % len(corners)]
        a, b = q[1] - p[1], p[0] - q[0]
        c = a * p[0] + b * p[1]
        if a * cx + b * cy > c:  # the centre must be inside
            a, b, c = -a, -b, -c
        out.append((a, b, c))
    return out


#: The map's box as half-planes ``a x + b y <= c``.
_BOX_SIDES: Final = [
    (-1.0, 0.0, -MAP_BOX[0]),
    (0.0, -1.0, -MAP_BOX[1]),
    (1.0, 0.0, MAP_BOX[0] + MAP_BOX[2]),
    (0.0, 1.0, MAP_BOX[1] + MAP_BOX[3]),
]


def _cells(at: list[Point]) -> list[list[Edge]]:
    """Each city's region: nearer to it than to any other city, on the land."""
    land = _hull([p for x, y in at for p in _circle(x, y, REACH * 0.8, 12)])
    box = _polygon_edges(land, -1)
    cells = []
    for i, (x, y) in enumerate(at):
        edges = box
        for a, b, c in _half_planes(_circle(x, y, REACH, 24)) + _BOX_SIDES:
            edges = _cut(edges, a, b, c, -1)
        for j, (u, v) in enumerate(at):
            if j != i and distance((x, y), (u, v)) < 2 * REACH:
                # nearer to i than to j: (q - p_i)^2 <= (q - p_j)^2
                a, b = u - x, v - y
                c = (u * u + v * v - x * x - y * y) / 2
                edges = _cut(edges, a, b, c, j)
        cells.append(edges)
    return cells


def _fills(board: Board, edges: Sequence[Sequence[Edge]]) -> tuple[str, ...]:
    """A fill per province, different from each neighbour's (greedy colouring)."""
    province = [c.province for c in board.cities]
    touching: list[set[int]] = [set() for _ in board.provinces]
    for i, cell in enumerate(edges):
        for _, _, j in cell:
            if j >= 0 and province[j] != province[i]:
                touching[province[i]].add(province[j])
    fills: list[str] = []
    for p in range(len(board.provinces)):
        used = {fills[q] for q in touching[p] if q < p}
        free = [f for f in FILLS if f not in used] or list(FILLS)
        fills.append(min(free, key=fills.count))  # the least used: neighbours differ more
    return tuple(fills)


def _area_centre(cell: Sequence[Point]) -> tuple[float, Point]:
    area = cx = cy = 0.0
    for k, (x0, y0) in enumerate(cell):
        x1, y1 = cell[(k + 1) % len(cell)]
        w = x0 * y1 - x1 * y0
        area += w
        cx += (x0 + x1) * w
        cy += (y0 + y1) * w
    if abs(area) < 1e-9:
        return 0.0, cell[0]
    return abs(area) / 2, (cx / (3 * area), cy / (3 * area))


# --------------------------------------------------------------------------- labels


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _outside(box: Box) -> float:
    left, top, width, height = MAP_BOX
    return (
        max(0.0, left - box[0])
        + max(0.0, top - box[1])
        + max(0.0, box[2] - left - width)
        + max(0.0, box[3] - top - height)
    )


def _label_box(x: float, y: float, content: str, size: float) -> Box:
    """The box of a label centred on ``x`` with its baseline at ``y``."""
    w = text_width(content, size) / 2 + 2  # a little room between two labels
    return (x - w, y - size * 0.95, x + w, y + size * 0.3)


def _place(
    content: str,
    size: float,
    spots: Sequence[Point],
    taken: list[Box],
    own: Point | None = None,
    markers: Sequence[Point] = (),
) -> Label:
    """The first of ``spots`` (anchor points, best first) where the label covers
    nothing in ``taken`` and lies nearer its ``own`` marker than any other of
    ``markers`` (so it reads as that city's); failing that, the one that does best."""
    best: tuple[float, int, Label] | None = None
    for rank, (x, y) in enumerate(spots):
        box = _label_box(x, y, content, size)
        cost = 10 * sum(_overlap(box, t) for t in taken) + 500 * _outside(box)
        if own is not None:
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            mine = _reach(box, own)
            far = distance(centre, own) > 3 * MARKER + (box[2] - box[0]) / 2
            if far or any(_reach(box, m) < mine for m in markers if m != own):
                cost += 300
        if best is None or (cost, rank) < best[:2]:
            best = (cost, rank, Label(round(x, 1), round(y, 1), box))
        if cost == 0:
            break
    assert best is not None
    taken.append(best[2].box)
    return best[2]


def _reach(box: Box, p: Point) -> float:
    """How far ``p`` is from the nearest point of ``box``."""
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def _city_spots(x: float, y: float, content: str) -> list[Point]:
    """Anchor points around a marker: below and above (centred, then slid
    sideways), right, left, then a step further out."""
    half = text_width(content, CITY_FONT) / 2
    spots = []
    for gap in (2.0, 10.0, 20.0):
        m = MARKER + gap
        below, above = y + m + CITY_FONT * 0.75, y - m - CITY_FONT * 0.25
        for slide in (0.0, 0.4, -0.4, 0.8, -0.8, 1.2, -1.2):
            spots += [(x + slide * half, below), (x + slide * half, above)]
        for rise in (0.3, -0.6, 1.2):
            y_side = y + CITY_FONT * rise
            spots += [(x + m + half, y_side), (x - m - half, y_side)]
    return spots


def _labels(
    board: Board, at: list[Point], cells: Sequence[Sequence[Point]]
) -> tuple[tuple[Label, ...], tuple[Label, ...]]:
    taken: list[Box] = [(x - MARKER, y - MARKER, x + MARKER, y + MARKER) for x, y in at]
    provinces = []
    for p, name in enumerate(board.provinces):
        mine = [(cells[c.id], at[c.id]) for c in board.cities if c.province == p]
        parts = [_area_centre(cell) for cell, _ in mine if len(cell) >= 3]
        area = sum(a for a, _ in parts) or 1.0
        cx = sum(a * q[0] for a, q in parts) / area
        cy = sum(a * q[1] for a, q in parts) / area
        # the centre of the region, then nearby points from the nearest out
        grid = [(cx + dx, cy + dy) for dx in range(-60, 61, 12) for dy in range(-48, 49, 8)]
        grid.sort(key=lambda q: distance(q, (cx, cy)))
        provinces.append(_place(name, PROVINCE_FONT, grid, taken))
    crowd = [sum(1 for q in at if distance(p, q) < 3 * SPACING) for p in at]
    order = sorted(range(len(at)), key=lambda i: -crowd[i])
    cities: dict[int, Label] = {}
    for i in order:
        x, y = at[i]
        name = board.cities[i].name
        cities[i] = _place(name, CITY_FONT, _city_spots(x, y, name), taken, at[i], at)
    return tuple(cities[i] for i in range(len(at))), tuple(provinces)


# --------------------------------------------------------------------------- the layout


def _make(board: Board, serial: int) -> MapLayout:
    at = _spread(_fitted(board))
    edges = _cells(at)
    cells = [[p for p, _, _ in cell] for cell in edges]
    city_labels, province_labels = _labels(board, at, cells)
    return MapLayout(
        serial=serial,
        board=board,
        cities=tuple(at),
        cells=tuple(tuple((round(x, 1), round(y, 1)) for x, y in c) for c in cells),
        edges=tuple(tuple(e) for e in edges),
        fills=_fills(board, edges),
        city_labels=city_labels,
        province_labels=province_labels,
    )


_LAYOUTS: Final = Kept(_make)
#: The layout of a board (worked out once per board object).
layout: Final = _LAYOUTS.of
#: The layout numbered ``serial``.
layout_of: Final = _LAYOUTS.serial
