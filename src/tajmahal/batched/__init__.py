"""Batched engines in JAX: a game's whole rules as array functions that
:func:`jax.jit` compiles and :func:`jax.vmap` runs over thousands of games at once,
with Pgx's ``Env`` interface (:mod:`.env`).

>>> import jax
>>> import tajmahal.batched
>>> env = tajmahal.batched.make(num_players=4)
>>> state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), 8))
>>> state.legal_action_mask.shape, env.num_players, env.num_actions
((8, 1623), 4, 1623)

A game has a batched engine through the optional part ``batched(players)`` of its
adapter (Taj Mahal's: :mod:`tajmahal.tajmahal.batched`).
Needs the ``jax`` extra: ``pip install 'tajmahal[jax]'``.
"""

from __future__ import annotations

from ..extras import require

require("jax", "tajmahal.batched", ("jax",))

from .env import Env, auto_reset, random_action, reset_finished  # noqa: E402


def make(num_players: int = 4, game: str | None = None) -> Env:
    """The batched engine of ``game`` (default: the default game) for
    ``num_players``: its optional part ``batched`` (:meth:`tajmahal.arena.game.Game.batched`);
    ValueError for a game that has none."""
    from ..arena.registry import GAMES

    adapter = GAMES.get(game)
    env: Env | None = adapter.batched(num_players)
    if env is None:
        raise ValueError(f"{adapter.title} has no batched engine")
    return env


__all__ = ["Env", "auto_reset", "make", "random_action", "reset_finished"]
