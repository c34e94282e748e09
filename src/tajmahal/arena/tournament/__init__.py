"""Tournaments: many games between bots, duplicate deals, standings, resume.

Nothing here knows Taj Mahal: the games are played by the referee through the
:class:`~tajmahal.arena.game.Game` interface.

- :mod:`.schedule` — entrants, deals, seat rotations, game seeds.
- :mod:`.plan` — what a tournament plays (stored in its directory).
- :mod:`.journal` — the output directory and the journal of finished games.
- :mod:`.executor` — the executor interface, game tasks and outcomes;
  :mod:`.local` and :mod:`.worker` — games in parallel worker processes.
- :mod:`.stats`, :mod:`.standings` — win share, scores, ranks, ratings, intervals.
- :mod:`.runner` — :func:`run_tournament`; :mod:`.display`, :mod:`.command` — the CLI.
"""
