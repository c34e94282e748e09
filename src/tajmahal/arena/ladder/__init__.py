"""The ladder: a competition server where bots of different authors meet
continuously, rated as they play (``tajmahal ladder``; docs/ladder.md).

Nothing here knows any game: games come from the registry and are played by
the tournament's executors and the referee.

- :mod:`.schema`, :mod:`.database`, :mod:`.migrations` — the tables (SQLAlchemy
  Core), SQLite or PostgreSQL through one code, the schema's versions (Alembic).
- :mod:`.store` — the ladder's directory; :mod:`.folders` — bot folders and
  uploads, checked, content-hashed, immutable.
- :mod:`.roster` — owners, tokens, bots and versions.
- :mod:`.matchmaking` (pure), :mod:`.schedule` — who meets whom, round by round.
- :mod:`.rating` — openskill's Plackett-Luce; :mod:`.runner` — playing the
  games, one transaction a game; :mod:`.verify` — records against the database.
- :mod:`.queries` — what the commands and the API show; :mod:`.command`,
  :mod:`.run_command`, :mod:`.views`, :mod:`.opening` — the CLI; :mod:`.api` —
  the HTTP JSON API.
"""
