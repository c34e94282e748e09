"""The games this package ships, by name: what ``tajmahal match --game NAME`` plays.

Each game is an arena :class:`~tajmahal.arena.game.Game` in an adapter module,
imported only when a command asks for it.  Other packages add games through the
entry-point group ``tajmahal.games`` (see :mod:`tajmahal.arena.registry`).

>>> GAMES.get("tikal").title
'Tikal'
>>> GAMES.get().name  # the default game
'tajmahal'
"""

from __future__ import annotations

from typing import Final

from .arena.registry import GameEntry, GameRegistry

#: The game played when no ``--game`` is given.
DEFAULT: Final = "tajmahal"

#: Each game by its one id: the name ``--game`` takes is the ``game`` of the hello,
#: of records and of tournaments (``taj-mahal`` is also understood).
BUILTIN: Final = (
    GameEntry("tajmahal", "tajmahal.tajmahal.adapter:TAJMAHAL", aliases=("taj-mahal",)),
    GameEntry("tikal", "tajmahal.tikal.adapter:TIKAL"),
    GameEntry("java", "tajmahal.java.adapter:JAVA"),
)

GAMES: Final = GameRegistry(BUILTIN, default=DEFAULT)
