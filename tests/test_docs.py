"""The examples in docs/ and in the modules' docstrings run and give what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import shlex
from pathlib import Path

import click
import pytest

import tajmahal

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(p for p in (ROOT / "docs").glob("*.md") if ">>>" in p.read_text("utf-8"))
MODULES = sorted(m.name for m in pkgutil.walk_packages(tajmahal.__path__, "tajmahal."))


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_doc_examples(path: Path) -> None:
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} example(s) failed in {path.name}"


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_example_runs() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md", "exec"), {})


FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
ALL_DOCS = sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "protocol/README.md"])


def blocks(language: str) -> list[tuple[str, str]]:
    """(``file:line``, code) of every fenced block of ``language`` in the docs."""
    found = []
    for path in ALL_DOCS:
        text = path.read_text("utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == language:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(ROOT)}:{line}", match.group(2)))
    return found


def saved(where: str) -> bool:
    """Whether the block at ``where`` is a program docs/check.py saves and runs
    where its doc says (``<!-- figure [save=PATH] -->`` before it)."""
    path, line = where.rsplit(":", 1)
    before = (ROOT / path).read_text("utf-8").splitlines()[: int(line) - 1]
    return bool(before) and before[-1].startswith("<!-- figure [save=")


# doctests run above; saved programs run in docs/check.py's figures
PYTHON = [b for b in blocks("python") if ">>>" not in b[1] and not saved(b[0])]


@pytest.mark.parametrize(("where", "code"), PYTHON, ids=[w for w, _ in PYTHON])
def test_python_blocks_run_as_written(
    where: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # blocks write under runs/, as a user's would
    exec(compile(code, where, "exec"), {"__name__": "__doc_example__"})


def commands() -> list[tuple[str, list[str]]]:
    """Every ``tajmahal`` command line of the shell and console blocks."""
    found = []
    for language in ("sh", "console"):
        for where, code in blocks(language):
            for line in code.replace("\\\n", " ").splitlines():
                if language == "console" and not line.startswith("$ "):
                    continue  # what a command printed
                words = shlex.split(line.split(" #")[0]) if line.strip() else []
                while words and ("=" in words[0] or words[0] == "$"):
                    words = words[1:]  # environment settings, the prompt
                if words and words[0] in ("tajmahal", ".venv/bin/tajmahal"):
                    found.append((where, words[1:]))
    return found


COMMANDS = commands()


@pytest.mark.parametrize(("where", "args"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_every_documented_command_line_parses(
    where: str, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every option and argument a doc shows exists and has a valid value (the
    commands are parsed, not run: some play thousands of games; docs/cli.md's
    console examples are run by test_cli_docs)."""
    from tajmahal.cli import main

    monkeypatch.chdir(tmp_path)
    for name in ("bots", "tests", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "runs").mkdir()
    if args[0] in ("replay", "show"):  # the record an earlier example writes
        for record in (a for a in args if a.endswith(".jsonl")):
            (tmp_path / record).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / record).touch()
        if not args[1].endswith(".jsonl"):  # a tournament's folder
            (tmp_path / args[1]).mkdir(parents=True, exist_ok=True)
    if args[0].startswith("-"):  # the group's own options: --version, --help
        with pytest.raises(click.exceptions.Exit) as done:
            main.make_context("tajmahal", args)
        assert done.value.exit_code == 0, f"{where}: tajmahal {' '.join(args)}"
        return
    context = main.make_context("tajmahal", [args[0]], resilient_parsing=True)
    command = main.get_command(context, args[0])
    assert command is not None, f"{where}: no command {args[0]!r}"
    command.make_context(args[0], args[1:], parent=context)


def test_the_doc_commands_are_found() -> None:
    where = {w.split(":")[0] for w, _ in COMMANDS}
    assert {"docs/cli.md", "docs/tournaments.md", "docs/bots.md"} <= where
    assert len(COMMANDS) > 20
