"""Sets of cards as bits: a pile is four uint32 words, card c at bit ``c % 32`` of
word ``c // 32`` (the 96 regular cards fill words 0-2, the special cards the low
bits of word 3).  A set operation is a few word operations instead of one per
card, which is what makes the batched engine fast on a CPU.
"""

from __future__ import annotations

from typing import Final

import jax.numpy as jnp
import numpy as np
from jax import Array, lax

from .tables import CARD_COLOR, NUM_CARDS, SPECIAL_COLOR, WHITE

WORDS: Final = 4
_WORD: Final = np.arange(NUM_CARDS) // 32
_SHIFT: Final = (np.arange(NUM_CARDS) % 32).astype(np.uint32)


def mask(cards: np.ndarray) -> np.ndarray:
    """The words of a set of cards given as a boolean vector over the card ids."""
    words = np.zeros(WORDS, np.uint32)
    for card in np.flatnonzero(cards):
        words[card // 32] |= np.uint32(1 << (card % 32))
    return words


#: The cards of each colour (C3), white and special included (:data:`.tables.CARD_COLOR`).
COLOR_BITS: Final = np.stack([mask(CARD_COLOR == c) for c in range(SPECIAL_COLOR + 1)])
WHITE_BITS: Final = COLOR_BITS[WHITE]
SPECIAL_BITS: Final = COLOR_BITS[SPECIAL_COLOR]


def bit(card: Array) -> Array:
    """The set holding ``card`` alone (empty for :data:`.tables.NUM_CARDS` and above)."""
    card = jnp.asarray(card, jnp.int32)
    one = jnp.left_shift(jnp.uint32(1), (card % 32).astype(jnp.uint32))
    return jnp.where((jnp.arange(WORDS) == card // 32) & (card < NUM_CARDS), one, jnp.uint32(0))


def unpack(words: Array) -> Array:
    """A set as a boolean vector over the 100 card ids."""
    return ((words[..., jnp.asarray(_WORD)] >> jnp.asarray(_SHIFT)) & 1).astype(jnp.bool_)


def pack(cards: Array) -> Array:
    """A boolean vector over the card ids as a set (the inverse of :func:`unpack`)."""
    padded = jnp.zeros((*cards.shape[:-1], WORDS * 32), jnp.uint32).at[..., :NUM_CARDS].set(cards)
    powers = jnp.left_shift(jnp.uint32(1), jnp.arange(32, dtype=jnp.uint32))
    return jnp.sum(padded.reshape(*cards.shape[:-1], WORDS, 32) * powers, axis=-1, dtype=jnp.uint32)


def count(words: Array) -> Array:
    """How many cards a set holds (summed over its last axis of words)."""
    return jnp.sum(lax.population_count(words), axis=-1, dtype=jnp.int32)


def has(words: Array) -> Array:
    """Whether a set holds any card."""
    return jnp.any(words != 0, axis=-1)


def pick(words: Array, r: Array) -> Array:
    """The card of rank ``r % count(words)`` in the set (by id); a uniform pick for
    a uniform ``r``.  :data:`.tables.NUM_CARDS` for an empty set."""
    sizes = lax.population_count(words).astype(jnp.int32)
    total = jnp.sum(sizes)
    k = (r % jnp.maximum(total, 1).astype(jnp.uint32)).astype(jnp.int32)
    before = jnp.stack([jnp.int32(0), sizes[0], sizes[0] + sizes[1], sizes[0] + sizes[1] + sizes[2]])
    word = jnp.sum(k >= before + sizes)  # the words wholly below rank k
    word = jnp.minimum(word, WORDS - 1)
    x = words[word]
    k = k - before[word]
    pos = jnp.int32(0)
    for width in (16, 8, 4, 2, 1):
        low = lax.population_count((x >> pos.astype(jnp.uint32)) & jnp.uint32((1 << width) - 1))
        go = k >= low.astype(jnp.int32)
        pos = pos + jnp.where(go, width, 0)
        k = k - jnp.where(go, low.astype(jnp.int32), 0)
    return jnp.where(total > 0, word * 32 + pos, NUM_CARDS)
