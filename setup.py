"""Build hook: compile the engine's hot modules with mypyc when possible.

Everything else about the package is in ``pyproject.toml``.  The modules listed in
``COMPILED`` are compiled to C extensions by mypyc (shipped with mypy) and built
with the platform's C compiler; their ``.py`` sources are installed too, as the
pure-Python fallback.  The build falls back to pure Python, with a warning, when

- ``TAJMAHAL_PURE=1`` is set at build time, or
- mypyc cannot be imported, or
- the C compiler is missing or fails.

At run time ``TAJMAHAL_PURE=1`` makes the installed package import the ``.py``
sources instead of the extensions (``tajmahal._engine``); ``tajmahal --version``
says which engine is active.  See ``docs/performance.md``.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).parent
PACKAGE = ROOT / "src" / "tajmahal"



def _compiled_modules() -> tuple[str, ...]:
    """The compiled modules, by their dotted names inside the package: the literal
    ``COMPILED`` of ``src/tajmahal/_engine.py`` (its one home; the package cannot be
    imported here).  Pure functions over the frozen attrs classes, which stay
    interpreted (``state.py``, ``actions.py`` ...: mypyc rewrites class annotations,
    which cattrs reads)."""
    tree = ast.parse((PACKAGE / "_engine.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "COMPILED":
            assert node.value is not None
            names: tuple[str, ...] = ast.literal_eval(node.value)
            return names
    raise RuntimeError("src/tajmahal/_engine.py defines no COMPILED")


COMPILED = _compiled_modules()
DIGESTS = "_compiled.json"


def _path(name: str) -> Path:
    """The source of the module ``name`` (dotted, inside the package)."""
    return PACKAGE.joinpath(*name.split(".")).with_suffix(".py")


def _warn(message: str) -> None:
    print(f"tajmahal: {message}; installing the pure-Python engine", file=sys.stderr)


def _pure_requested() -> bool:
    return os.environ.get("TAJMAHAL_PURE", "") not in ("", "0")


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves the pure-Python modules in place if compiling fails,
    and records the digests of the sources it compiled (``_compiled.json``) beside
    the extensions when it succeeds: ``tajmahal._engine`` compares them at import
    and ignores extensions built from other sources (an editable install whose
    sources changed since)."""

    def run(self) -> None:
        targets = [Path(self.build_lib, "tajmahal")]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(PACKAGE)
        for target in targets:  # no record, no trust in extensions left from earlier
            (target / DIGESTS).unlink(missing_ok=True)
        if not self.extensions:  # pure Python asked for: what an earlier build left goes
            if len(targets) > 1:
                _remove_extensions()
            return
        try:
            super().run()
        except Exception as error:  # a missing compiler raises several kinds
            _warn(f"the C extensions could not be built ({error})")
            if len(targets) > 1:  # in place: what an earlier build left would be stale
                _remove_extensions()
            return
        digests = json.dumps(_source_digests(), indent=1) + "\n"
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / DIGESTS).write_text(digests)


def _remove_extensions() -> None:
    """Remove the extensions an earlier build left beside the sources (in place)."""
    for name in COMPILED:
        for suffix in EXTENSION_SUFFIXES:
            _path(name).with_suffix(suffix).unlink(missing_ok=True)


def _source_digests() -> dict[str, str]:
    return {
        name: hashlib.sha256(_path(name).read_bytes()).hexdigest() for name in COMPILED
    }


def _ext_modules() -> list[Any]:
    if _pure_requested():
        _warn("TAJMAHAL_PURE is set")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not available")
        return []
    paths = [str(_path(name).relative_to(ROOT)) for name in COMPILED]
    # separate=False: one shared C library for the group, the modules call each
    # other directly.  The modules mypy follows from them may import the package's
    # dependencies (rich, click ...), which the build's own environment lacks:
    # pip installs them after building, so they would be found on a second install
    # only (where the first fell back to pure Python).  What the compiled modules
    # call of them is typed in attrs and orjson, which the build requires.
    try:
        options = ["--ignore-missing-imports"]
        return list(mypycify([*options, *paths], opt_level="3", debug_level="0"))
    except (Exception, SystemExit) as error:  # mypy's errors end in SystemExit
        _warn(f"mypyc could not compile the engine ({error!r})")
        return []


#: What a wheel carries besides the package: for ``tajmahal bots --copy DIR``, the
#: example bots and the protocol's spec and schemas; for ``tajmahal docs``, the
#: README and the docs (their one home is the repository's ``bots/``,
#: ``protocol/``, ``docs/``; a checkout reads them there: ``tajmahal.shipped``).
SHIPPED = {
    "bots": ["*.py", "*.js"],
    "protocol": ["README.md", "example.jsonl", "make_*.py"],
    "protocol/schema": ["*.json"],
    ".": ["README.md"],
    "docs": ["*.md"],
}
SHIPPED_INTO = "_shipped"


class BuildWithExamples(build_py):
    """``build_py`` that also copies :data:`SHIPPED` into the built package, under
    ``tajmahal/_shipped/`` (a wheel's only way to carry files from outside the
    package's folder)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib, "tajmahal", SHIPPED_INTO)
        for folder, patterns in SHIPPED.items():
            for pattern in patterns:
                for source in sorted((ROOT / folder).glob(pattern)):
                    if "__pycache__" in source.parts or not source.is_file():
                        continue
                    destination = target / folder / source.name
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    self.copy_file(str(source), str(destination))


setup(
    ext_modules=_ext_modules(),
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildWithExamples},
)
