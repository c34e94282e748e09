"""The panel beside Java's board: the turn, the common supply, the display card
and the pile, a row per seat, a festival under way, and each seat's hand (its own
layer), in fragments that change on their own.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from ..kit.svg import attrs, plural, text, title
from .components import PALACE_VALUES, Components
from .sheet import (
    CARD_FILL,
    CARD_H,
    CARD_W,
    PANEL_W,
    SEAT_COLORS,
    SEAT_H,
    SEATS_TOP,
    SHEETS,
    WATER_FILL,
    position_name,
    shade,
    sheet_of,
)
from .state import RICE, Seat, State


class _Lines:
    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        self.parts: list[str] = []

    def line(self, content: str, size: float = 12, **extra: object) -> None:
        self.parts.append(text(self.x, self.y, content, size, **extra))
        self.y += size + 5


def turn_words(state: State, labels: Sequence[str]) -> str:
    if state.to_act is None:
        return "Java: game over"
    who = labels[state.to_act]
    if state.festival is not None:
        return f"festival at {position_name(state.components, state.festival.palace)}: {who} bids"
    words = f"{who}'s turn: {state.turn.ap} AP left"
    if state.pending is not None:
        from .texts import action_text

        words += f"; {action_text(state, state.pending.action)}: {state.phase}"
    return words


@functools.lru_cache(maxsize=1024)
def supply(
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
    c = SHEETS.serial(serial).components
    out = [text(x, 56, "Supply", 13, font_weight="bold")]
    out.append(
        f'<g id="supply-three">{title(f"{threes} three-space tiles left")}'
        f'<rect class="hit" x="{x}" y="64" width="70" height="28" rx="4" fill="{shade(RICE, 1)}" '
        f'stroke="#2f2a22" stroke-width="1.5"/>'
        + text(x + 35, 83, f"3-tile x{threes}", 11.5, text_anchor="middle", font_weight="bold")
        + "</g>"
    )
    out.append(
        f'<g id="supply-water">{title(f"{water} water tiles left")}'
        f'<rect class="hit" x="{x + 76}" y="64" width="72" height="28" rx="4" fill="{WATER_FILL}" '
        f'stroke="#3d6f9c" stroke-width="1.5"/>'
        + text(
            x + 112,
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
        px = x + 154 + k * 45
        out.append(
            f'<g id="palace-{value}">{title(f"{left} palace tiles of value {value} left")}'
            f'<rect class="hit" x="{px}" y="64" width="40" height="32" rx="3" fill="#fff" '
            f'stroke="#222" stroke-width="1.3"/>'
            + text(px + 20, 78, str(value), 12.5, text_anchor="middle", font_weight="bold")
            + text(px + 20, 92, f"x{left}", 11, text_anchor="middle", fill="#555")
            + "</g>"
        )
    out.append(text(x, 119, "Festival cards: display", 12, font_weight="bold"))
    if display >= 0:
        out.append(_card(x + 168, 100, c, display, "display-card"))
    out.append(
        f'<g id="draw-pile">{title("the draw pile: " + plural(pile, "card"))}'
        f'<rect class="hit" x="{x + 222}" y="100" width="96" height="{CARD_H}" rx="4" '
        f'fill="#8d6e4c" '
        f'stroke="#222"/>'
        + text(x + 270, 119, f"pile: {pile}", 11.5, text_anchor="middle", fill="#fff")
        + "</g>"
    )
    return "".join(out)


def _card(x: float, y: float, c: Components, card: int, ident: str | None) -> str:
    """A festival card: its symbols' initials (the tooltip names them)."""
    return _card_at(sheet_of(c).serial, x, y, card, ident)


@functools.lru_cache(maxsize=4096)
def _card_at(serial: int, x: float, y: float, card: int, ident: str | None) -> str:
    words = card_words(SHEETS.serial(serial).components, card)
    short = "+".join(w[0].upper() for w in words.split("+"))
    return (
        f'<g{attrs(id=ident)} class="card" data-card="{card}">{title(words)}'
        f'<rect class="hit" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" '
        f'fill="{CARD_FILL}" stroke="#7a5c00" stroke-width="1.2"/>'
        + text(x + CARD_W / 2, y + 19.5, short, 12, text_anchor="middle", font_weight="bold")
        + "</g>"
    )


def card_words(c: Components, card: int) -> str:
    return "+".join(c.symbols[s] for s in c.cards[card])


@functools.lru_cache(maxsize=4096)
def seat_block(x: float, y: float, seat: int, label: str, acting: bool, p: Seat) -> str:
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


def festival(state: State, x: float, y: float, labels: Sequence[str]) -> str:
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


def hand_parts(state: State, seat: int) -> list[str]:
    """What only ``seat`` sees: its festival cards, in its row of the panel
    (``hand-card-N``: what a person clicks to lay one in a festival)."""
    c = state.components
    x = sheet_of(c).width + 14
    y = SEATS_TOP + SEAT_H * seat + 58
    hand = state.players[seat].hand
    return [
        f'<g class="hand" id="hand-{seat}">',
        text(x, y + 19, "hand:", 11.5, fill="#444"),
        *(
            _card(x + 40 + dx, y + dy, c, card, f"hand-card-{card}")
            for (dx, dy), card in zip(_hand_spots(len(hand)), hand, strict=True)
        ),
        "</g>",
    ]


#: The room a hand's cards have in a seat's row: its width, and two lines.
_HAND_W: Final = PANEL_W - 54


@functools.lru_cache(maxsize=64)
def _hand_spots(n: int) -> tuple[tuple[float, float], ...]:
    """Where ``n`` festival cards lie in a seat's row (from its hand's corner): a
    line, two when one is too short, closer together past two lines' worth, and
    always within the row."""
    per_line = int((_HAND_W - CARD_W) // (CARD_W + 4)) + 1
    lines = 1 if n <= per_line else 2
    along = -(-n // lines)
    step = min(CARD_W + 4.0, (_HAND_W - CARD_W) / max(along - 1, 1))
    return tuple((round((k % along) * step, 1), (k // along) * (CARD_H + 3.0)) for k in range(n))
