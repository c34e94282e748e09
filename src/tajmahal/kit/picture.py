"""Jupyter shows a game's states and views as its picture.

A state or view class of a game inherits :class:`Pictured`: Jupyter (and anything
else that looks for ``_repr_svg_``) then shows it as the SVG of its game's
``render.svg``, which draws a state (every hand) or a seat's view (only what the
seat sees).
"""

from __future__ import annotations

import importlib


class Pictured:
    """A mixin for a game's state and view classes (frozen attrs classes with slots):
    ``_repr_svg_`` is the picture its game's ``render.svg`` draws of it."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows (the game's ``render.svg``)."""
        package = type(self).__module__.rsplit(".", 1)[0]
        picture: str = importlib.import_module(f"{package}.render").svg(self)
        return picture
