"""Fixtures shared by the test modules."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tajmahal.suite import GameSuite

#: The markers of this repository on the heaviest tests of the suite every game
#: passes (which knows no repository's markers): run in make test's first pass.
SUITE_MARKERS: dict[str, tuple[str, ...]] = {
    "test_openspiel_random_sim_test_passes": ("once", "slow"),
    "test_pettingzoo_api_and_seed_tests_pass": ("once",),
    "test_a_match_through_the_referee_replays_and_is_drawn": ("once",),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        cls = getattr(item, "cls", None)
        if cls is not None and issubclass(cls, GameSuite):
            for marker in SUITE_MARKERS.get(getattr(item, "originalname", ""), ()):
                item.add_marker(marker)

#: The referee's key for this run's records (see tajmahal.arena.seal): in a folder
#: of the run's own, not in the home folder; subprocesses inherit it.  The same key
#: in every run: the deals of a typed --seed are keyed with it, so a test's games are
#: the same on every machine (still not the seed's own deals, which a bot could work
#: out; the trust tests make keys of their own where they need another).
_KEYS = tempfile.mkdtemp(prefix="tajmahal-keys-")
if "TAJMAHAL_REFEREE_KEY" not in os.environ:
    os.environ["TAJMAHAL_REFEREE_KEY"] = os.path.join(_KEYS, "referee.key")
    with open(os.open(os.environ["TAJMAHAL_REFEREE_KEY"], os.O_WRONLY | os.O_CREAT, 0o600),
              "wb") as _key:
        _key.write(hashlib.sha256(b"tajmahal: the tests' referee key").digest())


@pytest.fixture(autouse=True, scope="session")
def _referee_key_removed_at_the_end() -> Iterator[None]:
    yield
    shutil.rmtree(_KEYS, ignore_errors=True)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory every user may write (for a referee run as another user)."""
    path = Path(tempfile.mkdtemp(prefix="tajmahal-trust-"))
    path.chmod(0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(autouse=True)
def no_bot_left_from_an_earlier_test() -> None:
    """Kill the test bots an earlier test left running (that test failed for it):
    a leftover must not fail every later test that looks for processes."""
    from referee_support import FAULTY, HOSTILE, pids_with

    for _ in range(50):  # rounds: a leftover may still be forking
        left = pids_with(str(FAULTY)) + pids_with(str(HOSTILE))
        if not left:
            return
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def postgres() -> Iterator[object]:
    """A throwaway PostgreSQL server for the session (see ladder_support)."""
    from ladder_support import postgres_server

    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def ladder_db(request: pytest.FixtureRequest) -> str | None:
    """Each ladder test twice: on SQLite (None: the ladder's own file) and on a
    fresh database of the session's PostgreSQL server."""
    if request.param == "sqlite":
        return None
    server = request.getfixturevalue("postgres")
    url: str = server.new_database()  # type: ignore[attr-defined]
    return url
