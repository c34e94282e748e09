"""Taj Mahal's batched engine: the whole rules as JAX functions over fixed-shape
arrays (:func:`jax.jit` and :func:`jax.vmap` take them as they are), with Pgx's
``Env`` interface, the kit encoding's action indices and observation tensor, and
the same games as the rules engine (a differential test replays thousands).

:class:`TajMahal` is the environment; :mod:`.replay` turns a rules-engine state into
arrays; :mod:`.rules`, :mod:`.withdrawal` and :mod:`.visits` hold the rules,
:mod:`.state` the state and its observation.  docs/research.md describes it.
Needs the ``jax`` extra (``pip install 'tajmahal[jax]'``); :mod:`tajmahal.batched`
names it when missing.
"""

from __future__ import annotations

from ...extras import require

require("jax", "tajmahal.batched", ("jax",))

from .env import TajMahal, batch_of  # noqa: E402
from .replay import from_setup, from_state, reshuffle_orders  # noqa: E402
from .state import State  # noqa: E402

__all__ = [
    "State",
    "TajMahal",
    "batch_of",
    "from_setup",
    "from_state",
    "reshuffle_orders",
]
