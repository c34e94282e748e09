"""A withdrawal (W1-W11) as array functions: the majorities, palaces and bonus
tiles, the province tile and palace score, the discard and the draw.

Every function takes an ``active`` mask and changes nothing where it is False, so
one straight run of them serves every game of a batch, whichever action each took.
"""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp
from jax import Array, lax

from .bits import SPECIAL_BITS, bit, count
from .counting import goods_held, joined_provinces, majorities
from .draws import RESHUFFLES, Deck, RandomDraws, ReplayDraws
from .state import State
from .tables import (
    CARD_KIND,
    CHARACTER_SYMBOLS,
    DISCARD,
    DISPLAY,
    ELEPHANT,
    HAND,
    KIND_GOODS,
    KIND_POINTS,
    MOGUL,
    NONE,
    TILE_GOODS,
    BoardTables,
    table,
)

Draws = RandomDraws | ReplayDraws

#: Score sources, as :class:`tajmahal.Score` orders them.
PALACE_POINTS, GOODS_POINTS, BONUS_POINTS, PRINCESS_POINTS, HAND_POINTS = range(5)


def add(row: Array, seat: Array, column: int | Array, amount: Array) -> Array:
    """``row`` (a per-seat table) with ``amount`` added at ``[seat, column]``."""
    return row.at[seat, column].add(amount.astype(row.dtype))


def withdraw(s: State, seat: Array, active: Array, dummy: bool) -> State:
    """W1-W3: the majorities ``seat`` wins against the seats still in (and the dummy
    while it bids); the prizes leave the court; a withdrawal is under way."""
    n = s.color.shape[0]
    others = ~s.withdrawn & (jnp.arange(n) != seat)
    rivals_in = jnp.concatenate([others, s.dummy_bidding[None]]) if dummy else others
    rivals = s.counts if dummy else s.counts[:n]
    won = majorities(s.counts[seat], rivals, rivals_in, s.court) & active
    characters = won[jnp.asarray(CHARACTER_SYMBOLS)]
    return s.replace(
        court=s.court & ~won,
        influence=s.influence.at[seat].add(characters.astype(s.influence.dtype)),
        withdrawn=s.withdrawn.at[seat].set(s.withdrawn[seat] | active),
        pending=s.pending | active,
        pend_palaces=jnp.where(active, jnp.sum(characters, dtype=jnp.int32), s.pend_palaces),
        pend_mogul=jnp.where(active, won[MOGUL], s.pend_mogul),
        pend_built=s.pend_built & ~active,
        pend_tile=jnp.where(active, won[ELEPHANT], s.pend_tile),
        pend_takes=jnp.where(active, 0, s.pend_takes),
    )


def build(s: State, seat: Array, city: Array, mogul: Array, active: Array) -> tuple[State, Array]:
    """W4-W7: ``seat`` builds a palace (``mogul``: its mogul palace) on ``city`` and
    takes the bonus tile lying there with a normal palace.  Returns the state and
    whether the tile was a card tile (its card is drawn by :func:`hand_draws`)."""
    normal = active & ~mogul
    tile = s.bonus[city].astype(jnp.int32)
    taken = normal & (tile != NONE)
    kind = jnp.maximum(tile, 0)
    owner = jnp.where(active, seat, -1).astype(jnp.int8)
    palaces = s.palaces.at[city].set(jnp.where(normal, owner, s.palaces[city]))
    moguls = s.moguls.at[city].set(jnp.where(active & mogul, owner, s.moguls[city]))
    bonus_held = s.bonus_held.at[seat, kind].add(taken.astype(s.bonus_held.dtype))
    held = goods_held(s.tiles[seat], bonus_held[seat])
    goods = jnp.sum(held * jnp.asarray(KIND_GOODS)[kind])
    score = add(s.score, seat, BONUS_POINTS, jnp.asarray(KIND_POINTS)[kind] * taken)
    score = add(score, seat, GOODS_POINTS, goods * taken)
    s = s.replace(
        palaces=palaces,
        moguls=moguls,
        bonus=s.bonus.at[city].set(jnp.where(taken, jnp.int8(NONE), s.bonus[city])),
        bonus_held=bonus_held,
        score=score,
        palaces_left=s.palaces_left.at[seat].add(-active.astype(s.palaces_left.dtype)),
        pend_palaces=s.pend_palaces - normal,
        pend_mogul=s.pend_mogul & ~(active & mogul),
        pend_built=s.pend_built | active,
    )
    return s, taken & (kind == CARD_KIND)


class Free(NamedTuple):
    """The cities of the current province that take a normal palace and a mogul
    palace (W4/W5: a city holds one of each, whoever owns them)."""

    cities: Array
    normal: Array
    mogul: Array


def free_cities(board: BoardTables, s: State) -> Free:
    province = s.visit_provinces[s.visit - 1]
    cities = jnp.asarray(board.province_cities)[province]
    real = cities >= 0
    at = jnp.maximum(cities, 0)
    return Free(cities, real & (s.palaces[at] == NONE), real & (s.moguls[at] == NONE))


