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
import numpy as np
from jax import Array, lax

from ...batched.env import Env
from ..encoding import observation_layout
from ..setups import HAND_SIZE, VISITS
from .bits import SPECIAL_BITS, WORDS, bit, mask, pick
from .rules import Rules
from .state import State, observe
from .tables import (
    CHARACTERS_N,
    DECK,
    DEFAULT_TABLES,
    DISPLAY,
    HAND,
    KINDS,
    NONE,
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
    piles_of,
)


class TajMahal(Env):
    """Taj Mahal for ``num_players`` (2: the dummy variant, D1; 3-5) on arrays."""

    id = "tajmahal"

    def __init__(self, num_players: int = 4, board: BoardTables = DEFAULT_TABLES) -> None:
        super().__init__(num_players)
        self.rules = Rules(num_players, board)
        self.replay = Rules(num_players, board, replay=True)
        #: The legal mask of one state, compiled (for states made outside a jitted call).
        self.legal_mask = jax.jit(self.rules.legal_mask)

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
        dealt, shown = deal_sizes(n)
        tiles, squares = len(board.tile_provinces), len(board.square_cities)
        chance = jax.random.bits(key, (dealt + shown + tiles + squares + 1,), jnp.uint32)

        def deal(i: Array, carry: tuple[Array, Array]) -> tuple[Array, Array]:
            piles, left = carry
            one = bit(pick(left, chance[i]))
            row = jnp.where(i < dealt, HAND + i // HAND_SIZE, DISPLAY)
            into = jnp.arange(piles.shape[0])[:, None] == row
            return piles | jnp.where(into, one[None, :], jnp.uint32(0)), left & ~one

        regular = jnp.asarray(mask(np.arange(NUM_CARDS) < REGULAR))
        piles = jnp.zeros((piles_of(n), WORDS), jnp.uint32)
        piles, left = lax.fori_loop(0, dealt + shown, deal, (piles, regular))
        piles = piles.at[DECK].set(left).at[SUPPLY].set(jnp.asarray(SPECIAL_BITS))
        provinces = jnp.asarray(board.tile_provinces)

        def place_tile(i: Array, carry: tuple[Array, Array]) -> tuple[Array, Array]:
            visit_provinces, left = carry  # S3: tiles 1-11 at random, 12 on the final one
            number = pick(left, chance[dealt + shown + i])
            visits = jnp.arange(VISITS) == number
            return jnp.where(visits, provinces[i], visit_provinces), left & ~bit(number)

        visit_provinces = jnp.full(VISITS, board.final_province, jnp.int32)
        few = jnp.asarray(mask(np.arange(NUM_CARDS) < tiles))
        visit_provinces, _ = lax.fori_loop(0, tiles, place_tile, (visit_provinces, few))
        cities = jnp.asarray(board.square_cities)
        kinds = jnp.asarray(SQUARE_KINDS, jnp.int8)

        def place_bonus(i: Array, carry: tuple[Array, Array]) -> tuple[Array, Array]:
            bonus, left = carry  # S4: the square bonus tiles at random
            which = pick(left, chance[dealt + shown + tiles + i])
            return bonus.at[cities[i]].set(kinds[which]), left & ~bit(which)

        bonus = jnp.full(board.cities, NONE, jnp.int8).at[board.taj_city].set(TAJ_KIND)
        few = jnp.asarray(mask(np.arange(NUM_CARDS) < squares))
        bonus, _ = lax.fori_loop(0, squares, place_bonus, (bonus, few))
        start = (chance[-1] % n).astype(jnp.int32)
        return self.fresh(piles, jnp.zeros(REGULAR, jnp.int8), visit_provinces, start, bonus)

    def fresh(
        self, piles: Array, order: Array, visit_provinces: Array, start: Array, bonus: Array
    ) -> State:
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
            piles=jnp.asarray(piles, jnp.uint32),
            revealed=jnp.zeros(WORDS, jnp.uint32),
            order=jnp.asarray(order, jnp.int8),
            deck_top=jnp.int32(0),
            visit=jnp.int32(1),
            start_player=jnp.asarray(start, jnp.int32),
            court=jnp.ones(SYMBOLS_N, jnp.bool_),
            reserve=jnp.full(CHARACTERS_N, RESERVE, jnp.int32),
            dummy_bidding=jnp.asarray(n == 2),
            reshuffles=jnp.int32(0),
            pending=jnp.asarray(False),
            pend_palaces=jnp.int32(0),
            pend_mogul=jnp.asarray(False),
            pend_built=jnp.asarray(False),
            pend_tile=jnp.asarray(False),
            pend_takes=jnp.int32(0),
            color=jnp.full(n, NONE, jnp.int8),
            withdrawn=jnp.zeros(n, jnp.bool_),
            palaces_left=jnp.full(n, PALACES, jnp.int32),
            influence=jnp.zeros((n, CHARACTERS_N), jnp.int32),
            tiles=jnp.zeros((n, VISITS), jnp.bool_),
            bonus_held=jnp.zeros((n, KINDS), jnp.int32),
            score=jnp.zeros((n, 5), jnp.int32),
            counts=jnp.zeros((n + 1, SYMBOLS_N), jnp.int32),
            palaces=jnp.full(cities, NONE, jnp.int8),
            moguls=jnp.full(cities, NONE, jnp.int8),
            bonus=jnp.asarray(bonus, jnp.int8),
        )
        return s.replace(legal_action_mask=self.rules.legal_mask(s))

    def _step(self, state: State, action: Array, key: Array) -> State:
        chance = jax.random.bits(key, self.rules.draws.shape(), jnp.uint32)
        return self.rules.step(state, action, chance)

    def step_ordered(self, state: State, action: Array, order: Array) -> State:
        """:meth:`step` with the reshuffles' card orders given, for a state that keeps
        its deck's order (:mod:`.draws`, :mod:`.replay`): what replays a game of the
        rules engine."""
        stepped: State = self.guarded(state, action, lambda s, a: self.replay.step(s, a, order))
        return stepped

    def _observe(self, state: State, seat: Array) -> Array:
        return observe(state, seat)


def batch_of(states: list[Any]) -> Any:
    """Games stacked into one batch (each field gains a leading axis), on the host
    and then on the device in one transfer (``jnp.stack`` would dispatch an
    operation for every game's every field)."""
    stacked = jax.tree_util.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *states)
    return jax.device_put(stacked)
