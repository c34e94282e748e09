"""Sets as bits in uint32 words, for batched engines: what a game's piles of cards
and a legal mask are made of when speed counts.  A set operation is a few word
operations, and picking a uniformly random member needs one random number."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import Array, lax


def pack(members: Array) -> Array:
    """A boolean vector as words: element i is bit ``i % 32`` of word ``i // 32``."""
    size = members.shape[-1]
    words = -(-size // 32)
    padded = jnp.zeros((*members.shape[:-1], words * 32), jnp.uint32)
    padded = padded.at[..., :size].set(members)
    shifts = jnp.arange(32, dtype=jnp.uint32)
    grouped = padded.reshape(*members.shape[:-1], words, 32) << shifts
    return jnp.sum(grouped, axis=-1, dtype=jnp.uint32)


def count(words: Array) -> Array:
    """How many members a set holds (summed over its last axis of words)."""
    return jnp.sum(lax.population_count(words), axis=-1, dtype=jnp.int32)


def has(words: Array) -> Array:
    """Whether a set holds any member."""
    return jnp.any(words != 0, axis=-1)


def pick(words: Array, r: Array) -> Array:
    """The member of rank ``r % count(words)`` in a set of one game (its words): a
    uniformly random member for a uniform uint32 ``r``.  ``32 * len(words)`` (no
    member) for an empty set."""
    sizes = lax.population_count(words).astype(jnp.int32)
    if words.shape[0] <= 8:
        ends = [sizes[0]]
        for i in range(1, words.shape[0]):
            ends.append(ends[-1] + sizes[i])
        end = jnp.stack(ends)
    else:
        end = jnp.cumsum(sizes)
    total = end[-1]
    k = (r % jnp.maximum(total, 1).astype(jnp.uint32)).astype(jnp.int32)
    word = jnp.minimum(jnp.sum(k >= end), words.shape[0] - 1)  # the words wholly below k
    x = words[word]
    k = k - (end[word] - sizes[word])
    pos = jnp.int32(0)
    for width in (16, 8, 4, 2, 1):
        low = lax.population_count((x >> pos.astype(jnp.uint32)) & jnp.uint32((1 << width) - 1))
        go = k >= low.astype(jnp.int32)
        pos = pos + jnp.where(go, width, 0)
        k = k - jnp.where(go, low.astype(jnp.int32), 0)
    return jnp.where(total > 0, word * 32 + pos, 32 * words.shape[0])


def random_member(key: Array, members: Array) -> Array:
    """A uniformly random True index of a boolean vector (a legal action of a mask:
    what a random player does), with one random number whatever the vector's size."""
    r = jax.random.bits(key, (), jnp.uint32)
    return pick(pack(members), r)
