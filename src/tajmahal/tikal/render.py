"""Tikal as pictures: an SVG of the board from its data, for Jupyter, the HTML
replay viewer and the browser game (:mod:`tajmahal.tikal.pictures`).

The board is a grid of flat-topped hexes (``board.json``; unexplored spaces
pale, each labelled with its column letter and row number).  An explored space
is filled by its kind (jungle green, temple grey, treasure gold, volcano dark
red, the base camp brown) and shows the stones on its edges as they lie
(rotated as placed, T20), a temple's value, the face-down treasures as small
squares (counted only: nobody has seen them, T21), a camp as a tent and a guard
as a square with ``G`` in its seat's colour (T38, T40), and each seat's figures
as a disc in its colour with the number of workers (``L`` the leader, ``2+L``
both).  Beside the board: the turn and the AP left, the tile in hand (drawn as
it would lie unturned), the stack by back letter, the supply, the level tokens
left, the revealed tiles of the auction variant, and per seat its score,
figures, camps, guards and the treasures it holds face up.  Every space has a
tooltip that says all it holds.

Nothing of Tikal is private to one seat: the face-down treasures and the order
of the stack are hidden from every seat.  So the picture is always drawn from a
seat's :func:`~tajmahal.tikal.views.view` (a state and every seat's view draw
alike) and the hand layer is empty.

Clickable parts carry ids: ``space-N`` for each space (drawn over everything,
with its tooltip), ``choice-T`` for a revealed tile T of the auction variant.
States and views show themselves as this picture in Jupyter (``_repr_svg_``).

>>> from tajmahal.tikal import Setup, new_game
>>> picture = svg(new_game(Setup.random(players=2, seed=1)), ["ann", "bob"])
>>> picture.startswith("<svg") and picture.count('class="space"') == 63
True
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from typing import Final

from attrs import field, frozen

from ..kit.svg import (
    Kept,
    attrs,
    hexagon,
    plural,
    points,
    svg_document,
    text,
    text_width,
    title,
)
from .components import DEFAULT_COMPONENTS, TOP_LEVEL, Components
from .state import GONE, RESERVE, Seat, State
from .terminal import figures_text, treasures_text
from .texts import space_label, tile_text
from .views import PlayerView, SpaceView, view

SIZE: Final = 40.0  # hex radius in pixels
MARGIN: Final = 12.0
PANEL_W: Final = 400.0
MIN_H: Final = 560.0
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
SLOTS: Final = ((-12.5, 5.0), (12.5, 5.0), (-12.5, 22.0), (12.5, 22.0))
#: Where the tile in hand is drawn in the panel (its centre, from the panel's left).
HAND_AT: Final = (46.0, 112.0)


def _centre(q: int, r: int) -> tuple[float, float]:
    """Flat-topped hexes in axial coordinates (direction 5, ``(0, 1)``, is south)."""
    return SIZE * 1.5 * q, SIZE * math.sqrt(3) * (r + q / 2)


@frozen
class _Sheet:
    """What the pictures of one set of components share all game: each space's
    centre, outline and name, and the board's size."""

    serial: int
    components: Components = field(eq=False, repr=False)
    centres: tuple[tuple[float, float], ...]
    outlines: tuple[str, ...]
    names: tuple[str, ...]
    width: float
    height: float


def _make_sheet(c: Components, serial: int) -> _Sheet:
    centres = [_centre(q, r) for q, r in c.board.coords]
    xs, ys = zip(*centres, strict=True)
    half = SIZE * math.sqrt(3) / 2
    left, top = min(xs) - SIZE - MARGIN, min(ys) - half - MARGIN
    at = tuple((round(x - left, 1), round(y - top, 1)) for x, y in centres)
    sheet = _Sheet(
        serial=serial,
        components=c,
        centres=at,
        outlines=tuple(_points(x, y) for x, y in at),
        names=tuple(space_label(c, s) for s in range(len(at))),
        width=max(xs) + SIZE + MARGIN - left,
        height=max(ys) + half + MARGIN - top,
    )
    return sheet


_SHEETS: Final = Kept(_make_sheet)
#: The sheet of a components object (worked out once per object).
_sheet: Final = _SHEETS.of


def _geometry(c: Components) -> tuple[tuple[tuple[float, float], ...], float, float]:
    """Each space's centre in the picture, and the board's width and height."""
    sheet = _sheet(c)
    return sheet.centres, sheet.width, sheet.height


def _at(c: Components, space: int) -> tuple[float, float]:
    return _sheet(c).centres[space]


