"""Tikal (Kramer and Kiesling): a second game on the same library, protocol, referee
and tournaments as Taj Mahal.

The rules (with their ids and every decision where the sources are silent) are in
docs/tikal-rules.md.  The same shape as Taj Mahal's engine: an immutable
:class:`State`, pure :func:`apply` / :func:`step`, :func:`legal_actions`,
:func:`view` without secrets and :func:`determinize`; component data in
``tikal/data`` (:mod:`tajmahal.tikal.components`).  The arena plays it through
:mod:`tajmahal.tikal.adapter` (``tajmahal match --game tikal ...``).

>>> import random
>>> from tajmahal.tikal import Setup, new_game, legal_actions, apply, is_over, scores
>>> state = new_game(Setup.random(players=2, seed=3))
>>> rng = random.Random(3)
>>> while not is_over(state):
...     state = apply(state, rng.choice(legal_actions(state)))
>>> len(scores(state))
2
"""

from __future__ import annotations

from ..kit.errors import ComponentError, IllegalAction, SetupError
from .actions import *
from .components import (
    DEFAULT_COMPONENTS,
    Board,
    Components,
    Tile,
    load_components,
)
from .hidden import determinize
from .legal import legal_actions
from .problems import problem
from .rules import (
    apply,
    is_over,
    new_game,
    ranks,
    scores,
    scoring,
    step,
)
from .state import AUCTION, BASIC, SCORE_SOURCES, Seat, Setup, Space, State
from .views import PlayerView, view

__all__ = [
    "ACTION_TYPES", "AUCTION", "BASIC", "DEFAULT_COMPONENTS", "SCORE_SOURCES", "Action", "Bid",
    "Board", "BuildCamp", "CampMove", "Choose", "ComponentError", "Components", "Dig", "EndTurn",
    "Enter", "Exchange", "Guard", "IllegalAction", "Move", "Pass", "Place", "PlayerView", "Seat",
    "Setup", "SetupError", "Space", "State", "Tile", "Uncover", "apply", "determinize", "is_over",
    "legal_actions", "load_components", "new_game", "problem", "ranks", "scores", "scoring",
    "step", "view",
]
