"""The batched engine's data: the rules engine's cards, board and tiles as arrays.

Every table here is derived from the rules engine's own data (:mod:`.cards`,
:mod:`.board`, :mod:`.tiles`) and from the kit encoding of Taj Mahal (the action
index groups, the bonus tile kinds of the observation), once, at import: the
batched engine has no game data of its own.  Plain numpy: the JAX functions take
them as constants.

Where a card lies is one small integer per card (:data:`DECK`, :data:`HAND` + seat,
...), so every pile is a mask over the 100 card ids.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from .. import CARDS, CHARACTERS, COLORS, DEFAULT_BOARD, SYMBOLS, Board
from ..encoding import BONUS_KINDS, EXTRA_CARDS, SPACE
from ..setups import HAND_SIZE, VISITS, display_size
from ..tiles import BONUS_POINTS, DEFAULT_BONUS_TILES, GOODS, PROVINCE_GOODS, TAJ_MAHAL

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
B = npt.NDArray[np.bool_]

# --------------------------------------------------------------------------- where a card lies

#: The piles of a state's ``piles`` (:mod:`.bits`: a set of cards each): the draw
#: deck, the discard pile, the display, the special cards' supply, the dummy's cards
#: (D2), then each seat's hand (``HAND + seat``) and each seat's table in this visit
#: (``HAND + players + seat``, :func:`table`).
DECK: Final = 0
DISCARD: Final = 1
DISPLAY: Final = 2
SUPPLY: Final = 3
DUMMY: Final = 4
HAND: Final = 5
#: No seat, city owner or card: the empty value of the int8 tables.
NONE: Final = -1


def table(players: int, seat: object) -> object:
    """The row of ``seat``'s table (the cards it played this visit) in ``piles``."""
    return HAND + players + seat  # type: ignore[operator]


def piles_of(players: int) -> int:
    """How many piles a state of ``players`` holds."""
    return HAND + 2 * players


# --------------------------------------------------------------------------- cards (C2, C3)

NUM_CARDS: Final = len(CARDS)
#: The 96 regular cards: the deck, the display and the discard pile hold only these.
REGULAR: Final = 96
#: Colour of each card id: 0-3 in :data:`~tajmahal.tajmahal.cards.COLORS` order, 4 white,
#: 5 special (the dummy's stop, D3, compares these: white is a colour there).
WHITE: Final = len(COLORS)
SPECIAL_COLOR: Final = WHITE + 1
CARD_COLOR: Final[I8] = np.array(
    [COLORS.index(c.color) if c.color in COLORS else WHITE if c.color == "white" else WHITE + 1
     for c in CARDS],
    dtype=np.int8,
)
#: Per card id (and a row of zeros at index 100, "no card"): its count of each symbol
#: in :data:`~tajmahal.tajmahal.cards.SYMBOLS` order.
SYMBOL_COUNTS: Final[I8] = np.array(
    [[c.count(s) for s in SYMBOLS] for c in CARDS] + [[0] * len(SYMBOLS)], dtype=np.int8
)
IS_COLORED: Final[B] = CARD_COLOR < WHITE
IS_WHITE: Final[B] = CARD_COLOR == WHITE
IS_SPECIAL: Final[B] = CARD_COLOR == SPECIAL_COLOR
#: The special cards by character (C3), in :data:`~tajmahal.tajmahal.cards.CHARACTERS` order.
SPECIALS: Final[I32] = np.array(
    [next(c.id for c in CARDS if c.special == k) for k in CHARACTERS], dtype=np.int32
)
MONK_CARD: Final = int(SPECIALS[CHARACTERS.index("monk")])
PRINCESS_CARD: Final = int(SPECIALS[CHARACTERS.index("princess")])
#: The symbols a prize is won for (W1-W3): the province tile, the ring, the characters.
ELEPHANT: Final = SYMBOLS.index("elephant")
MOGUL: Final = SYMBOLS.index("mogul")
#: The position in :data:`SYMBOLS` of each character (C6).
CHARACTER_SYMBOLS: Final[I32] = np.array([SYMBOLS.index(k) for k in CHARACTERS], dtype=np.int32)

# --------------------------------------------------------------------------- actions

