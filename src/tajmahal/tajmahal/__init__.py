"""Taj Mahal (Reiner Knizia): the rules engine.

The rules (with their ids and every decision where the sources are silent) are in
docs/rules.md.  An immutable :class:`State`, pure :func:`apply` / :func:`step`,
:func:`legal_actions`, :func:`view` without secrets and :func:`determinize`;
component data in ``tajmahal/data`` (:mod:`.cards`, :mod:`.board`, :mod:`.tiles`).
The arena plays it through :mod:`tajmahal.tajmahal.adapter`.  The package root
:mod:`tajmahal` re-exports this API (``from tajmahal import Setup, new_game``).

>>> from tajmahal.tajmahal import Setup, new_game, legal_actions, apply, is_over
>>> state = new_game(Setup.random(4, seed=1))
>>> while not is_over(state):
...     state = apply(state, legal_actions(state)[0])
>>> state.visit
12
"""

from __future__ import annotations

from ..kit.errors import ComponentError, IllegalAction, SetupError
from .actions import *
from .board import (
    DEFAULT_BOARD,
    Board,
    City,
    load_board,
)
from .cards import (
    CARDS,
    CHARACTERS,
    COLORS,
    SYMBOLS,
    Card,
)
from .counting import ranks
from .hidden import determinize
from .legal import legal_actions
from .rules import (
    StateError,
    apply,
    breakdown,
    check_state,
    is_over,
    new_game,
    opening_events,
    scores,
    step,
)
from .setups import Setup
from .state import (
    Dummy,
    Pending,
    PlayerState,
    Score,
    State,
)
from .tiles import BonusTile
from .views import (
    PlayerView,
    PublicSetup,
    SeatView,
    view,
)

__all__ = [
    "CARDS",
    "CHARACTERS",
    "COLORS",
    "DEFAULT_BOARD",
    "SYMBOLS",
    "Action",
    "Board",
    "BonusTile",
    "BuildMogulPalace",
    "BuildPalace",
    "Card",
    "City",
    "ComponentError",
    "Dummy",
    "IllegalAction",
    "Pending",
    "Play",
    "PlayerState",
    "PlayerView",
    "PublicSetup",
    "Score",
    "SeatView",
    "Setup",
    "SetupError",
    "State",
    "StateError",
    "TakeCard",
    "Withdraw",
    "action_text",
    "apply",
    "breakdown",
    "check_state",
    "determinize",
    "is_over",
    "legal_actions",
    "load_board",
    "new_game",
    "opening_events",
    "ranks",
    "scores",
    "step",
    "view",
]
