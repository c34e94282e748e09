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

import jax.numpy as jnp
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
    s = Arrays(
        current_player=jnp.int32(to_act),
        legal_action_mask=jnp.zeros(NUM_ACTIONS, jnp.bool_),
        rewards=jnp.zeros(n, jnp.float32),
        terminated=jnp.asarray(state.to_act is None),
        truncated=jnp.asarray(False),
        _step_count=jnp.int32(0),
        visit_provinces=jnp.asarray(state.setup.visit_provinces, jnp.int8),
        piles=jnp.asarray(piles),
        revealed=jnp.asarray(mask(revealed)),
        order=jnp.asarray(order),
        deck_top=jnp.int32(0),
        visit=jnp.int32(state.visit),
        start_player=jnp.int32(state.start_player),
        court=jnp.asarray([s in state.court for s in SYMBOLS]),
        reserve=jnp.asarray(state.reserve, jnp.int32),
        dummy_bidding=jnp.asarray(state.dummy is not None and state.dummy.bidding),
        reshuffles=jnp.int32(state.reshuffles),
        pending=jnp.asarray(pending is not None),
        pend_palaces=jnp.int32(pending.palaces if pending else 0),
        pend_mogul=jnp.asarray(bool(pending and pending.mogul)),
        pend_built=jnp.asarray(bool(pending and pending.built)),
        pend_tile=jnp.asarray(bool(pending and pending.province_tile)),
        pend_takes=jnp.int32(pending.takes if pending else 0),
        color=jnp.asarray(
            [NONE if p.color is None else COLORS.index(p.color) for p in players], jnp.int8
        ),
        withdrawn=jnp.asarray([p.withdrawn for p in players]),
        palaces_left=jnp.asarray([p.palaces for p in players], jnp.int32),
        influence=jnp.asarray([p.influence for p in players], jnp.int32).reshape(
            n, len(CHARACTERS)
        ),
        tiles=jnp.asarray(tiles),
        bonus_held=jnp.asarray(held),
        score=jnp.asarray(
            [[getattr(p.score, k) for k in SCORE_SOURCES] for p in players], jnp.int32
        ),
        counts=jnp.asarray(counts),
        palaces=jnp.asarray(state.palaces, jnp.int8),
        moguls=jnp.asarray(state.moguls, jnp.int8),
        bonus=jnp.asarray(
            [NONE if b is None else BONUS_KINDS.index(b) for b in state.bonus], jnp.int8
        ),
    )
    legal = env.rules.legal_mask(s)
    return s.replace(legal_action_mask=legal | s.terminated)


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
