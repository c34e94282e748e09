"""What every batched engine shares: Pgx's ``Env`` interface over a game's array
rules.

A game's batched engine implements three functions on one game — ``_init(key)``,
``_step(state, action, key)`` and ``_observe(state, seat)`` — and this base class
gives them Pgx's behaviour (`pgx.core.Env`, so that code written for Pgx runs
unchanged):

- ``step`` on a finished game changes nothing and gives zero rewards;
- an illegal action ends the game at once: the seat that took it gets -1, every
  other seat ``1/(n-1)`` (the values sum to 0, like the rewards of a finished game);
- once a game is over its ``legal_action_mask`` is all True (so that a policy
  normalised over it never divides by zero) and ``current_player`` is -1.

Every function works on one game; ``jax.vmap`` batches them and ``jax.jit``
compiles them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax import Array

from .bits import random_member


class Env(ABC):
    """A game's batched engine with Pgx's interface (see the module doc)."""

    #: The game's name in the package's registry.
    id: str
    #: Bumped when the behaviour of the engine changes (as Pgx's environments are).
    version: str = "v1"

    def __init__(self, num_players: int) -> None:
        self._players = num_players

    @property
    def num_players(self) -> int:
        return self._players

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the action space: the kit encoding's indices."""

    @property
    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of one seat's observation: the kit encoding's layout."""

    @abstractmethod
    def _init(self, key: Array) -> Any:
        """A new game dealt from ``key``."""

    @abstractmethod
    def _step(self, state: Any, action: Array, key: Array) -> Any:
        """The state after a legal ``action`` of the seat to act; ``key`` draws chance."""

    @abstractmethod
    def _observe(self, state: Any, seat: Array) -> Array:
        """What ``seat`` sees of ``state``."""

    def init(self, key: Array) -> Any:
        """A new game, dealt at random from ``key``."""
        return self._init(key)

    def step(self, state: Any, action: Array, key: Array | None = None) -> Any:
        """The state after the seat to act takes ``action``; ``key`` decides what the
        deck brings (needed: a card game draws at random)."""
        if key is None:
            raise TypeError(f"{self.id}'s step draws cards: pass a key, step(state, action, key)")
        return self.guarded(state, action, lambda s, a: self._step(s, a, key))

    def guarded(self, state: Any, action: Array, rules: Callable[[Any, Array], Any]) -> Any:
        """``rules(state, action)`` with Pgx's handling of finished games and illegal
        actions around it (the module doc)."""
        action = jnp.asarray(action, jnp.int32)
        over = state.terminated | state.truncated
        legal = state.legal_action_mask[jnp.clip(action, 0, self.num_actions - 1)]
        illegal = ~over & ((action < 0) | (action >= self.num_actions) | ~legal)
        moved = rules(state.replace(_step_count=state._step_count + 1), action)
        n = self.num_players
        penalty = jnp.where(jnp.arange(n) == state.current_player, -1.0, 1.0 / (n - 1))
        # a finished game stays as it is with zero rewards; an illegal action ends it
        kept = state.replace(
            terminated=state.terminated | illegal,
            rewards=jnp.where(illegal, penalty, 0.0).astype(jnp.float32),
            _step_count=state._step_count + illegal,
        )
        new = _select(over | illegal, kept, moved)
        ended = new.terminated | new.truncated
        return new.replace(
            legal_action_mask=new.legal_action_mask | ended,
            current_player=jnp.where(ended, -1, new.current_player).astype(jnp.int32),
        )

    def observe(self, state: Any, player_id: Array | None = None) -> Array:
        """What ``player_id`` (default: the seat to act) sees of ``state``."""
        seat = jnp.maximum(state.current_player, 0) if player_id is None else player_id
        return jax.lax.stop_gradient(self._observe(state, jnp.asarray(seat, jnp.int32)))


def _select(flag: Array, yes: Any, no: Any) -> Any:
    """``yes`` where ``flag`` else ``no``, field by field."""
    return jax.tree_util.tree_map(lambda a, b: jnp.where(flag, a, b), yes, no)


def random_action(key: Array, legal_action_mask: Array) -> Array:
    """A uniformly random legal action of one game (what a random player does: one
    random number, not one per action)."""
    return random_member(key, legal_action_mask)


def auto_reset(env: Env, state: Any, action: Array, key: Array) -> Any:
    """``env.step`` of one game, and a new game in its place once it is over (as
    Pgx's ``auto_reset``): the state returned for the last step is the new game's,
    with ``terminated`` and the rewards of that step; the next step plays on."""
    step_key, deal_key = jax.random.split(key)
    ended = state.terminated | state.truncated
    state = _select(
        ended,
        state.replace(
            terminated=jnp.zeros_like(ended),
            truncated=jnp.zeros_like(ended),
            rewards=jnp.zeros_like(state.rewards),
        ),
        state,
    )
    stepped = env.step(state, action, step_key)
    fresh = env.init(deal_key).replace(rewards=stepped.rewards, terminated=stepped.terminated)
    return _select(stepped.terminated, fresh, stepped)


def reset_finished(env: Env, state: Any, key: Array, most: int) -> Any:
    """A batch of games (one leading axis) with every finished game dealt anew.

    Unlike :func:`auto_reset`, which deals a new game for every game at every step
    (``vmap`` computes both sides of a choice), this deals at most ``most`` new games
    at a time, into the finished games' places, again until none is left: a batch of
    long games needs a few deals a step, not one per game.  Read a finished game's
    rewards before: the new deal replaces them."""
    size = state.terminated.shape[0]

    def finished(carry: tuple[Any, Array]) -> Array:
        return jnp.any(carry[0].terminated | carry[0].truncated)

    def deal(carry: tuple[Any, Array]) -> tuple[Any, Array]:
        games, key = carry
        key, deals = jax.random.split(key)
        ended = games.terminated | games.truncated
        where = jnp.nonzero(ended, size=most, fill_value=size)[0]
        fresh = jax.vmap(env.init)(jax.random.split(deals, most))
        games = jax.tree_util.tree_map(lambda x, f: x.at[where].set(f, mode="drop"), games, fresh)
        return games, key

    return jax.lax.while_loop(finished, deal, (state, key))[0]
