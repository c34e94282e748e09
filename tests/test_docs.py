"""The examples in docs/ and in the modules' docstrings run and give what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

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
