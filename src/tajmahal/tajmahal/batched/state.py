"""The batched engine's state: one game as fixed-shape arrays (a JAX pytree), and
what a seat sees of it (:func:`observe`: the kit encoding's observation tensor).

A :class:`State` holds one game, or a batch of games when every field has the same
leading batch axes (what :func:`jax.vmap` makes).  Its first six fields are Pgx's
(``current_player``, ``legal_action_mask``, ``rewards``, ``terminated``,
``truncated``, ``_step_count``); ``observation`` is a property, computed when it is
read (a field would be computed at every step, read or not).  The others are the
game, field for field what :class:`tajmahal.State` holds (rules ids as in
docs/rules.md):

- cards: ``piles`` holds each pile as a set of cards (:mod:`.bits`; the piles are
  listed in :mod:`.tables`: the deck, the discard pile, the display, the supply,
  the dummy's cards, each seat's hand and each seat's table); ``revealed`` the cards
  of a hand that everybody saw taken from the display (W11).  A game that replays
  the rules engine's (:mod:`.replay`) also keeps the deck's order: ``order`` of each
  deck card, the top one being ``deck_top`` (the deck's orders are always
  ``deck_top``, ``deck_top + 1``, ...); a game dealt at random draws uniformly from
  the deck instead (the same chances) and leaves them 0.
- the visit: ``visit`` (1-12), ``start_player``, the province of each visit
  (``visit_provinces``, S3), the ``court``'s prizes (by symbol), the ``reserve`` of
  influence tiles, ``dummy_bidding`` (D2-D5).
- a withdrawal under way (W4-W11, the rules engine's ``Pending``): ``pending``, the
  normal palaces and the mogul palace still to place, whether one was built,
  whether the province tile was won, and the display cards still to take.
- each seat: its colour this visit (T4, -1 none), whether it withdrew, palaces
  left, influence tiles, province tiles (by number - 1), bonus tiles held (by kind),
  score by source (palaces, goods, bonus, princess, hand) and the symbols on its
  table this visit (``counts``; its last row is the dummy's).
- the board: the owner of each city's normal and mogul palace, the bonus tile
  still lying on each city (by kind; -1 none).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
from jax import Array

from ..board import PROVINCES
from ..encoding import HAND_SCALE, PALACES_SCALE, SCORE_SCALE, observation_layout
from .bits import count, unpack
from .tables import (
    CHARACTERS_N,
    COLORS_N,
    DECK,
    DISCARD,
    DISPLAY,
    DUMMY,
    HAND,
    KINDS,
    NUM_CARDS,
    PALACES,
    REGULAR,
    SPECIALS,
    SUPPLY,
    SYMBOLS_N,
)


@dataclasses.dataclass(frozen=True)
class State:
    """One game (or a batch of games) of Taj Mahal as arrays; see the module doc."""

    current_player: Array
    legal_action_mask: Array
    rewards: Array
    terminated: Array
    truncated: Array
    _step_count: Array
    visit_provinces: Array
    piles: Array
    revealed: Array
    order: Array
    deck_top: Array
    visit: Array
    start_player: Array
    court: Array
    reserve: Array
    dummy_bidding: Array
    reshuffles: Array
    pending: Array
    pend_palaces: Array
    pend_mogul: Array
    pend_built: Array
    pend_tile: Array
    pend_takes: Array
    color: Array
    withdrawn: Array
    palaces_left: Array
    influence: Array
    tiles: Array
    bonus_held: Array
    score: Array
    counts: Array
    palaces: Array
    moguls: Array
    bonus: Array

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes`` (as Pgx's states have)."""
        return dataclasses.replace(self, **changes)

    @property
    def env_id(self) -> str:
        return "tajmahal"

    @property
    def num_players(self) -> int:
        return int(self.color.shape[-1])

    @property
    def observation(self) -> Array:
        """What the seat to act sees (:func:`observe`;
        seat 0's view once the game is over), for a game or a batch of games."""
        return observe_any(self, jnp.maximum(self.current_player, 0))


jax.tree_util.register_dataclass(State)


# --------------------------------------------------------------------------- what a seat sees

_F = jnp.float32


def _scaled(scale: float, most: int) -> np.ndarray:
    """``k / scale`` for k = 0..most as the rules engine writes it (a float64 quotient
    rounded to float32): XLA's float32 division may round the other way."""
    return (np.arange(most + 1, dtype=np.float64) / scale).astype(np.float32)


