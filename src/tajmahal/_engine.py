"""Which engine runs: the mypyc-compiled modules or their pure-Python sources.

An install built with a C compiler holds both: the extension modules that mypyc
made of :data:`COMPILED` and the ``.py`` files they were made from (``setup.py``).
Python's import system prefers the extensions.  :func:`select` (called once by the
package's ``__init__``, before any engine module is imported) keeps that choice
unless

- ``TAJMAHAL_PURE`` is set to anything but ``0`` or the empty string, or
- an extension is missing, or
- an extension was built from other sources than the ``.py`` beside it (an
  editable install whose sources changed since ``pip install -e .``),

in which case it installs an import hook that loads the ``.py`` sources of those
modules instead.  The two engines behave the same (a differential test plays
random games on both); the compiled one is faster (``docs/performance.md``).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Final

#: The modules mypyc compiles, by their names inside the package (``setup.py``
#: reads this tuple from here: keep it a literal).
COMPILED: Final = (
    "tajmahal.build",
    "tajmahal.counting",
    "tajmahal.draft",
    "tajmahal.rules",
    "tajmahal.legal",
    "tajmahal.hidden",
    "tajmahal.heuristic",
    "tikal.draft",
    "tikal.effects",
    "tikal.geometry",
    "tikal.hidden",
    "tikal.legal",
    "tikal.problems",
    "tikal.heuristic",
    "tikal.rules",
    "arena.jsontext",
    "kit.search",
    "kit.slots",
    "java.geometry",
    "java.land",
    "java.legal",
    "java.problems",
    "java.festival",
    "java.draft",
    "java.rules",
    "java.heuristic",
)

_PACKAGE: Final = "tajmahal"
_HERE: Final = os.path.dirname(__file__)
#: What ``setup.py`` records of the sources it compiled: module -> SHA-256.
_DIGESTS: Final = os.path.join(_HERE, "_compiled.json")


class _SourceFinder:
    """Find the ``.py`` source of the compiled modules, ahead of their extensions
    (an importlib meta path finder; importlib.abc is not imported, to keep the
    start-up short)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(f"{_PACKAGE}.{name}" for name in names)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = _source(fullname[len(_PACKAGE) + 1 :])
        return importlib.util.spec_from_file_location(fullname, source)


def _source(name: str) -> str:
    """The ``.py`` file of the module ``name`` (dotted, inside the package)."""
    return os.path.join(_HERE, *name.split(".")) + ".py"


def _extension(name: str) -> str | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = os.path.join(_HERE, *name.split(".")) + suffix
        if os.path.exists(candidate):
            return candidate
    return None


def _stale() -> list[str]:
    """The compiled modules whose ``.py`` differs from the source they were built from."""
    import hashlib
    import json

    try:
        with open(_DIGESTS, encoding="utf-8") as f:
            built = json.load(f)
    except (OSError, ValueError):
        return list(COMPILED)
    stale = []
    for name in COMPILED:
        try:
            with open(_source(name), "rb") as f:
                source = f.read()
        except FileNotFoundError:  # an install without sources: only the extension
            continue
        if hashlib.sha256(source).hexdigest() != built.get(name):
            stale.append(name)
    return stale


def _choose() -> tuple[bool, str]:
    """(compiled?, why) for this process."""
    if os.environ.get("TAJMAHAL_PURE", "") not in ("", "0"):
        return False, "pure Python (TAJMAHAL_PURE is set)"
    missing = [name for name in COMPILED if _extension(name) is None]
    if missing:
        return False, "pure Python (no compiled modules installed)"
    stale = _stale()
    if stale:
        import warnings

        warnings.warn(
            f"tajmahal: the compiled {', '.join(stale)} were built from other sources than "
            "the .py files beside them; running the pure-Python engine "
            "(rebuild: pip install -e .)",
            RuntimeWarning,
            stacklevel=3,
        )
        return False, "pure Python (the compiled modules are out of date)"
    return True, "compiled with mypyc"


_CHOSEN: list[tuple[bool, str]] = []


def select() -> tuple[bool, str]:
    """Choose the engine for this process, once, before any engine module is imported
    (the package's ``__init__`` does); later calls return that choice:
    ``(compiled?, why)``."""
    if _CHOSEN:
        return _CHOSEN[0]
    compiled, why = _choose()
    if not compiled:
        loaded = [name for name in COMPILED if f"{_PACKAGE}.{name}" in sys.modules]
        if loaded:  # cannot happen through the package's __init__, which runs first
            raise RuntimeError(f"tajmahal: engine modules imported too early: {loaded}")
        if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, _SourceFinder(COMPILED))
    _CHOSEN.append((compiled, why))
    return compiled, why
