"""What one seat may see: :func:`view` (see "Public and secret information" in
``docs/rules.md``).

A :class:`PlayerView` holds everything public and the seat's own hand, and the
legal actions when that seat is to act.  It never holds the deck order, another
seat's hand, the setup's seed, or a card another seat drew.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from ..kit.fields import copier
from ..kit.picture import Pictured
from .actions import Action
from .board import Board
from .cards import CARDS, Card
from .legal import legal_actions
from .setups import Setup
from .state import Dummy, Pending, PlayerState, Score, State
from .tiles import PROVINCE_GOODS, BonusTile

#: The goods of each province tile (C4), as (tile number, goods) pairs by number.
PROVINCE_TILE_GOODS: tuple[tuple[int, tuple[str, ...]], ...] = tuple(
    sorted(PROVINCE_GOODS.items())
)


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


#: The public part of a setup (what ``hello`` carries).
public_setup: Callable[[Setup], PublicSetup] = copier(
    PublicSetup, "setup", left=("cards", "province_goods")
)
#: What everybody sees of one seat.
seat_view: Callable[[PlayerState], SeatView] = copier(
    SeatView, "player", hand_size="len(player.hand)"
)
_seen: Callable[[State, int | None, bool], PlayerView] = copier(
    PlayerView,
    "state, seat, own",
    {"public_setup": public_setup, "seat_view": seat_view, "legal_actions": legal_actions},
    setup="public_setup(state.setup)",
    hand="state.players[seat].hand if own else ()",
    players="tuple([seat_view(p) for p in state.players])",
    deck_size="len(state.deck)",
    legal="legal_actions(state) if own and state.to_act == seat else ()",
)


def view(state: State, seat: int | None) -> PlayerView:
    """``state`` as ``seat`` sees it: everything public, its own hand, its legal actions.

    ``seat`` None is a spectator's view (no hand).  A seat the game does not have
    raises ValueError.
    """
    n = len(state.players)
    if seat is not None and not (hasattr(seat, "__index__") and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} in a {n}-player game: seats are 0-{n - 1}")
    return _seen(state, seat, seat is not None)
