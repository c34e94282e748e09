"""Which games OpenSpiel knows: :func:`register` adds one as ``python_<id>``;
``import tajmahal.openspiel`` registers every game of the registry with an encoding
and a chance model (:func:`register_all`)."""

from __future__ import annotations

import warnings
from typing import Any

import pyspiel

from ..arena.game import AnyGame
from ..arena.registry import GAMES, UnknownGame
from ..kit.chance import ChanceModel
from ..kit.encoding import Encoding, encoding_of
from .game import REGISTERED as _REGISTERED
from .game import OpenSpielGame, chance_model, game_type, short_name


def register(game: AnyGame | str | None = None) -> str:
    """Register ``game`` (a game object, or a name the registry knows; None: the
    default game) with OpenSpiel
    as ``python_<id>`` (once; again is a no-op) and return that name.  Raises
    ValueError for a game without an encoding, TypeError without a chance model."""
    encoding = encoding_of(game)
    name = short_name(encoding.game)
    if name not in _REGISTERED:
        chance_model(encoding)

        def __init__(self: OpenSpielGame, params: dict[str, Any] | None = None) -> None:
            OpenSpielGame.__init__(self, encoding, params)

        # OpenSpiel keeps the factory until after Python is gone: a class (a function
        # would be freed then, without the interpreter, and abort the process).
        title = type(encoding.game).__name__
        factory = type(f"{title}Game", (OpenSpielGame,), {"__init__": __init__})
        pyspiel.register_game(game_type(encoding), factory)
        _REGISTERED[name] = encoding
    return name


def registered() -> list[str]:
    """The names of the games registered so far."""
    return sorted(_REGISTERED)


def register_all() -> None:
    """Every game of the registry that declares an encoding with a chance model (a
    game that cannot be loaded is named in a warning)."""
    for entry in GAMES.entries():
        try:
            encoding = encoding_of(entry.name)
        except UnknownGame as e:
            warnings.warn(f"tajmahal.openspiel: {e}", stacklevel=2)
            continue
        except ValueError:  # no encoding: not a game for learning programs
            continue
        if isinstance(encoding.chance, ChanceModel):
            register(encoding.game)


def registered_encoding(name: str) -> Encoding[Any, Any]:
    """The encoding of the game registered as ``name`` (``python_<id>``)."""
    return _REGISTERED[name]
