"""The arena: a line-based JSON protocol, a referee and game records for bots.

Nothing in this package knows Taj Mahal: a game plugs in through
:class:`~tajmahal.arena.game.Game` (Taj Mahal's is :mod:`tajmahal.tajmahal.adapter`).

- :mod:`.protocol` — the messages and the checks on bot answers.
- :mod:`.connection`, :mod:`.process`, :mod:`.scripted` — reaching a bot: in
  process, as a subprocess over pipes, or a scripted fake for tests.
- :mod:`.referee` — :func:`run_match` / :func:`play_match`: one game, faults and
  fallback, time control.
- :mod:`.record` — JSON Lines records, written and read; :mod:`.replayer` —
  their replay, every line checked against the game.
- :mod:`.commands` — the ``match`` and ``replay`` commands.
"""

from .connection import Connection, InProcessConnection, Received
from .game import AnyGame, Game
from .player import FirstPlayer, Player, RandomPlayer
from .process import ProcessConnection
from .protocol import FAULT_KINDS, PROTOCOL, VERSION
from .record import RecordError
from .referee import BotSpec, play_match, run_match
from .replayer import replay
from .terms import Fault, MatchConfig, MatchResult, SeatResult, TimeControl

__all__ = [
    "FAULT_KINDS",
    "PROTOCOL",
    "VERSION",
    "AnyGame",
    "BotSpec",
    "Connection",
    "Fault",
    "FirstPlayer",
    "Game",
    "InProcessConnection",
    "MatchConfig",
    "MatchResult",
    "Player",
    "ProcessConnection",
    "RandomPlayer",
    "Received",
    "RecordError",
    "SeatResult",
    "TimeControl",
    "play_match",
    "replay",
    "run_match",
]