def _points(x: float, y: float, radius: float = SIZE) -> str:
    return points(hexagon(x, y, radius))


def _size(c: Components) -> tuple[float, float]:
    _, width, height = _geometry(c)
    return width + PANEL_W, max(height, MIN_H)


def board_layer(c: Components) -> str:
    """Every space of the board, unexplored (the same all game)."""
    parts = [
        f'<polygon points="{_points(*_at(c, s))}" fill="{UNEXPLORED}"/>' for s in c.board.spaces
    ]
    return '<g class="board">' + "".join(parts) + "</g>"


def stones_drawing(x: float, y: float, stones: Sequence[int], radius: float = SIZE) -> str:
    """T20: the stones on each edge, inside the hex along that edge (direction d
    points 30 - 60 d degrees from east, clockwise as y grows downwards)."""
    parts = []
    inner = radius * math.sqrt(3) / 2 * 0.86
    for d, n in enumerate(stones):
        angle = math.radians(30 - 60 * d)
        ex, ey = x + inner * math.cos(angle), y + inner * math.sin(angle)
        tx, ty = math.sin(angle), math.cos(angle)  # along the edge
        for i in range(n):
            off = (i - (n - 1) / 2) * 6 * radius / SIZE
            parts.append(
                f'<circle class="stone" data-edge="{d}" cx="{ex + off * tx:.1f}" '
                f'cy="{ey + off * ty:.1f}" r="{2.4 * radius / SIZE:.1f}" fill="#3d3d3d"/>'
            )
    return "".join(parts)


def tile_drawing(
    kind: str, stones: Sequence[int], value: int, x: float, y: float, radius: float = SIZE
) -> str:
    """A tile lying at ``(x, y)``: its kind's colour, its stones, a temple's value."""
    k = radius / SIZE
    out = [
        f'<polygon points="{_points(x, y, radius)}" fill="{KIND_FILLS.get(kind, "#ccc")}" '
        f'stroke="#6d6654" stroke-width="1"/>',
        stones_drawing(x, y, stones, radius),
    ]
    if kind == "temple":
        out.append(
            text(
                x,
                y - 8 * k,
                str(value),
                15 * k,
                font_weight="bold",
                class_="value",
                text_anchor="middle",
            )
        )
    elif kind in ("base", "volcano"):
        ink = "#fff" if kind == "volcano" else "#222"
        out.append(text(x, y - 9 * k, kind, 10 * k, fill=ink, text_anchor="middle"))
    return "".join(out)


#: A seat's figures on one space: (workers, the leader there) by seat.
Figures = tuple[tuple[int, bool], ...]


def _all_figures(v: PlayerView) -> list[Figures]:
    """Each space's figures (most spaces have none: one shared tuple for them)."""
    leaders = tuple(p.leader for p in v.players)
    nobody: Figures = tuple((0, False) for _ in leaders)
    return [
        tuple((n, leader == space) for n, leader in zip(workers, leaders, strict=True))
        if space in leaders or any(workers)
        else nobody
        for space, workers in enumerate(v.workers)
    ]


@functools.lru_cache(maxsize=4096)
def _space(serial: int, space: int, s: SpaceView, figures: Figures) -> str:
    x, y = _SHEETS.serial(serial).centres[space]
    out = [
        f'<g id="tile-{space}" class="tile"{attrs(data_kind=s.kind, data_tokens=s.tokens)}'
        f"{attrs(data_tile=s.tile)}>",
        tile_drawing(s.kind, s.stones, s.value, x, y),
    ]
    for i in range(s.tokens):
        tx = x + (i - (s.tokens - 1) / 2) * 8
        out.append(
            f'<rect class="token" x="{tx - 3:.1f}" y="{y - 16:.1f}" width="6" height="6" '
            f'fill="#7a5c12" stroke="#fff" stroke-width="0.6"/>'
        )
    if s.camp is not None:
        out.append(camp_drawing(x, y, s.camp, f"camp-{space}"))
    if s.guard is not None:
        out.append(guard_drawing(x, y, s.guard, s.guard_leader, f"guard-{space}"))
    for seat, (workers, leader) in enumerate(figures):
        if workers or leader:
            out.append(figures_drawing(x, y, seat, workers, leader, f"figures-{space}-{seat}"))
    out.append("</g>")
    return "".join(out)


