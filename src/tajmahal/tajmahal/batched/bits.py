"""Sets of cards as bits: a pile is four uint32 words, card c at bit ``c % 32`` of
word ``c // 32`` (the 96 regular cards fill words 0-2, the special cards the low
bits of word 3).  A set operation is a few word operations instead of one per
card, which is what makes the batched engine fast on a CPU.
"""

from __future__ import annotations

from typing import Final

import jax.numpy as jnp
import numpy as np
from jax import Array

from ...batched.bits import count, has
from ...batched.bits import pack as _pack
from ...batched.bits import pick as _pick
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
COLOR_BITS: Final = np.stack([mask(CARD_COLOR == c) for c in range(SPECIAL_COLOR + 1)])  # noqa: SIM300
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
    return _pack(jnp.concatenate([cards, jnp.zeros((*cards.shape[:-1], 4), jnp.bool_)], -1))


def pick(words: Array, r: Array) -> Array:
    """The card of rank ``r % count(words)`` in the set (by id): a uniform pick for a
    uniform ``r``; :data:`.tables.NUM_CARDS` or above for an empty set."""
    return _pick(words, r)


__all__ = [
    "COLOR_BITS",
    "SPECIAL_BITS",
    "WHITE_BITS",
    "WORDS",
    "bit",
    "count",
    "has",
    "mask",
    "pack",
    "pick",
    "unpack",
]
