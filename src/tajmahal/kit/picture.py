"""Jupyter shows a game's states and views as its picture.

A state or view class of a game inherits :class:`Pictured` and names its game
(:attr:`Pictured.game_name`, as the registry knows it): Jupyter (and anything else
that looks for ``_repr_svg_``) then shows it as the picture its game's pictures
draw of it (:meth:`~tajmahal.arena.game.Pictures.picture`), a state with every hand
or a seat's view with only what the seat sees.
"""

from __future__ import annotations

from typing import ClassVar


class Pictured:
    """A mixin for a game's state and view classes (frozen attrs classes with slots):
    ``_repr_svg_`` is the picture its game draws of it."""

    __slots__ = ()

    #: The game whose pictures draw these values: its name in the registry.
    game_name: ClassVar[str]

    def _repr_svg_(self) -> str | None:
        """The picture Jupyter shows (None: the game draws none)."""
        from ..arena.registry import GAMES

        pictures = GAMES.get(self.game_name).pictures()
        return None if pictures is None else pictures.picture(self)
