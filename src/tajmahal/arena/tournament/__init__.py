"""Tournaments: many games between bots, duplicate deals, standings, resume.

Nothing here knows Taj Mahal: the games are played by the referee through the
:class:`~tajmahal.arena.game.Game` interface.

- :mod:`.schedule` — entrants, deals, seatings, game seeds.
- :mod:`.plan` — what a tournament plays (stored in its directory).
- :mod:`.journal` — the output directory and the journal of finished games.
- :mod:`.executor` — the executor interface, game tasks and outcomes;
  :mod:`.local` and :mod:`.worker` — games in parallel worker processes.
- :mod:`.stats`, :mod:`.standings` — win share, scores, ranks, ratings, intervals.
- :mod:`.runner` — :func:`run_tournament`.
- the CLI: :mod:`.command` (the click command), :mod:`.arguments` (what its
  arguments ask for, checked), :mod:`.session` (playing it, printing the results),
  :mod:`.display` (progress and tables).
"""

from .executor import (
    Executor,
    GameOutcome,
    GameTask,
    InlineExecutor,
    game_reference,
    play_task,
)
from .journal import Finished, TournamentDir, TournamentError
from .local import LocalExecutor
from .plan import Plan
from .runner import Report, run_tournament
from .schedule import Entrant, Slot, deal_seed, parse_entrants, schedule
from .standings import Standings

__all__ = [
    "Entrant",
    "Executor",
    "Finished",
    "GameOutcome",
    "GameTask",
    "InlineExecutor",
    "LocalExecutor",
    "Plan",
    "Report",
    "Slot",
    "Standings",
    "TournamentDir",
    "TournamentError",
    "deal_seed",
    "game_reference",
    "parse_entrants",
    "play_task",
    "run_tournament",
    "schedule",
]
