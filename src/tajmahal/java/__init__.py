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
    TILES,
    Action,
    BuildPalace,
    Deploy,
    Done,
    EndTurn,
    ExtendPalace,
    HoldFestival,
    Lay,
    Move,
    Pass,
    PlaceLand,
    PlaceWater,
    Select,
    Shape,
    TakeCard,
    UseToken,
    Value,
    Withdraw,
)
from .components import DEFAULT_COMPONENTS, Board, ComponentError, Components, load_components
from .legal import legal_actions
from .problems import problem
from .rules import IllegalAction, apply, final_scoring, is_over, new_game, ranks, scores, step
from .state import ANYTIME, SCORE_SOURCES, START, Pending, Seat, Setup, SetupError, State
from .views import JavaView, determinize, view

__all__ = [
    "ACTION_TYPES",
    "ANYTIME",
    "DEFAULT_COMPONENTS",
    "SCORE_SOURCES",
    "START",
    "TILES",
    "Action",
    "Board",
    "BuildPalace",
    "ComponentError",
    "Components",
    "Deploy",
    "Done",
    "EndTurn",
    "ExtendPalace",
    "HoldFestival",
    "IllegalAction",
    "JavaView",
    "Lay",
    "Move",
    "Pass",
    "Pending",
    "PlaceLand",
    "PlaceWater",
    "Seat",
    "Select",
    "Setup",
    "SetupError",
    "Shape",
    "State",
    "TakeCard",
    "UseToken",
    "Value",
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