def camp_drawing(x: float, y: float, seat: int, ident: str | None = None) -> str:
    return (
        f'<polygon{attrs(id=ident)} class="camp" data-seat="{seat}" '
        f'points="{x - 28:.1f},{y - 6:.1f} {x - 20:.1f},{y - 20:.1f} {x - 12:.1f},{y - 6:.1f}" '
        f'fill="{SEAT_COLORS[seat % 4]}" stroke="#fff" stroke-width="0.8"/>'
    )


def guard_drawing(x: float, y: float, seat: int, leader: bool, ident: str | None = None) -> str:
    """T40: a guard, ``G`` (``GL`` the leader) on a square in its seat's colour."""
    return (
        f'<g{attrs(id=ident)} class="guard" data-seat="{seat}" data-leader="{int(leader)}">'
        f'<rect x="{x + 10:.1f}" y="{y - 25:.1f}" width="18" height="17" rx="2" '
        f'fill="{SEAT_COLORS[seat % 4]}" stroke="#fff"/>'
        + text(
            x + 19,
            y - 12.5,
            "GL" if leader else "G",
            9.5,
            fill="#fff",
            text_anchor="middle",
            font_weight="bold",
        )
        + "</g>"
    )


def figures_drawing(
    x: float, y: float, seat: int, workers: int, leader: bool, ident: str | None = None
) -> str:
    """A seat's figures on a space: a pill in its colour with the number of workers
    (``L`` the leader, ``2+L`` both; the leader's pill is ringed black)."""
    dx, dy = SLOTS[seat % 4]
    label = figures_text(workers, leader)
    w = max(19.0, text_width(label, 9.5) + 7)
    stroke = ' stroke="#000" stroke-width="2.2"' if leader else ' stroke="#fff"'
    return (
        f'<g{attrs(id=ident)} class="figures" data-seat="{seat}" data-workers="{workers}" '
        f'data-leader="{int(leader)}"><rect x="{x + dx - w / 2:.1f}" y="{y + dy - 8.5:.1f}" '
        f'width="{w:.1f}" height="17" rx="8.5" fill="{SEAT_COLORS[seat % 4]}"{stroke}/>'
        + text(
            x + dx, y + dy + 3.5, label, 9.5, fill="#fff", text_anchor="middle", font_weight="bold"
        )
        + "</g>"
    )


def _space_title(name: str, s: SpaceView | None, figures: Figures, labels: Sequence[str]) -> str:
    if s is None:
        return f"{name}: unexplored"
    words = [{"temple": f"temple worth {s.value}", "base": "the base camp"}.get(s.kind, s.kind)]
    if s.tokens:
        words.append(f"{plural(s.tokens, 'treasure')} to dig")
    if s.camp is not None:
        words.append(f"camp of {labels[s.camp]}")
    if s.guard is not None:
        words.append(f"guarded by {labels[s.guard]}")
    for seat, (workers, leader) in enumerate(figures):
        if workers or leader:
            who = [plural(workers, "worker")] if workers else []
            who += ["the leader"] if leader else []
            words.append(f"{labels[seat]}: {' and '.join(who)}")
    words.append(f"{plural(sum(s.stones), 'stone')} on its edges")
    return f"{name}: " + "; ".join(words)


@functools.lru_cache(maxsize=8192)
def _hit(
    serial: int, space: int, s: SpaceView | None, figures: Figures, labels: tuple[str, ...]
) -> str:
    """What a person points at and clicks: the space's outline, over everything."""
    sheet = _SHEETS.serial(serial)
    tip = _space_title(sheet.names[space], s, figures, labels)
    return (
        f'<g id="space-{space}" class="space">{title(tip)}'
        f'<polygon class="hit" points="{sheet.outlines[space]}" fill="#fff" fill-opacity="0" '
        f'stroke="#8f8877" stroke-width="0.8"/></g>'
    )


def _seat_lines(c: Components, names: Sequence[str], p: Seat) -> list[str]:
    if p.leader == RESERVE:
        leader = "in reserve"
    elif p.leader == GONE:
        leader = "gone"
    else:
        leader = f"on {names[p.leader]}"
    held = treasures_text(c, p.treasures)
    lines = [
        f"{plural(p.reserve, 'worker')} in reserve, {p.removed} removed; leader {leader}",
        f"camps left {c.camps - len(p.camps)}, guards left {c.guards - len(p.guards)}",
    ]
    words, line = held.split(", "), "treasures:"
    for i, word in enumerate(words):
        if len(line) + len(word) > 54:
            lines.append(line + ",")
            line = "  "
        line += (" " if i == 0 or line == "  " else ", ") + word
    lines.append(line)
    return lines


