"""The ladder's database: SQLAlchemy 2 (Core) over an embedded SQLite file or a
PostgreSQL server, through the same code.

SQLite runs in WAL mode (readers never wait for the writer), foreign keys on,
and a write transaction that takes the write lock as it begins (``BEGIN
IMMEDIATE``): a read-then-write never races another writer.  Its commits are
synced at checkpoints (``synchronous=NORMAL``, what SQLite advises for WAL): a
killed process loses no committed transaction; a machine that loses power may
lose the last ones, never the database's consistency (a game whose end is lost
so is played again: the ladder counts nothing twice).
PostgreSQL's write transactions take the ladder's row ``FOR UPDATE`` first, to
the same effect.  Every write is one transaction: all of it or none of it.

A database that is not a ladder, holds another schema version (:data:`~.schema.
REVISION`) or cannot be reached raises :class:`LadderError`, whose message is
one line for the user.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, CursorResult, Engine, create_engine, event, select, text
from sqlalchemy.exc import DBAPIError, NoSuchTableError, SQLAlchemyError

from ...extras import MissingExtra, require
from .schema import METADATA, REVISION, REVISIONS, ladder

#: The key of PostgreSQL's advisory lock that one ``ladder run`` holds.
_RUN_LOCK: Final = 0x74616A6C  # "tajl"
#: Seconds SQLite waits for another writer before giving up.
_BUSY: Final = 60.0
_LOCK_LADDER: Final = select(ladder.c.id).with_for_update()


class LadderError(Exception):
    """A ladder that cannot be used as asked (the message is one line)."""


def now() -> str:
    """The time in UTC, ISO 8601 to the second (how the ladder stamps rows)."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql", "postgres:"))


def engine_url(url: str) -> str:
    """``url`` as SQLAlchemy takes it: PostgreSQL through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def shown_url(url: str) -> str:
    """``url`` without its password, for messages."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return "the database"


def require_driver(url: str) -> None:
    """A :class:`LadderError` naming the extra to install when ``url`` needs a
    driver that is missing."""
    if is_postgres(url):
        try:
            require("postgres", "a ladder on PostgreSQL", ("psycopg",))
        except MissingExtra as e:
            raise LadderError(str(e)) from None
    elif not url.startswith("sqlite"):
        raise LadderError(
            f"{shown_url(url)}: a ladder's database is SQLite (a file) or PostgreSQL "
            "(postgresql://USER@HOST/DATABASE)"
        )


def first_line(error: BaseException) -> str:
    """The first line of a database error's own message."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return lines[0] if lines else type(cause).__name__


@contextlib.contextmanager
def translated(url: str) -> Iterator[None]:
    """Database errors in the block become one :class:`LadderError` line."""
    try:
        yield
    except DBAPIError as e:
        gone = e.connection_invalidated or type(e.orig).__name__ in (
            "OperationalError", "InterfaceError")
        what = "cannot be reached, or went away" if gone else "refused a request"
        raise LadderError(f"the database {shown_url(url)} {what}: {first_line(e)}") from None
    except SQLAlchemyError as e:
        raise LadderError(f"the database {shown_url(url)}: {first_line(e)}") from None


class Database:
    """An open ladder database (:func:`open_database`, :func:`create_database`)."""

    def __init__(self, url: str) -> None:
        require_driver(url)
        self.url = url
        self.postgres = is_postgres(url)
        self.engine: Engine = _engine(url)
        self._held: Connection | None = None

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in a read transaction (a consistent view)."""
        with translated(self.url), self.engine.connect() as conn, conn.begin():
            yield conn

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed at the end of the block
        (rolled back if it raises); writers take turns."""
        with translated(self.url), self._connection() as conn:
            conn.execution_options(ladder_write=True)
            with conn.begin():
                if self.postgres:
                    conn.execute(_LOCK_LADDER)
                yield conn

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Connection]:
        if self._held is not None:
            yield self._held
            return
        with self.engine.connect() as conn:
            yield conn

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Keep one connection for the writes of the block (a runner's many)."""
        with translated(self.url), self.engine.connect() as conn:
            self._held = conn
            try:
                yield
            finally:
                self._held = None

    def settings(self) -> dict[str, Any]:
        """The ladder's row (its settings, and where its scheduler stands)."""
        with self.read() as conn:
            row = conn.execute(select(ladder)).mappings().first()
        if row is None:
            raise LadderError(f"{shown_url(self.url)} holds no ladder (its table is empty)")
        return dict(row)

    @contextlib.contextmanager
    def run_lock(self, where: Path) -> Iterator[None]:
        """Held by the one ``ladder run`` of this ladder: a :class:`LadderError`
        if another holds it (PostgreSQL: an advisory lock of the session, freed
        if the process dies; SQLite: a lock on a file beside the database)."""
        if self.postgres:
            with translated(self.url), self.engine.connect() as conn:
                taken = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _RUN_LOCK})
                if not taken.scalar():
                    raise LadderError(f"another `ladder run` is playing this ladder ({where})")
                conn.commit()
                try:
                    yield
                finally:
                    with contextlib.suppress(SQLAlchemyError):
                        conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _RUN_LOCK})
            return
        path = sqlite_path(self.url).with_name("run.lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise LadderError(
                    f"another `ladder run` is playing this ladder ({where})") from None
            yield
        finally:
            os.close(fd)

    def close(self) -> None:
        self.engine.dispose()


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


