"""Everything that fixes a game's start (rules S1-S6): :class:`Setup`.

>>> setup = Setup.random(4, seed=7)
>>> setup.players, len(setup.deck), setup.variant
(4, 96, 'standard')
>>> Setup.random(2, seed=7).variant
'dummy'

A scenario or puzzle stacks the deck with :func:`attrs.evolve`:

>>> from attrs import evolve
>>> stacked = evolve(setup, deck=tuple(range(96)), start_player=0)
>>> stacked.deck[:6]   # seat 0's hand (S1)
(0, 1, 2, 3, 4, 5)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from attrs import frozen

from ..kit.errors import SetupError
from .board import DEFAULT_BOARD, Board
from .cards import REGULAR_CARDS
from .tiles import DEFAULT_BONUS_TILES, TAJ_MAHAL, BonusTile

VARIANTS: Final = ("standard", "dummy")
HAND_SIZE: Final = 6
#: The number of visits of a game, one per province (T1).
VISITS: Final = 12


def variant_for(players: int) -> str:
    """D1: two players play the ``"dummy"`` variant, three to five ``"standard"``."""
    return "dummy" if players == 2 else "standard"


def display_size(players: int) -> int:
    """S2/D1: 2n - 1 display cards; the two-player variant uses 3."""
    return 3 if players == 2 else 2 * players - 1


def place_tiles(
    board: Board, numbers: Sequence[int], squares: Sequence[BonusTile]
) -> tuple[tuple[int, ...], tuple[tuple[int, BonusTile], ...]]:
    """S3/S4: ``numbers`` (tiles 1-11) on the provinces other than the final one, in
    board order, and 12 on the final one; the Taj Mahal on its city and ``squares``
    on the other fortresses, in city order.  Returns ``(province_tiles, bonus_tiles)``
    as a :class:`Setup` holds them."""
    others = [p for p in range(len(board.provinces)) if p != board.final_province]
    tiles = [12] * len(board.provinces)
    for province, number in zip(others, numbers, strict=True):
        tiles[province] = number
    forts = [c for c in board.fortresses if c != board.taj_mahal_city]
    bonus = sorted([(board.taj_mahal_city, TAJ_MAHAL), *zip(forts, squares, strict=True)])
    return tuple(tiles), tuple(bonus)


@frozen
class Setup:
    """The start of one game.

    ``deck`` is the 96 regular cards in dealing order: seat 0 gets ``deck[0:6]``,
    seat 1 ``deck[6:12]`` and so on (S1), the display the next 2n-1 (S2), and the
    rest is the draw pile with its first card on top.  ``province_tiles[p]`` is the
    number of the tile on province ``p`` (S3; visit k is in the province holding
    tile k).  ``bonus_tiles`` pairs each fortress city id with its bonus tile (S4).
    """

    players: int
    seed: int
    start_player: int
    deck: tuple[int, ...]
    province_tiles: tuple[int, ...]
    bonus_tiles: tuple[tuple[int, BonusTile], ...]
    board: Board = DEFAULT_BOARD
    variant: str = "standard"

    @classmethod
    def random(
        cls,
        players: int,
        seed: int | None = None,
        *,
        board: Board = DEFAULT_BOARD,
        bonus_tiles: tuple[BonusTile, ...] = DEFAULT_BONUS_TILES,
    ) -> Setup:
        """Draw a setup from ``seed``: shuffled deck, tiles and start player (S1-S6).

        Without a seed, a fresh one is drawn (0 to 2**63-1) and kept in the setup, so
        ``repr`` shows it and the deal can be made again.

        >>> Setup.random(4, seed=7)
        Setup.random(4, seed=7)
        """
        if not 2 <= players <= 5:
            raise SetupError(
                f"C1: Taj Mahal is for 3-5 players, or 2 with the dummy bidder (D1); "
                f"not {players}"
            )
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        deck = list(REGULAR_CARDS)
        rng.shuffle(deck)
        numbers = list(range(1, 12))
        rng.shuffle(numbers)
        squares = list(bonus_tiles)
        rng.shuffle(squares)
        return cls.dealt(players, seed, rng.randrange(players), deck, numbers, squares, board)

    @classmethod
    def dealt(
        cls,
        players: int,
        seed: int,
        start_player: int,
        deck: Sequence[int],
        numbers: Sequence[int],
        squares: Sequence[BonusTile],
        board: Board = DEFAULT_BOARD,
    ) -> Setup:
        """The setup of a shuffled ``deck``, with the province tile ``numbers`` and
        the bonus tiles ``squares`` in the order they are placed (C4, C5); checked."""
        tiles, bonus = place_tiles(board, numbers, squares)
        return cls._checked(players, seed, start_player, deck, tiles, bonus, board)

    @classmethod
    def _checked(
        cls,
        players: int,
        seed: int,
        start_player: int,
        deck: Sequence[int],
        province_tiles: tuple[int, ...],
        bonus_tiles: tuple[tuple[int, BonusTile], ...],
        board: Board,
    ) -> Setup:
        """The setup of these parts, in the variant for ``players``, validated."""
        setup = cls(
            players=players,
            seed=seed,
            start_player=start_player,
            deck=tuple(deck),
            province_tiles=province_tiles,
            bonus_tiles=bonus_tiles,
            board=board,
            variant=variant_for(players),
        )
        validate_setup(setup)
        return setup

    @classmethod
    def stacked(
        cls,
        players: int,
        hands: list[list[int]] | tuple[tuple[int, ...], ...],
        *,
        display: list[int] | tuple[int, ...] = (),
        deck: list[int] | tuple[int, ...] = (),
        start_player: int = 0,
        seed: int = 0,
        province_tiles: tuple[int, ...] | None = None,
        bonus_tiles: tuple[tuple[int, BonusTile], ...] | None = None,
        board: Board = DEFAULT_BOARD,
    ) -> Setup:
        """A setup with chosen cards, for scenarios and puzzles.

        ``hands`` gives each seat's 6 cards; ``display`` the first display cards and
        ``deck`` the top of the draw pile.  Cards not named fill the display and the
        rest of the deck in id order.  Province tiles default to 1-11 on the other
        provinces in board order (12 on the final one); bonus tiles default to the
        default set on the fortresses in city order.

        >>> s = Setup.stacked(3, [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11],
        ...                       [12, 13, 14, 15, 16, 17]], display=[90], deck=[95])
        >>> s.deck[18:23], s.deck[23]
        ((90, 18, 19, 20, 21), 95)
        """
        if len(hands) != players or any(len(h) != HAND_SIZE for h in hands):
            raise SetupError(f"S1: give {players} hands of {HAND_SIZE} cards")
        shown = display_size(players)
        named = [c for h in hands for c in h] + list(display) + list(deck)
        if len(set(named)) != len(named):
            raise SetupError("S1: a card is named twice")
        taken = set(named)
        rest = [c for c in REGULAR_CARDS if c not in taken]
        fill = shown - len(display)
        if fill < 0:
            raise SetupError(f"S2: the display holds {shown} cards, not {len(display)}")
        order = [c for h in hands for c in h] + list(display) + rest[:fill] + list(deck)
        order += rest[fill:]
        default_tiles, default_bonus = place_tiles(board, range(1, 12), DEFAULT_BONUS_TILES)
        province_tiles = default_tiles if province_tiles is None else province_tiles
        bonus_tiles = default_bonus if bonus_tiles is None else bonus_tiles
        return cls._checked(
            players, seed, start_player, order, province_tiles, bonus_tiles, board
        )

    def __repr__(self) -> str:
        """``Setup.random(4, seed=7)`` for a dealt setup; every field otherwise."""
        dealt = self.board == DEFAULT_BOARD and 2 <= self.players <= 5
        if dealt and self == Setup.random(self.players, self.seed):
            return f"Setup.random({self.players}, seed={self.seed})"
        board = f"<board {self.board.name!r}>"
        return (
            f"Setup(players={self.players}, seed={self.seed}, "
            f"start_player={self.start_player}, deck={self.deck!r}, "
            f"province_tiles={self.province_tiles!r}, bonus_tiles={self.bonus_tiles!r}, "
            f"board={board}, variant={self.variant!r})"
        )

    @property
    def visit_provinces(self) -> tuple[int, ...]:
        """The province of each visit, in order (S3): index 0 is visit 1."""
        order = sorted(range(len(self.province_tiles)), key=self.province_tiles.__getitem__)
        return tuple(order)


def validate_setup(setup: Setup) -> None:
    """Raise :class:`SetupError` unless ``setup`` is a legal start (C1, S1-S6, D1)."""
    n = setup.players
    if setup.variant not in VARIANTS:
        raise SetupError(f"C1: unknown variant {setup.variant!r}, expected one of {VARIANTS}")
    if setup.variant == "standard" and not 3 <= n <= 5:
        raise SetupError(f"C1: the standard game is for 3-5 players, not {n}")
    if setup.variant == "dummy" and n != 2:
        raise SetupError(f"D1: the dummy variant is for 2 players, not {n}")
    if not 0 <= setup.start_player < n:
        raise SetupError(f"S6: start player {setup.start_player} is not a seat of {n}")
    if sorted(setup.deck) != list(REGULAR_CARDS):
        raise SetupError("S1: the deck must hold each of the 96 regular cards (ids 0-95) once")
    board = setup.board
    if sorted(setup.province_tiles) != list(range(1, 13)) or len(setup.province_tiles) != len(
        board.provinces
    ):
        raise SetupError("S3: each province needs one province tile, numbered 1-12")
    if setup.province_tiles[board.final_province] != 12:
        raise SetupError(
            f"S3: tile 12 goes on {board.provinces[board.final_province]}, the final province"
        )
    cities = [c for c, _ in setup.bonus_tiles]
    if sorted(cities) != list(board.fortresses):
        raise SetupError("S4: every fortress needs exactly one bonus tile")
    for city, tile in setup.bonus_tiles:
        if (tile == TAJ_MAHAL) != (city == board.taj_mahal_city):
            raise SetupError(
                f"S4: the Taj Mahal tile goes on {board.cities[board.taj_mahal_city].name}, "
                f"and only there (found {tile} on {board.cities[city].name})"
            )