#: The action index groups of the kit encoding (docs/research.md): one index space.
NUM_ACTIONS: Final = SPACE.size
PLAY_BASE: Final = SPACE.group("play").start
WITHDRAW_INDEX: Final = SPACE.group("withdraw").start
BUILD_BASE: Final = SPACE.group("build").start
MOGUL_BASE: Final = SPACE.group("build_mogul").start
TAKE_BASE: Final = SPACE.group("take").start
#: A play is ``PLAY_BASE + EXTRA_SLOTS * card + slot``: slot 0 no extra card, then each
#: white or special card in id order.
EXTRA_SLOTS: Final = 1 + len(EXTRA_CARDS)
COLORED: Final = SPACE.group("play").stop // EXTRA_SLOTS
#: The extra card of each slot (slot 0: :data:`NUM_CARDS`, the row of no card).
SLOT_EXTRA: Final[I32] = np.array([NUM_CARDS, *EXTRA_CARDS], dtype=np.int32)

# --------------------------------------------------------------------------- tiles (C4, C5)

#: Bonus tile kinds as the observation orders them (Taj Mahal, +2, card, the goods).
KINDS: Final = len(BONUS_KINDS)
CARD_KIND: Final = next(i for i, t in enumerate(BONUS_KINDS) if t.kind == "card")
#: Points a bonus tile of each kind scores when taken (W6).
KIND_POINTS: Final[I32] = np.array([BONUS_POINTS.get(t.kind, 0) for t in BONUS_KINDS], np.int32)
#: The good of each kind (one-hot over :data:`~tajmahal.tajmahal.tiles.GOODS`).
KIND_GOODS: Final[I32] = np.array(
    [[int(t.good == g) for g in GOODS] for t in BONUS_KINDS], dtype=np.int32
)
#: The goods of province tile k at row k - 1 (C4).
TILE_GOODS: Final[I32] = np.array(
    [[int(g in PROVINCE_GOODS[k]) for g in GOODS] for k in range(1, VISITS + 1)], dtype=np.int32
)
#: The 15 square bonus tiles of the default set, as kinds (C5).
SQUARE_KINDS: Final[I32] = np.array([BONUS_KINDS.index(t) for t in DEFAULT_BONUS_TILES], np.int32)
TAJ_KIND: Final = BONUS_KINDS.index(TAJ_MAHAL)

# --------------------------------------------------------------------------- the game

CHARACTERS_N: Final = len(CHARACTERS)
SYMBOLS_N: Final = len(SYMBOLS)
COLORS_N: Final = len(COLORS)
PALACES: Final = 20
#: Influence tiles of each kind in the reserve at the start (S5: 6, one at court).
RESERVE: Final = 5


class BoardTables:
    """A board's tables (C8), for the batched engine: the cities of each province
    (padded with :data:`NONE`), the province of each city, the fortresses, and the
    roads as bit masks over the cities (two uint32 words: cities 0-31, 32-63)."""

    def __init__(self, board: Board) -> None:
        cities = len(board.cities)
        if cities > 64:
            raise ValueError(f"the batched engine takes boards of up to 64 cities, not {cities}")
        self.board = board
        self.cities = cities
        self.provinces = len(board.provinces)
        self.width = max(len(c) for c in board.province_cities)
        self.province_cities: I32 = np.full((self.provinces, self.width), NONE, dtype=np.int32)
        for p, members in enumerate(board.province_cities):
            self.province_cities[p, : len(members)] = members
        self.city_province: I32 = np.array([c.province for c in board.cities], dtype=np.int32)
        self.fortresses: I32 = np.array(board.fortresses, dtype=np.int32)
        #: The fortresses of the square bonus tiles, in city order (S4), and Agra's.
        self.square_cities: I32 = np.array(
            [c for c in board.fortresses if c != board.taj_mahal_city], dtype=np.int32
        )
        self.taj_city = board.taj_mahal_city
        self.final_province = board.final_province
        #: The provinces that get tiles 1-11, in board order (S3).
        self.tile_provinces: I32 = np.array(
            [p for p in range(self.provinces) if p != board.final_province], dtype=np.int32
        )
        words = np.zeros((cities, 2), dtype=np.uint32)
        for c, near in enumerate(board.neighbours):
            for d in near:
                words[c, d // 32] |= np.uint32(1 << (d % 32))
        self.road_bits = words
        #: The most fortresses of one province: the bonus cards one withdrawal can draw.
        self.most_fortresses = max(
            sum(1 for c in members if board.cities[c].fortress)
            for members in board.province_cities
        )


DEFAULT_TABLES: Final = BoardTables(DEFAULT_BOARD)


def deal_sizes(players: int) -> tuple[int, int]:
    """S1/S2: the cards dealt to hands, and the display's size."""
    return HAND_SIZE * players, display_size(players)
