"""The panel beside Taj Mahal's map: the visit, the grand mogul's court, the
display, and a row per seat (its score, palaces left, influence tiles, goods, the
cards it played, and its hand or its size), in fragments that change on their own.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..kit.svg import number, plural, text, title
from .cards import CARDS, CHARACTERS
from .scene import (
    CARD_H,
    GOOD_COLORS,
    HEIGHT,
    PANEL_W,
    PANEL_X,
    SEAT_COLORS,
    STEP,
    SYMBOL_MARKS,
    SYMBOL_NAMES,
    Scene,
    card_at,
    card_row,
)
from .tiles import PROVINCE_GOODS


def _goods(goods: Sequence[str], x: float, y: float) -> str:
    return "".join(
        f'<rect x="{x + i * 15}" y="{y}" width="13" height="13" rx="2" '
        f'fill="{GOOD_COLORS.get(good, "#999")}" stroke="#333" stroke-width="0.7">'
        f"{title(good)}</rect>"
        for i, good in enumerate(goods)
    )


def headline(s: Scene) -> str:
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


def court(s: Scene) -> str:
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


def display(s: Scene) -> list[str]:
    return [
        _display_head(s.deck_size),
        *(
            card_at(CARDS[c], PANEL_X + i * STEP, 84, f"display-card-{c}")
            for i, c in enumerate(s.display)
        ),
        "</g>",
    ]


@functools.lru_cache(maxsize=256)
def _display_head(deck_size: int) -> str:
    return '<g id="display">' + text(
        PANEL_X, 76, f"Display ({plural(deck_size, 'card')} in the deck)", 15, font_weight="bold"
    )


def dummy(s: Scene) -> str:
    if s.dummy is None:
        return ""
    return (
        '<g id="dummy">'
        + text(PANEL_X, 150, "Dummy", 14, font_weight="bold")
        + card_row(s.dummy, PANEL_X + 64, 136, None, 27, small=True)
        + "</g>"
    )


def rows(s: Scene) -> tuple[float, float]:
    """Where the seats' rows start and how tall each is."""
    top = 142.0 + (42 if s.dummy is not None else 0)
    return top, min(230.0, (HEIGHT - top) / max(s.players, 1))


def seat_parts(s: Scene, seat: int) -> list[str]:
    """A seat's row in the panel, in fragments that change on their own."""
    p = s.seats[seat]
    top, row = rows(s)
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
    return text(PANEL_X, y + 66, "played:", 12.5, fill="#444") + card_row(
        played, PANEL_X + 50, y + 48, None, 26, small=True
    )


@functools.lru_cache(maxsize=4096)
def _hidden_hand(y: float, size: int, revealed: tuple[int, ...]) -> str:
    """A hand the picture does not show: its size, and the cards of it everybody saw
    taken from the display."""
    out = text(PANEL_X, y + 100, f"hand: {plural(size, 'card')}", 12.5, fill="#444")
    if revealed:
        out += text(PANEL_X + 104, y + 100, "seen:", 12.5, fill="#444")
        out += card_row(revealed, PANEL_X + 146, y + 84, None, 26, small=True)
    return out


def hand_spots(s: Scene, seat: int) -> list[tuple[float, float]]:
    """Where the cards of ``seat``'s hand lie (two rows when one is too short)."""
    top, row = rows(s)
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


def hand_parts(s: Scene, seat: int) -> tuple[str, ...]:
    """The hand of ``seat`` (nothing for a hand not shown), in fragments."""
    p = s.seats[seat]
    if p.hand is None:
        return ()
    top, row = rows(s)
    return _hand_cards(seat, p.hand, top + seat * row, row)


@functools.lru_cache(maxsize=4096)
def _hand_cards(seat: int, hand: tuple[int, ...], y: float, row: float) -> tuple[str, ...]:
    spots = _spots(len(hand), y + 84, row)
    return (
        _hand_head(seat, y),
        *(
            card_at(CARDS[c], x, cy, f"hand-card-{c}")
            for c, (x, cy) in zip(hand, spots, strict=True)
        ),
        "</g>",
    )


@functools.lru_cache(maxsize=256)
def _hand_head(seat: int, y: float) -> str:
    return f'<g class="hand" id="hand-{seat}">' + text(PANEL_X, y + 104, "hand:", 12.5, fill="#444")
