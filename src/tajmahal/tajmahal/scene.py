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
HEIGHT: Final = 1000
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
#: Each good drawn as what it is, in a 16 x 16 box: a bowl of rice, a tea leaf, a
#: chili pepper, a cut jewel.
GOOD_ICONS: Final = {
    "rice": '<path d="M1.5,8.5H14.5A6.5,6 0 0 1 1.5,8.5Z" fill="#9c6b3c" stroke="#4a3018" '
    'stroke-width="0.8"/><path d="M2.6,8.5Q8,1.2 13.4,8.5Z" fill="#fbf6dc" stroke="#8a7a50" '
    'stroke-width="0.7"/><path d="M5.5,6.5h1.4M8,4.8h1.4M9.5,7h1.4M7,7.4h1.2" stroke="#b8a76a" '
    'stroke-width="0.9"/>',
    "tea": '<path d="M2,14.5C1.5,6.5 6.5,1.5 14.5,1.5C14.5,9.5 9.5,14.5 2,14.5Z" fill="#4f8a2e" '
    'stroke="#2d5418" stroke-width="0.8"/>'
    '<path d="M2.6,13.9L12.5,3.6M6,10.5l-0.5,-3.2M8.6,8l2.8,0.6" '
    'stroke="#cfe3b5" stroke-width="0.8" fill="none"/>',
    "spice": '<path d="M3.2,4.4C1.8,10.2 7,15.4 14.6,14.2C9.4,12.3 7.3,8.4 6.6,4.2Z" '
    'fill="#d0401e" stroke="#7a1e0c" stroke-width="0.8"/><path d="M4.6,4.6C4.2,2.6 5.2,1.4 7.4,1" '
    'stroke="#3f7d2a" stroke-width="1.7" fill="none" stroke-linecap="round"/>',
    "jewels": '<path d="M4,2.2H12L15,6.2L8,15L1,6.2Z" fill="#3b6fd8" stroke="#1a3a80" '
    'stroke-width="0.8"/><path d="M1,6.2H15M4,2.2L6,6.2L8,15L10,6.2L12,2.2" fill="none" '
    'stroke="#c4d6ff" stroke-width="0.6"/>',
}
#: Cards are drawn in a box of this size and placed at the sizes below.
CARD_BOX: Final = (34, 46)
#: Cards in the hand and the display (what a person clicks), and on the table.
CARD_W: Final = 52
CARD_H: Final = 70
SMALL_W: Final = 24
SMALL_H: Final = 32
#: From one card to the next in the hand and the display, at most.
STEP: Final = CARD_W + 3


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
    dummy_bidding: bool  # the dummy still bids this visit (D3: it counts for majorities)
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
        dummy_bidding=v.dummy is not None and v.dummy.bidding,
        viewer=viewer,
    )


# --------------------------------------------------------------------------- pieces


def _card_symbol(card: Card) -> str:
    """A card drawn once (``<symbol id="card-N">``, in a :data:`CARD_BOX`): its
    colour, its symbols as letters."""
    w, h = CARD_BOX
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


#: Every card and good, drawn once; the pictures place them with ``<use>``.
CARD_DEFS: Final = (
    "<defs>"
    + "".join(_card_symbol(card) for card in CARDS)
    + "".join(
        f'<symbol id="good-{g}" viewBox="0 0 16 16">{icon}</symbol>'
        for g, icon in GOOD_ICONS.items()
    )
    + "</defs>"
)


def good_at(good: str, x: float, y: float, size: float = 16) -> str:
    """A good (its icon) with its top left corner at ``(x, y)``; its tooltip names it."""
    return (
        f'<g class="good" data-good="{good}">{title(good)}<use href="#good-{good}" '
        f'x="{number(x)}" y="{number(y)}" width="{number(size)}" height="{number(size)}"/></g>'
    )


@functools.lru_cache(maxsize=8192)
def card_at(
    card: Card, x: float, y: float, element_id: str | None = None, small: bool = False
) -> str:
    """A card at ``(x, y)`` (its tooltip names it); ``element_id`` to click it (its
    outline then the part the pages ring when it can be played)."""
    w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    hit = (
        f'<rect class="hit" x="{number(x)}" y="{number(y)}" width="{w}" height="{h}" rx="5" '
        f'fill="#fff" fill-opacity="0"/>'
        if element_id is not None
        else ""
    )
    return (
        f'<g class="card"{attrs(id=element_id)} data-card="{card.id}">{title(str(card))}'
        f'<use href="#card-{card.id}" x="{number(x)}" y="{number(y)}" width="{w}" '
        f'height="{h}"/>{hit}</g>'
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
