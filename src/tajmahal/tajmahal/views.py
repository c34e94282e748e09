"""What one seat may see: :func:`view` (see "Public and secret information" in
``docs/rules.md``).

A :class:`PlayerView` holds everything public and the seat's own hand, and the
legal actions when that seat is to act.  It never holds the deck order, another
seat's hand, the setup's seed, or a card another seat drew.
"""

from __future__ import annotations

from attrs import frozen

from ..kit.memo import by_identity, each
from ..kit.picture import Pictured
from ..kit.slots import like
from .actions import Action
from .board import Board
from .cards import CARDS, Card
from .legal import legal_actions
from .setups import Setup
from .state import Dummy, Pending, PlayerState, Score, State
from .tiles import PROVINCE_GOODS, BonusTile

#: The goods of each province tile (C4), as (tile number, goods) pairs by number.
PROVINCE_TILE_GOODS: tuple[tuple[int, tuple[str, ...]], ...] = tuple(sorted(PROVINCE_GOODS.items()))


@frozen
class PublicSetup:
    """The public part of a :class:`~tajmahal.Setup`: all of it but the seed and deck,
    with the fixed game data a player needs to read it: what each card shows (C3) and
    the goods on each province tile (C4).  The protocol's ``hello`` carries it, so a
    bot in any language needs no data file of this package."""

    players: int
    variant: str
    start_player: int
    province_tiles: tuple[int, ...]
    bonus_tiles: tuple[tuple[int, BonusTile], ...]
    board: Board
    cards: tuple[Card, ...] = CARDS
    province_goods: tuple[tuple[int, tuple[str, ...]], ...] = PROVINCE_TILE_GOODS


@frozen
class SeatView:
    """What everybody sees of one seat: its hand only as a size, plus the cards of
    it everybody saw it take from the display (``revealed``) and its special cards."""

    hand_size: int
    played: tuple[int, ...]
    color: str | None
    withdrawn: bool
    palaces: int
    influence: tuple[int, ...]
    province_tiles: tuple[int, ...]
    bonus_tiles: tuple[BonusTile, ...]
    score: Score
    special_cards: tuple[int, ...]
    revealed: tuple[int, ...]


@frozen
class PlayerView(Pictured):
    """One seat's view of a state (``seat`` None: a spectator's, with no hand)."""

    game_name = "tajmahal"

    seat: int | None
    setup: PublicSetup
    visit: int
    province: int
    start_player: int
    to_act: int | None
    phase: str
    hand: tuple[int, ...]
    players: tuple[SeatView, ...]
    display: tuple[int, ...]
    deck_size: int
    discard: tuple[int, ...]
    supply: tuple[int, ...]
    court: tuple[str, ...]
    reserve: tuple[int, ...]
    palaces: tuple[int, ...]
    moguls: tuple[int, ...]
    bonus: tuple[BonusTile | None, ...]
    pending: Pending | None
    dummy: Dummy | None
    legal: tuple[Action, ...]


@by_identity
def public_setup(setup: Setup) -> PublicSetup:
    """The public part of a setup (what ``hello`` carries): the setup's fields of
    the same names, and the game's data a bot needs to read it."""
    return like(PublicSetup, setup, cards=CARDS, province_goods=PROVINCE_TILE_GOODS)


@each
def seat_views(player: PlayerState) -> SeatView:
    """What everybody sees of each seat: its hand only as a size."""
    return like(SeatView, player, hand_size=len(player.hand))


def view(state: State, seat: int | None) -> PlayerView:
    """``state`` as ``seat`` sees it: everything public, its own hand, its legal actions.

    ``seat`` None is a spectator's view (no hand).  A seat the game does not have
    raises ValueError.
    """
    n = len(state.players)
    if seat is not None and not (hasattr(seat, "__index__") and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} in a {n}-player game: seats are 0-{n - 1}")
    acts = seat is not None and state.to_act == seat
    return seen(state, seat, legal_actions(state) if acts else ())


def seen(state: State, seat: int | None, legal: tuple[Action, ...]) -> PlayerView:
    """:func:`view` with the ``legal`` actions given (the referee sends them apart):
    every other field is the state's of its name."""
    return like(
        PlayerView,
        state,
        seat=seat,
        setup=public_setup(state.setup),
        hand=state.players[seat].hand if seat is not None else (),
        players=seat_views(state.players),
        deck_size=len(state.deck),
        legal=legal,
    )
