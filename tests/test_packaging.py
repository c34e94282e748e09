"""Every file the package reads at run time is in the built wheel.

A wheel holds the ``.py`` modules of each package and, besides them, only what
``[tool.setuptools.package-data]`` in ``pyproject.toml`` names: a data file left out
there works in a checkout and an editable install, and is missing from a user's
``pip install``. Building a wheel here would compile the engine (minutes), so this
test checks the patterns against the files in the source tree instead.
"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "tajmahal"
# Files setuptools puts in the wheel without a package-data pattern, and build
# products that are never committed.
CODE_SUFFIXES = {".py", ".pyc", ".so", ".pyd", ".c", ".h"}
BUILD_PRODUCTS = {"_compiled.json"}


def _package_data_patterns() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        config = tomllib.load(handle)
    patterns: list[str] = config["tool"]["setuptools"]["package-data"]["tajmahal"]
    return patterns


def _runtime_files() -> list[PurePosixPath]:
    files = []
    for path in PACKAGE.rglob("*"):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        if path.suffix in CODE_SUFFIXES or path.name in BUILD_PRODUCTS:
            continue
        files.append(PurePosixPath(path.relative_to(PACKAGE).as_posix()))
    return files


def test_every_data_file_of_every_game_is_package_data() -> None:
    patterns = _package_data_patterns()
    files = _runtime_files()
    # The three games' component tables, the browser pages' scripts: the check
    # below must have something to check.
    names = {str(path) for path in files}
    assert {"tajmahal/data/cards.json", "tikal/data/board.json", "java/data/board.json"} <= names
    assert "arena/web/play.js" in names
    # Anchored at the package's root, as setuptools reads them: "data/*.json" is
    # not "tikal/data/*.json".
    missing = [name for name in sorted(names) if not any(fnmatchcase(name, p) for p in patterns)]
    assert missing == [], f"not in [tool.setuptools.package-data]: {missing}"
