"""Owners, bots and their versions: what ``ladder add``, ``retire``, ``owners``
and the API's uploads write.

An owner has an API token: :func:`new_token` makes a random one (256 bits),
shown once; the database keeps only its SHA-256 (a token is random, not a
password: a fast hash suffices, and a lookup by hash is all a request costs).
A bot belongs to its owner (or to nobody: the organiser's house bots); each
submission that changes its folder or command is a new version, which takes
its place in matchmaking while the old ones keep their games and ratings.
A built-in bot of the game (``random``, ``greedy``...) is a version without a
folder: it runs inside the referee.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from pathlib import Path
from typing import Final

from attrs import frozen
from sqlalchemy import Connection, func, select, update

from ..text import printable
from .database import Database, LadderError, inserted_id, now
from .folders import store
from .rating import INITIAL
from .schema import NAME_LENGTH, bots, owners, ratings, versions

TOKEN_PREFIX: Final = "tjl_"
_NAME: Final = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.+-]{{0,{NAME_LENGTH - 1}}}")


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_name(name: str, what: str) -> str:
    """``name`` if it is a valid bot or owner name (letters, digits, ``_.+-``)."""
    if not _NAME.fullmatch(name):
        raise LadderError(
            f"{printable(name, limit=80)!r} cannot be a {what}'s name: letters, digits and "
            f"_.+- only, starting with a letter or digit, at most {NAME_LENGTH} characters"
        )
    return name


@frozen
class Added:
    """What a submission did: the bot's ``name``, the version's ``number`` and
    ``digest``; ``unchanged``: it was the bot's current version already (nothing
    added); ``token``: the new owner's token (shown once), when one was made."""

    name: str
    number: int
    digest: str
    new_bot: bool
    unchanged: bool = False
    token: str | None = None
    owner: str | None = None


@frozen
class Stored:
    """What a version runs: a built-in bot of the game (``command`` is its name), or
    the ``command`` that starts the bot in its folder, stored under ``digest``."""

    command: str
    builtin: bool
    digest: str

    @classmethod
    def of_builtin(cls, name: str) -> Stored:
        digest = hashlib.sha256(f"tajmahal-ladder-builtin\0{name}".encode()).hexdigest()
        return cls(name, True, digest)

    @classmethod
    def of_folder(cls, folder: Path, command: str, versions_dir: Path) -> Stored:
        """``folder`` checked and copied into ``versions_dir`` (see :mod:`.folders`)."""
        return cls(command, False, store(folder, command, versions_dir))


def add_version(
    db: Database,
    name: str,
    stored: Stored,
    owner: str | None = None,
    owner_id: int | None = None,
) -> Added:
    """Submit ``stored`` as a version of bot ``name`` (new, or owned by ``owner``:
    by name, made if unknown; or by id, from a token)."""
    check_name(name, "bot")
    command, built_in, digest = stored.command, stored.builtin, stored.digest
    with db.write() as conn:
        token = None
        if owner is not None and owner_id is None:
            owner_id, token = _owner(conn, check_name(owner, "owner"))
        bot = conn.execute(select(bots).where(bots.c.name == name)).mappings().first()
        stamp = now()
        if bot is None:
            bot_id = inserted_id(conn.execute(
                bots.insert().values(name=name, owner_id=owner_id, created=stamp)
            ))
            number = 1
        else:
            bot_id = bot["id"]
            if bot["owner_id"] != owner_id:
                holder = _owner_name(conn, bot["owner_id"])
                raise LadderError(f"the bot {name!r} belongs to {holder}: choose another name")
            current = conn.execute(
                select(versions.c.number, versions.c.digest).where(
                    versions.c.bot_id == bot_id, versions.c.current)
            ).first()
            if current is not None and current.digest == digest and bot["retired"] is None:
                return Added(name, current.number, digest, False, unchanged=True)
            number = 1 + (conn.execute(
                select(func.max(versions.c.number)).where(versions.c.bot_id == bot_id)
            ).scalar() or 0)
            conn.execute(update(versions).where(versions.c.bot_id == bot_id).values(current=False))
            conn.execute(update(bots).where(bots.c.id == bot_id).values(retired=None))
        version_id = inserted_id(conn.execute(versions.insert().values(
            bot_id=bot_id, number=number, digest=digest, command=command, builtin=built_in,
            created=stamp, current=True, passes=None,
        )))
        mu, sigma = INITIAL
        conn.execute(ratings.insert().values(
            version_id=version_id, mu=mu, sigma=sigma, games=0, wins=0.0, rank_sum=0, faults=0,
            last_game=None,
        ))
        return Added(name, number, digest, bot is None, token=token,
                     owner=_owner_name(conn, owner_id) if owner_id is not None else None)


def _owner(conn: Connection, name: str) -> tuple[int, str | None]:
    """The owner called ``name``: its id, and its new token if it was made now."""
    found = conn.execute(select(owners.c.id).where(owners.c.name == name)).scalar()
    if found is not None:
        return int(found), None
    token = new_token()
    made = inserted_id(conn.execute(owners.insert().values(
        name=name, token_sha256=token_digest(token), created=now())))
    return int(made), token


def _owner_name(conn: Connection, owner_id: int | None) -> str:
    if owner_id is None:
        return "the ladder (no owner)"
    return str(conn.execute(select(owners.c.name).where(owners.c.id == owner_id)).scalar())


def add_owner(db: Database, name: str) -> str:
    """Make the owner ``name``; its token (shown once)."""
    check_name(name, "owner")
    with db.write() as conn:
        if conn.execute(select(owners.c.id).where(owners.c.name == name)).first() is not None:
            raise LadderError(f"there is an owner {name!r} already (`ladder owners token "
                              f"{name}` gives it a new token)")
        _, token = _owner(conn, name)
    assert token is not None
    return token


def new_owner_token(db: Database, name: str) -> str:
    """A new token for the owner ``name`` (the old one stops working)."""
    token = new_token()
    with db.write() as conn:
        done = conn.execute(update(owners).where(owners.c.name == name).values(
            token_sha256=token_digest(token)))
        if done.rowcount != 1:
            raise LadderError(f"no owner {printable(name, limit=80)!r}")
    return token


def owner_of_token(db: Database, token: str) -> tuple[int, str] | None:
    """The owner (id, name) whose token ``token`` is; None for none."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    with db.read() as conn:
        row = conn.execute(select(owners.c.id, owners.c.name).where(
            owners.c.token_sha256 == token_digest(token))).first()
    return None if row is None else (int(row.id), str(row.name))


def retire(db: Database, name: str, owner_id: int | None = None) -> None:
    """Take bot ``name`` out of matchmaking (its games and ratings stay; a new
    version brings it back).  ``owner_id``: it must be theirs."""
    with db.write() as conn:
        bot = conn.execute(select(bots).where(bots.c.name == name)).mappings().first()
        if bot is None:
            raise LadderError(f"no bot {printable(name, limit=80)!r} in this ladder")
        if owner_id is not None and bot["owner_id"] != owner_id:
            raise LadderError(f"the bot {name!r} is not yours")
        if bot["retired"] is not None:
            raise LadderError(f"the bot {name!r} is retired already")
        conn.execute(update(bots).where(bots.c.id == bot["id"]).values(retired=now()))
