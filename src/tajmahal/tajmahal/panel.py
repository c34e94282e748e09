"""The panel beside Taj Mahal's map: the visit, the grand mogul's court (each prize
with who leads the race for it, W1), the display, and a row per seat (its score,
palaces left, influence tiles, goods, the cards it played and the symbols they
count, and its hand or its size), in fragments that change on their own.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from attrs import frozen

from ..kit.svg import number, plural, text, text_width, title
from .cards import CARDS, CHARACTERS, SYMBOLS
from .counting import symbol_counts
from .scene import (
    CARD_H,
    CARD_W,
    HEIGHT,
    PANEL_W,
    PANEL_X,
    SEAT_COLORS,
    SMALL_H,
    SMALL_W,
    STEP,
    SYMBOL_MARKS,
    SYMBOL_NAMES,
    Scene,
    card_at,
    card_row,
    good_at,
)
from .tiles import PROVINCE_GOODS

#: The race for a prize led by the dummy (the two-player variant, D3).
DUMMY: Final = -1
#: Where the court's prizes stand: the first one's centre, and from one to the next.
PRIZE_X: Final = PANEL_X + 30
PRIZE_STEP: Final = 58
PRIZE_Y: Final = 40
#: The display's cards, and where the seats' rows begin without a dummy.
DISPLAY_Y: Final = 116
SEATS_TOP: Final = DISPLAY_Y + CARD_H + 8
#: A seat's row: its played cards and its hand, below the row's top.
PLAYED_Y: Final = 44
PLAYED_STEP: Final = SMALL_W + 2
HAND_Y: Final = 82
#: The width the hand and the display have.
ROOM: Final = PANEL_W - 4


@frozen
class Race:
    """Who leads the race for one prize still at the court (W1): the seats still in
    the visit (and the dummy while it bids) by how many of the prize's symbol their
    played cards show.  ``leader`` would win it by withdrawing now: a count of at
    least 1, more than every other's; None on a tie or with no card of it."""

    prize: str
    counts: tuple[tuple[int, int], ...]  # (seat or DUMMY, count), the highest first
    leader: int | None

    @property
    def best(self) -> int:
        return self.counts[0][1] if self.counts else 0

    @property
    def next(self) -> int:
        return self.counts[1][1] if len(self.counts) > 1 else 0


def races(s: Scene) -> tuple[Race, ...]:
    """The race for each prize still at the court, in the court's order."""
    played = [(k, symbol_counts(p.played)) for k, p in enumerate(s.seats) if not p.withdrawn]
    if s.dummy is not None and s.dummy_bidding:
        played.append((DUMMY, symbol_counts(s.dummy)))
    out = []
    for prize in s.court:
        i = SYMBOLS.index(prize)
        counts = tuple(sorted(((k, c[i]) for k, c in played), key=lambda kc: (-kc[1], kc[0])))
        top = counts[0][1] if counts else 0
        ahead = top > 0 and (len(counts) == 1 or counts[1][1] < top)
        out.append(Race(prize, counts, counts[0][0] if ahead else None))
    return tuple(out)


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


def prize_spot(k: int) -> tuple[float, float]:
    """The centre of the court's ``k``-th prize."""
    return PRIZE_X + k * PRIZE_STEP, PRIZE_Y


def court(s: Scene) -> str:
    names = tuple(p.name for p in s.seats)
    return _court_part(s.court, s.reserve, races(s), names)


def _short(name: str, width: float, size: float) -> str:
    """``name`` cut to ``width`` at ``size`` (an ellipsis where it is cut)."""
    if text_width(name, size) <= width:
        return name
    while name and text_width(name + "…", size) > width:
        name = name[:-1]
    return name + "…"


def _who(k: int, names: Sequence[str]) -> str:
    return "the dummy" if k == DUMMY else names[k]


