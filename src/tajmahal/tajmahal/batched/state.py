"""The batched engine's state: one game as fixed-shape arrays (a JAX pytree).

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
from typing import Any

import jax
import jax.numpy as jnp
from jax import Array


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
        """What the seat to act sees (:func:`tajmahal.tajmahal.batched.encode.observe`;
        seat 0's view once the game is over), for a game or a batch of games."""
        from .encode import observe_any

        return observe_any(self, jnp.maximum(self.current_player, 0))


jax.tree_util.register_dataclass(State)