#: Counts an observation divides: the deck's size, hand sizes, palaces left, points.
_DECK: Final = _scaled(REGULAR, REGULAR)
_HAND: Final = _scaled(HAND_SCALE, NUM_CARDS)
_PALACES: Final = _scaled(PALACES_SCALE, PALACES)
_POINTS: Final = _scaled(SCORE_SCALE, 1023)


def _lookup(table: np.ndarray, counts: Array) -> Array:
    return jnp.asarray(table)[jnp.clip(counts, 0, table.shape[0] - 1)]


def observe(s: State, seat: Array) -> Array:
    """What ``seat`` sees of one game: a flat float32 vector laid out as the kit's
    :func:`~tajmahal.tajmahal.encoding.observation_layout` for its player count."""
    n = s.color.shape[0]
    seat = jnp.asarray(seat, jnp.int32)
    seats = (seat + jnp.arange(n, dtype=jnp.int32)) % n  # relative row r: seat + r
    live = s.current_player >= 0
    placing = s.pending & ((s.pend_palaces > 0) | s.pend_mogul)
    phase = jnp.where(~live, 3, jnp.where(~s.pending, 0, jnp.where(placing, 1, 2)))
    cards = unpack(s.piles)  # [pile, card]
    hands = cards[HAND + seats]
    tables = cards[HAND + n + seats]
    specials = jnp.asarray(SPECIALS)
    pending = jnp.stack(
        [s.pend_palaces, s.pend_mogul, s.pend_built, s.pend_tile, s.pend_takes]
    ).astype(_F) * s.pending
    blocks = {
        "visit": jax.nn.one_hot(s.visit - 1, 12, dtype=_F),
        "phase": jax.nn.one_hot(phase, 4, dtype=_F),
        "to_act": jax.nn.one_hot(jnp.where(live, (s.current_player - seat) % n, -1), n, dtype=_F),
        "start_player": jax.nn.one_hot((s.start_player - seat) % n, n, dtype=_F),
        "province": jax.nn.one_hot(s.visit_provinces[s.visit - 1], PROVINCES, dtype=_F),
        "visit_order": jax.nn.one_hot(s.visit_provinces, PROVINCES, dtype=_F).T,
        "court": s.court.astype(_F),
        "reserve": s.reserve.astype(_F),
        "supply": cards[SUPPLY, specials].astype(_F),
        "deck_size": _lookup(_DECK, count(s.piles[DECK]))[None],
        "hand": hands[0].astype(_F),
        "display": cards[DISPLAY].astype(_F),
        "discard": cards[DISCARD].astype(_F),
        "dummy": cards[DUMMY].astype(_F),
        "dummy_bidding": (s.dummy_bidding & (n == 2)).astype(_F)[None],
        "pending": pending,
        "palaces": (s.palaces[:, None] == seats[None, :]).astype(_F),
        "moguls": (s.moguls[:, None] == seats[None, :]).astype(_F),
        "bonus": jax.nn.one_hot(s.bonus, KINDS, dtype=_F),
        "hand_size": _lookup(_HAND, count(s.piles[HAND + seats])),
        "played": tables.astype(_F),
        "color": jax.nn.one_hot(s.color[seats], COLORS_N, dtype=_F),
        "withdrawn": s.withdrawn[seats].astype(_F),
        "palaces_left": _lookup(_PALACES, s.palaces_left[seats]),
        "influence": s.influence[seats].astype(_F),
        "province_tiles": s.tiles[seats].astype(_F),
        "bonus_tiles": s.bonus_held[seats].astype(_F),
        "score": _lookup(_POINTS, s.score[seats]),
        "special": (hands[:, specials] | tables[:, specials]).astype(_F),
        "revealed": (hands & unpack(s.revealed)[None, :]).astype(_F),
    }
    parts = []
    for block in observation_layout(n).blocks:
        part = blocks[block.name]
        if part.shape != block.shape:
            raise AssertionError(f"block {block.name}: {part.shape}, the layout says {block.shape}")
        parts.append(part.reshape(-1))
    assert blocks["court"].shape[0] == SYMBOLS_N and blocks["reserve"].shape[0] == CHARACTERS_N
    return jnp.concatenate(parts)


def observe_any(s: State, seat: Array) -> Array:
    """:func:`observe` of a game or of a batch of games (any leading axes, with
    ``seat`` of the same shape as ``current_player``)."""
    batch = s.current_player.shape
    if not batch:
        return observe(s, seat)
    flat = jax.tree_util.tree_map(lambda x: x.reshape(-1, *x.shape[len(batch):]), s)
    out = jax.vmap(observe)(flat, jnp.broadcast_to(seat, batch).reshape(-1))
    return out.reshape(*batch, -1)
