"""``ladder run --executor ray`` on a real Ray head on 127.0.0.1: the same games and
ratings as the local executor for the same ladder seed, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ladder_support import sibling_database
from referee_support import cli

pytest.importorskip("ray")  # in the test extra: CI has it
from test_ladder_kill import make, state
from test_tournament_ray import ray_head

from tajmahal.arena.terms import REPRODUCIBLE_SEEDS

#: Ray's behaviour does not depend on the engine, and a Ray head takes seconds to start.
pytestmark = [pytest.mark.once, pytest.mark.slow]


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    with ray_head() as (address, _):
        yield address


def test_ray_plays_the_same_games_as_the_local_executor(
    tmp_path: Path, ladder_db: str | None, head: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")  # two ladders of one seed: the same deals
    local, remote = tmp_path / "local", tmp_path / "ray"
    local.mkdir()
    remote.mkdir()
    other = None if ladder_db is None else sibling_database(ladder_db, "ray")
    here, there = make(local, ladder_db), make(remote, other)
    code, _, err = cli("ladder", "run", "--games", "8", "-j", "2", "-q", "--ladder", str(here))
    assert code == 0, err
    code, out, err = cli("ladder", "run", "--games", "8", "-j", "2", "--executor", "ray",
                         "--address", head, "--ladder", str(there))
    assert code == 0, err
    assert "on Ray (127.0.0.1:" in out and "8 games finished" in out
    assert state(here) == state(there)
    code, out, err = cli("ladder", "verify", "--ladder", str(there))
    assert code == 0, err + out