@functools.lru_cache(maxsize=4096)
def _seat_block(
    serial: int, seat: int, p: Seat, label: str, acting: bool, y: float, outlook: int | None
) -> tuple[str, float]:
    """A seat's lines in the panel from ``y`` down, and the ``y`` after them;
    ``outlook``: what it would score at a scoring round now (T44)."""
    sheet = _SHEETS.serial(serial)
    panel = _Panel(sheet.width + 4, y)
    now = "" if outlook is None else f" (+{outlook} if scored now)"
    panel.line(
        f"{'> ' if acting else ''}{label}: {plural(p.score, 'point')}{now}",
        12.5,
        fill=SEAT_COLORS[seat % 4],
        font_weight="bold",
        id=f"seat-{seat}",
    )  # where they came from on a line of its own: a long name keeps it in the panel
    panel.line(
        f"temples {p.temple_points}, treasures {p.treasure_points}, capital {p.capital}",
        11.5,
        fill="#333",
    )
    for line in _seat_lines(sheet.components, sheet.names, p):
        panel.line(line, 11.5, fill="#333")
    return "".join(panel.parts), panel.y + 4


class _Panel:
    """Lines of text down the panel beside the board."""

    def __init__(self, x: float, y: float = 24.0) -> None:
        self.x, self.y = x, y
        self.parts: list[str] = []

    def line(self, content: str, size: float = 10, **extra: object) -> None:
        self.parts.append(text(self.x, self.y, content, size, **extra))
        self.y += size + 5


def _panel(
    v: PlayerView, c: Components, labels: Sequence[str], outlook: Sequence[int] | None
) -> list[str]:
    _, width, _ = _geometry(c)
    p = _Panel(width + 4)
    p.line(
        f"Tikal ({v.variant})" + (": game over" if v.to_act is None else ""), 14, font_weight="bold"
    )
    if v.to_act is not None:
        turn = f"{labels[v.to_act]} (seat {v.to_act}) to act: {v.phase}"
        if v.phase == "act":
            turn += f", {v.ap} AP left" + (" (scoring turn)" if v.turn == "scoring" else "")
        p.line(turn, 12.5, fill=SEAT_COLORS[v.to_act % 4], font_weight="bold", id="turn")
    head = "".join(p.parts)
    p.parts = []
    p.y = HAND_AT[1] + SIZE + 14
    hand = ""
    if v.tile is not None:
        t = c.tiles[v.tile]
        x, y = p.x + HAND_AT[0], HAND_AT[1]
        hand = (
            f'<g id="in-hand" data-tile="{v.tile}">'
            + title("the tile in hand: " + tile_text(c, v.tile))
            + text(p.x, 64, "tile in hand:", 11, font_weight="bold")
            + tile_drawing(t.kind, t.stones, t.value, x, y)
            + text(x + SIZE + 8, y - 4, tile_text(c, v.tile), 11)
            + text(x + SIZE + 8, y + 14, "to be placed this turn", 11, fill="#555")
            + "</g>"
        )
    choices = []
    if v.auction is not None:
        a = v.auction
        high = f": high bid {a.high} by {labels[a.bidder]}" if a.bidder is not None else ""
        hand = text(p.x, 64, f"auction{high}; the revealed tiles:", 11, font_weight="bold")
        for k, shown in enumerate(a.display):
            y = choice_top(k)
            choices.append(
                f'<g id="choice-{shown}" class="choice" data-tile="{shown}">'
                f'<rect x="{p.x:.1f}" y="{y:.1f}" width="{PANEL_W - 24:.0f}" height="22" '
                f'fill="{KIND_FILLS.get(c.tiles[shown].kind, "#ccc")}" stroke="#666"/>'
                + text(p.x + 4, y + 15, tile_text(c, shown), 11)
                + "</g>"
            )
        p.y = max(p.y, choice_top(len(a.display)) + 16)
    backs = Counter(v.stack)
    stack = " ".join(f"{b}{backs[b]}" for b in sorted(backs)) or "empty"
    p.line(f"stack: {plural(len(v.stack), 'tile')} ({stack})", 11.5, id="stack")
    p.line(f"supply: {plural(v.supply, 'face-down treasure')}", 11.5)
    levels = " ".join(
        f"{value}:{n}" for value, n in zip(range(2, TOP_LEVEL + 1), v.levels, strict=True)
    )
    p.line(f"level tokens left {levels}", 11.5)
    if v.round is not None:
        p.line(f"scoring round: {', '.join(labels[k] for k in v.round.order)}", 11.5, fill="#a33")
    p.y += 6
    blocks = []
    serial = _sheet(c).serial
    for seat, player in enumerate(v.players):
        now = outlook[seat] if outlook is not None and v.to_act is not None else None
        block, p.y = _seat_block(serial, seat, player, labels[seat], v.to_act == seat, p.y, now)
        blocks.append(block)
    return [head, hand, "".join(p.parts), *choices, *blocks]


