"""Java (Kramer and Kiesling): a third game on the same library, protocol, referee
and tournaments as Taj Mahal and Tikal.

The rules (with their ids and every decision where the sources are silent) are in
docs/java-rules.md.  The same shape as the other engines: an immutable
:class:`State`, pure :func:`apply` / :func:`step`, :func:`legal_actions`,
:func:`view` without secrets and :func:`determinize`; component data in
``java/data`` (:mod:`tajmahal.java.components`).  The arena plays it through
:mod:`tajmahal.java.adapter` (``tajmahal match --game java ...``).

>>> import random
>>> from tajmahal.java import Setup, new_game, legal_actions, apply, is_over, scores
>>> state = new_game(Setup.random(players=2, seed=3))
>>> rng = random.Random(3)
>>> while not is_over(state):
...     state = apply(state, rng.choice(legal_actions(state)))
>>> len(scores(state))
2
"""

from __future__ import annotations

from .actions import (
    ACTION_TYPES,
    Action,
    BuildPalace,
    Deploy,
    EndTurn,
    ExtendPalace,
    HoldFestival,
    Lay,
    Move,
    Pass,
    PlaceLand,
    PlaceWater,
    TakeCard,
    UseToken,
    Withdraw,
)
from .components import DEFAULT_COMPONENTS, Board, ComponentError, Components, load_components
from .rules import (
    IllegalAction,
    apply,
    final_scoring,
    is_over,
    legal_actions,
    new_game,
    problem,
    ranks,
    scores,
    step,
)
from .state import ANYTIME, SCORE_SOURCES, START, Seat, Setup, SetupError, State
from .views import JavaView, determinize, view

__all__ = [
    "ACTION_TYPES",
    "ANYTIME",
    "DEFAULT_COMPONENTS",
    "SCORE_SOURCES",
    "START",
    "Action",
    "Board",
    "BuildPalace",
    "ComponentError",
    "Components",
    "Deploy",
    "EndTurn",
    "ExtendPalace",
    "HoldFestival",
    "IllegalAction",
    "JavaView",
    "Lay",
    "Move",
    "Pass",
    "PlaceLand",
    "PlaceWater",
    "Seat",
    "Setup",
    "SetupError",
    "State",
    "TakeCard",
    "UseToken",
    "Withdraw",
    "apply",
    "determinize",
    "final_scoring",
    "is_over",
    "legal_actions",
    "load_components",
    "new_game",
    "problem",
    "ranks",
    "scores",
    "step",
    "view",
]
