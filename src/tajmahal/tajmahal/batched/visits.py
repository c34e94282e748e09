"""Turns and visits as array functions: a play (T3-T5), the dummy's card (D2/D3),
the end of a visit (E1-E5) and the final scoring (F1).

Like :mod:`.withdrawal`, every function changes nothing where its ``active`` mask
is False.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import Array

from ..setups import VISITS
from .counting import hand_points, majorities
from .draws import NO_CARD, Deck, draw, move
from .state import State
from .tables import (
    CARD_COLOR,
    CHARACTER_SYMBOLS,
    CHARACTERS_N,
    DISCARD,
    DISPLAY,
    DUMMY,
    ELEPHANT,
    HAND,
    MOGUL,
    MONK_CARD,
    PRINCESS_CARD,
    SPECIALS,
    SYMBOL_COUNTS,
    TABLE,
)
from .withdrawal import HAND_POINTS, PRINCESS_POINTS, add


def play(s: State, seat: Array, card: Array, extra: Array, active: Array) -> State:
    """T3-T5: ``seat`` puts ``card`` (and ``extra``, :data:`NO_CARD` for none) on its
    table; its colour for the visit is fixed by its first coloured card played
    without the monk's card; the princess's card scores 2 at once."""
    card = jnp.where(active, card, NO_CARD)
    extra = jnp.where(active, extra, NO_CARD)
    to = TABLE + seat
    loc = move(move(s.loc, card, to), extra, to)
    revealed = s.revealed.at[card].set(False, mode="drop").at[extra].set(False, mode="drop")
    colors = jnp.asarray(CARD_COLOR)
    mine = s.color[seat]
    fixed = active & (mine < 0) & (extra != MONK_CARD)
    color = s.color.at[seat].set(jnp.where(fixed, colors[jnp.minimum(card, 99)], mine))
    symbols = jnp.asarray(SYMBOL_COUNTS)
    counts = s.counts.at[seat].add(symbols[card] + symbols[extra])
    princess = (extra == PRINCESS_CARD) * 2
    return s.replace(
        loc=loc,
        revealed=revealed,
        color=color,
        counts=counts,
        score=add(s.score, seat, PRINCESS_POINTS, princess),
    )


def dummy_turn(s: State, active: Array, priorities: Array, shuffled: Array) -> tuple[State, Array]:
    """D2/D3: the dummy turns the top card of the deck; a second card of a colour it
    has (white counts as a colour) stops it: it wins its majorities against the
    seats still in (the prizes leave the court, its influence tiles go to the
    reserve) and its cards go to the discard pile."""
    n = s.color.shape[0]
    before = s.loc == DUMMY
    deck, card = draw(Deck(s.loc, s.order, s.reshuffles, shuffled), priorities, active, DUMMY)
    colors = jnp.asarray(CARD_COLOR)
    color = colors[jnp.minimum(card, 99)]
    stop = (card != NO_CARD) & jnp.any(before & (colors == color))
    won = majorities(s.counts[n], s.counts[:n], ~s.withdrawn, s.court) & stop
    symbols = jnp.asarray(SYMBOL_COUNTS)
    counts = s.counts.at[n].set(jnp.where(stop, 0, s.counts[n] + symbols[card]))
    loc = jnp.where(stop & (deck.loc == DUMMY), jnp.int8(DISCARD), deck.loc)
    s = s.replace(
        loc=loc,
        order=deck.order,
        reshuffles=deck.reshuffles,
        counts=counts,
        court=s.court & ~won,
        reserve=s.reserve + won[jnp.asarray(CHARACTER_SYMBOLS)],
        dummy_bidding=s.dummy_bidding & ~stop,
    )
    return s, deck.shuffled


def exchange_special_cards(s: State, active: Array) -> State:
    """E2: two influence tiles of a kind go back to the reserve for that character's
    special card, from the supply or from the seat holding it."""
    n = s.color.shape[0]
    due = active & (s.influence >= 2)  # [seat, character]
    count = jnp.sum(due, axis=0, dtype=jnp.int32)
    last = n - 1 - jnp.argmax(due[::-1], axis=0)  # in seat order, the last one keeps it
    specials = jnp.asarray(SPECIALS)
    target = jnp.where(count > 0, specials, NO_CARD)
    return s.replace(
        influence=s.influence - 2 * due.astype(s.influence.dtype),
        reserve=s.reserve + 2 * count.astype(s.reserve.dtype),
        loc=s.loc.at[target].set((HAND + last).astype(jnp.int8), mode="drop"),
    )


def end_visit(
    s: State, active: Array, dummy: bool, display: int, priorities: Array, shuffled: Array
) -> tuple[State, Array]:
    """E1-E5: the dummy's cards discarded, special cards exchanged; after the last
    visit the final scoring (F1), else the next visit: start player, court,
    display, and every seat in again.  Returns the state and whether the game ended."""
    n = s.color.shape[0]
    if dummy:
        s = s.replace(
            loc=jnp.where(active & (s.loc == DUMMY), jnp.int8(DISCARD), s.loc),
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
    deck = Deck(s.loc, s.order, s.reshuffles, shuffled)
    for _ in range(display):
        deck, _ = draw(deck, priorities, going, jnp.int32(DISPLAY))
    s = s.replace(loc=deck.loc, order=deck.order, reshuffles=deck.reshuffles)
    return s, over


def final_scoring(s: State, active: Array) -> State:
    """F1: each seat scores its special and white cards and its cards of the colour
    it holds most."""
    n = s.color.shape[0]
    points = jnp.stack([hand_points(s.loc, seat) for seat in range(n)])
    score = s.score.at[:, HAND_POINTS].add((points * active).astype(s.score.dtype))
    return s.replace(score=score)


__all__ = ["CHARACTERS_N", "dummy_turn", "end_visit", "exchange_special_cards", "play"]
