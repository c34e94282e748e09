"""Batched engines in JAX: a game's whole rules as array functions that
:func:`jax.jit` compiles and :func:`jax.vmap` runs over thousands of games at once,
with Pgx's ``Env`` interface (:mod:`.env`).

>>> import jax
>>> import tajmahal.batched
>>> env = tajmahal.batched.make(num_players=4)
>>> state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), 8))
>>> state.legal_action_mask.shape, env.num_players, env.num_actions
((8, 1623), 4, 1623)

A game with a batched engine has a ``batched`` package beside its rules with a
``make(num_players)`` function (Taj Mahal's: :mod:`tajmahal.tajmahal.batched`).
Needs the ``jax`` extra: ``pip install 'tajmahal[jax]'``.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..extras import require

require("jax", "tajmahal.batched", ("jax",))

from .env import Env, auto_reset, random_action, reset_finished  # noqa: E402


def make(num_players: int = 4, game: str | None = None) -> Any:
    """The batched engine of ``game`` (default: the package's default game) for
    ``num_players``; ValueError for a game that has none."""
    from ..games import GAMES

    adapter = GAMES.get(game)
    package = type(adapter).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.batched")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.batched":
            raise
        raise ValueError(f"{adapter.title} has no batched engine") from None
    return module.make(num_players)


__all__ = ["Env", "auto_reset", "make", "random_action", "reset_finished"]