def _engine(url: str) -> Engine:
    if is_postgres(url):
        return create_engine(engine_url(url), pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": _BUSY})

    @event.listens_for(engine, "connect")
    def connected(dbapi: Any, record: Any) -> None:
        dbapi.isolation_level = None  # the transactions begin as :func:`began` says
        cursor = dbapi.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def began(conn: Connection) -> None:
        write = conn.get_execution_options().get("ladder_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def schema_revision(conn: Connection) -> str | None:
    """The schema revision the database says it has (None: not a ladder)."""
    try:
        row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    except (DBAPIError, NoSuchTableError):
        return None
    return None if row is None else str(row[0])


def open_database(url: str) -> Database:
    """The ladder database at ``url``, its schema checked."""
    db = Database(url)
    try:
        with translated(url), db.engine.connect() as conn:
            revision = schema_revision(conn)
        check_revision(url, revision)
    except BaseException:
        db.close()
        raise
    return db


def check_revision(url: str, revision: str | None) -> None:
    where = shown_url(url)
    if revision is None:
        raise LadderError(f"{where} is not a ladder's database (no schema version in it)")
    if revision == REVISION:
        return
    if revision in REVISIONS:
        raise LadderError(
            f"{where} has the ladder schema {revision}, older than this tajmahal's "
            f"{REVISION}: `tajmahal ladder upgrade` brings it up to date"
        )
    raise LadderError(
        f"{where} has the ladder schema {revision!r}, which this tajmahal (schema "
        f"{REVISION}) does not know: made by a newer version?"
    )


def create_database(url: str, settings: dict[str, Any]) -> Database:
    """Make the ladder's tables in the (empty) database at ``url``, stamp them
    with the schema's revision, and write ``settings`` as its row."""
    db = Database(url)
    try:
        with translated(url), db.engine.connect() as conn:
            revision = schema_revision(conn)
        if revision is not None:
            raise LadderError(
                f"{shown_url(url)} already holds a ladder (schema {revision}): give another "
                "database, or use the ladder that is there"
            )
        with translated(url), db.engine.begin() as conn:
            METADATA.create_all(conn)
            _stamp(conn)
            conn.execute(ladder.insert().values(id=1, **settings))
    except BaseException:
        db.close()
        raise
    return db


def _alembic_config(conn: Connection) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    config.attributes["connection"] = conn
    return config


def _stamp(conn: Connection) -> None:
    """Mark a schema just made by ``create_all`` as the newest revision (Alembic's
    "building an up to date database from scratch")."""
    from alembic import command

    command.stamp(_alembic_config(conn), REVISION)


def upgrade(url: str) -> tuple[str | None, str]:
    """Bring the ladder at ``url`` to this code's schema; the revisions before and
    after."""
    from alembic import command

    db = Database(url)
    try:
        with translated(url), db.engine.begin() as conn:
            before = schema_revision(conn)
            if before is None:
                check_revision(url, before)
            if before not in REVISIONS:
                check_revision(url, before)
            command.upgrade(_alembic_config(conn), "head")
            after = schema_revision(conn)
    finally:
        db.close()
    return before, after or REVISION
