"""Games by name, for the commands: which :class:`~tajmahal.arena.game.Game` ``--game``
means, and which one wrote a record.

Every game, the ones this package ships included, is a plugin: an installed
distribution declares it in the entry-point group :data:`GROUP`, and may name
the game a command plays when it names none in :data:`DEFAULT_GROUP`::

    [project.entry-points."tajmahal.games"]
    my-game = "my_package.adapter:GAME"

Games are listed by name; a game's other names are its
:attr:`~tajmahal.arena.game.Game.aliases`.  A game is imported only when it is
asked for (the command line starts fast, and a game's modules are loaded only by
the commands that play it) and checked then
(:func:`~tajmahal.arena.game.missing_parts`).  The default game is the one the
distribution that ships this package names (another distribution's where it
names none), else the first by name.

Nothing here knows any particular game.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Iterable
from typing import Final

import attrs

from .game import AnyGame, missing_parts

#: The entry-point group in which packages declare games.
GROUP: Final = "tajmahal.games"
#: The entry-point group that names the game played when none is named.
DEFAULT_GROUP: Final = "tajmahal.default"
#: The distribution whose choice of the default game comes first.
PLATFORM: Final = __name__.partition(".")[0]


class UnknownGame(ValueError):
    """No game of that name, or one that cannot be loaded."""


@attrs.frozen
class GameEntry:
    """A game the registry can load: its command-line ``name`` and where it lives
    (``module:attribute``)."""

    name: str
    reference: str


def load_reference(reference: str) -> AnyGame:
    """The game named ``module:attribute``, checked; raises :class:`UnknownGame`,
    in one line, when it is missing or incomplete."""
    module, _, attribute = reference.partition(":")
    try:
        game = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError, TypeError) as e:  # TypeError: an abstract method
        raise UnknownGame(f"cannot load the game {reference!r}: {e}") from None
    missing = missing_parts(game)
    if missing:
        raise UnknownGame(f"the game {reference!r} is incomplete: no {', '.join(missing)}")
    loaded: AnyGame = game
    return loaded


def installed_entries() -> tuple[GameEntry, ...]:
    """The games the installed distributions declare, by name (a name declared
    twice keeps its first reference)."""
    found: dict[str, GameEntry] = {}
    for point in importlib.metadata.entry_points(group=GROUP):
        found.setdefault(point.name, GameEntry(point.name, point.value))
    return tuple(found[name] for name in sorted(found))


def installed_default() -> str | None:
    """The name of the game :data:`DEFAULT_GROUP` names: :data:`PLATFORM`'s choice
    first; None if no distribution names one."""
    points = sorted(
        importlib.metadata.entry_points(group=DEFAULT_GROUP),
        key=lambda p: p.dist is None or p.dist.name != PLATFORM,
    )
    return points[0].name if points else None


class GameRegistry:
    """The games of a command line: ``entries`` (default: the installed games, read
    when first needed) and the ``default`` one's name (default: the one the
    installed distributions name, else the first).

    >>> registry = GameRegistry([GameEntry("x", "m:X"), GameEntry("y", "m:Y")])
    >>> registry.entry("y").reference, registry.default
    ('m:Y', 'x')
    """

    def __init__(
        self, entries: Iterable[GameEntry] | None = None, default: str | None = None
    ) -> None:
        self._entries: tuple[GameEntry, ...] | None = None if entries is None else tuple(entries)
        self._default = default
        self._loaded: dict[str, AnyGame] = {}

    def entries(self) -> tuple[GameEntry, ...]:
        """Every game, in order."""
        if self._entries is None:
            self._entries = installed_entries()
            if self._default is None:
                self._default = installed_default()
        return self._entries

    def names(self) -> list[str]:
        return [e.name for e in self.entries()]

    @property
    def default(self) -> str:
        """The game played when none is named."""
        entries = self.entries()
        if self._default is not None:
            return self._default
        if not entries:
            raise UnknownGame(f"no game is installed (none in the entry points {GROUP!r})")
        return entries[0].name

    def entry(self, name: str) -> GameEntry:
        """The game called ``name``, or whose :attr:`~tajmahal.arena.game.Game.aliases`
        hold it (every game is loaded to look); raises :class:`UnknownGame`."""
        for e in self.entries():
            if name == e.name:
                return e
        for e in self.entries():
            try:
                if name in self.get(e.name).aliases:
                    return e
            except UnknownGame:  # a broken plugin has no aliases
                continue
        raise UnknownGame(f"no game {name!r}; known: {', '.join(self.names())}")

    def get(self, name: str | None = None) -> AnyGame:
        """The game called ``name`` (default: :attr:`default`), imported once."""
        key = self.default if name is None else name
        game = self._loaded.get(key)
        if game is None:
            e = self.entry(key)
            game = self._loaded.get(e.name)
            if game is None:
                game = self._loaded[e.name] = load_reference(e.reference)
        return game

    def by_id(self, game_id: str) -> AnyGame:
        """The game whose protocol id (:attr:`Game.name <tajmahal.arena.game.Game.name>`,
        what records and hellos carry) is ``game_id``."""
        try:
            game = self.get(game_id)
        except UnknownGame:
            game = None
        if game is not None and game.name == game_id:
            return game
        for e in self.entries():
            candidate = self.get(e.name)
            if candidate.name == game_id:
                return candidate
        raise UnknownGame(f"no game with the id {game_id!r}; known: {', '.join(self.names())}")


def registry_of(games: GameRegistry | AnyGame) -> GameRegistry:
    """``games`` as a registry: a single game becomes a registry of it alone."""
    if isinstance(games, GameRegistry):
        return games
    registry = GameRegistry([GameEntry(games.name, "")])  # loaded already: no reference needed
    registry._loaded[games.name] = games
    return registry


#: The installed games: those of the entry points of :data:`GROUP`.
GAMES: Final = GameRegistry()
