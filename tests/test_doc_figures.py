"""The figures of the docs print what the docs show (docs/check.py; the slow ones
run in ``make docs-check`` only)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("doccheck", ROOT / "docs" / "check.py")
assert _spec is not None and _spec.loader is not None
check = importlib.util.module_from_spec(_spec)
sys.modules["doccheck"] = check
_spec.loader.exec_module(check)

FAST = [p for p in check.doc_files() if any(not f.slow for f in check.figures(p))]


def test_the_parser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "ROOT", tmp_path)
    doc = tmp_path / "x.md"
    doc.write_text(
        "text\n```console\n$ tajmahal a \\\n  --b\n1\n...\n3\n$ tajmahal c\n```\n"
        "<!-- figure [slow, status=1]: python x.py -->\n```text\nout\n```\n"
        "```sh\nnot a figure\n```\n"
        "<!-- figure [measured]: python t.py -->\n| a | 1 |\n<!-- figure end -->\n"
    )
    found = check.figures(doc)
    assert [(f.console, f.start, f.end, f.options) for f in found] == [
        (True, 2, 8, {}),
        (False, 11, 12, {"slow": "", "status": "1"}),
        (False, 17, 18, {"measured": ""}),
    ]
    assert [(c.text, c.shown) for c in found[0].commands] == [
        ("tajmahal a  --b", ["1", "...", "3"]),
        ("tajmahal c", []),
    ]
    assert found[1].commands[0].text == "python x.py"
    assert found[2].commands[0].shown == ["| a | 1 |"]
    doc.write_text("<!-- figure [fast]: x -->\n```\n```\n")
    with pytest.raises(ValueError, match="unknown figure option 'fast'"):
        check.figures(doc)


def test_the_comparison() -> None:
    assert check.matches(["a 1.17 s", "...", "c  0.39s"], ["a 0.90 s", "b", "b", "c 0.01s  "])
    assert check.matches(["a", "...", "b", "..."], ["a", "b"])
    assert not check.matches(["a", "c"], ["a", "b", "c"])  # only "..." leaves lines out
    assert not check.matches(["a", "..."], ["b", "a"])  # the first line is the first
    assert not check.matches(["x 12"], ["x 13"])
    assert check.matches(["x 12 games in 3.0 s"], ["x 13 games in 2.9 s"], measured=True)


def test_an_update_keeps_the_lines_left_out_and_the_lines_that_agree() -> None:
    shown = ["head 1.0 s", "...", "Visit 2", "b", "...", "last"]
    printed = ["head 2.0 s", "x", "y", "Visit 2", "B", "z", "final"]
    assert check.updated(shown, printed) == [
        "head 1.0 s",  # equal up to its timing: kept as written
        "...",
        "Visit 2",
        "B",
        "...",
        "final",
    ]
    assert check.updated(["a", "b"], ["a", "c", "b"]) == ["a", "c", "b"]


@pytest.mark.once
@pytest.mark.parametrize("path", FAST, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_show_what_their_commands_print(path: Path, tmp_path: Path) -> None:
    outcomes = check.check_file(path, tmp_path, slow=False)
    failed = [f"{o.figure.where}:\n{o.note}" for o in outcomes if not o.ok]
    assert not failed, "\n\n".join(failed) + "\n(make docs-update rewrites them)"


def test_a_figure_says_where_it_runs_and_a_block_can_be_saved(tmp_path: Path) -> None:
    monkey = check.ROOT
    check.ROOT = tmp_path
    try:
        doc = tmp_path / "x.md"
        doc.write_text(
            "From a clone:\n\n<!-- clone -->\n```console\n$ ls tests\n```\n"
            "<!-- figure [save=runs/p.py] -->\n```python\nprint(6 * 7)\n```\n"
            "```console\n$ python runs/p.py\n42\n```\n"
            "```sh\nmake test\n```\n"
            "<!-- clone -->\n```sh\npython -m benchmarks\n```\n"
        )
        found = check.figures(doc)
        assert [(f.clone, f.options, f.code) for f in found] == [
            (True, {}, []), (False, {"save": "runs/p.py"}, ["print(6 * 7)"]), (False, {}, []),
        ]
        assert check.place_problems(doc) == [
            "x.md:15: uses 'make', which only a clone has: mark the block <!-- clone --> "
            "and say so before it",
            'x.md:19: marked <!-- clone -->, but the text before it does not say "clone"',
        ]
        run = tmp_path / "run"
        run.mkdir()
        check.scratch(run)
        assert sorted(p.name for p in run.iterdir()) == ["bots", "protocol", "runs"]
        assert check.run(found[1], run).ok and (run / "runs/p.py").read_text() == "print(6 * 7)\n"
        assert check.run(found[2], run).ok
    finally:
        check.ROOT = monkey


def test_every_command_block_runs_where_its_doc_says() -> None:
    problems = [p for path in check.doc_files() for p in check.place_problems(path)]
    assert not problems, "\n".join(problems)
