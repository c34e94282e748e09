"""From the rules engine to the batched engine: any :class:`tajmahal.State` as a
batched :class:`.State` (:func:`from_state`, :func:`from_setup`), and the card
orders that make a batched step reshuffle as the rules engine did
(:func:`reshuffle_orders`).  With both, the batched engine replays a game of the
rules engine exactly: the differential test does so for thousands of games.

>>> from tajmahal import Setup, new_game
>>> from tajmahal.tajmahal.batched import TajMahal
>>> env = TajMahal(num_players=3)
>>> first = from_setup(env, Setup.random(3, seed=5))
>>> int(first.current_player) == new_game(Setup.random(3, seed=5)).to_act
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jax
import numpy as np

from .. import CHARACTERS, COLORS, SYMBOLS, Setup, State, new_game
from ..draft import reshuffled
from ..encoding import BONUS_KINDS
from ..events import Reshuffled
from ..state import SCORE_SOURCES
from .bits import WORDS, mask
from .draws import RESHUFFLES
from .env import TajMahal
from .state import State as Arrays
from .tables import (
    DECK,
    DISCARD,
    DISPLAY,
    DUMMY,
    HAND,
    KINDS,
    NONE,
    NUM_ACTIONS,
    NUM_CARDS,
    REGULAR,
    SUPPLY,
    SYMBOL_COUNTS,
    piles_of,
    table,
)


def from_setup(env: TajMahal, setup: Setup) -> Arrays:
    """The first state of the game ``setup`` deals (S1-S6), on arrays."""
    return from_state(env, new_game(setup))


def from_state(env: TajMahal, state: State) -> Arrays:
    """``state`` on arrays: every card where it lies, the deck in its order, every
    tile, palace and score; the legal mask computed by the batched rules."""
    n = state.setup.players
    if n != env.num_players:
        raise ValueError(f"a {n}-player state for a {env.num_players}-player engine")
    if state.setup.board != env.rules.board.board:
        raise ValueError("the state's board is not the engine's board")
    piles = np.zeros((piles_of(n), WORDS), np.uint32)

    def put(row: int, cards: Iterable[int]) -> None:
        chosen = np.zeros(NUM_CARDS, np.bool_)
        chosen[list(cards)] = True
        piles[row] = mask(chosen)

    order = np.zeros(REGULAR, np.int8)
    order[list(state.deck)] = np.arange(len(state.deck), dtype=np.int8)
    for row, pile in (
        (DECK, state.deck),
        (DISCARD, state.discard),
        (DISPLAY, state.display),
        (SUPPLY, state.supply),
    ):
        put(row, pile)
    revealed = np.zeros(NUM_CARDS, np.bool_)
    counts = np.zeros((n + 1, len(SYMBOLS)), np.int32)
    for seat, p in enumerate(state.players):
        put(HAND + seat, p.hand)
        put(int(table(n, seat)), p.played)  # type: ignore[call-overload]
        revealed[list(p.revealed)] = True
        counts[seat] = SYMBOL_COUNTS[list(p.played)].sum(axis=0)
    if state.dummy is not None:
        put(DUMMY, state.dummy.cards)
        counts[n] = SYMBOL_COUNTS[list(state.dummy.cards)].sum(axis=0)
    players = state.players
    tiles = np.zeros((n, 12), np.bool_)
    held = np.zeros((n, KINDS), np.int32)
    for seat, p in enumerate(players):
        tiles[seat, [t - 1 for t in p.province_tiles]] = True
        for tile in p.bonus_tiles:
            held[seat, BONUS_KINDS.index(tile)] += 1
    pending = state.pending
    to_act = -1 if state.to_act is None else state.to_act
    # built on the host (numpy), then put on the device once: one transfer, no
    # operation dispatched a field at a time
    fields = dict(
        current_player=np.int32(to_act),
        legal_action_mask=np.zeros(NUM_ACTIONS, np.bool_),
        rewards=np.zeros(n, np.float32),
        terminated=np.bool_(state.to_act is None),
        truncated=np.bool_(False),
        _step_count=np.int32(0),
        visit_provinces=np.asarray(state.setup.visit_provinces, np.int8),
        piles=piles,
        revealed=mask(revealed),
        order=order,
        deck_top=np.int32(0),
        visit=np.int32(state.visit),
        start_player=np.int32(state.start_player),
        court=np.asarray([s in state.court for s in SYMBOLS]),
        reserve=np.asarray(state.reserve, np.int32),
        dummy_bidding=np.bool_(state.dummy is not None and state.dummy.bidding),
        reshuffles=np.int32(state.reshuffles),
        pending=np.bool_(pending is not None),
        pend_palaces=np.int32(pending.palaces if pending else 0),
        pend_mogul=np.bool_(bool(pending and pending.mogul)),
        pend_built=np.bool_(bool(pending and pending.built)),
        pend_tile=np.bool_(bool(pending and pending.province_tile)),
        pend_takes=np.int32(pending.takes if pending else 0),
        color=np.asarray(
            [NONE if p.color is None else COLORS.index(p.color) for p in players], np.int8
        ),
        withdrawn=np.asarray([p.withdrawn for p in players], np.bool_),
        palaces_left=np.asarray([p.palaces for p in players], np.int32),
        influence=np.asarray([p.influence for p in players], np.int32).reshape(
            n, len(CHARACTERS)
        ),
        tiles=tiles,
        bonus_held=held,
        score=np.asarray([[getattr(p.score, k) for k in SCORE_SOURCES] for p in players], np.int32),
        counts=counts,
        palaces=np.asarray(state.palaces, np.int8),
        moguls=np.asarray(state.moguls, np.int8),
        bonus=np.asarray(
            [NONE if b is None else BONUS_KINDS.index(b) for b in state.bonus], np.int8
        ),
    )
    s = Arrays(**jax.device_put(fields))
    return s.replace(legal_action_mask=env.legal_mask(s) | s.terminated)


def reshuffle_orders(state: State, events: Iterable[Any]) -> np.ndarray:
    """The card orders (:mod:`.draws`) of the reshuffles that the rules engine made in
    the step from ``state`` with these ``events``: its shuffle of the sorted discard
    pile (:func:`tajmahal.tajmahal.draft.reshuffled`),
    as each card's new position by its rank in the pile."""
    out = np.zeros((RESHUFFLES, REGULAR), np.int32)
    done = 0
    for event in events:
        if isinstance(event, Reshuffled):
            count = event.cards
            positions = reshuffled(state.setup.seed, state.reshuffles + done, list(range(count)))
            out[done, positions] = np.arange(count, dtype=np.int32)
            done += 1
    return out