@functools.lru_cache(maxsize=1024)
def _court_part(
    court: tuple[str, ...],
    reserve_counts: tuple[int, ...],
    races: tuple[Race, ...],
    names: tuple[str, ...],
) -> str:
    x0 = PANEL_X
    reserve = ", ".join(
        f"{SYMBOL_MARKS[c]} {n}" for c, n in zip(CHARACTERS, reserve_counts, strict=False)
    )
    out = [
        text(x0, 16, "Court", 15, font_weight="bold"),
        text(x0 + 52, 16, f"influence tiles in reserve: {reserve}", 12, fill="#555"),
    ]
    for k, race in enumerate(races):
        x, y = prize_spot(k)
        held = ", ".join(f"{_who(seat, names)} {n}" for seat, n in race.counts) or "nobody in"
        if race.leader is None:
            lead = "a tie: nobody wins it now" if race.best else "nobody has played one"
            color, who, score = "#777", "tie" if race.best else "—", (
                f"{race.best}" if race.best else ""
            )
        else:
            lead = f"{_who(race.leader, names)} leads and would win it by withdrawing now"
            color = "#555" if race.leader == DUMMY else SEAT_COLORS[race.leader % len(SEAT_COLORS)]
            who = _short(_who(race.leader, names), PRIZE_STEP - 4, 12.5)
            score = f"{race.best} to {race.next}"
        tip = f"{SYMBOL_NAMES.get(race.prize, race.prize)}: {held}; {lead} (W1)"
        out.append(
            f'<g class="prize" id="prize-{race.prize}" data-prize="{race.prize}" '
            f'data-leader="{"" if race.leader is None else race.leader}">{title(tip)}'
            f'<circle cx="{x}" cy="{y}" r="15" fill="#f5d76e" stroke="#7a5c00"/>'
            + text(x, y + 5, SYMBOL_MARKS.get(race.prize, "?"), 15, text_anchor="middle",
                   font_weight="bold")
            + text(x, y + 33, who, 12.5, text_anchor="middle", font_weight="bold", fill=color,
                   class_="leader")
            + text(x, y + 48, score, 12, text_anchor="middle", fill="#444", class_="lead")
            + "</g>"
        )
    return f'<g id="court">{"".join(out)}</g>'


def display_spot(k: int, n: int) -> tuple[float, float]:
    """Where the ``k``-th of ``n`` cards of the display lies."""
    return PANEL_X + k * min(float(STEP), (ROOM - CARD_W) / max(n - 1, 1)), float(DISPLAY_Y)


def display(s: Scene) -> list[str]:
    n = len(s.display)
    return [
        _display_head(s.deck_size),
        *(
            card_at(CARDS[c], *display_spot(i, n), f"display-card-{c}")
            for i, c in enumerate(s.display)
        ),
        "</g>",
    ]


@functools.lru_cache(maxsize=256)
def _display_head(deck_size: int) -> str:
    return '<g id="display">' + text(
        PANEL_X, DISPLAY_Y - 8, f"Display ({plural(deck_size, 'card')} in the deck)", 14,
        font_weight="bold",
    )


def dummy(s: Scene) -> str:
    if s.dummy is None:
        return ""
    y = SEATS_TOP
    return (
        '<g id="dummy">'
        + text(PANEL_X, y + 22, "Dummy", 14, font_weight="bold")
        + card_row(s.dummy, PANEL_X + 64, y + 2, None, PLAYED_STEP, small=True)
        + "</g>"
    )


def rows(s: Scene) -> tuple[float, float]:
    """Where the seats' rows start and how tall each is."""
    top = SEATS_TOP + (SMALL_H + 12 if s.dummy is not None else 0)
    return top, min(260.0, (HEIGHT - top) / max(s.players, 1))


def played_spot(s: Scene, seat: int, index: int) -> tuple[float, float]:
    """Where the ``index``-th card ``seat`` plays in this visit lies."""
    top, row = rows(s)
    return PANEL_X + 50 + index * PLAYED_STEP, top + seat * row + PLAYED_Y


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
    held = tuple((g, goods.count(g)) for g in ("rice", "tea", "spice", "jewels") if g in goods)
    return [
        _seat_frame(seat, p.name, y, row, s.to_act == seat, s.viewer == seat),
        _seat_status(y, p.score, p.palaces, p.withdrawn),
        _holdings(y, influence, held),
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
        f'<circle cx="{x + 6}" cy="{number(y + 14)}" r="7" fill="{color}"/>'
        + text(x + 18, y + 19, name + (" (you)" if you else ""), 14, font_weight="bold", fill=color)
    )


