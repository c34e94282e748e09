"""The command line starts without importing the engine or the arena (issue 15):
``tajmahal --version`` must stay cheap, so only click and the package's root load."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from tajmahal.cli import main

PROBE = """
import sys
from tajmahal.cli import main
try:
    main(["--version"])
except SystemExit:
    pass
print(" ".join(sorted(m for m in sys.modules if m.startswith(("tajmahal", "attr", "cattr",
    "orjson", "rich", "openskill")))))
"""


def test_version_imports_only_the_package_root_its_version_and_the_cli() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("tajmahal, version ")
    assert lines[1].startswith("engine: ")
    assert lines[-1].split() == ["tajmahal", "tajmahal._engine", "tajmahal.cli", "tajmahal.version"]


def test_the_package_root_still_offers_every_public_name() -> None:
    import tajmahal

    for name in tajmahal.__all__:
        assert getattr(tajmahal, name) is not None, name
    assert set(tajmahal.__all__) <= set(dir(tajmahal))
    namespace: dict[str, object] = {}
    exec("from tajmahal import *", namespace)
    assert set(tajmahal.__all__) <= set(namespace)


def test_determinize_stays_the_function_after_its_module_is_imported() -> None:
    # tajmahal.tajmahal.bots imports the module tajmahal.tajmahal.hidden first; the package's
    # name must still be the function (a fresh interpreter: the order matters).
    probe = (
        "import tajmahal.tajmahal.bots\n"
        "from tajmahal import determinize\n"
        "from tajmahal.tajmahal.hidden import unseen_cards\n"
        "print(callable(determinize), determinize.__module__, unseen_cards.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["True", "tajmahal.tajmahal.hidden", "unseen_cards"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    import tajmahal

    with pytest.raises(AttributeError, match="no_such_name"):
        tajmahal.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_every_command_is_listed_and_built_on_demand() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    for command in ("match", "play", "replay", "tournament"):
        assert f"  {command} " in result.output
    result = CliRunner().invoke(main, ["replay", "--help"])
    assert result.exit_code == 0 and "Usage: main replay" in result.output
