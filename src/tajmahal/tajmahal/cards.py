"""The 100 cards (rule C3) and the symbols on them (C2).

Card ids are stable: 0-83 are the coloured cards (21 each of red, yellow, green,
purple), 84-95 the white cards and 96-99 the special cards of the vizier, the
general, the monk and the princess.  The table is read from ``data/cards.json``
and checked against C3 once, at import.

>>> CARDS[96].special, CARDS[96].symbols
('vizier', ('mogul',))
>>> sum(1 for card in CARDS if card.color == "white")
12
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from typing import Final

from attrs import frozen

from ..kit.errors import ComponentError

#: The six symbols (C2), in the order the engine evaluates prizes (W1).
SYMBOLS: Final = ("elephant", "mogul", "vizier", "general", "monk", "princess")
#: The four characters that have an influence tile and a special card (C6).
CHARACTERS: Final = ("vizier", "general", "monk", "princess")
#: The four card colours (C3).
COLORS: Final = ("red", "yellow", "green", "purple")
#: Every value of :attr:`Card.color`.
ALL_COLORS: Final = (*COLORS, "white", "special")

#: Ids of the special cards (C3), by character.
SPECIAL_CARDS: Final = {"vizier": 96, "general": 97, "monk": 98, "princess": 99}
VIZIER_CARD: Final = 96
GENERAL_CARD: Final = 97
MONK_CARD: Final = 98
PRINCESS_CARD: Final = 99
#: The 96 regular cards: shuffled into the deck at the start (S1).
REGULAR_CARDS: Final = tuple(range(96))
#: Card ids from here on are white or special (C3): the 84 before are coloured.
FIRST_EXTRA: Final = 84
#: Card ids from here on are the special cards.
FIRST_SPECIAL: Final = 96


@frozen
class Card:
    """One card: its id, colour and the symbols it shows (a symbol may repeat)."""

    id: int
    color: str
    symbols: tuple[str, ...]
    special: str | None = None

    def count(self, symbol: str) -> int:
        """How many of ``symbol`` the card counts for (C2)."""
        return self.symbols.count(symbol)

    @property
    def is_colored(self) -> bool:
        return self.color in COLORS

    def __str__(self) -> str:
        if self.special:
            return f"{self.special}'s card"
        return f"{self.color} {'+'.join(self.symbols)}"


def card_ids(color: str, *symbols: str) -> tuple[int, ...]:
    """Ids of the cards of ``color`` showing exactly ``symbols`` (in any order).

    >>> card_ids("red", "vizier", "elephant")
    (2, 3, 4)
    >>> card_ids("white", "mogul")
    (95,)

    An unknown colour or symbol raises ValueError (a misspelling would otherwise
    find no card at all).
    """
    if color not in ALL_COLORS:
        raise ValueError(f"no colour {color!r}; the colours are {', '.join(ALL_COLORS)}")
    for symbol in symbols:
        if symbol not in SYMBOLS:
            raise ValueError(f"no symbol {symbol!r}; the symbols are {', '.join(SYMBOLS)}")
    want = sorted(symbols)
    return tuple(c.id for c in CARDS if c.color == color and sorted(c.symbols) == want)


_CORE = Counter(
    {
        ("elephant", "elephant"): 2,
        ("elephant", "vizier"): 3,
        ("elephant", "general"): 3,
        ("elephant", "monk"): 3,
        ("elephant", "princess"): 3,
        ("elephant", "mogul"): 2,
    }
)
_EXTRA = {
    "purple": {
        ("monk", "vizier"),
        ("general", "monk"),
        ("general", "mogul"),
        ("general", "princess"),
        ("princess", "mogul"),
    },
    "green": {
        ("vizier", "general"),
        ("princess", "monk"),
        ("mogul", "monk"),
        ("general", "princess"),
        ("vizier", "mogul"),
    },
    "yellow": {
        ("monk", "mogul"),
        ("general", "princess"),
        ("vizier", "general"),
        ("princess", "monk"),
        ("vizier", "mogul"),
    },
    "red": {
        ("monk", "vizier"),
        ("vizier", "princess"),
        ("princess", "mogul"),
        ("general", "monk"),
        ("vizier", "mogul"),
    },
}
_WHITE = Counter(
    {
        ("elephant",): 7,
        ("vizier",): 1,
        ("general",): 1,
        ("monk",): 1,
        ("princess",): 1,
        ("mogul",): 1,
    }
)
_SPECIAL = {"vizier": ("mogul",), "general": ("elephant",), "monk": (), "princess": ()}


def validate_cards(cards: tuple[Card, ...]) -> None:
    """Raise :class:`ComponentError` unless ``cards`` is exactly the deck of C3."""
    if [c.id for c in cards] != list(range(100)):
        raise ComponentError("C3: card ids must be 0..99 in order")
    for card in cards:
        if card.color not in ALL_COLORS:
            raise ComponentError(f"C3: card {card.id} has unknown colour {card.color!r}")
        if any(s not in SYMBOLS for s in card.symbols) or len(card.symbols) > 2:
            raise ComponentError(f"C2: card {card.id} has bad symbols {card.symbols!r}")
    for color in COLORS:
        kinds = Counter(tuple(sorted(c.symbols)) for c in cards if c.color == color)
        want = Counter({tuple(sorted(k)): n for k, n in _CORE.items()})
        want.update(tuple(sorted(k)) for k in _EXTRA[color])
        if kinds != want:
            raise ComponentError(f"C3: the {color} cards are not the 21 of the rules")
    whites = Counter(c.symbols for c in cards if c.color == "white")
    if whites != _WHITE:
        raise ComponentError("C3: the white cards are not the 12 of the rules")
    specials = {c.special: c.symbols for c in cards if c.color == "special"}
    if specials != _SPECIAL or any(
        SPECIAL_CARDS[c.special] != c.id for c in cards if c.special is not None
    ):
        raise ComponentError("C3: the special cards are not the 4 of the rules (ids 96-99)")


def _load() -> tuple[Card, ...]:
    raw = json.loads(resources.files(__package__).joinpath("data/cards.json").read_text("utf-8"))
    cards = tuple(
        Card(id=c["id"], color=c["color"], symbols=tuple(c["symbols"]), special=c.get("special"))
        for c in raw["cards"]
    )
    validate_cards(cards)
    return cards


#: All 100 cards, indexed by id.
CARDS: Final[tuple[Card, ...]] = _load()

# Flat tables for the engine's hot paths (derived from CARDS, never edited by hand).
#: Colour of each card id.
CARD_COLOR: Final = tuple(c.color for c in CARDS)
#: Per card id, its count of each symbol in :data:`SYMBOLS` order.
SYMBOL_COUNTS: Final = tuple(tuple(c.count(s) for s in SYMBOLS) for c in CARDS)
#: True for the 84 coloured cards.
IS_COLORED: Final = tuple(c.is_colored for c in CARDS)
