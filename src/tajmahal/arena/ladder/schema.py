"""The ladder's tables (SQLAlchemy Core), the same for SQLite and PostgreSQL.

One database holds one ladder:

- ``ladder``: its one row of settings (the game, players per game, the seed that
  fixes the schedule, the referee's limits) and where the scheduler stands;
- ``owners`` (a hashed API token each), ``bots`` (a name, an owner, retired or
  not) and ``versions`` (each an immutable, content-hashed copy of a bot's
  folder and the command that starts it; a bot's newest is its ``current``);
- ``games`` (rated ones numbered by their ``slot`` in the schedule, requested
  ones unrated), ``seats`` (who sat where, and how it went), each finished
  game's record path and SHA-256;
- ``ratings`` (each version's rating and totals now) and ``rating_history``
  (its rating after each rated game, in schedule order: the games of the slots
  below the first one still scheduled are all rated);
- ``requests`` (unrated games an owner asked for);
- ``meetings`` (schema 0002): the head-to-head sums of each ordered pair of
  bots, kept as games finish (:mod:`.meetings`).

The schema's version is Alembic's (:data:`REVISION`, kept in the table
``alembic_version``); :mod:`.migrations` upgrades an older one.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

#: The schema this code reads and writes (the head of :mod:`.migrations`), and
#: every revision before it that ``tajmahal ladder upgrade`` brings up to it.
REVISION: Final = "0002"
REVISIONS: Final = ("0001", "0002")

#: Game kinds and states.
RATED: Final = "rated"
REQUESTED: Final = "requested"
SCHEDULED: Final = "scheduled"
FINISHED: Final = "finished"
VOID: Final = "void"

NAME_LENGTH: Final = 64
_STAMP: Final = 32  # ISO 8601 times, UTC, to the second

METADATA = MetaData()

ladder = Table(
    "ladder",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("game", String(100), nullable=False),
    #: Players per game: from ``players`` to ``max_players`` (the same: a fixed number).
    Column("players", Integer, nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("variant", String(100)),
    Column("seed", BigInteger, nullable=False),
    #: The secret the seeds told to the bots are made with (never shown): 64 hex digits.
    Column("secret", String(64), nullable=False),
    Column("round_games", Integer, nullable=False),
    Column("placement", Integer, nullable=False),
    Column("duplicate", Boolean, nullable=False),
    Column("time_move", Double, nullable=False),
    Column("time_bank", Double, nullable=False),
    Column("handshake", Double, nullable=False),
    Column("grace", Double, nullable=False),
    Column("max_line", Integer, nullable=False),
    Column("max_log", BigInteger, nullable=False),
    Column("memory", Integer),
    Column("store", Text, nullable=False),
    Column("created", String(_STAMP), nullable=False),
    #: Rounds of the rated schedule planned so far.
    Column("planned_rounds", Integer, nullable=False),
)

owners = Table(
    "owners",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=False, unique=True),
    Column("token_sha256", String(64), unique=True),
    Column("created", String(_STAMP), nullable=False),
)

bots = Table(
    "bots",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=False, unique=True),
    Column("owner_id", Integer, ForeignKey("owners.id")),
    Column("created", String(_STAMP), nullable=False),
    Column("retired", String(_STAMP)),
)

versions = Table(
    "versions",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("bot_id", Integer, ForeignKey("bots.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("digest", String(64), nullable=False),
    Column("command", Text, nullable=False),
    Column("builtin", Boolean, nullable=False),
    Column("created", String(_STAMP), nullable=False),
    Column("current", Boolean, nullable=False),
    #: The scheduler's clock for this version (None until it is first scheduled).
    Column("passes", Double),
    UniqueConstraint("bot_id", "number"),
)

requests = Table(
    "requests",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("owner_id", Integer, ForeignKey("owners.id")),
    Column("created", String(_STAMP), nullable=False),
    Column("games", Integer, nullable=False),
)

games = Table(
    "games",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("slot", Integer, unique=True),
    Column("kind", String(16), nullable=False),
    Column("request_id", Integer, ForeignKey("requests.id")),
    Column("seed", BigInteger, nullable=False),
    Column("deal", Integer),
    Column("rotation", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", String(_STAMP), nullable=False),
    Column("finished", String(_STAMP)),
    Column("tries", Integer, nullable=False),
    Column("error", Text),
    Column("record", Text),
    Column("record_sha256", String(64)),
    Column("decisions", Integer),
    Column("duration", Double),
    Index("games_by_status", "status", "id"),
    #: The games of a deal (:func:`.meetings.count_game`; schema 0002).
    Index("games_by_deal", "deal"),
)

seats = Table(
    "seats",
    METADATA,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version_id", Integer, ForeignKey("versions.id"), nullable=False),
    Column("score", Integer),
    Column("rank", Integer),
    Column("fault", String(32)),
    Column("decisions", Integer),
    Column("fallback_decisions", Integer),
    Column("time_used", Double),
    Column("log", Text),
    Index("seats_by_version", "version_id", "game_id"),
)

ratings = Table(
    "ratings",
    METADATA,
    Column("version_id", Integer, ForeignKey("versions.id"), primary_key=True),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("games", Integer, nullable=False),
    #: Shares of first place (a first place shared by m seats counts 1/m).
    Column("wins", Double, nullable=False),
    Column("rank_sum", Integer, nullable=False),
    Column("faults", Integer, nullable=False),
    Column("last_game", Integer),
)

rating_history = Table(
    "rating_history",
    METADATA,
    Column("slot", Integer, primary_key=True),
    Column("version_id", Integer, ForeignKey("versions.id"), primary_key=True),
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Index("history_by_version", "version_id", "slot"),
)

#: Schema 0002: the head-to-head sums of bot ``bot_id`` against bot ``other_id``
#: (any versions) over their finished rated games (see :mod:`.meetings`).
meetings = Table(
    "meetings",
    METADATA,
    Column("bot_id", Integer, ForeignKey("bots.id"), primary_key=True),
    Column("other_id", Integer, ForeignKey("bots.id"), primary_key=True),
    Column("games", Integer, nullable=False),
    #: Deals met in (each a cluster of games).
    Column("deals", Integer, nullable=False),
    #: Shares of games ahead (a tie counts 1/2), their sum per deal squared,
    #: times the deal's games; the deals' games squared.
    Column("ahead", Double, nullable=False),
    Column("ahead_squares", Double, nullable=False),
    Column("ahead_by_games", Double, nullable=False),
    Column("games_squares", Integer, nullable=False),
    Column("ahead_games", Integer, nullable=False),
    Column("behind_games", Integer, nullable=False),
    Column("last_game", Integer, ForeignKey("games.id"), nullable=False),
)
