"""What Taj Mahal's pictures show of a position (:class:`Scene`, from a state or a
view), the sizes and colours they share, and the cards, drawn once as SVG symbols
and placed with ``<use>`` (:mod:`.render` draws the map, :mod:`.panel` the rest).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from attrs import frozen

from ..kit.slots import like
from ..kit.svg import attrs, number, text, title
from .board import Board
from .cards import CARDS, Card
from .state import PlayerState, State
from .tiles import BonusTile
from .views import PlayerView, SeatView

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
class Seat:
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
class Scene:
    board: Board
    players: int
    variant: str
    visit: int
    province: int
    to_act: int | None
    phase: str
    seats: tuple[Seat, ...]
    display: tuple[int, ...]
    deck_size: int
    court: tuple[str, ...]
    reserve: tuple[int, ...]
    palaces: tuple[int, ...]
    moguls: tuple[int, ...]
    bonus: tuple[BonusTile | None, ...]
    dummy: tuple[int, ...] | None
    viewer: int | None  # the seat whose view this is; None: a state or a spectator


def scene_of(obj: State | PlayerView, names: Sequence[str] | None) -> Scene:
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
        seats = tuple(
            _seat_of(p, labels[s], p.hand, len(p.hand)) for s, p in enumerate(obj.players)
        )
        return _scene_from(obj, seats, len(obj.deck), None)
    seats = tuple(
        _seat_of(p, labels[s], obj.hand if s == obj.seat else None, p.hand_size)
        for s, p in enumerate(obj.players)
    )
    return _scene_from(obj, seats, obj.deck_size, obj.seat)


def _seat_of(
    p: PlayerState | SeatView, name: str, hand: tuple[int, ...] | None, hand_size: int
) -> Seat:
    return like(Seat, p, name=name, hand=hand, hand_size=hand_size, score=p.score.total)


def _scene_from(
    v: State | PlayerView, seats: tuple[Seat, ...], deck_size: int, viewer: int | None
) -> Scene:
    return like(
        Scene,
        v,
        board=v.setup.board,
        players=len(seats),
        variant=v.setup.variant,
        seats=seats,
        deck_size=deck_size,
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
def card_at(
    card: Card, x: float, y: float, element_id: str | None = None, small: bool = False
) -> str:
    """A card at ``(x, y)`` (its tooltip names it); ``element_id`` to click it."""
    w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    return (
        f'<g class="card"{attrs(id=element_id)} data-card="{card.id}">{title(str(card))}'
        f'<use href="#card-{card.id}" x="{number(x)}" y="{number(y)}" width="{w}" '
        f'height="{h}"/></g>'
    )


def card_row(
    cards: Sequence[int],
    x: float,
    y: float,
    prefix: str | None = None,
    step: float = 35,
    small: bool = False,
) -> str:
    return "".join(
        card_at(CARDS[c], round(x + i * step, 1), y, f"{prefix}-{c}" if prefix else None, small)
        for i, c in enumerate(cards)
    )
