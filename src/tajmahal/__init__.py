"""tajmahal: the rules engine for Reiner Knizia's Taj Mahal.

>>> from tajmahal import Setup, new_game, legal_actions, apply, is_over
>>> state = new_game(Setup.random(4, seed=1))
>>> while not is_over(state):
...     state = apply(state, legal_actions(state)[0])
>>> state.visit
12

See ``docs/api.md`` for a tour.  ``tajmahal.ENGINE`` says whether the engine runs
compiled (mypyc) or as pure Python (``TAJMAHAL_PURE=1``; see ``docs/performance.md``).

The names below are Taj Mahal's engine (:mod:`tajmahal.tajmahal`; Tikal and Java
are :mod:`tajmahal.tikal` and :mod:`tajmahal.java`), imported on first use (PEP 562),
so that ``import tajmahal`` and the command line's start-up (``tajmahal --version``)
stay cheap; type checkers and ``from tajmahal import *`` see them all.  This
re-export is for users: nothing inside the package imports from here.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import _engine
from .version import __version__ as __version__

#: True when the engine's hot modules run compiled by mypyc, False for pure Python
#: (``TAJMAHAL_PURE=1``, no compiler at install time, or out-of-date extensions).
COMPILED, ENGINE = _engine.select()

if TYPE_CHECKING:
    from .tajmahal import *  # noqa: F403  (Taj Mahal's public names, as below)


def _names() -> list[str]:
    """Taj Mahal's public names (:mod:`tajmahal.tajmahal`'s ``__all__``)."""
    names: list[str] = importlib.import_module(".tajmahal", __name__).__all__
    return names


def __getattr__(name: str) -> Any:
    """Import Taj Mahal's engine (:mod:`tajmahal.tajmahal`) the first time one of
    its public names (or ``__all__``, for ``from tajmahal import *``) is asked for."""
    if name == "__all__":
        return _names()
    if name.startswith("__") or name not in _names():
        raise AttributeError(f"module 'tajmahal' has no attribute {name!r}")
    value = getattr(importlib.import_module(".tajmahal", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's own names (``COMPILED``, ``ENGINE``, ``__version__``...), Taj
    Mahal's engine and the subpackages imported so far; not what this module
    imports for itself (``importlib``, ``Any``...)."""
    own = {"COMPILED", "ENGINE"}
    for name, value in globals().items():
        dunder = name.startswith("__") and name.endswith("__")
        inner = isinstance(value, ModuleType) and value.__name__.startswith(f"{__name__}.")
        if dunder or (inner and not name.startswith("_")):
            own.add(name)
    return sorted({*own, *_names()})
