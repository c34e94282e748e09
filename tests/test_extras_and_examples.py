"""A pip install: the example bots and the protocol come with the package
(``tajmahal bots --copy DIR``), and a missing extra is named in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from referee_support import cli

from tajmahal import shipped

ROOT = Path(__file__).resolve().parent.parent

# Run Python with some modules made unimportable, as in an install without an extra.
HIDING = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {hidden!r}:
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Hide())
"""


def run_without(hidden: set[str], code: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", HIDING.format(hidden=hidden) + code],
        capture_output=True, text=True, timeout=120, cwd=cwd,
        env=os.environ | {"COLUMNS": "80"},
    )


@pytest.mark.parametrize(
    ("hidden", "module", "line"),
    [
        ({"numpy"}, "tajmahal.pettingzoo", "tajmahal.pettingzoo needs numpy: pip install "
         "'tajmahal[rl]'"),
        ({"numpy", "pyspiel"}, "tajmahal.openspiel", "tajmahal.openspiel needs numpy and "
         "open_spiel: pip install 'tajmahal[rl]'"),
        ({"jax"}, "tajmahal.batched", "tajmahal.batched needs jax: pip install 'tajmahal[jax]'"),
        # Taj Mahal's own batched engine, as a game's batched part reaches it
        ({"jax"}, "tajmahal.tajmahal.batched", "tajmahal.batched needs jax: pip install "
         "'tajmahal[jax]'"),
        ({"gymnasium"}, "tajmahal.gym", "tajmahal.gym needs gymnasium: pip install "
         "'tajmahal[rl]'"),
    ],
)
def test_a_research_module_without_its_extra_names_the_extra(
    hidden: set[str], module: str, line: str
) -> None:
    done = run_without(hidden, f"import {module}")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == f"tajmahal.extras.MissingExtra: {line}"


def test_commands_without_their_extra_say_so_in_one_line(tmp_path: Path) -> None:
    main = "from tajmahal.cli import main; main()"
    done = run_without({"starlette"}, main.replace("main()", "main(['play', 'human', 'greedy'])"))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "Error: tajmahal play with SEATs needs starlette: pip install 'tajmahal[web]'\n"
    )
    args = ["tournament", "greedy", "random", "--sprt", "elo0=0,elo1=5", "--out", "t"]
    done = run_without({"scipy"}, main.replace("main()", f"main({args!r})"), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        "Error: Invalid value for --sprt: the sequential test needs scipy: pip install "
        "'tajmahal[sprt]'"
    )
    args = ["tournament", "greedy", "random", "--executor", "ray", "--out", "t"]
    done = run_without({"ray"}, main.replace("main()", f"main({args!r})"), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "Error: --executor ray needs ray: pip install 'tajmahal[ray]'"
    )
    done = run_without({"sqlalchemy"}, main.replace("main()", "main(['ladder', 'standings'])"),
                       cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "Error: tajmahal ladder needs sqlalchemy: "
                                              "pip install 'tajmahal[ladder]'\n")
    args = ["ladder", "init", "l", "--db", "postgresql://nobody@127.0.0.1:1/none"]
    done = run_without({"psycopg"}, main.replace("main()", f"main({args!r})"), cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "Error: a ladder on PostgreSQL needs psycopg: "
                                              "pip install 'tajmahal[postgres]'\n")


@pytest.mark.once
@pytest.mark.slow
def test_the_wheel_carries_the_example_bots_and_the_protocol(tmp_path: Path) -> None:
    """setup.py's build_py copies them into tajmahal/_shipped (a pure-Python build:
    the same step as a wheel's, without compiling)."""
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env=os.environ | {"TAJMAHAL_PURE": "1"},
    )
    assert done.returncode == 0, done.stderr
    built = tmp_path / "tajmahal" / "_shipped"
    names = {p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()}
    assert {"bots/random_bot.py", "bots/greedy_bot.py", "bots/random_bot.js",
            "protocol/README.md", "protocol/schema/act.json",
            "protocol/schema/tajmahal.json"} <= names
    assert names == {p.as_posix() for p in shipped.shipped_files(ROOT)}  # one list: shipped
    manifest = (ROOT / "MANIFEST.in").read_text()  # and an sdist carries them too
    assert "recursive-include bots *.py *.js" in manifest


def test_bots_copy_writes_what_the_readme_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("match", "bots/greedy_bot.py", "random", "random")
    assert code == 2 and "`tajmahal bots --copy .` writes them into bots" in err
    code, out, err = cli("bots", "--copy", ".")
    assert code == 0, err
    examples = sorted(p.name for p in (tmp_path / "bots").iterdir())
    assert examples == sorted(p.name for p in (ROOT / "bots").glob("*_bot*.*"))
    assert f"wrote bots ({len(examples)} example bots)" in out
    assert (tmp_path / "bots" / "random_bot.py").read_text() == (
        ROOT / "bots" / "random_bot.py").read_text()
    assert os.access(tmp_path / "bots" / "random_bot.py", os.X_OK)
    assert (tmp_path / "protocol" / "schema" / "hello.json").is_file()
    code, out, err = cli("match", "bots/greedy_bot.py", "random", "random", "--seed", "1")
    assert code == 0, err
    (tmp_path / "bots" / "random_bot.py").write_text("# mine now\n")
    code, _, err = cli("bots", "--copy", ".")
    assert code == 2 and "bots/random_bot.py" in err and "--force" in err
    assert (tmp_path / "bots" / "random_bot.py").read_text() == "# mine now\n"
    assert cli("bots", "--copy", ".", "--force")[0] == 0
    assert (tmp_path / "bots" / "random_bot.py").read_text().startswith("#!/usr/bin/env python3")


def test_bots_lists_the_built_in_and_the_example_bots() -> None:
    code, out, err = cli("bots", columns=80)
    assert code == 0, err
    assert "--game tikal     first, greedy, mcts, random" in out
    assert any(  # each bot's name, then the first line of its docstring, wrapped
        line.split()[:2] == ["bots/random_bot.py", "The"] and "shortest correct bot" in line
        for line in out.splitlines()
    )
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
