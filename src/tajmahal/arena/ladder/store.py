"""A ladder's directory: where it is found, and the files beside its database.

::

    DIR/ladder.json          which database holds the ladder (readable by you only)
    DIR/db/ladder.db         the SQLite database (WAL: with -wal and -shm files)
    DIR/versions/DIGEST/     each bot version's folder, content-hashed, read-only
    DIR/games/NNNNNN.jsonl   each finished game's record (as ``replay --verify`` reads)
    DIR/logs/NNNNNN.seatS.log  the bots' stderr
    DIR/incoming/            uploads being unpacked and checked
    DIR/workers.log          what the game workers printed

Every command finds its ladder in the current directory, in ``--ladder DIR``,
or by ``--db URL`` (then the directory is the one the ladder was made in).
A sandboxed bot sees its own version folder and nothing else of the ladder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import orjson
from attrs import frozen

from ..tournament.journal import GAMES, LOGS, GameFiles, record_name, write_atomically
from .database import LadderError

MANIFEST: Final = "ladder.json"
FORMAT: Final = "tajmahal-ladder"
FORMAT_VERSION: Final = 1
DB_DIR: Final = "db"
VERSIONS: Final = "versions"
INCOMING: Final = "incoming"
WORKERS_LOG: Final = "workers.log"


@frozen
class LadderDir(GameFiles):
    """The ladder's directory (``root``, absolute) and its database's URL."""

    root: Path
    url: str

    @property
    def versions_dir(self) -> Path:
        return self.root / VERSIONS

    @property
    def incoming(self) -> Path:
        return self.root / INCOMING

    def record_relative(self, game: int) -> str:
        return f"{GAMES}/{record_name(game)}"

    def version_dir(self, digest: str) -> Path:
        return self.versions_dir / digest

    def hidden(self) -> tuple[Path, ...]:
        """What a sandboxed bot must not see (its own version folder aside)."""
        return (self.games_dir, self.log_dir, self.root / DB_DIR, self.incoming)


def default_url(root: Path) -> str:
    return f"sqlite:///{root / DB_DIR / 'ladder.db'}"


def make_dir(root: Path, url: str | None) -> LadderDir:
    """Create the ladder directory ``root`` (new, or empty) for the database at
    ``url`` (None: a SQLite file in it)."""
    root = root.absolute()
    if (root / MANIFEST).exists():
        raise LadderError(f"{root} already holds a ladder: use it, or give another directory")
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise LadderError(f"{root} is not an empty directory: give a new or empty one")
    try:
        root.mkdir(parents=True, exist_ok=True)
        for sub in (DB_DIR, VERSIONS, GAMES, LOGS, INCOMING):
            (root / sub).mkdir(exist_ok=True)
        (root / DB_DIR).chmod(0o700)
        data = {"format": FORMAT, "format_version": FORMAT_VERSION, "db": url}
        write_atomically(root / MANIFEST, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
        (root / MANIFEST).chmod(0o600)  # a PostgreSQL URL may hold a password
    except OSError as e:
        raise LadderError(f"{root}: cannot make the ladder there ({e.strerror or e})") from None
    return LadderDir(root, url or default_url(root))


def find(ladder: Path | None, db: str | None) -> LadderDir | None:
    """The ladder ``--ladder DIR`` (or the current directory) holds; with ``db``
    given that URL instead of the one stored (the directory then comes from the
    database when none is given: None here).  A :class:`LadderError` when there
    is none."""
    if ladder is None and db is not None:
        return None
    root = (ladder or Path.cwd()).absolute()
    path = root / MANIFEST
    if not path.is_file():
        where = "here" if ladder is None else f"in {root}"
        raise LadderError(
            f"no ladder {where} (no {MANIFEST}): give --ladder DIR or --db URL, or make one "
            "with `tajmahal ladder init DIR`"
        )
    try:
        data = orjson.loads(path.read_bytes())
        if data.get("format") != FORMAT:
            raise ValueError(f"its format is {data.get('format')!r}, not {FORMAT!r}")
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"format version {data.get('format_version')} is not supported")
        stored = data.get("db")
    except (OSError, ValueError, AttributeError) as e:
        raise LadderError(f"{path}: not a ladder's file ({e})") from None
    url = db or (stored if isinstance(stored, str) else default_url(root))
    return LadderDir(root, url)


def prepare_dirs(place: LadderDir) -> None:
    """Make the directory's folders where they are missing (a ladder opened by
    ``--db`` on a machine that has not held it yet)."""
    try:
        for sub in (VERSIONS, GAMES, LOGS, INCOMING):
            (place.root / sub).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LadderError(f"{place.root}: cannot use the ladder's folders ({e.strerror or e})"
                          ) from None


def remove_partial_records(place: LadderDir) -> None:
    """Remove the records that games under way left when they were stopped."""
    for part in place.games_dir.glob(".*.part"):
        try:
            part.unlink()
        except OSError:
            continue


def shown(path: Path) -> str:
    """``path`` as messages show it: relative to the current directory when it is
    beneath it (``.`` for that directory itself)."""
    try:
        return str(path.relative_to(Path.cwd().absolute()))
    except ValueError:
        return str(path)


def described_url(place: LadderDir) -> str:
    """The database as messages show it: the ladder's own SQLite file, or the URL
    (without its password)."""
    from .database import shown_url

    if place.url == default_url(place.root):
        return f"{DB_DIR}/ladder.db in it (SQLite)"
    return shown_url(place.url)


def relative(place: LadderDir, path: str) -> str:
    """``path`` relative to the ladder's directory (as the database keeps it)."""
    inside = f"{place.root}{os.sep}"
    return path[len(inside):] if path.startswith(inside) else path
