"""The immutable game state.

A :class:`State` is a frozen value: the engine's functions return new states and
never change the one they are given.  Collections are tuples, so a state is
hashable and safe to share between threads, caches and search trees.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from ..kit.picture import Pictured
from ..kit.svg import plural
from .cards import CARDS, COLORS
from .setups import Setup
from .tiles import BonusTile

PALACES_PER_PLAYER: Final = 20
NOBODY: Final = -1

#: Phases of a visit: playing cards (T2), placing palaces after a withdrawal
#: (W4/W5), taking cards from the display (W11), and the end of the game.
PLAY: Final = "play"
PLACE: Final = "place"
TAKE: Final = "take"
OVER: Final = "over"

#: Score sources, in the order of :class:`Score`'s fields.
SCORE_SOURCES: Final = ("palaces", "goods", "bonus", "princess", "hand")


@frozen
class Score:
    """A player's points by source: palaces (W8), goods (W7), bonus tiles (W6),
    the princess's card (T5) and the final hand (F1)."""

    palaces: int = 0
    goods: int = 0
    bonus: int = 0
    princess: int = 0
    hand: int = 0

    @property
    def total(self) -> int:
        return self.palaces + self.goods + self.bonus + self.princess + self.hand


@frozen
class PlayerState:
    """One seat's belongings.

    ``hand`` is sorted by card id.  ``played`` holds the cards on the table in this
    visit, in the order played.  ``color`` is the seat's colour for the visit (T4),
    None until fixed.  ``influence`` counts the influence tiles held of each of
    vizier, general, monk, princess (C6).  ``bonus_tiles`` lists every bonus tile
    taken; only the goods tiles score again later (W7).  ``revealed`` holds the
    cards of the hand that every seat saw come in (taken from the display, W11),
    sorted: public knowledge about a secret hand.
    """

    hand: tuple[int, ...]
    played: tuple[int, ...] = ()
    color: str | None = None
    withdrawn: bool = False
    palaces: int = PALACES_PER_PLAYER
    influence: tuple[int, ...] = (0, 0, 0, 0)
    province_tiles: tuple[int, ...] = ()
    bonus_tiles: tuple[BonusTile, ...] = ()
    score: Score = Score()
    revealed: tuple[int, ...] = ()

    @property
    def special_cards(self) -> tuple[int, ...]:
        """The special cards this player holds, in hand or on the table."""
        return tuple([c for c in (*self.hand, *self.played) if c >= 96])  # no generator: 2x


@frozen
class Pending:
    """What the seat that withdrew still has to do.

    ``palaces`` normal palaces (W4) and a ``mogul`` palace (W5) to place; ``built``
    whether a palace was placed in this withdrawal (W8); ``province_tile`` whether
    the province tile was won (scored after the palaces, W9); ``takes`` display
    cards still to take (W11).
    """

    palaces: int = 0
    mogul: bool = False
    built: bool = False
    province_tile: bool = False
    takes: int = 0


@frozen
class Dummy:
    """The dummy bidder of the two-player variant (D2-D5): its face-up cards."""

    cards: tuple[int, ...] = ()
    bidding: bool = True


@frozen
class State(Pictured):
    """A position of the game; see ``docs/api.md`` for every field.

    ``court`` holds the prizes still at the grand mogul's court in this visit, by
    symbol name (``"elephant"`` is the province tile, ``"mogul"`` the ring).
    ``reserve`` counts the influence tiles in reserve per character.  ``palaces``
    and ``moguls`` give the owner of the normal and the mogul palace of each city
    (``-1``: none); ``bonus`` the bonus tile still lying on each city.
    ``supply`` holds the special cards that nobody owns.
    """

    game_name = "tajmahal"

    setup: Setup
    visit: int
    province: int
    start_player: int
    to_act: int | None
    players: tuple[PlayerState, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    display: tuple[int, ...]
    supply: tuple[int, ...]
    court: tuple[str, ...]
    reserve: tuple[int, ...]
    palaces: tuple[int, ...]
    moguls: tuple[int, ...]
    bonus: tuple[BonusTile | None, ...]
    pending: Pending | None = None
    dummy: Dummy | None = None
    reshuffles: int = 0

    @property
    def phase(self) -> str:
        """``"play"``, ``"place"``, ``"take"`` or ``"over"``."""
        if self.to_act is None:
            return OVER
        pending = self.pending
        if pending is None:
            return PLAY
        return PLACE if pending.palaces or pending.mogul else TAKE

    def __str__(self) -> str:
        """A summary for people: the visit, the court and display, each seat's lot.

        ``repr`` keeps every field; this leaves out the deck's order.
        """
        setup = self.setup
        board = setup.board
        where = board.provinces[self.province]
        head = f"Taj Mahal, {setup.players} players ({setup.variant}), seed {setup.seed}: "
        if self.to_act is None:
            head += "game over"
        else:
            head += f"visit {self.visit} of 12 in {where}, {self.phase} phase, "
            head += f"seat {self.to_act} to act"
        lines = [
            head,
            f"  court: {', '.join(self.court) or 'empty'}",
            f"  display: {', '.join(str(CARDS[c]) for c in self.display) or 'empty'}",
            f"  deck: {plural(len(self.deck), 'card')}; discard pile: {len(self.discard)}",
        ]
        if self.dummy is not None:
            state = "bidding" if self.dummy.bidding else "out"
            cards = ", ".join(str(CARDS[c]) for c in self.dummy.cards) or "no cards"
            lines.append(f"  dummy ({state}): {cards}")
        for seat, p in enumerate(self.players):
            score = p.score
            parts = ", ".join(f"{k} {getattr(score, k)}" for k in SCORE_SOURCES)
            lines.append(
                f"  seat {seat}: {plural(score.total, 'point')} ({parts}); "
                f"{plural(p.palaces, 'palace')} left"
                + (", withdrawn" if p.withdrawn else "")
            )
            lines.append(f"    hand: {', '.join(str(CARDS[c]) for c in p.hand) or 'empty'}")
            if p.played:
                lines.append(f"    played: {', '.join(str(CARDS[c]) for c in p.played)}")
        return "\n".join(lines)

    def holder(self, special_card: int) -> int | None:
        """The seat that owns ``special_card`` (96-99), or None if it is in the supply."""
        for seat, p in enumerate(self.players):
            if special_card in p.hand or special_card in p.played:
                return seat
        return None


def majority_color(hand: tuple[int, ...]) -> tuple[str | None, int]:
    """F1: the colour held most in ``hand`` and how many (ties: the first in C3 order)."""
    best: tuple[str | None, int] = (None, 0)
    for color in COLORS:
        n = sum(1 for c in hand if CARDS[c].color == color)
        if n > best[1]:
            best = (color, n)
    return best
