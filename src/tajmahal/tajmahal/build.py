"""Taj Mahal's frozen values built fast, for the engine's inner loops.

``State``, ``PlayerState``, ``Score`` and ``Pending`` are frozen attrs classes; the
engine (:mod:`tajmahal.tajmahal.rules`, :mod:`tajmahal.tajmahal.draft`) and the
determinization (:mod:`tajmahal.tajmahal.hidden`) build them through these
functions, which are compiled with mypyc (``tajmahal._engine.COMPILED``).
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Final

from ..kit.slots import builder
from .state import Pending, PlayerState, Score, State

#: The pending take of W11 by the number of display cards still to take (shared:
#: Pending is immutable).
_TAKES: Final = (None, Pending(takes=1), Pending(takes=2))
_ONE_TAKE: Final = _TAKES[1]


# --------------------------------------------------------------------------- building states
#
# ``State``, ``PlayerState``, ``Score`` and ``Pending`` are frozen attrs classes; the
# engine builds them through their slots (kit.slots.builder: the same instances,
# faster from compiled code).  Final: mypyc keeps these in C statics (other
# module-level names cost a dict lookup at every use).

score_of: Final = builder(Score)
pending_of: Final = builder(Pending)
player_of: Final = builder(PlayerState)
state_of: Final = builder(State)


def _holding(
    p: Any, hand: tuple[int, ...], played: tuple[int, ...], color: str | None, withdrawn: bool
) -> PlayerState:
    """A seat with this ``hand`` and this visit's table (``played``, ``color``,
    ``withdrawn``), and what it holds for good (palaces, influence, tiles, score,
    revealed cards) from ``p``, a :class:`PlayerState` or what a view shows of one."""
    return player_of(
        hand,
        played,
        color,
        withdrawn,
        p.palaces,
        p.influence,
        p.province_tiles,
        p.bonus_tiles,
        p.score,
        p.revealed,
    )


def _in_turn(
    state: State,
    to_act: int | None,
    players: tuple[PlayerState, ...],
    display: tuple[int, ...],
    pending: Pending | None,
) -> State:
    """``state`` after a step that changes only who acts, the seats, the display and
    the pending take (a play, the first of two display cards)."""
    return state_of(
        state.setup,
        state.visit,
        state.province,
        state.start_player,
        to_act,
        players,
        state.deck,
        state.discard,
        display,
        state.supply,
        state.court,
        state.reserve,
        state.palaces,
        state.moguls,
        state.bonus,
        pending,
        state.dummy,
        state.reshuffles,
    )


def _add_score(score: Score, source: str, points: int) -> Score:
    """``score`` with ``points`` more from ``source`` (one of SCORE_SOURCES)."""
    return score_of(
        score.palaces + points * (source == "palaces"),
        score.goods + points * (source == "goods"),
        score.bonus + points * (source == "bonus"),
        score.princess + points * (source == "princess"),
        score.hand + points * (source == "hand"),
    )


def _with(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    cards = list(hand)
    insort(cards, card)
    return tuple(cards)
