"""Java (Kramer and Kiesling): rice fields, villages, palaces and festivals on an
island, a third game on the library, protocol, referee and tournaments of Taj Mahal
and Tikal.

docs/java-rules.md has the rules with their ids and every decision the sources
leave open.  A whole action (lay a tile, walk a figure, build a palace) is made of
one to three small decisions (:mod:`tajmahal.java.actions`), the half-made action
kept in the state.  As in the other games: :func:`apply` and :func:`step` are pure,
:func:`view` keeps the secrets, :func:`determinize` guesses them; the components
are data (:mod:`tajmahal.java.components`); the arena plays Java through
:mod:`tajmahal.java.adapter` (``tajmahal match --game java ...``).

>>> import random
>>> from tajmahal.java import Setup, new_game, legal_actions, apply, is_over, ranks, scores
>>> state = new_game(Setup.random(players=2, seed=3))
>>> state.phase, state.turn.ap  # J18: six action points a turn
('act', 6)
>>> rng = random.Random(3)
>>> while not is_over(state):
...     state = apply(state, rng.choice(legal_actions(state)))
>>> sorted(ranks(scores(state)))[0]
1
"""

from __future__ import annotations

from ..kit.errors import ComponentError, IllegalAction, SetupError
from .actions import *
from .components import DEFAULT_COMPONENTS, Board, Components, load_components
from .hidden import determinize
from .legal import legal_actions
from .problems import problem
from .rules import apply, final_scoring, is_over, new_game, ranks, scores, step
from .state import ANYTIME, SCORE_SOURCES, START, Pending, Seat, Setup, State
from .views import PlayerView, view

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
    "Lay",
    "Move",
    "Pass",
    "Pending",
    "PlaceLand",
    "PlaceWater",
    "PlayerView",
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
