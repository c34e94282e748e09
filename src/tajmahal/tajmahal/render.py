"""Pictures of a game: :func:`svg` draws a :class:`~tajmahal.State` or a
:class:`~tajmahal.PlayerView` as an SVG document.

The board comes from its data (province outlines around their cities, roads,
fortresses with the bonus tile still on them, the Taj Mahal city), with the
palaces in the seats' colours and the mogul palaces ringed; beside it the visit
and its province, the grand mogul's court (the ring, the elephant and the
influence tiles still there), the display, and for each seat its score, palaces
left, influence tiles, goods, the cards on the table and its hand.  A state
shows every hand; a view only the hand of its seat (the others as a count, with
the cards everybody saw them take).

>>> from tajmahal import Setup, new_game, view
>>> state = new_game(Setup.random(3, seed=1))
>>> svg(state).startswith("<svg")
True
>>> "hand-card-" in svg(view(state, None))  # a spectator sees no hand
False

States and views show themselves as this picture in Jupyter (``_repr_svg_``).

Clickable parts carry ids: ``city-N`` (city id N), ``hand-card-N`` and
``display-card-N`` (card id N), ``withdraw``.  The HTML replay viewer and the
browser game use them; :func:`layers` gives the parts apart (the board that
never changes, the public picture of a step, each seat's hand) so that a
viewer can keep the board once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from attrs import frozen

from .board import Board
from .cards import CARDS, CHARACTERS, Card
from .state import State
from .tiles import PROVINCE_GOODS, BonusTile
from .views import PlayerView, view

WIDTH: Final = 1240
HEIGHT: Final = 800
#: The map's area (left) and the panel beside it (right).
MAP_W: Final = 720
MAP_H: Final = 660
PANEL_X: Final = 740

#: Seat colours (palaces, names): distinct from the four card colours.
SEAT_COLORS: Final = ("#1f6fd1", "#f28e1c", "#15a3a3", "#d94fb0", "#7a5230")
CARD_COLORS: Final = {
    "red": "#c8372d",
    "yellow": "#e8c21a",
    "green": "#2f9e4f",
    "purple": "#7d3c98",
    "white": "#f4f1e8",
    "special": "#3a3f58",
}
#: A letter for each symbol (C2) on cards and court tiles; the full name is the title.
SYMBOL_MARKS: Final = {
    "elephant": "E",
    "mogul": "R",
    "vizier": "V",
    "general": "G",
    "monk": "M",
    "princess": "P",
}
GOOD_COLORS: Final = {"rice": "#f7f3d0", "tea": "#5d8a3a", "spice": "#d2691e", "jewels": "#3b6fd8"}
_PROVINCE_FILLS: Final = (
    "#efe3c8",
    "#e6dcc0",
    "#ede0d0",
    "#e2e6c6",
    "#efdcc2",
    "#e4dccd",
)


@frozen
class _Seat:
    """What the picture shows of one seat (from a state or a view)."""

    name: str
    hand: tuple[int, ...] | None  # None: hidden
    hand_size: int
    played: tuple[int, ...]
    withdrawn: bool
    palaces: int
    influence: tuple[int, ...]
    province_tiles: tuple[int, ...]
    bonus_tiles: tuple[BonusTile, ...]
    score: int
    special_cards: tuple[int, ...]
    revealed: tuple[int, ...]


@frozen
class _Scene:
    board: Board
    players: int
    variant: str
    visit: int
    province: int
    to_act: int | None
    phase: str
    seats: tuple[_Seat, ...]
    display: tuple[int, ...]
    deck_size: int
    court: tuple[str, ...]
    reserve: tuple[int, ...]
    palaces: tuple[int, ...]
    moguls: tuple[int, ...]
    bonus: tuple[BonusTile | None, ...]
    dummy: tuple[int, ...] | None
    viewer: int | None  # the seat whose view this is; None: a state or a spectator


def _scene(obj: State | PlayerView, names: Sequence[str] | None) -> _Scene:
    if not isinstance(obj, State | PlayerView):
        raise TypeError(f"svg() draws a State or a PlayerView, not {type(obj).__name__}")
    n = len(obj.players)
    labels = list(names) if names is not None else [f"seat {s}" for s in range(n)]
    if len(labels) != n:
        raise ValueError(f"{len(labels)} names for {n} seats")
    if isinstance(obj, State):
        v = view(obj, None)
        hands: list[tuple[int, ...] | None] = [p.hand for p in obj.players]
        viewer = None
        variant = obj.setup.variant
        board = obj.setup.board
    else:
        v = obj
        hands = [obj.hand if s == obj.seat else None for s in range(n)]
        viewer = obj.seat
        variant = obj.setup.variant
        board = obj.setup.board
    seats = tuple(
        _Seat(
            name=labels[s],
            hand=hands[s],
            hand_size=p.hand_size,
            played=p.played,
            withdrawn=p.withdrawn,
            palaces=p.palaces,
            influence=p.influence,
            province_tiles=p.province_tiles,
            bonus_tiles=p.bonus_tiles,
            score=p.score.total,
            special_cards=p.special_cards,
            revealed=p.revealed,
        )
        for s, p in enumerate(v.players)
    )
    return _Scene(
        board=board,
        players=n,
        variant=variant,
        visit=v.visit,
        province=v.province,
        to_act=v.to_act,
        phase=v.phase,
        seats=seats,
        display=v.display,
        deck_size=v.deck_size,
        court=v.court,
        reserve=v.reserve,
        palaces=v.palaces,
        moguls=v.moguls,
        bonus=v.bonus,
        dummy=v.dummy.cards if v.dummy is not None else None,
        viewer=viewer,
    )


# --------------------------------------------------------------------------- geometry


@frozen
class _Frame:
    """Board coordinates to picture coordinates (uniform scale, centred)."""

    scale: float
    dx: float
    dy: float

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return round(x * self.scale + self.dx, 1), round(y * self.scale + self.dy, 1)


def _frame(board: Board) -> _Frame:
    xs = [c.x for c in board.cities]
    ys = [c.y for c in board.cities]
    pad = 40.0
    w = max(max(xs) - min(xs), 1.0)
    h = max(max(ys) - min(ys), 1.0)
    scale = min((MAP_W - 2 * pad) / w, (MAP_H - 2 * pad) / h)
    dx = pad + (MAP_W - 2 * pad - w * scale) / 2 - min(xs) * scale
    dy = 50 + pad + (MAP_H - 2 * pad - h * scale) / 2 - min(ys) * scale
    return _Frame(scale, dx, dy)


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull (Andrew's monotone chain), counter-clockwise."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _outline(points: list[tuple[float, float]], grow: float) -> str:
    """An SVG path around ``points``: their hull pushed out by ``grow``, rounded."""
    hull = _hull(points)
    cx = sum(p[0] for p in hull) / len(hull)
    cy = sum(p[1] for p in hull) / len(hull)
    if len(hull) < 3:  # a line or a point: a box around it
        xs = [p[0] for p in hull]
        ys = [p[1] for p in hull]
        hull = [
            (min(xs) - 1, min(ys) - 1),
            (max(xs) + 1, min(ys) - 1),
            (max(xs) + 1, max(ys) + 1),
            (min(xs) - 1, max(ys) + 1),
        ]
    out = []
    for x, y in hull:
        d = max(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5, 1e-9)
        out.append((round(x + (x - cx) / d * grow, 1), round(y + (y - cy) / d * grow, 1)))
    return "M" + " L".join(f"{x},{y}" for x, y in out) + " Z"


# --------------------------------------------------------------------------- pieces


def _text(x: float, y: float, text: str, size: int = 13, **attrs: str) -> str:
    extra = "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
    return f'<text x="{x}" y="{y}" font-size="{size}"{extra}>{escape(text)}</text>'


def _card(
    card: Card, x: float, y: float, element_id: str | None = None, w: int = 28, h: int = 40
) -> str:
    """A card: its colour, its symbols as letters (the title names them)."""
    fill = CARD_COLORS[card.color]
    ink = "#222" if card.color in ("yellow", "white") else "#fff"
    ident = f' id="{element_id}"' if element_id else ""
    parts = [
        f'<g class="card"{ident} data-card="{card.id}" transform="translate({x},{y})">',
        f"<title>{escape(str(card))}</title>",
        f'<rect width="{w}" height="{h}" rx="4" fill="{fill}" stroke="#333" stroke-width="1"/>',
    ]
    if card.special:
        parts.append(
            f'<text x="{w / 2}" y="{round(h * 0.37)}" font-size="11" text-anchor="middle" '
            f'fill="#f5d76e" '
            f'font-weight="bold">{SYMBOL_MARKS[card.special]}*</text>'
        )
    first, step = (round(h * 0.77), 0) if card.special else (round(h * 0.42), round(h * 0.37))
    for i, symbol in enumerate(card.symbols):
        parts.append(
            f'<text x="{w / 2}" y="{first + i * step}" font-size="13" '
            f'text-anchor="middle" font-weight="bold" fill="{ink}">{SYMBOL_MARKS[symbol]}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _cards(
    cards: Sequence[int],
    x: float,
    y: float,
    prefix: str | None = None,
    step: int = 31,
    h: int = 40,
) -> str:
    return "".join(
        _card(CARDS[c], x + i * step, y, f"{prefix}-{c}" if prefix else None, h=h)
        for i, c in enumerate(cards)
    )


def _bonus_text(tile: BonusTile) -> str:
    if tile.kind == "taj_mahal":
        return "Taj +4"
    if tile.kind == "points":
        return "+2"
    if tile.kind == "card":
        return "card"
    return str(tile.good)


def _goods(tile_goods: Sequence[str], x: float, y: float) -> str:
    parts = []
    for i, good in enumerate(tile_goods):
        parts.append(
            f'<rect x="{x + i * 14}" y="{y}" width="12" height="12" rx="2" '
            f'fill="{GOOD_COLORS.get(good, "#999")}" stroke="#333" stroke-width="0.7">'
            f"<title>{escape(good)}</title></rect>"
        )
    return "".join(parts)


# --------------------------------------------------------------------------- layers


def board_layer(board: Board) -> str:
    """What never changes in a game: provinces, roads, city names (an SVG group)."""
    f = _frame(board)
    out = ['<g class="board">']
    out.append(f'<rect x="0" y="50" width="{MAP_W}" height="{MAP_H}" fill="#f6efdf" rx="8"/>')
    for p, cities in enumerate(board.province_cities):
        points = [f(board.cities[c].x, board.cities[c].y) for c in cities]
        if not points:
            continue
        fill = _PROVINCE_FILLS[p % len(_PROVINCE_FILLS)]
        out.append(
            f'<path id="province-{p}" class="province" d="{_outline(points, 22)}" fill="{fill}" '
            f'stroke="#b9a27a" stroke-width="1.2" stroke-linejoin="round">'
            f"<title>{escape(board.provinces[p])}</title></path>"
        )
    for a, b in board.roads:
        x1, y1 = f(board.cities[a].x, board.cities[a].y)
        x2, y2 = f(board.cities[b].x, board.cities[b].y)
        out.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#9b8765" stroke-width="2"/>'
        )
    for p, cities in enumerate(board.province_cities):
        if not cities:
            continue
        pts = [f(board.cities[c].x, board.cities[c].y) for c in cities]
        cx = sum(x for x, _ in pts) / len(pts)
        top = min(y for _, y in pts) - 20
        out.append(
            _text(
                round(cx, 1),
                round(top, 1),
                board.provinces[p],
                12,
                text_anchor="middle",
                fill="#6b5a3a",
                font_style="italic",
            )
        )
    for c in board.cities:
        x, y = f(c.x, c.y)
        out.append(_text(x, round(y + 20, 1), c.name, 9, text_anchor="middle", fill="#4a4030"))
    out.append("</g>")
    return "".join(out)


def _public_layer(s: _Scene) -> str:
    """Everything public of a step: province, palaces, bonus tiles, court, display,
    the seats' tables (without their hands)."""
    board = s.board
    f = _frame(board)
    out = ['<g class="public">']
    current = board.province_cities[s.province] if s.to_act is not None else ()
    if current:
        points = [f(board.cities[c].x, board.cities[c].y) for c in current]
        out.append(
            f'<path id="current-province" d="{_outline(points, 22)}" fill="none" '
            f'stroke="#c0392b" stroke-width="4" stroke-linejoin="round"/>'
        )
    labels: list[str] = []  # the Taj Mahal and the bonus tiles still on the board
    for c in board.cities:
        x, y = f(c.x, c.y)
        owner = s.palaces[c.id] if c.id < len(s.palaces) else -1
        fill = SEAT_COLORS[owner % len(SEAT_COLORS)] if owner >= 0 else "#fffaf0"
        title = c.name + (" (fortress)" if c.fortress else "")
        if owner >= 0:
            title += f"; palace of {s.seats[owner].name}"
        mogul = s.moguls[c.id] if c.id < len(s.moguls) else -1
        if mogul >= 0:
            title += f"; mogul palace of {s.seats[mogul].name}"
        out.append(f'<g id="city-{c.id}" class="city" data-city="{c.id}">')
        out.append(f"<title>{escape(title)}</title>")
        if c.fortress:
            out.append(
                f'<rect x="{x - 9}" y="{y - 9}" width="18" height="18" fill="{fill}" '
                f'stroke="#3b3024" stroke-width="2"/>'
            )
        else:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="#3b3024" '
                f'stroke-width="1.5"/>'
            )
        if mogul >= 0:
            out.append(
                f'<circle class="mogul" cx="{x}" cy="{y}" r="13" fill="none" '
                f'stroke="{SEAT_COLORS[mogul % len(SEAT_COLORS)]}" stroke-width="3" '
                f'stroke-dasharray="4 2"/>'
            )
        out.append("</g>")
        if c.taj_mahal:
            labels.append(
                _text(x, round(y - 13, 1), "Taj", 10, text_anchor="middle", fill="#8a1c1c")
            )
        tile = s.bonus[c.id] if c.id < len(s.bonus) else None
        if tile is not None:
            labels.append(
                f'<rect x="{x + 9}" y="{y - 20}" width="30" height="13" rx="2" fill="#fff3b0" '
                f'stroke="#8a6d1c" stroke-width="0.8"/>'
            )
            labels.append(
                _text(
                    round(x + 24, 1),
                    round(y - 10, 1),
                    _bonus_text(tile),
                    9,
                    text_anchor="middle",
                    fill="#5a4510",
                )
            )
    # over the cities, outside their (clickable) groups, and never in a click's way
    out.append(f'<g class="labels" pointer-events="none">{"".join(labels)}</g>')
    # the head line
    if s.to_act is None:
        head = f"Game over: {s.players} players ({s.variant})"
    else:
        who = s.seats[s.to_act].name
        head = f"Visit {s.visit} of 12 in {board.provinces[s.province]}: {who} to act ({s.phase})"
    out.append(_text(10, 30, head, 20, font_weight="bold", fill="#2b2b2b", id="headline"))
    # the court
    x0 = PANEL_X
    out.append(_text(x0, 72, "Court", 14, font_weight="bold"))
    for i, prize in enumerate(s.court):
        x = x0 + 70 + i * 32
        mark = SYMBOL_MARKS.get(prize, "?")
        out.append(
            f'<g class="prize"><title>{escape(prize)}</title>'
            f'<circle cx="{x}" cy="67" r="13" fill="#f5d76e" stroke="#7a5c00"/>'
            f'<text x="{x}" y="72" font-size="13" text-anchor="middle" font-weight="bold">'
            f"{mark}</text></g>"
        )
    reserve = ", ".join(f"{c} {n}" for c, n in zip(CHARACTERS, s.reserve, strict=False))
    out.append(_text(x0 + 270, 72, f"reserve: {reserve}", 10, fill="#555"))
    out.append(_text(x0, 104, f"Display ({s.deck_size} in deck)", 14, font_weight="bold"))
    out.append(_cards(s.display, x0 + 200, 84, "display-card"))
    top = 134
    if s.dummy is not None:
        out.append(_text(x0, top + 20, "Dummy", 14, font_weight="bold"))
        out.append(_cards(s.dummy, x0 + 60, top, None, 31))
        top += 48
    row = min(122, (HEIGHT - top) // max(s.players, 1))
    for seat, p in enumerate(s.seats):
        out.append(_seat_row(s, seat, p, PANEL_X, top + seat * row))
    out.append("</g>")
    return "".join(out)


def _seat_row(s: _Scene, seat: int, p: _Seat, x: float, y: float) -> str:
    color = SEAT_COLORS[seat % len(SEAT_COLORS)]
    out = [f'<g class="seat" id="seat-{seat}">']
    frame = "#c0392b" if s.to_act == seat else "#bbb"
    width = 3 if s.to_act == seat else 1
    out.append(
        f'<rect x="{x - 6}" y="{y}" width="{WIDTH - x}" height="116" rx="6" fill="#fff" '
        f'stroke="{frame}" stroke-width="{width}"/>'
    )
    out.append(f'<circle cx="{x + 6}" cy="{y + 14}" r="7" fill="{color}"/>')
    label = f"{p.name}" + (" (you)" if s.viewer == seat else "")
    out.append(_text(x + 18, y + 19, label, 14, font_weight="bold", fill=color))
    status = f"{p.score} points, {p.palaces} palaces left" + (", withdrawn" if p.withdrawn else "")
    out.append(_text(x + 200, y + 19, status, 12, fill="#333", class_="status"))
    influence = " ".join(
        f"{SYMBOL_MARKS[c]}{n}" for c, n in zip(CHARACTERS, p.influence, strict=False) if n
    )
    goods: list[str] = [g for t in p.province_tiles for g in PROVINCE_GOODS.get(t, ())]
    goods += [t.good for t in p.bonus_tiles if t.kind == "good" and t.good is not None]
    out.append(_text(x, y + 38, f"influence: {influence or '-'}", 11, fill="#444"))
    out.append(_text(x + 130, y + 38, "goods:", 11, fill="#444"))
    out.append(_goods(goods, x + 170, y + 28))
    out.append(_text(x, y + 62, "table:", 11, fill="#444"))
    out.append(_cards(p.played, x + 40, y + 42, None, 30, h=34))
    hidden = p.hand_size if p.hand is None else 0
    if hidden:
        seen = f" (seen: {', '.join(str(CARDS[c]) for c in p.revealed)})" if p.revealed else ""
        out.append(_text(x, y + 100, f"hand: {hidden} cards{seen}", 11, fill="#444"))
    out.append("</g>")
    return "".join(out)


def hand_layer(obj: State | PlayerView, seat: int) -> str:
    """The hand of ``seat`` as an SVG group (empty for a view of another seat)."""
    s = _scene(obj, None)
    return _hand(s, seat)


def _hand(s: _Scene, seat: int) -> str:
    p = s.seats[seat]
    if p.hand is None:
        return ""
    top = 134 + (48 if s.dummy is not None else 0)
    row = min(122, (HEIGHT - top) // max(s.players, 1))
    y = top + seat * row
    return (
        f'<g class="hand" id="hand-{seat}">'
        + _text(PANEL_X, y + 100, "hand:", 11, fill="#444")
        + _cards(p.hand, PANEL_X + 40, y + 79, "hand-card", min(30, 440 // max(len(p.hand), 1)), 34)
        + "</g>"
    )


def _document(body: str, width: int = WIDTH) -> str:
    height = round(width * HEIGHT / WIDTH)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{width}" height="{height}" font-family="DejaVu Sans, Verdana, sans-serif">'
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f1"/>{body}</svg>'
    )


def layers(state: State, names: Sequence[str] | None = None) -> tuple[str, str, tuple[str, ...]]:
    """The parts of :func:`svg` of ``state``: the board (the same all game), the
    public picture (what a spectator sees), and each seat's hand."""
    s = _scene(state, names)
    return board_layer(s.board), _public_layer(s), tuple(_hand(s, k) for k in range(s.players))


def svg(obj: State | PlayerView, names: Sequence[str] | None = None, width: int = WIDTH) -> str:
    """An SVG picture of a state (every hand shown) or a view (only what its seat
    may see); ``names`` label the seats; ``width`` in pixels (the height follows)."""
    s = _scene(obj, names)
    hands = "".join(_hand(s, k) for k in range(s.players))
    return _document(board_layer(s.board) + _public_layer(s) + hands, width)


def document(body: str, width: int = WIDTH) -> str:
    """Layers (from :func:`layers`) joined into one SVG document."""
    return _document(body, width)


def example_state(decisions: int = 60) -> State:
    """The position of the pictures in ``docs/images``: a 4-player game (seed 3) after
    ``decisions`` random legal actions (seeded: always the same)."""
    import random

    from .rules import apply, legal_actions, new_game
    from .setups import Setup

    state = new_game(Setup.random(4, seed=3))
    rng = random.Random(1)
    for _ in range(decisions):
        if state.to_act is None:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


EXAMPLE_NAMES: Final = ("alice", "greedy", "mcts", "bob")


def write_pictures(folder: str) -> list[str]:
    """Write ``board.svg`` (every hand) and ``view.svg`` (seat 0's view) of
    :func:`example_state` into ``folder``; the paths written."""
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    state = example_state()
    written = []
    for name, obj in (("board.svg", state), ("view.svg", view(state, 0))):
        path = out / name
        path.write_text(svg(obj, EXAMPLE_NAMES) + "\n", "utf-8")
        written.append(str(path))
    return written


if __name__ == "__main__":  # python -m tajmahal.tajmahal.render FOLDER
    import sys

    for written in write_pictures(sys.argv[1] if len(sys.argv) > 1 else "docs/images"):
        print(written)


class TajMahalPictures:
    """The layers of the pictures, as the HTML viewer and the browser game take them
    (:class:`tajmahal.arena.viewer.Pictures`)."""

    def board(self, state: State) -> str:
        return board_layer(state.setup.board)

    def public(self, state: State, names: Sequence[str]) -> str:
        return _public_layer(_scene(state, names))

    def hand(self, state: State, seat: int) -> str:
        return _hand(_scene(state, None), seat)

    def document(self, body: str) -> str:
        return _document(body)

    def target(self, action: Any) -> str | None:
        """The id of the part of the picture a person clicks for ``action`` (its
        protocol data): the card in the hand or the display, or the city."""
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "play":
            return f"hand-card-{action['card']}"
        if kind == "take_card":
            return f"display-card-{action['card']}"
        if kind in ("build_palace", "build_mogul_palace"):
            return f"city-{action['city']}"
        return None


PICTURES: Final = TajMahalPictures()
