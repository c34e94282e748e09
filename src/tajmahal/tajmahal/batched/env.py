"""Taj Mahal's batched engine with Pgx's interface: :class:`TajMahal`.

>>> import jax
>>> from tajmahal.tajmahal.batched import TajMahal
>>> env = TajMahal(num_players=4)
>>> state = env.init(jax.random.key(0))
>>> env.num_actions, env.observation_shape, int(state.legal_action_mask.sum())
(1623, (2292,), 7)
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from jax import Array

from ...batched.env import Env
from ..encoding import observation_layout
from ..setups import HAND_SIZE, VISITS
from .draws import RESHUFFLES
from .encode import observe
from .rules import Rules
from .state import State
from .tables import (
    DECK,
    DEFAULT_TABLES,
    DISPLAY,
    HAND,
    KINDS,
    NUM_ACTIONS,
    NUM_CARDS,
    PALACES,
    REGULAR,
    RESERVE,
    SQUARE_KINDS,
    SUPPLY,
    SYMBOLS_N,
    TAJ_KIND,
    BoardTables,
    deal_sizes,
)


class TajMahal(Env):
    """Taj Mahal for ``num_players`` (2: the dummy variant, D1; 3-5) on arrays."""

    id = "tajmahal"

    def __init__(self, num_players: int = 4, board: BoardTables = DEFAULT_TABLES) -> None:
        super().__init__(num_players)
        self.rules = Rules(num_players, board)

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (observation_layout(self.num_players).size,)

    def _init(self, key: Array) -> State:
        """S1-S6: the deck shuffled and dealt, the tiles placed, a start player."""
        n = self.num_players
        board = self.rules.board
        deck, tiles, squares, first = jax.random.split(key, 4)
        order = jax.random.permutation(deck, REGULAR).astype(jnp.int32)  # card at each position
        position = jnp.zeros(REGULAR, jnp.int32).at[order].set(jnp.arange(REGULAR, dtype=jnp.int32))
        dealt, shown = deal_sizes(n)
        loc = jnp.where(
            position < dealt,
            HAND + position // HAND_SIZE,
            jnp.where(position < dealt + shown, DISPLAY, DECK),
        ).astype(jnp.int8)
        loc = jnp.concatenate([loc, jnp.full(NUM_CARDS - REGULAR, SUPPLY, jnp.int8)])
        numbers = jnp.full(board.provinces, VISITS, jnp.int32)
        numbers = numbers.at[jnp.asarray(board.tile_provinces)].set(
            jax.random.permutation(tiles, VISITS - 1).astype(jnp.int32) + 1
        )
        bonus = jnp.full(board.cities, -1, jnp.int8).at[board.taj_city].set(TAJ_KIND)
        bonus = bonus.at[jnp.asarray(board.square_cities)].set(
            jax.random.permutation(squares, jnp.asarray(SQUARE_KINDS)).astype(jnp.int8)
        )
        start = jax.random.randint(first, (), 0, n, dtype=jnp.int32)
        return self.fresh(
            loc=loc,
            order=position,
            visit_provinces=jnp.argsort(numbers).astype(jnp.int8),
            start=start,
            bonus=bonus,
        )

    def fresh(self, loc: Array, order: Array, visit_provinces: Array, start: Array, bonus: Array) -> State:
        """The first state of a game with this deal (S1-S6): the rest is the same for
        every game."""
        n = self.num_players
        cities = self.rules.board.cities
        s = State(
            current_player=jnp.asarray(start, jnp.int32),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, jnp.bool_),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.asarray(False),
            truncated=jnp.asarray(False),
            _step_count=jnp.int32(0),
            visit_provinces=jnp.asarray(visit_provinces, jnp.int8),
            loc=jnp.asarray(loc, jnp.int8),
            order=jnp.asarray(order, jnp.int32),
            revealed=jnp.zeros(NUM_CARDS, jnp.bool_),
            visit=jnp.int32(1),
            start_player=jnp.asarray(start, jnp.int32),
            court=jnp.ones(SYMBOLS_N, jnp.bool_),
            reserve=jnp.full(4, RESERVE, jnp.int32),
            dummy_bidding=jnp.asarray(n == 2),
            reshuffles=jnp.int32(0),
            pending=jnp.asarray(False),
            pend_palaces=jnp.int32(0),
            pend_mogul=jnp.asarray(False),
            pend_built=jnp.asarray(False),
            pend_tile=jnp.asarray(False),
            pend_takes=jnp.int32(0),
            color=jnp.full(n, -1, jnp.int8),
            withdrawn=jnp.zeros(n, jnp.bool_),
            palaces_left=jnp.full(n, PALACES, jnp.int32),
            influence=jnp.zeros((n, 4), jnp.int32),
            tiles=jnp.zeros((n, VISITS), jnp.bool_),
            bonus_held=jnp.zeros((n, KINDS), jnp.int32),
            score=jnp.zeros((n, 5), jnp.int32),
            counts=jnp.zeros((n + 1, SYMBOLS_N), jnp.int32),
            palaces=jnp.full(cities, -1, jnp.int8),
            moguls=jnp.full(cities, -1, jnp.int8),
            bonus=jnp.asarray(bonus, jnp.int8),
        )
        return s.replace(legal_action_mask=self.rules.legal_mask(s))

    def _step(self, state: State, action: Array, key: Array) -> State:
        return self.rules.step(state, action, priorities(key))

    def step_ordered(self, state: State, action: Array, order: Array) -> State:
        """:meth:`step` with the reshuffles' card orders given (:mod:`.draws`): what
        replays a game of the rules engine (:mod:`.replay`)."""
        return self.guarded(state, action, lambda s, a: self.rules.step(s, a, order))

    def _observe(self, state: State, seat: Array) -> Array:
        return observe(state, seat)


def priorities(key: Array) -> Array:
    """Random orders for the reshuffles of one step (uniform shuffles)."""
    bits = jax.random.bits(key, (RESHUFFLES, REGULAR), jnp.uint32)
    return (bits >> 1).astype(jnp.int32)


def batch_of(states: list[Any]) -> Any:
    """Games stacked into one batch (each field gains a leading axis)."""
    return jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *states)