@functools.lru_cache(maxsize=4096)
def _seat_status(y: float, score: int, palaces: int, withdrawn: bool) -> str:
    status = f"{plural(score, 'point')} · {plural(palaces, 'palace')} left" + (
        " · withdrawn" if withdrawn else ""
    )
    return text(
        PANEL_X + PANEL_W - 4, y + 19, status, 12.5, fill="#333", class_="status", text_anchor="end"
    )


@functools.lru_cache(maxsize=4096)
def _holdings(y: float, influence: str, goods: tuple[tuple[str, int], ...]) -> str:
    """Influence tiles, and each good held with how many (W7)."""
    x = PANEL_X
    out = [
        text(x, y + 38, f"influence: {influence or 'none'}", 12.5, fill="#444"),
        text(x + 150, y + 38, "goods:" if goods else "goods: none", 12.5, fill="#444"),
    ]
    for k, (good, n) in enumerate(goods):
        gx = x + 192 + k * 40
        out.append(good_at(good, gx, y + 25, 17) + text(gx + 19, y + 38, f"\u00d7{n}", 12.5))
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def _played(y: float, played: tuple[int, ...]) -> str:
    """The cards on the table, and the symbols they count (W1)."""
    counts = symbol_counts(played)
    shown = " ".join(f"{SYMBOL_MARKS[s]}{n}" for s, n in zip(SYMBOLS, counts, strict=True) if n)
    out = text(PANEL_X, y + PLAYED_Y + 22, "played:", 12.5, fill="#444") + card_row(
        played, PANEL_X + 50, y + PLAYED_Y, None, PLAYED_STEP, small=True
    )
    if shown:
        end = PANEL_X + 50 + len(played) * PLAYED_STEP + 6
        out += text(end, y + PLAYED_Y + 22, shown, 13, font_weight="bold", fill="#5a3d12",
                    class_="counts")
    return out


@functools.lru_cache(maxsize=4096)
def _hidden_hand(y: float, size: int, revealed: tuple[int, ...]) -> str:
    """A hand the picture does not show: its size, and the cards of it everybody saw
    taken from the display."""
    out = text(PANEL_X, y + HAND_Y + 18, f"hand: {plural(size, 'card')}", 12.5, fill="#444")
    if revealed:
        out += text(PANEL_X + 104, y + HAND_Y + 18, "seen:", 12.5, fill="#444")
        out += card_row(revealed, PANEL_X + 146, y + HAND_Y, None, PLAYED_STEP, small=True)
    return out


def hand_spots(s: Scene, seat: int) -> list[tuple[float, float]]:
    """Where the cards of ``seat``'s hand lie (two rows when one is too short)."""
    top, row = rows(s)
    return list(_spots(len(s.seats[seat].hand or ()), top + seat * row + HAND_Y, row))


@functools.lru_cache(maxsize=256)
def _spots(n: int, y: float, row: float) -> tuple[tuple[float, float], ...]:
    """``n`` cards from ``y`` in a row ``row`` tall: one line, or two where the row
    has room for them; closer together (overlapping) where they do not fit."""
    lines = 2 if n * STEP > ROOM and row >= HAND_Y + 2 * CARD_H + 12 else 1
    per_line = -(-n // lines)
    step = min(float(STEP), (ROOM - CARD_W) / max(per_line - 1, 1))
    return tuple(
        (round(PANEL_X + (i % per_line) * step, 1), y + (i // per_line) * (CARD_H + 4))
        for i in range(n)
    )


def hand_parts(s: Scene, seat: int) -> tuple[str, ...]:
    """The hand of ``seat`` (nothing for a hand not shown), in fragments."""
    p = s.seats[seat]
    if p.hand is None:
        return ()
    top, row = rows(s)
    return _hand_cards(seat, p.hand, top + seat * row, row)


@functools.lru_cache(maxsize=4096)
def _hand_cards(seat: int, hand: tuple[int, ...], y: float, row: float) -> tuple[str, ...]:
    spots = _spots(len(hand), y + HAND_Y, row)
    return (
        _hand_head(seat),
        *(
            card_at(CARDS[c], x, cy, f"hand-card-{c}")
            for c, (x, cy) in zip(hand, spots, strict=True)
        ),
        "</g>",
    )


@functools.lru_cache(maxsize=256)
def _hand_head(seat: int) -> str:
    return f'<g class="hand" id="hand-{seat}">'
