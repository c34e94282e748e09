"""Every game of the package in OpenSpiel: ``import tajmahal.openspiel`` registers
``python_tajmahal``, ``python_tikal`` and ``python_java``, and ``python_<name>`` for
each game another package adds through the ``tajmahal.games`` entry points with an
encoding (:func:`register` adds one by hand).

>>> import pyspiel
>>> import tajmahal.openspiel
>>> game = pyspiel.load_game("python_tajmahal", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 1623, 96)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # who starts
(True, 3)

Each game is sequential, of imperfect information, with explicit chance nodes:
the game's chance model (:mod:`tajmahal.kit.chance`; Taj Mahal's is
:mod:`tajmahal.tajmahal.chance`) turns its setup and every draw into chance
nodes, one random event each, chosen when it happens.  Player actions are the
indices of the game's encoding (:mod:`tajmahal.kit.encoding`).  Returns come at
the end: :func:`tajmahal.kit.encoding.zero_sum` of the scores (+1 for a lone
winner, ``-1/(n-1)`` for each other seat).  The observation (string and tensor)
is the seat's current view; the information state is the seat's whole
action-observation history (perfect recall), its tensor a fixed-length sequence
of token ids (:class:`tajmahal.kit.chance.Tokens`).

The pieces: :mod:`~tajmahal.openspiel.game` (the game, its states and their
observers), :mod:`~tajmahal.openspiel.registry` (which
games OpenSpiel knows) and :mod:`~tajmahal.openspiel.bots` (OpenSpiel's bots at a
referee's table).

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``: open_spiel and numpy).
"""

from __future__ import annotations

from ..extras import require

require("rl", "tajmahal.openspiel", ("numpy", "pyspiel"))

from .bots import BotsEvaluator, OpenSpielPlayer, ismcts_bot, ismcts_player
from .game import Core, OpenSpielGame, OpenSpielState, game_type, short_name
from .observers import (
    HistoryObserver,
    InfoStateObserver,
    ObservationObserver,
    PartsObserver,
    history_text,
)
from .registry import register, register_all, registered

__all__ = [
    "BotsEvaluator",
    "Core",
    "HistoryObserver",
    "InfoStateObserver",
    "ObservationObserver",
    "OpenSpielGame",
    "OpenSpielPlayer",
    "OpenSpielState",
    "PartsObserver",
    "game_type",
    "history_text",
    "ismcts_bot",
    "ismcts_player",
    "register",
    "registered",
    "short_name",
]

register_all()
