"""Drawing from the deck (W12), in two ways that give the same games.

- :class:`RandomDraws` (a game dealt at random, ``Env.step``): the deck is a set and
  each draw takes a uniformly random card of it, as drawing from the top of a
  shuffled deck does; a reshuffle only turns the discard pile into the deck.  The
  step's chance is one random word per card it may draw (:meth:`RandomDraws.size`).
- :class:`ReplayDraws` (a game of the rules engine replayed, :mod:`.replay`): the
  deck keeps its order (``order``, from ``deck_top`` on) and a reshuffle orders the
  discard pile as the step's chance says: ``chance[r, k]``, the new position of the
  k-th smallest card id of the pile at the step's r-th reshuffle.

A step reshuffles at most :data:`RESHUFFLES` times: once for the cards a withdrawal
draws into a hand (W6, W11), once for the dummy's card (D2) and once for the next
display (E4); between them cards are discarded, within them not.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import jax.numpy as jnp
from jax import Array, lax

from .bits import WORDS, bit, count, has, pack, pick, unpack
from .tables import DECK, DISCARD, REGULAR

#: The most reshuffles one step can make (see the module doc).
RESHUFFLES: Final = 3


class Deck(NamedTuple):
    """What drawing changes: the piles, the deck's order (replays), the reshuffles
    made in the game and in this step, and the chance words used so far."""

    piles: Array
    order: Array
    top: Array
    reshuffles: Array
    shuffled: Array


class RandomDraws:
    """Uniform draws from the deck's set (see the module doc)."""

    def __init__(self, draws: int) -> None:
        #: The most cards one step draws: its chance words.
        self.size = draws

    def shape(self) -> tuple[int, ...]:
        return (self.size,)

    def draw(
        self, deck: Deck, chance: Array, first: int, most: int, wanted: Array, to: Array | int
    ) -> tuple[Deck, Array]:
        """Move ``wanted`` (at most ``most``) cards from the deck to the pile ``to``,
        with the chance words ``first``, ``first + 1``, ...; returns the deck and the
        cards drawn (a set)."""
        def one(i: Array, carry: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
            deck, discard, drawn = carry
            want = wanted > i
            shuffle = want & ~has(deck) & has(discard)
            deck = jnp.where(shuffle, discard, deck)
            discard = jnp.where(shuffle, jnp.uint32(0), discard)
            card = jnp.where(want, bit(pick(deck, chance[first + i])), jnp.uint32(0))
            return deck & ~card, discard, drawn | card

        piles = deck.piles
        start = (piles[DECK], piles[DISCARD], jnp.zeros(WORDS, jnp.uint32))
        if most == 1:
            left, discard, drawn = one(jnp.int32(0), start)
        else:
            left, discard, drawn = lax.fori_loop(0, most, one, start)
        shuffled = jnp.any(discard != piles[DISCARD])
        reshuffles = deck.reshuffles + shuffled
        piles = piles.at[DECK].set(left).at[DISCARD].set(discard)
        piles = piles.at[to].set(piles[to] | drawn)
        return deck._replace(piles=piles, reshuffles=reshuffles), drawn


class ReplayDraws:
    """Draws in the deck's order, reshuffles as the chance says (see the module doc)."""

    size = RESHUFFLES

    def shape(self) -> tuple[int, ...]:
        return (RESHUFFLES, REGULAR)

    def draw(
        self, deck: Deck, chance: Array, first: int, most: int, wanted: Array, to: Array | int
    ) -> tuple[Deck, Array]:
        del first, most  # the order decides, whatever the count
        piles = deck.piles
        order = deck.order.astype(jnp.int32)
        in_deck = unpack(piles[DECK])[:REGULAR]
        size = count(piles[DECK])
        now = jnp.minimum(wanted, size)
        taken = in_deck & (order >= deck.top) & (order < deck.top + now)
        later = wanted - now
        shuffle = (later > 0) & has(piles[DISCARD])
        pile = unpack(piles[DISCARD])[:REGULAR]
        rank = jnp.cumsum(pile, dtype=jnp.int32) - 1
        row = chance[jnp.minimum(deck.shuffled, RESHUFFLES - 1)]
        fresh = row[jnp.clip(rank, 0, REGULAR - 1)]
        moved = shuffle & pile
        order = jnp.where(moved, fresh, order)
        taken = taken | (moved & (fresh < later))
        drawn = pack(jnp.concatenate([taken, jnp.zeros(4, jnp.bool_)]))
        new_deck = jnp.where(shuffle, piles[DISCARD], piles[DECK]) & ~drawn
        piles = piles.at[DECK].set(new_deck)
        piles = piles.at[DISCARD].set(jnp.where(shuffle, jnp.uint32(0), piles[DISCARD]))
        piles = piles.at[to].set(piles[to] | drawn)
        top = jnp.where(shuffle, later, deck.top + now)
        return (
            Deck(
                piles,
                order.astype(jnp.int8),
                top,
                deck.reshuffles + shuffle,
                deck.shuffled + shuffle,
            ),
            drawn,
        )
