"""Turns and visits as array functions: a play (T3-T5), the dummy's card (D2/D3),
the end of a visit (E1-E5) and the final scoring (F1).

Like :mod:`.withdrawal`, every function changes nothing where its ``active`` mask
is False.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import Array

from ..setups import VISITS
from .bits import COLOR_BITS, bit, count, has, pick
from .counting import majorities
from .draws import Deck
from .state import State
from .tables import (
    CARD_COLOR,
    CHARACTER_SYMBOLS,
    DISCARD,
    DISPLAY,
    DUMMY,
    ELEPHANT,
    HAND,
    MOGUL,
    MONK_CARD,
    NUM_CARDS,
    PRINCESS_CARD,
    SPECIAL_COLOR,
    SPECIALS,
    SYMBOL_COUNTS,
    WHITE,
    table,
)
from .withdrawal import HAND_POINTS, PRINCESS_POINTS, Draws, add


def play(s: State, seat: Array, card: Array, extra: Array, active: Array) -> State:
    """T3-T5: ``seat`` puts ``card`` (and ``extra``, :data:`.tables.NUM_CARDS` for
    none) on its table; its colour for the visit is fixed by its first coloured card
    played without the monk's card; the princess's card scores 2 at once."""
    n = s.color.shape[0]
    card = jnp.where(active, card, NUM_CARDS)
    extra = jnp.where(active, extra, NUM_CARDS)
    both = bit(card) | bit(extra)
    row = table(n, seat)
    piles = s.piles.at[HAND + seat].set(s.piles[HAND + seat] & ~both)
    piles = piles.at[row].set(piles[row] | both)
    colors = jnp.asarray(CARD_COLOR)
    mine = s.color[seat]
    fixed = active & (mine < 0) & (extra != MONK_CARD)
    color = s.color.at[seat].set(jnp.where(fixed, colors[jnp.minimum(card, 99)], mine))
    symbols = jnp.asarray(SYMBOL_COUNTS)
    counts = s.counts.at[seat].add(symbols[card] + symbols[extra])
    princess = (extra == PRINCESS_CARD) * 2
    return s.replace(
        piles=piles,
        revealed=s.revealed & ~both,
        color=color,
        counts=counts,
        score=add(s.score, seat, PRINCESS_POINTS, princess),
    )


def dummy_turn(
    draws: Draws, s: State, active: Array, chance: Array, first: int, deck: Deck
) -> tuple[State, Deck]:
    """D2/D3: the dummy turns the top card of the deck; a second card of a colour it
    has (white counts as a colour) stops it: it wins its majorities against the
    seats still in (the prizes leave the court, its influence tiles go to the
    reserve) and its cards go to the discard pile."""
    n = s.color.shape[0]
    before = s.piles[DUMMY]
    deck, drawn = draws.draw(deck._replace(piles=s.piles), chance, first, 1, active, DUMMY)
    colors = jnp.asarray(COLOR_BITS)
    stop = jnp.any(has(colors & drawn) & has(colors & before))
    won = majorities(s.counts[n], s.counts[:n], ~s.withdrawn, s.court) & stop
    symbols = jnp.asarray(SYMBOL_COUNTS)
    turned = jnp.minimum(pick(drawn, jnp.uint32(0)), NUM_CARDS)
    counts = s.counts.at[n].set(jnp.where(stop, 0, s.counts[n] + symbols[turned]))
    piles = deck.piles
    gone = jnp.where(stop, piles[DUMMY], jnp.uint32(0))
    piles = piles.at[DISCARD].set(piles[DISCARD] | gone).at[DUMMY].set(piles[DUMMY] & ~gone)
    s = s.replace(
        piles=piles,
        counts=counts,
        court=s.court & ~won,
        reserve=s.reserve + won[jnp.asarray(CHARACTER_SYMBOLS)],
        dummy_bidding=s.dummy_bidding & ~stop,
    )
    return s, deck


def exchange_special_cards(s: State, active: Array) -> State:
    """E2: two influence tiles of a kind go back to the reserve for that character's
    special card, from the supply or from the seat holding it."""
    n = s.color.shape[0]
    due = active & (s.influence >= 2)  # [seat, character]
    taken = jnp.sum(due, axis=0, dtype=jnp.int32)
    last = n - 1 - jnp.argmax(due[::-1], axis=0)  # in seat order, the last one keeps it
    moving = jnp.where(taken > 0, jnp.asarray(SPECIALS), NUM_CARDS)
    cards = jnp.stack([bit(c) for c in moving])  # [character, word]
    piles = s.piles & ~jnp.bitwise_or.reduce(cards, axis=0)
    receiving = jnp.arange(piles.shape[0])[:, None] == (HAND + last)[None, :]  # [pile, character]
    got = jnp.where(receiving[:, :, None], cards[None, :, :], jnp.uint32(0))
    return s.replace(
        influence=s.influence - 2 * due.astype(s.influence.dtype),
        reserve=s.reserve + 2 * taken.astype(s.reserve.dtype),
        piles=piles | jnp.bitwise_or.reduce(got, axis=1),
    )


def end_visit(
    draws: Draws,
    s: State,
    active: Array,
    dummy: bool,
    display: int,
    chance: Array,
    first: int,
    deck: Deck,
) -> tuple[State, Array, Deck]:
    """E1-E5: the dummy's cards discarded, special cards exchanged; after the last
    visit the final scoring (F1), else the next visit: start player, court,
    display, and every seat in again.  Returns the state, whether the game ended
    and the deck."""
    n = s.color.shape[0]
    if dummy:
        gone = jnp.where(active, s.piles[DUMMY], jnp.uint32(0))
        s = s.replace(
            piles=s.piles.at[DISCARD].set(s.piles[DISCARD] | gone).at[DUMMY].set(
                s.piles[DUMMY] & ~gone
            ),
            counts=s.counts.at[n].set(jnp.where(active, 0, s.counts[n])),
            dummy_bidding=s.dummy_bidding | active,
        )
    s = exchange_special_cards(s, active)
    over = active & (s.visit == VISITS)
    s = final_scoring(s, over)
    going = active & ~over
    court = s.court.at[ELEPHANT].set(s.court[ELEPHANT] | going)
    court = court.at[MOGUL].set(court[MOGUL] | going)
    characters = jnp.asarray(CHARACTER_SYMBOLS)
    refill = going & ~court[characters] & (s.reserve > 0)
    court = court.at[characters].set(court[characters] | refill)
    start = jnp.where(going, (s.start_player + 1) % n, s.start_player)
    s = s.replace(
        visit=s.visit + going,
        start_player=start,
        court=court,
        reserve=s.reserve - refill.astype(s.reserve.dtype),
        color=jnp.where(going, jnp.int8(-1), s.color),
        withdrawn=s.withdrawn & ~going,
    )
    wanted = jnp.where(going, display, 0)
    deck, _ = draws.draw(deck._replace(piles=s.piles), chance, first, display, wanted, DISPLAY)
    return s.replace(piles=deck.piles), over, deck


def final_scoring(s: State, active: Array) -> State:
    """F1: each seat scores its special and white cards and its cards of the colour
    it holds most."""
    n = s.color.shape[0]
    hands = s.piles[HAND : HAND + n]  # [seat, word]
    colors = jnp.asarray(COLOR_BITS)
    held = count(hands[:, None, :] & colors[None, :, :])  # [seat, colour]
    points = held[:, WHITE] + held[:, SPECIAL_COLOR] + jnp.max(held[:, :WHITE], axis=1)
    score = s.score.at[:, HAND_POINTS].add((points * active).astype(s.score.dtype))
    return s.replace(score=score)


__all__ = ["dummy_turn", "end_visit", "exchange_special_cards", "final_scoring", "play"]
