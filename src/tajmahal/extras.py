"""The optional features and the extras that bring their libraries
(``[project.optional-dependencies]`` of ``pyproject.toml``).

A feature whose libraries are missing says so in one line, naming the extra to
install, before it imports anything::

    require("web", "tajmahal play human", ("starlette", "uvicorn"))

raises :class:`MissingExtra`: ``tajmahal play human needs starlette and uvicorn:
pip install 'tajmahal[web]'``.  The commands print that line as their error.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Final

#: The package that installs a module, where their names differ.
PACKAGES: Final = {
    "pyspiel": "open_spiel",
    "sklearn": "scikit-learn",
    "sb3_contrib": "sb3-contrib",
    "stable_baselines3": "stable-baselines3",
}


class MissingExtra(ImportError):
    """An optional feature's libraries are not installed (the message names the
    extra that installs them)."""


def missing(modules: Sequence[str]) -> list[str]:
    """The ``modules`` that cannot be imported, found without importing them."""
    absent = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package missing, a module set to None
            found = False
        if not found:
            absent.append(name)
    return absent


def require(extra: str, feature: str, modules: Sequence[str]) -> None:
    """Raise :class:`MissingExtra` if any of ``modules`` (the libraries ``feature``
    needs, from the extra ``extra``) is missing.

    >>> require("web", "the game", ("no_such_module",))
    Traceback (most recent call last):
    ...
    tajmahal.extras.MissingExtra: the game needs no_such_module: pip install 'tajmahal[web]'
    """
    absent = [PACKAGES.get(m, m) for m in missing(modules)]
    if absent:
        names = " and ".join([", ".join(absent[:-1]), absent[-1]] if len(absent) > 1 else absent)
        raise MissingExtra(f"{feature} needs {names}: pip install 'tajmahal[{extra}]'")
