"""The counts the rules decide by, as array functions: the next seat still in (T1),
majorities (W1), goods held (W7), provinces joined by palaces (W8) and the final
hand (F1).  Each works on one game; :func:`jax.vmap` makes them batched."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import Array, lax

from .tables import KIND_GOODS, TILE_GOODS, BoardTables


def next_in(withdrawn: Array, seat: Array) -> Array:
    """T1/T7: the next seat clockwise after ``seat`` still in the visit (maybe
    ``seat`` itself), or -1 when everybody has withdrawn."""
    n = withdrawn.shape[0]
    seats = (seat + jnp.arange(1, n + 1, dtype=jnp.int32)) % n
    still = ~withdrawn[seats]
    return jnp.where(jnp.any(still), seats[jnp.argmax(still)], -1).astype(jnp.int32)


def majorities(mine: Array, rivals: Array, rivals_in: Array, court: Array) -> Array:
    """W1/W2: the prizes (a mask over the symbols) that the counts ``mine`` win: still
    at ``court``, at least one, and more than each row of ``rivals`` that is in
    (``rivals_in``)."""
    beaten = jnp.all(~rivals_in[:, None] | (rivals < mine[None, :]), axis=0)
    return court & (mine > 0) & beaten


def goods_held(tiles: Array, bonus_held: Array) -> Array:
    """W7: a seat's goods (rice, tea, spice, jewels) over its province tiles (a mask by
    tile number - 1) and its bonus tiles (counts by kind)."""
    return tiles.astype(jnp.int32) @ jnp.asarray(TILE_GOODS) + bonus_held @ jnp.asarray(
        KIND_GOODS
    )


def city_bits(cities: Array) -> Array:
    """A mask over up to 64 cities as two uint32 words."""
    padded = jnp.zeros(64, jnp.bool_).at[: cities.shape[0]].set(cities)
    powers = jnp.asarray(np.uint32(1) << np.arange(32, dtype=np.uint32))
    words = jnp.where(padded.reshape(2, 32), powers[None, :], jnp.uint32(0))
    return jnp.bitwise_or.reduce(words, axis=1)


def bit_cities(words: Array, cities: int) -> Array:
    """The inverse of :func:`city_bits`: a mask over ``cities`` cities."""
    shifts = jnp.arange(32, dtype=jnp.uint32)
    bits: Array = (words[:, None] >> shifts[None, :]) & jnp.uint32(1)
    return bits.reshape(64)[:cities].astype(jnp.bool_)


def joined_provinces(
    board: BoardTables, own: Array, province: Array, scoring: Array
) -> Array:
    """W8: how many provinces other than ``province`` hold one of the cities ``own``
    (a seat's palaces, normal or mogul) joined to its palaces in ``province`` by a
    chain of its palaces along roads (0 unless ``scoring``)."""
    roads = jnp.asarray(board.road_bits)
    city_province = jnp.asarray(board.city_province)
    mine = city_bits(own)
    start = city_bits(own & (city_province == province) & scoring)

    def spread(carry: tuple[Array, Array]) -> tuple[Array, Array]:
        reach, _ = carry
        near = jnp.where(bit_cities(reach, board.cities)[:, None], roads, jnp.uint32(0))
        grown = (reach | jnp.bitwise_or.reduce(near, axis=0)) & mine
        return grown, reach

    def growing(carry: tuple[Array, Array]) -> Array:
        reach, before = carry
        return jnp.any(reach != before)

    reach, _ = lax.while_loop(growing, spread, spread((start, start)))
    reached = bit_cities(reach, board.cities)
    held = jnp.zeros(board.provinces, jnp.bool_).at[city_province].max(reached)
    return jnp.sum(held) - jnp.any(reached & (city_province == province))