def choice_top(k: int) -> float:
    """The top of the ``k``-th revealed tile's row in the panel (auction variant)."""
    return 72.0 + 26 * k


def _labels(names: Sequence[str] | None, n: int) -> list[str]:
    return [names[k] if names is not None and k < len(names) else f"seat {k}" for k in range(n)]


def public_parts(
    v: PlayerView,
    c: Components,
    names: Sequence[str] | None = None,
    outlook: Sequence[int] | None = None,
) -> list[str]:
    """What every seat sees, in fragments: the explored spaces and their figures,
    the panel (with each seat's ``outlook``, what a scoring round now would add,
    where given), and each space's outline to click (with its tooltip)."""
    labels = tuple(_labels(names, len(v.players)))
    serial = _sheet(c).serial
    drawn, hits = _spaces(v, serial, labels)
    parts = ['<g class="public">', *(d for d in drawn if d)]
    parts += _panel(v, c, labels, outlook)
    parts.append('</g><g class="spaces">')
    parts += (hits[space] for space in c.board.spaces)
    parts.append("</g>")
    return parts


#: The last picture's spaces, by sheet and names: what they were drawn from (each
#: space's view and figures) and their fragments (see :func:`_spaces`).
_LAST: dict[
    tuple[int, tuple[str, ...]],
    tuple[tuple[SpaceView | None, ...], list[Figures], list[str], list[str]],
] = {}


def _spaces(v: PlayerView, serial: int, labels: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Each space drawn ("" for one unexplored) and its outline to click.  A step
    changes few spaces: those equal to the last picture's are not looked up again."""
    figures = _all_figures(v)
    last = _LAST.get((serial, labels))
    if last is None or len(last[0]) != len(v.spaces):
        last = (
            (None,) * len(v.spaces),
            [()] * len(v.spaces),
            [""] * len(v.spaces),
            [""] * len(v.spaces),
        )
    old_spaces, old_figures, drawn, hits = last[0], last[1], list(last[2]), list(last[3])
    for space, s in enumerate(v.spaces):
        f = figures[space]
        if s == old_spaces[space] and f == old_figures[space] and hits[space]:
            continue
        drawn[space] = _space(serial, space, s, f) if s is not None else ""
        hits[space] = _hit(serial, space, s, f, labels)
    if len(_LAST) > 16:
        _LAST.clear()
    _LAST[(serial, labels)] = (v.spaces, figures, drawn, hits)
    return drawn, hits


def public_layer(v: PlayerView, c: Components, names: Sequence[str] | None = None) -> str:
    """:func:`public_parts` joined."""
    return "".join(public_parts(v, c, names))


def _overlay(c: Components) -> str:
    """The spaces' names over everything (never in a click's way)."""
    sheet = _sheet(c)
    return (
        '<g class="space-names" pointer-events="none">'
        + "".join(
            text(x - 36.5, y + 4, name, 9.5, fill="#555")
            for (x, y), name in zip(sheet.centres, sheet.names, strict=True)
        )
        + "</g>"
    )


def document(c: Components, body: str) -> str:
    """Layers joined into one SVG document (with the spaces' names on top)."""
    width, height = _size(c)
    board = _geometry(c)[1]
    areas = ((0.0, 0.0, board, height), (board, 0.0, width - board, height))
    return svg_document(body + _overlay(c), width, height, areas=areas)


def _view_of(
    obj: State | PlayerView, components: Components | None
) -> tuple[PlayerView, Components]:
    if isinstance(obj, State):
        return view(obj, 0), obj.components
    if isinstance(obj, PlayerView):
        return obj, components or DEFAULT_COMPONENTS
    raise TypeError(f"svg() draws a Tikal State or PlayerView, not {type(obj).__name__}")


def svg(
    obj: State | PlayerView,
    names: Sequence[str] | None = None,
    components: Components | None = None,
) -> str:
    """An SVG picture of a state or a seat's view (alike: see above); ``names``
    label the seats; ``components`` those of a view (default: the package's)."""
    v, c = _view_of(obj, components)
    return document(c, board_layer(c) + public_layer(v, c, names))
