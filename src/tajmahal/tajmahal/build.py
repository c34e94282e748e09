"""Taj Mahal's frozen values built fast, for the engine's inner loops.

``State``, ``PlayerState``, ``Score`` and ``Pending`` are frozen attrs classes; the
engine (:mod:`tajmahal.tajmahal.rules`, :mod:`tajmahal.tajmahal.draft`) and the
determinization (:mod:`tajmahal.tajmahal.hidden`) build them through these
functions, which are compiled with mypyc (``tajmahal._engine.COMPILED``).
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Final

from ..kit.slots import slot_setters
from .setups import Setup
from .state import Dummy, Pending, PlayerState, Score, State
from .tiles import BonusTile

#: The pending take of W11 by the number of display cards still to take (shared:
#: Pending is immutable).
_TAKES: Final = (None, Pending(takes=1), Pending(takes=2))
_ONE_TAKE: Final = _TAKES[1]


# --------------------------------------------------------------------------- building states
#
# ``State`` and ``PlayerState`` are frozen attrs classes, whose ``__init__`` sets
# each field through ``object.__setattr__``.  The engine builds them field by field
# through the slots' own descriptors instead: the same instances (the classes have
# no defaults to fill in here, no validators and no converters; checked once, at
# import, by kit.slots.slot_setters), built about twice as fast when this module is
# compiled.


# Final: mypyc keeps these in C statics (other module-level names cost a dict
# lookup at every use).
_new: Final = object.__new__
_SCORE: Final = Score
_PENDING: Final = Pending
_PLAYER: Final = PlayerState
_STATE: Final = State
_SCORE_SET: Final = slot_setters(Score)
_PENDING_SET: Final = slot_setters(Pending)
_PLAYER_SET: Final = slot_setters(PlayerState)
_STATE_SET: Final = slot_setters(State)


def _score(palaces: int, goods: int, bonus: int, princess: int, hand: int) -> Score:
    """``Score(...)``, every field given in order."""
    s: Score = _new(_SCORE)
    _SCORE_SET[0](s, palaces)
    _SCORE_SET[1](s, goods)
    _SCORE_SET[2](s, bonus)
    _SCORE_SET[3](s, princess)
    _SCORE_SET[4](s, hand)
    return s


def _pending(palaces: int, mogul: bool, built: bool, province_tile: bool, takes: int) -> Pending:
    """``Pending(...)``, every field given in order."""
    p: Pending = _new(_PENDING)
    _PENDING_SET[0](p, palaces)
    _PENDING_SET[1](p, mogul)
    _PENDING_SET[2](p, built)
    _PENDING_SET[3](p, province_tile)
    _PENDING_SET[4](p, takes)
    return p


def _player(
    hand: tuple[int, ...],
    played: tuple[int, ...],
    color: str | None,
    withdrawn: bool,
    palaces: int,
    influence: tuple[int, ...],
    province_tiles: tuple[int, ...],
    bonus_tiles: tuple[BonusTile, ...],
    score: Score,
    revealed: tuple[int, ...],
) -> PlayerState:
    """``PlayerState(...)``, every field given in order."""
    p: PlayerState = _new(_PLAYER)
    _PLAYER_SET[0](p, hand)
    _PLAYER_SET[1](p, played)
    _PLAYER_SET[2](p, color)
    _PLAYER_SET[3](p, withdrawn)
    _PLAYER_SET[4](p, palaces)
    _PLAYER_SET[5](p, influence)
    _PLAYER_SET[6](p, province_tiles)
    _PLAYER_SET[7](p, bonus_tiles)
    _PLAYER_SET[8](p, score)
    _PLAYER_SET[9](p, revealed)
    return p


def _holding(
    p: Any, hand: tuple[int, ...], played: tuple[int, ...], color: str | None, withdrawn: bool
) -> PlayerState:
    """A seat with this ``hand`` and this visit's table (``played``, ``color``,
    ``withdrawn``), and what it holds for good (palaces, influence, tiles, score,
    revealed cards) from ``p``, a :class:`PlayerState` or what a view shows of one."""
    return _player(
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


def _state(
    setup: Setup,
    visit: int,
    province: int,
    start_player: int,
    to_act: int | None,
    players: tuple[PlayerState, ...],
    deck: tuple[int, ...],
    discard: tuple[int, ...],
    display: tuple[int, ...],
    supply: tuple[int, ...],
    court: tuple[str, ...],
    reserve: tuple[int, ...],
    palaces: tuple[int, ...],
    moguls: tuple[int, ...],
    bonus: tuple[BonusTile | None, ...],
    pending: Pending | None,
    dummy: Dummy | None,
    reshuffles: int,
) -> State:
    """``State(...)``, every field given in order."""
    s: State = _new(_STATE)
    _STATE_SET[0](s, setup)
    _STATE_SET[1](s, visit)
    _STATE_SET[2](s, province)
    _STATE_SET[3](s, start_player)
    _STATE_SET[4](s, to_act)
    _STATE_SET[5](s, players)
    _STATE_SET[6](s, deck)
    _STATE_SET[7](s, discard)
    _STATE_SET[8](s, display)
    _STATE_SET[9](s, supply)
    _STATE_SET[10](s, court)
    _STATE_SET[11](s, reserve)
    _STATE_SET[12](s, palaces)
    _STATE_SET[13](s, moguls)
    _STATE_SET[14](s, bonus)
    _STATE_SET[15](s, pending)
    _STATE_SET[16](s, dummy)
    _STATE_SET[17](s, reshuffles)
    return s


def _in_turn(
    state: State,
    to_act: int | None,
    players: tuple[PlayerState, ...],
    display: tuple[int, ...],
    pending: Pending | None,
) -> State:
    """``state`` after a step that changes only who acts, the seats, the display and
    the pending take (a play, the first of two display cards)."""
    return _state(
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
    return _score(
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
