"""Every file the package reads at run time is in the built wheel.

A wheel holds the ``.py`` modules of each package and, besides them, only what
``[tool.setuptools.package-data]`` in ``pyproject.toml`` names: a data file left out
there works in a checkout and an editable install, and is missing from a user's
``pip install``. Building a wheel here would compile the engine (minutes), so the
first test checks the patterns against the files in the source tree; the second
builds a wheel of the pure-Python engine and installs it, as a user would.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

import pytest

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


def test_the_readme_names_every_extra_a_user_installs() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        extras = set(tomllib.load(handle)["project"]["optional-dependencies"])
    text = (ROOT / "README.md").read_text("utf-8")
    said = text.split("The extras:", 1)[1].split("\n\n", 1)[0]
    assert {name for name in extras if f"`{name}`" in said} == extras - {"test", "bench"}


@pytest.mark.slow
@pytest.mark.once
def test_the_wheel_installs_and_runs_as_the_readme_says(tmp_path: Path) -> None:
    """The README's second path, for real: a wheel built from this tree (the pure
    engine: compiling takes minutes and is another test's), installed with its
    dependencies into a fresh virtual environment, then the commands a user
    types, in a folder of their own: the bots copied out, a match, its replay,
    the docs."""
    dist = tmp_path / "dist"
    built = run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(dist), str(ROOT)],
        env=os.environ | {"TAJMAHAL_PURE": "1"},
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("tajmahal-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert {"tajmahal/_shipped/README.md", "tajmahal/_shipped/docs/cli.md",
            "tajmahal/_shipped/protocol/README.md", "tajmahal/_shipped/bots/greedy_bot.py"} <= names
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)]).returncode == 0
    installed = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)])
    assert installed.returncode == 0, installed.stderr
    home = tmp_path / "mine"
    home.mkdir()
    tajmahal = str(venv / "bin" / "tajmahal")

    def user(*args: str) -> subprocess.CompletedProcess[str]:
        env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "COLUMNS": "80"}
        return run([tajmahal, *args], cwd=home, env=env)

    done = user("--version")
    assert done.returncode == 0 and "engine: pure Python" in done.stdout
    assert user("bots", "--copy", ".").returncode == 0
    assert (home / "bots" / "greedy_bot.py").is_file() and not (home / "docs").exists()
    done = user("match", "bots/greedy_bot.py", "random", "random", "--seed", "1",
                "--record", "runs/g.jsonl")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Taj Mahal, 3 players (standard), seed 1: ")
    assert user("replay", "--verify", "runs/g.jsonl").returncode == 0
    done = user("docs")
    assert done.returncode == 0 and "cli" in done.stdout and "protocol" in done.stdout
    path = Path(user("docs", "cli", "--path").stdout.strip())
    assert path.is_file() and path.is_relative_to(venv)  # the wheel's own copy
    assert user("docs", "cli").stdout == path.read_text()
    # the copied spec's links lead to files that exist: its bots, schemas, the docs
    spec = (home / "protocol" / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#\s]+)", spec)
    local = [t for t in targets if not t.startswith(("http:", "https:"))]
    assert any("docs/rules.md" in t for t in local)
    missing = [t for t in local if not (home / "protocol" / t).exists()]
    assert not missing, missing


def run(
    command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )
