"""Drawing from the deck (W12) without a sort: the top card is the deck card with
the smallest ``order``.

A reshuffle turns the discard pile into the deck and gives its cards new orders:
``priorities[r, k]`` for the k-th smallest card id of the pile, where r counts the
reshuffles of this step.  Random priorities shuffle uniformly (``Env.step``); the
priorities of the rules engine's own shuffle replay its games exactly
(:mod:`.replay`).  A step reshuffles at most :data:`RESHUFFLES` times: once for the
cards a withdrawal draws into a hand (W6, W11), once for the dummy's card (D2) and
once for the next display (E4); between them cards are discarded, within them not.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import jax.numpy as jnp
from jax import Array

from .tables import DECK, DISCARD, NUM_CARDS, REGULAR

#: The most reshuffles one step can make (see the module doc).
RESHUFFLES: Final = 3
#: The card id that means "no card" (the row of zeros of the card tables).
NO_CARD: Final = NUM_CARDS
#: An order larger than any priority.
_LAST: Final = 2**31 - 1


class Deck(NamedTuple):
    """What drawing changes: where cards lie, the deck's order, the reshuffles made
    in the game and in this step."""

    loc: Array
    order: Array
    reshuffles: Array
    shuffled: Array


def draw(deck: Deck, priorities: Array, wanted: Array, to: Array | int) -> tuple[Deck, Array]:
    """W12: if ``wanted``, move the top card of the deck to the location ``to``,
    reshuffling the discard pile first if the deck is empty.  Returns the deck and
    the card, or :data:`NO_CARD` when neither pile has one or none was wanted."""
    loc, order = deck.loc[:REGULAR], deck.order
    in_deck = loc == DECK
    discard = loc == DISCARD
    shuffle = wanted & ~jnp.any(in_deck) & jnp.any(discard)
    rank = jnp.cumsum(discard, dtype=jnp.int32) - 1
    row = priorities[jnp.minimum(deck.shuffled, RESHUFFLES - 1)]
    moved = shuffle & discard
    order = jnp.where(moved, row[jnp.maximum(rank, 0)], order)
    in_deck = in_deck | moved
    top = jnp.argmin(jnp.where(in_deck, order, _LAST)).astype(jnp.int32)
    got = wanted & jnp.any(in_deck)
    card = jnp.where(got, top, NO_CARD)
    loc = jnp.where(moved, jnp.int8(DECK), loc)
    full = deck.loc.at[:REGULAR].set(loc).at[card].set(jnp.asarray(to, jnp.int8), mode="drop")
    return Deck(full, order, deck.reshuffles + shuffle, deck.shuffled + shuffle), card


def move(loc: Array, card: Array, to: Array | int, when: Array | bool = True) -> Array:
    """``loc`` with ``card`` (:data:`NO_CARD`: none) moved to ``to`` if ``when``."""
    target = jnp.where(when, card, NO_CARD)
    return loc.at[target].set(jnp.asarray(to, jnp.int8), mode="drop")
