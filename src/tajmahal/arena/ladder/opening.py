"""Opening a ladder for a command: its directory, its database (the schema
checked), and its game (from the registry: the ladder knows no game itself).

``--ladder DIR`` and ``--db URL`` are options of every ``ladder`` command; a
ladder that cannot be opened is a one-line error (:class:`LadderError`), and so
is a missing extra (``pip install 'tajmahal[ladder]'``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click
from attrs import frozen

from ...extras import MissingExtra, require
from ..game import AnyGame
from ..registry import GameRegistry, UnknownGame

F = TypeVar("F", bound=Callable[..., Any])


def where_options(command: F) -> F:
    """``--ladder DIR`` and ``--db URL``."""
    command = click.option(
        "--db",
        "db_url",
        metavar="URL",
        help="The ladder's database (postgresql://USER@HOST/DB, or sqlite:///PATH) "
        "[default: the one DIR/ladder.json names].",
    )(command)
    return click.option(
        "--ladder",
        "ladder_dir",
        type=click.Path(file_okay=False, path_type=Path),
        metavar="DIR",
        help="The ladder's directory [default: the current directory].",
    )(command)


def require_ladder() -> None:
    try:
        require("ladder", "tajmahal ladder", ("sqlalchemy", "alembic"))
    except MissingExtra as e:
        raise click.ClickException(str(e)) from None


@frozen
class Opened:
    """An open ladder: its directory and database, its settings, its game."""

    place: Any  # store.LadderDir
    db: Any  # database.Database
    settings: dict[str, Any]
    game: AnyGame


@contextlib.contextmanager
def opened(registry: GameRegistry, ladder_dir: Path | None, db_url: str | None
           ) -> Iterator[Opened]:
    """The ladder the options name, closed at the end; its errors are one line."""
    require_ladder()
    from .database import LadderError, open_database
    from .store import LadderDir, find, prepare_dirs

    with errors_as_lines():
        place = find(ladder_dir, db_url)
        url = place.url if place is not None else str(db_url)
        db = open_database(url)
    try:
        with errors_as_lines():
            settings = db.settings()
            if place is None:
                place = LadderDir(Path(settings["store"]), url)
            prepare_dirs(place)
            try:
                game = registry.by_id(settings["game"])
            except UnknownGame as e:
                raise LadderError(f"the ladder's game is not installed here: {e}") from None
        yield Opened(place, db, settings, game)
    finally:
        db.close()


@contextlib.contextmanager
def errors_as_lines() -> Iterator[None]:
    """A :class:`LadderError` in the block becomes the command's one-line error."""
    from .database import LadderError

    try:
        yield
    except LadderError as e:
        raise click.ClickException(str(e)) from None