def place_forced(
    board: BoardTables, s: State, seat: Array, active: Array
) -> tuple[State, Array]:
    """W4/W5: the placements that leave ``seat`` no choice, one at a time in city
    order, until a choice remains or none is left to place.  Returns the state and
    how many card tiles they took."""

    def step(carry: tuple[State, Array, Array]) -> tuple[State, Array, Array]:
        s, cards, _ = carry
        placing = active & s.pending & ((s.pend_palaces > 0) | s.pend_mogul)
        free = free_cities(board, s)
        normal_n = jnp.sum(free.normal)
        mogul_n = jnp.sum(free.mogul)
        palaces_due = s.pend_palaces > 0
        none_left = placing & (s.palaces_left[seat] == 0)
        no_city = placing & ~none_left & palaces_due & (normal_n == 0)
        no_mogul_city = placing & ~none_left & ~no_city & s.pend_mogul & (mogul_n == 0)
        rest = placing & ~none_left & ~no_city & ~no_mogul_city
        options = normal_n * palaces_due + mogul_n * s.pend_mogul
        one = rest & (options == 1)
        every = (
            rest
            & ~one
            & ~s.pend_mogul
            & (s.pend_palaces >= normal_n)
            & (s.palaces_left[seat] >= normal_n)
        )
        normal = (one & palaces_due) | every
        mogul = one & ~palaces_due
        s = s.replace(
            pend_palaces=jnp.where(none_left | no_city, 0, s.pend_palaces),
            pend_mogul=s.pend_mogul & ~none_left & ~no_mogul_city,
        )
        city = jnp.where(
            normal, free.cities[jnp.argmax(free.normal)], free.cities[jnp.argmax(free.mogul)]
        )
        s, card = build(s, seat, jnp.maximum(city, 0), mogul, normal | mogul)
        moved = none_left | no_city | no_mogul_city | normal | mogul
        return s, cards + card, moved

    s, cards, _ = lax.while_loop(
        lambda carry: carry[2], step, (s, jnp.int32(0), jnp.asarray(True))
    )
    return s, cards


def hand_draws(
    draws: Draws, s: State, seat: Array, wanted: Array, most: int, chance: Array, deck: Deck
) -> tuple[State, Deck]:
    """W6/W11: ``wanted`` cards (at most ``most``) from the deck into ``seat``'s hand."""
    deck, _ = draws.draw(deck._replace(piles=s.piles), chance, 0, most, wanted, HAND + seat)
    return s.replace(piles=deck.piles), deck


def after_palaces(board: BoardTables, s: State, seat: Array, active: Array) -> tuple[State, Array]:
    """W7-W11 once the palaces stand: the province tile and its goods, the palace
    score, the played cards discarded (the special card back to the hand) and the
    number of display cards to take.  Returns the state and whether the turn ends
    with no card to take."""
    province = s.visit_provinces[s.visit - 1]
    tile = active & s.pend_tile
    tiles = s.tiles.at[seat, s.visit - 1].set(s.tiles[seat, s.visit - 1] | tile)
    held = goods_held(tiles[seat], s.bonus_held[seat])
    goods = jnp.sum(held * jnp.asarray(TILE_GOODS)[s.visit - 1]) * tile
    own = (s.palaces == seat) | (s.moguls == seat)
    scoring = active & s.pend_built
    joined = joined_provinces(board, own, province, scoring)
    score = add(s.score, seat, GOODS_POINTS, goods)
    score = add(score, seat, PALACE_POINTS, (1 + joined) * scoring)
    n = s.color.shape[0]
    row = table(n, seat)
    played = jnp.where(active, s.piles[row], jnp.uint32(0))
    special = jnp.asarray(SPECIAL_BITS)
    piles = s.piles.at[HAND + seat].set(s.piles[HAND + seat] | (played & special))
    piles = piles.at[DISCARD].set(piles[DISCARD] | (played & ~special))
    piles = piles.at[row].set(piles[row] & ~played)
    takes = jnp.minimum(2, count(s.piles[DISPLAY]))
    s = s.replace(
        tiles=tiles,
        score=score,
        piles=piles,
        counts=s.counts.at[seat].set(jnp.where(active, 0, s.counts[seat])),
        pend_takes=jnp.where(active, takes, s.pend_takes),
        pend_built=s.pend_built & ~active,  # the pending take is the display cards alone
        pend_tile=s.pend_tile & ~active,
        pending=s.pending & ~(active & (takes == 0)),
    )
    return s, active & (takes == 0)


def take_display(s: State, seat: Array, card: Array, active: Array) -> tuple[State, Array]:
    """W11: ``seat`` takes ``card`` from the display; returns the state and whether
    its turn ends (the last card due, or the display empty)."""
    first = active & (s.pend_takes == 2) & (count(s.piles[DISPLAY]) > 2)
    one = jnp.where(active, bit(card), jnp.uint32(0))
    piles = s.piles.at[DISPLAY].set(s.piles[DISPLAY] & ~one)
    piles = piles.at[HAND + seat].set(piles[HAND + seat] | one)
    s = s.replace(
        piles=piles,
        revealed=s.revealed | one,
        pend_takes=jnp.where(first, 1, s.pend_takes),
        pending=s.pending & ~(active & ~first),
    )
    return s, active & ~first


def take_rest(s: State, seat: Array, active: Array) -> tuple[State, Array]:
    """W11: with as many cards due as the display holds, ``seat`` takes them all."""
    shown = s.piles[DISPLAY]
    due = active & (s.pend_takes > 0) & (s.pend_takes >= count(shown))
    taken = jnp.where(due, shown, jnp.uint32(0))
    piles = s.piles.at[DISPLAY].set(shown & ~taken)
    piles = piles.at[HAND + seat].set(piles[HAND + seat] | taken)
    s = s.replace(piles=piles, revealed=s.revealed | taken, pending=s.pending & ~due)
    return s, due


__all__ = [
    "RESHUFFLES",
    "after_palaces",
    "build",
    "free_cities",
    "hand_draws",
    "place_forced",
    "take_display",
    "take_rest",
    "withdraw",
]
