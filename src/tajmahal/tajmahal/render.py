"""Pictures of a game: :func:`svg` draws a :class:`~tajmahal.State` or a
:class:`~tajmahal.PlayerView` as an SVG document.

The map (left) comes from the board's data, laid out by
:mod:`~tajmahal.tajmahal.maplayout`: the provinces as touching regions, roads,
the cities (a fortress square with the bonus tile still on it, the Taj Mahal on
Agra's), each palace in its seat's colour and each mogul palace as a dashed ring
in its seat's colour, the current province outlined in red.  Beside it: the
visit, the grand mogul's court (the prizes still there, the reserve), the
display, and for each seat its score, palaces left, influence tiles, goods, the
cards on the table and its hand.  A state shows every hand; a view only the hand
of its seat (the others as a count, with the cards everybody saw them take).
Every part has a tooltip; :func:`legend` says what each symbol means.

>>> from tajmahal import Setup, new_game, view
>>> state = new_game(Setup.random(3, seed=1))
>>> svg(state).startswith("<svg")
True
>>> "hand-card-" in svg(view(state, None))  # a spectator sees no hand
False

States and views show themselves as this picture in Jupyter (``_repr_svg_``).

Clickable parts carry ids: ``city-N`` (city id N), ``hand-card-N`` and
``display-card-N`` (card id N).  The HTML replay viewer and the browser game use
them through :class:`TajMahalPictures`: the parts apart (the board that never
changes, the public picture of a step in fragments, each seat's hand), what a
person clicks for each action, and a preview of it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from attrs import frozen

from ..kit.svg import FONT, HALO, attrs, number, plural, points, text, title
from .board import Board
from .cards import CARDS, CHARACTERS, Card
from .maplayout import CITY_FONT, MAP_BOX, PROVINCE_FONT, MapLayout, layout, layout_of
from .state import PlayerState, State
from .tiles import PROVINCE_GOODS, BonusTile
from .views import PlayerView, SeatView, view

WIDTH: Final = 1240
HEIGHT: Final = 900
PANEL_X: Final = 878
PANEL_W: Final = WIDTH - PANEL_X - 8

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
#: A letter for each symbol (C2) on cards and court tiles (the legend names them).
SYMBOL_MARKS: Final = {
    "elephant": "E",
    "mogul": "R",
    "vizier": "V",
    "general": "G",
    "monk": "M",
    "princess": "P",
}
SYMBOL_NAMES: Final = {
    "elephant": "elephant (wins the province tile)",
    "mogul": "grand mogul (R for the ring: a mogul palace)",
    "vizier": "vizier",
    "general": "general",
    "monk": "monk",
    "princess": "princess",
}
GOOD_COLORS: Final = {"rice": "#f7f3d0", "tea": "#5d8a3a", "spice": "#d2691e", "jewels": "#3b6fd8"}
#: Cards: in the hand and the display (what a person clicks), and on the table.
CARD_W: Final = 34
CARD_H: Final = 46
SMALL_W: Final = 24
#: From one card to the next in the hand and the display.
STEP: Final = CARD_W + 3
SMALL_H: Final = 32


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
    """What the picture shows of a state (every hand) or of a view (its seat's hand).
    A state is read straight, not through :func:`view`: the viewer draws every step
    of a game."""
    if not isinstance(obj, State | PlayerView):
        raise TypeError(f"svg() draws a State or a PlayerView, not {type(obj).__name__}")
    n = len(obj.players)
    labels = list(names) if names is not None else [f"seat {s}" for s in range(n)]
    if len(labels) != n:
        raise ValueError(f"{len(labels)} names for {n} seats")
    if isinstance(obj, State):
        seats = tuple(_seat(labels[s], p, p.hand, len(p.hand)) for s, p in enumerate(obj.players))
        return _scene_of(obj, seats, len(obj.deck), None)
    seats = tuple(
        _seat(labels[s], p, obj.hand if s == obj.seat else None, p.hand_size)
        for s, p in enumerate(obj.players)
    )
    return _scene_of(obj, seats, obj.deck_size, obj.seat)


def _seat(name: str, p: PlayerState | SeatView, hand: tuple[int, ...] | None, size: int) -> _Seat:
    return _Seat(
        name=name,
        hand=hand,
        hand_size=size,
        played=p.played,
        withdrawn=p.withdrawn,
        palaces=p.palaces,
        influence=p.influence,
        province_tiles=p.province_tiles,
        bonus_tiles=p.bonus_tiles,
        score=p.score.total,
        revealed=p.revealed,
    )


def _scene_of(
    v: State | PlayerView, seats: tuple[_Seat, ...], deck_size: int, viewer: int | None
) -> _Scene:
    return _Scene(
        board=v.setup.board,
        players=len(seats),
        variant=v.setup.variant,
        visit=v.visit,
        province=v.province,
        to_act=v.to_act,
        phase=v.phase,
        seats=seats,
        display=v.display,
        deck_size=deck_size,
        court=v.court,
        reserve=v.reserve,
        palaces=v.palaces,
        moguls=v.moguls,
        bonus=v.bonus,
        dummy=v.dummy.cards if v.dummy is not None else None,
        viewer=viewer,
    )


# --------------------------------------------------------------------------- pieces


def _card_symbol(card: Card) -> str:
    """A card drawn once (``<symbol id="card-N">``): its colour, its symbols as letters."""
    w, h = CARD_W, CARD_H
    fill = CARD_COLORS[card.color]
    ink = "#222" if card.color in ("yellow", "white") else "#fff"
    parts = [
        f'<symbol id="card-{card.id}" viewBox="0 0 {w} {h}">',
        f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" rx="4" fill="{fill}" '
        f'stroke="#333" stroke-width="1"/>',
    ]
    if card.special:
        parts.append(
            text(
                w / 2,
                18,
                SYMBOL_MARKS[card.special] + "*",
                13,
                text_anchor="middle",
                fill="#f5d76e",
                font_weight="bold",
            )
        )
    first, step = (38, 0) if card.special else (20, 19)
    for i, symbol in enumerate(card.symbols):
        parts.append(
            text(
                w / 2,
                first + i * step,
                SYMBOL_MARKS[symbol],
                14,
                text_anchor="middle",
                font_weight="bold",
                fill=ink,
            )
        )
    parts.append("</symbol>")
    return "".join(parts)


#: Every card, drawn once; the pictures place them with ``<use>``.
CARD_DEFS: Final = "<defs>" + "".join(_card_symbol(card) for card in CARDS) + "</defs>"


@functools.lru_cache(maxsize=8192)
def _card(
    card: Card, x: float, y: float, element_id: str | None = None, small: bool = False
) -> str:
    """A card at ``(x, y)`` (its tooltip names it); ``element_id`` to click it."""
    w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    return (
        f'<g class="card"{attrs(id=element_id)} data-card="{card.id}">{title(str(card))}'
        f'<use href="#card-{card.id}" x="{number(x)}" y="{number(y)}" width="{w}" '
        f'height="{h}"/></g>'
    )


def _cards(
    cards: Sequence[int],
    x: float,
    y: float,
    prefix: str | None = None,
    step: float = 35,
    small: bool = False,
) -> str:
    return "".join(
        _card(CARDS[c], round(x + i * step, 1), y, f"{prefix}-{c}" if prefix else None, small)
        for i, c in enumerate(cards)
    )


def _bonus_mark(tile: BonusTile, x: float, y: float) -> str:
    """The bonus tile on a fortress, drawn inside its square."""
    if tile.kind == "good" and tile.good is not None:
        return (
            f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" rx="2" '
            f'fill="{GOOD_COLORS[tile.good]}" stroke="#333" stroke-width="0.8"/>'
        )
    if tile.kind == "card":
        return (
            f'<rect x="{x - 5}" y="{y - 7}" width="10" height="14" rx="1.5" fill="#fff" '
            f'stroke="#333" stroke-width="1"/><rect x="{x - 2}" y="{y - 4}" width="4" '
            f'height="8" fill="#999"/>'
        )
    label = "+4" if tile.kind == "taj_mahal" else "+2"
    color = "#8a1c1c" if tile.kind == "taj_mahal" else "#5a4510"
    return text(x, y + 4.5, label, 12, text_anchor="middle", font_weight="bold", fill=color)


def _goods(goods: Sequence[str], x: float, y: float) -> str:
    return "".join(
        f'<rect x="{x + i * 15}" y="{y}" width="13" height="13" rx="2" '
        f'fill="{GOOD_COLORS.get(good, "#999")}" stroke="#333" stroke-width="0.7">'
        f"{title(good)}</rect>"
        for i, good in enumerate(goods)
    )


# --------------------------------------------------------------------------- the map


def board_layer(board: Board) -> str:
    """What never changes in a game: provinces, roads, names (an SVG group)."""
    m = layout(board)
    out = ['<g class="board">', CARD_DEFS]
    left, top, width, height = MAP_BOX
    out.append(
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="#c6dbe8" rx="8"/>'
    )
    for p, name in enumerate(board.provinces):
        cells = [m.cells[c] for c in board.province_cities[p]]
        fill = m.fills[p]
        out.append(f'<g id="province-{p}" class="province">{title(f"province {name}")}')
        out.extend(
            f'<polygon points="{points(cell)}" fill="{fill}" stroke="{fill}" '
            f'stroke-width="1" stroke-linejoin="round"/>'
            for cell in cells
        )
        out.append("</g>")
    province = [c.province for c in board.cities]
    lines = []
    for i, edges in enumerate(m.edges):
        for (x1, y1), (x2, y2), j in edges:
            if j < 0 or (i < j and province[i] != province[j]):
                lines.append(f"M{x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}")
    out.append(
        f'<path d="{"".join(lines)}" fill="none" stroke="#8a7452" stroke-width="2" '
        f'stroke-linecap="round" pointer-events="none"/>'
    )
    roads = "".join(
        f"M{m.cities[a][0]},{m.cities[a][1]}L{m.cities[b][0]},{m.cities[b][1]}"
        for a, b in board.roads
    )
    out.append(
        f'<path d="{roads}" stroke="#9b8765" stroke-width="2.5" fill="none" '
        f'stroke-dasharray="7 3" pointer-events="none"/>'
    )
    out.append(f'<g class="labels" pointer-events="none"{attrs(**HALO)}>')
    for p, name in enumerate(board.provinces):
        label = m.province_labels[p]
        out.append(
            text(
                label.x,
                label.y,
                name,
                PROVINCE_FONT,
                text_anchor="middle",
                fill="#6b5330",
                font_style="italic",
                class_="province-name",
            )
        )
    for c in board.cities:
        label = m.city_labels[c.id]
        out.append(
            text(
                label.x,
                label.y,
                c.name,
                CITY_FONT,
                text_anchor="middle",
                fill="#3a3024",
                class_="city-name",
            )
        )
    out.append("</g></g>")
    return "".join(out)


_LAST_CITIES: list[tuple[tuple[object, ...], tuple[str, ...]]] = []


def _cities_now(serial: int, s: _Scene, names: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`_cities` of the scene, first checked against the last call by identity:
    a state keeps its tuples while they do not change (hashing 49 bonus tiles is slow)."""
    key = (serial, s.palaces, s.moguls, s.bonus, names)
    if _LAST_CITIES and all(a is b for a, b in zip(_LAST_CITIES[0][0], key, strict=True)):
        return _LAST_CITIES[0][1]
    found = _cities(*key)
    _LAST_CITIES[:] = [(key, found)]
    return found


@functools.lru_cache(maxsize=1024)
def _cities(
    serial: int,
    palaces: tuple[int, ...],
    moguls: tuple[int, ...],
    bonus: tuple[BonusTile | None, ...],
    names: tuple[str, ...],
) -> tuple[str, ...]:
    """Every city with what lies on it (the same for most steps of a visit)."""
    return tuple(
        _city_part(
            serial,
            city,
            palaces[city],
            moguls[city],
            bonus[city],
            names[palaces[city]] if palaces[city] >= 0 else "",
            names[moguls[city]] if moguls[city] >= 0 else "",
        )
        for city in range(len(palaces))
    )


@functools.lru_cache(maxsize=8192)
def _city_part(
    serial: int,
    city: int,
    owner: int,
    mogul: int,
    tile: BonusTile | None,
    owner_name: str,
    mogul_name: str,
) -> str:
    """A city with what lies on it: the click target ``city-N``."""
    m = layout_of(serial)
    c = m.board.cities[city]
    x, y = m.cities[city]
    fill = SEAT_COLORS[owner % len(SEAT_COLORS)] if owner >= 0 else "#fffaf0"
    words = [c.name + (" (fortress)" if c.fortress else "")]
    if tile is not None:
        words.append(f"bonus tile {tile}")
    if owner >= 0:
        words.append(f"palace of {owner_name}")
    if mogul >= 0:
        words.append(f"mogul palace of {mogul_name}")
    out = [f'<g id="city-{city}" class="city" data-city="{city}">', title("; ".join(words))]
    out.append(f'<circle class="hit" cx="{x}" cy="{y}" r="17" fill="#fff" fill-opacity="0"/>')
    if c.fortress:
        out.append(
            f'<rect class="mark" x="{x - 12}" y="{y - 12}" width="24" height="24" rx="2" '
            f'fill="{fill}" stroke="#3b3024" stroke-width="2"/>'
        )
    else:
        out.append(
            f'<circle class="mark" cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#3b3024" '
            f'stroke-width="1.8"/>'
        )
    if tile is not None:
        out.append(_bonus_mark(tile, x, y))
    if mogul >= 0:
        out.append(
            f'<circle class="mogul" cx="{x}" cy="{y}" r="16" fill="none" '
            f'stroke="{SEAT_COLORS[mogul % len(SEAT_COLORS)]}" stroke-width="3.5" '
            f'stroke-dasharray="5 2.5"/>'
        )
    out.append("</g>")
    return "".join(out)


def _current_province(s: _Scene, m: MapLayout) -> str:
    return "" if s.to_act is None else _province_outline(m.serial, s.province)


@functools.lru_cache(maxsize=256)
def _province_outline(serial: int, province: int) -> str:
    """The red outline of the province of the visit."""
    m = layout_of(serial)
    mine = set(m.board.province_cities[province])
    lines = "".join(
        f"M{x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}"
        for i in mine
        for (x1, y1), (x2, y2), j in m.edges[i]
        if j not in mine
    )
    return (
        f'<path id="current-province" d="{lines}" fill="none" stroke="#c0392b" '
        f'stroke-width="4.5" stroke-linecap="round" pointer-events="none"/>'
    )


# --------------------------------------------------------------------------- the panel


def _headline(s: _Scene) -> str:
    if s.to_act is None:
        head = f"Game over: {s.players} players ({s.variant})"
    else:
        who = s.seats[s.to_act].name
        doing = {"play": "plays or withdraws", "place": "places palaces", "take": "takes cards"}
        head = (
            f"Visit {s.visit} of 12 in {s.board.provinces[s.province]}: {who} "
            f"{doing.get(s.phase, s.phase)}"
        )
    return text(12, 32, head, 20, font_weight="bold", fill="#2b2b2b", id="headline")


def _court(s: _Scene) -> str:
    return _court_part(s.court, s.reserve)


@functools.lru_cache(maxsize=1024)
def _court_part(court: tuple[str, ...], reserve_counts: tuple[int, ...]) -> str:
    x0 = PANEL_X
    out = [text(x0, 26, "Court", 15, font_weight="bold")]
    for i, prize in enumerate(court):
        x = x0 + 72 + i * 34
        out.append(
            f'<g class="prize" data-prize="{prize}">{title(SYMBOL_NAMES.get(prize, prize))}'
            f'<circle cx="{x}" cy="21" r="14" fill="#f5d76e" stroke="#7a5c00"/>'
            + text(
                x, 26, SYMBOL_MARKS.get(prize, "?"), 14, text_anchor="middle", font_weight="bold"
            )
            + "</g>"
        )
    reserve = ", ".join(
        f"{SYMBOL_MARKS[c]} {n}" for c, n in zip(CHARACTERS, reserve_counts, strict=False)
    )
    out.append(text(x0, 52, f"influence tiles in reserve: {reserve}", 12.5, fill="#555"))
    return f'<g id="court">{"".join(out)}</g>'


def _display(s: _Scene) -> list[str]:
    return [
        _display_head(s.deck_size),
        *(
            _card(CARDS[c], PANEL_X + i * STEP, 84, f"display-card-{c}")
            for i, c in enumerate(s.display)
        ),
        "</g>",
    ]


@functools.lru_cache(maxsize=256)
def _display_head(deck_size: int) -> str:
    return '<g id="display">' + text(
        PANEL_X, 76, f"Display ({plural(deck_size, 'card')} in the deck)", 15, font_weight="bold"
    )


def _dummy(s: _Scene) -> str:
    if s.dummy is None:
        return ""
    return (
        '<g id="dummy">'
        + text(PANEL_X, 150, "Dummy", 14, font_weight="bold")
        + _cards(s.dummy, PANEL_X + 64, 136, None, 27, small=True)
        + "</g>"
    )


def _rows(s: _Scene) -> tuple[float, float]:
    """Where the seats' rows start and how tall each is."""
    top = 142.0 + (42 if s.dummy is not None else 0)
    return top, min(230.0, (HEIGHT - top) / max(s.players, 1))


def _seat_parts(s: _Scene, seat: int) -> list[str]:
    """A seat's row in the panel, in fragments that change on their own."""
    p = s.seats[seat]
    top, row = _rows(s)
    y = top + seat * row
    influence = " ".join(
        f"{SYMBOL_MARKS[c]}{n}" for c, n in zip(CHARACTERS, p.influence, strict=False) if n
    )
    goods = [g for t in p.province_tiles for g in PROVINCE_GOODS.get(t, ())]
    goods += [t.good for t in p.bonus_tiles if t.kind == "good" and t.good is not None]
    return [
        _seat_frame(seat, p.name, y, row, s.to_act == seat, s.viewer == seat),
        _seat_status(y, p.score, p.palaces, p.withdrawn),
        _holdings(y, influence, tuple(goods)),
        _played(y, p.played),
        _hidden_hand(y, p.hand_size, p.revealed) if p.hand is None else "",
        "</g>",
    ]


@functools.lru_cache(maxsize=1024)
def _seat_frame(seat: int, name: str, y: float, row: float, acting: bool, you: bool) -> str:
    x = PANEL_X
    color = SEAT_COLORS[seat % len(SEAT_COLORS)]
    return (
        f'<g class="seat" id="seat-{seat}">'
        f'<rect x="{x - 6}" y="{number(y)}" width="{PANEL_W + 8}" height="{number(row - 6)}" '
        f'rx="6" fill="#fff" stroke="{"#c0392b" if acting else "#bbb"}" '
        f'stroke-width="{3 if acting else 1}"/>'
        f'<circle cx="{x + 6}" cy="{number(y + 15)}" r="7" fill="{color}"/>'
        + text(x + 18, y + 20, name + (" (you)" if you else ""), 14, font_weight="bold", fill=color)
    )


@functools.lru_cache(maxsize=4096)
def _seat_status(y: float, score: int, palaces: int, withdrawn: bool) -> str:
    status = f"{plural(score, 'point')} · {palaces} palaces left" + (
        " · withdrawn" if withdrawn else ""
    )
    return text(
        PANEL_X + PANEL_W - 4, y + 20, status, 12.5, fill="#333", class_="status", text_anchor="end"
    )


@functools.lru_cache(maxsize=4096)
def _holdings(y: float, influence: str, goods: tuple[str, ...]) -> str:
    x = PANEL_X
    return (
        text(x, y + 40, f"influence: {influence or 'none'}", 12.5, fill="#444")
        + text(x + 150, y + 40, "goods:", 12.5, fill="#444")
        + _goods(goods, x + 192, y + 30)
    )


@functools.lru_cache(maxsize=8192)
def _played(y: float, played: tuple[int, ...]) -> str:
    return text(PANEL_X, y + 66, "played:", 12.5, fill="#444") + _cards(
        played, PANEL_X + 50, y + 48, None, 26, small=True
    )


@functools.lru_cache(maxsize=4096)
def _hidden_hand(y: float, size: int, revealed: tuple[int, ...]) -> str:
    """A hand the picture does not show: its size, and the cards of it everybody saw
    taken from the display."""
    out = text(PANEL_X, y + 100, f"hand: {plural(size, 'card')}", 12.5, fill="#444")
    if revealed:
        out += text(PANEL_X + 104, y + 100, "seen:", 12.5, fill="#444")
        out += _cards(revealed, PANEL_X + 146, y + 84, None, 26, small=True)
    return out


def _hand_spots(s: _Scene, seat: int) -> list[tuple[float, float]]:
    """Where the cards of ``seat``'s hand lie (two rows when one is too short)."""
    top, row = _rows(s)
    return list(_spots(len(s.seats[seat].hand or ()), top + seat * row + 84, row))


@functools.lru_cache(maxsize=256)
def _spots(n: int, y: float, row: float) -> tuple[tuple[float, float], ...]:
    x = PANEL_X + 40
    room = PANEL_W - 44
    per_row = max(1, int(room // STEP))
    if n <= per_row or row < 84 + 2 * CARD_H + 12:
        step = min(float(STEP), room / max(n, 1))
        return tuple((round(x + i * step, 1), y) for i in range(n))
    return tuple((x + (i % per_row) * STEP, y + (i // per_row) * (CARD_H + 4)) for i in range(n))


def hand_parts(s: _Scene, seat: int) -> tuple[str, ...]:
    """The hand of ``seat`` (nothing for a hand not shown), in fragments."""
    p = s.seats[seat]
    if p.hand is None:
        return ()
    top, row = _rows(s)
    return _hand_cards(seat, p.hand, top + seat * row, row)


@functools.lru_cache(maxsize=4096)
def _hand_cards(seat: int, hand: tuple[int, ...], y: float, row: float) -> tuple[str, ...]:
    spots = _spots(len(hand), y + 84, row)
    return (
        _hand_head(seat, y),
        *(_card(CARDS[c], x, cy, f"hand-card-{c}") for c, (x, cy) in zip(hand, spots, strict=True)),
        "</g>",
    )


@functools.lru_cache(maxsize=256)
def _hand_head(seat: int, y: float) -> str:
    return f'<g class="hand" id="hand-{seat}">' + text(PANEL_X, y + 104, "hand:", 12.5, fill="#444")


def _hand(s: _Scene, seat: int) -> str:
    return "".join(hand_parts(s, seat))


# --------------------------------------------------------------------------- layers


def _document(body: str, width: int = WIDTH) -> str:
    height = round(width * HEIGHT / WIDTH)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{width}" height="{height}" font-family="{FONT}">'
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f1"/>{body}</svg>'
    )


def public_parts(s: _Scene) -> list[str]:
    """The public picture of a step (one SVG group), in fragments that change on
    their own."""
    m = layout(s.board)
    names = tuple(seat.name for seat in s.seats)
    parts = ['<g class="public">', _current_province(s, m)]
    parts += _cities_now(m.serial, s, names)
    parts += [_headline(s), _court(s), *_display(s), _dummy(s)]
    for seat in range(s.players):
        parts += _seat_parts(s, seat)
    parts.append("</g>")
    return parts


def layers(state: State, names: Sequence[str] | None = None) -> tuple[str, str, tuple[str, ...]]:
    """The parts of :func:`svg` of ``state``: the board (the same all game), the
    public picture (what a spectator sees), and each seat's hand."""
    s = _scene(state, names)
    return (
        board_layer(s.board),
        "".join(public_parts(s)),
        tuple(_hand(s, k) for k in range(s.players)),
    )


def svg(obj: State | PlayerView, names: Sequence[str] | None = None, width: int = WIDTH) -> str:
    """An SVG picture of a state (every hand shown) or a view (only what its seat
    may see); ``names`` label the seats; ``width`` in pixels (the height follows)."""
    s = _scene(obj, names)
    hands = "".join(_hand(s, k) for k in range(s.players))
    return _document(board_layer(s.board) + "".join(public_parts(s)) + hands, width)


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
