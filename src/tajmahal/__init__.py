"""tajmahal: the rules engine for Reiner Knizia's Taj Mahal.

>>> from tajmahal import Setup, new_game, legal_actions, apply, is_over
>>> state = new_game(Setup.random(4, seed=1))
>>> while not is_over(state):
...     state = apply(state, legal_actions(state)[0])
>>> state.visit
12

See ``docs/api.md`` for a tour.  ``tajmahal.ENGINE`` says whether the engine runs
compiled (mypyc) or as pure Python (``TAJMAHAL_PURE=1``; see ``docs/performance.md``).

The names below are imported on first use (PEP 562), so that ``import tajmahal``
and the command line's start-up (``tajmahal --version``) stay cheap; type checkers
and ``from tajmahal import *`` see them all.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from . import _engine

__version__ = "0.1.0"

#: True when the engine's hot modules run compiled by mypyc, False for pure Python
#: (``TAJMAHAL_PURE=1``, no compiler at install time, or out-of-date extensions).
COMPILED, ENGINE = _engine.select()

if TYPE_CHECKING:
    from .actions import (
        Action,
        BuildMogulPalace,
        BuildPalace,
        Play,
        TakeCard,
        Withdraw,
        action_text,
    )
    from .board import DEFAULT_BOARD, Board, BoardError, City, load_board
    from .cards import CARDS, CHARACTERS, COLORS, SYMBOLS, Card
    from .determinize import determinize
    from .rules import (
        IllegalAction,
        StateError,
        apply,
        breakdown,
        check_state,
        is_over,
        legal_actions,
        new_game,
        opening_events,
        ranks,
        scores,
        step,
    )
    from .setups import Setup, SetupError
    from .state import Dummy, Pending, PlayerState, Score, State
    from .tiles import BonusTile
    from .views import PlayerView, PublicSetup, SeatView, view

#: Each public name's module, for the lazy imports of :func:`__getattr__`.
_HOMES: dict[str, tuple[str, ...]] = {
    "actions": (
        "Action",
        "BuildMogulPalace",
        "BuildPalace",
        "Play",
        "TakeCard",
        "Withdraw",
        "action_text",
    ),
    "board": ("DEFAULT_BOARD", "Board", "BoardError", "City", "load_board"),
    "cards": ("CARDS", "CHARACTERS", "COLORS", "SYMBOLS", "Card"),
    "determinize": ("determinize",),
    "rules": (
        "IllegalAction",
        "StateError",
        "apply",
        "breakdown",
        "check_state",
        "is_over",
        "legal_actions",
        "new_game",
        "opening_events",
        "ranks",
        "scores",
        "step",
    ),
    "setups": ("Setup", "SetupError"),
    "state": ("Dummy", "Pending", "PlayerState", "Score", "State"),
    "tiles": ("BonusTile",),
    "views": ("PlayerView", "PublicSetup", "SeatView", "view"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'tajmahal' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


class _Root(types.ModuleType):
    """The package, keeping a public name that is also its module's name
    (``determinize``) bound to the public function: importing ``tajmahal.determinize``
    (as ``tajmahal.bots`` does) would otherwise rebind the name to the module, and
    ``from tajmahal import determinize`` would give the module."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _MODULE_OF.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Root


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "CARDS",
    "CHARACTERS",
    "COLORS",
    "DEFAULT_BOARD",
    "SYMBOLS",
    "Action",
    "Board",
    "BoardError",
    "BonusTile",
    "BuildMogulPalace",
    "BuildPalace",
    "Card",
    "City",
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
