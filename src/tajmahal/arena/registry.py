"""Games by name, for the commands: which :class:`~tajmahal.arena.game.Game` ``--game``
means, and which one wrote a record.

A registry maps names to references ``module:attribute`` and imports a game only
when it is asked for (the command line starts fast, and a game's modules are loaded
only by the commands that play it).  Besides the games it is built with, it finds
those that installed packages declare in the entry-point group :data:`GROUP`::

    [project.entry-points."tajmahal.games"]
    my-game = "my_package.adapter:GAME"

Nothing here knows any particular game.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Iterable
from typing import Final

import attrs

from .game import AnyGame

#: The entry-point group in which packages declare games.
GROUP: Final = "tajmahal.games"


class UnknownGame(ValueError):
    """No game of that name."""


@attrs.frozen
class GameEntry:
    """A game the registry can load: its command-line ``name``, where it lives
    (``module:attribute``) and other names it answers to (its protocol id, say)."""

    name: str
    reference: str
    aliases: tuple[str, ...] = ()


def load_reference(reference: str) -> AnyGame:
    """The object named ``module:attribute``; raises :class:`UnknownGame` when it is
    missing."""
    module, _, attribute = reference.partition(":")
    try:
        game: AnyGame = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as e:
        raise UnknownGame(f"cannot load the game {reference!r}: {e}") from None
    return game


class GameRegistry:
    """The games of a command line: ``builtin`` ones first, then those declared in
    the entry points of ``group`` (read only when a name is not a built-in one).

    >>> registry = GameRegistry([GameEntry("x", "m:X", ("ex",))], default="x", group=None)
    >>> registry.entry("ex").name
    'x'
    """

    def __init__(
        self, builtin: Iterable[GameEntry], default: str, group: str | None = GROUP
    ) -> None:
        self.builtin: tuple[GameEntry, ...] = tuple(builtin)
        self.default = default
        self.group = group
        self._loaded: dict[str, AnyGame] = {}
        self._plugins: tuple[GameEntry, ...] | None = None

    def entries(self) -> tuple[GameEntry, ...]:
        """Every game: the built-in ones, then the plugins' (a plugin never replaces a
        built-in game of the same name)."""
        return self.builtin + self._plugin_entries()

    def names(self) -> list[str]:
        return [e.name for e in self.entries()]

    def entry(self, name: str) -> GameEntry:
        """The game called ``name`` (or one of its aliases); raises
        :class:`UnknownGame`."""
        for entries in (self.builtin, None):
            for e in entries if entries is not None else self._plugin_entries():
                if name == e.name or name in e.aliases:
                    return e
        raise UnknownGame(f"no game {name!r}; known: {', '.join(self.names())}")

    def get(self, name: str | None = None) -> AnyGame:
        """The game called ``name`` (default: :attr:`default`), imported once."""
        e = self.entry(self.default if name is None else name)
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

    def _plugin_entries(self) -> tuple[GameEntry, ...]:
        if self._plugins is None:
            found: dict[str, GameEntry] = {}
            taken = {n for e in self.builtin for n in (e.name, *e.aliases)}
            if self.group is not None:
                for point in importlib.metadata.entry_points(group=self.group):
                    if point.name not in taken and point.name not in found:
                        found[point.name] = GameEntry(point.name, point.value)
            self._plugins = tuple(found.values())
        return self._plugins


def registry_of(games: GameRegistry | AnyGame) -> GameRegistry:
    """``games`` as a registry: a single game becomes a registry of it alone."""
    if isinstance(games, GameRegistry):
        return games
    registry = GameRegistry(
        [GameEntry(games.name, "")],  # loaded already: no reference needed
        default=games.name,
        group=None,
    )
    registry._loaded[games.name] = games
    return registry
