"""``kill -9`` of ``ladder run`` at any moment, then ``ladder run`` again: no game
lost or counted twice, and the same schedule and ratings as a run that was not
interrupted (on SQLite and on PostgreSQL); and a PostgreSQL server that goes
away in the middle of a run: one line, nothing lost."""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ladder_support import PostgresServer, postgres_server, sibling_database, wait_until
from referee_support import cli
from sqlalchemy import func, select, text

from tajmahal.arena.ladder.database import open_database
from tajmahal.arena.ladder.schema import FINISHED, games
from tajmahal.arena.ladder.store import find
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS

#: Each test plays a few dozen games and starts many processes.
pytestmark = [pytest.mark.once, pytest.mark.slow]

GAMES = 30
BOTS = (("g", "greedy"), ("r1", "random"), ("r2", "random"), ("f", "first"))


def make(root: Path, db: str | None) -> Path:
    where = root / "lad"
    extra = ["--db", db] if db is not None else []
    code, _, err = cli("ladder", "init", str(where), "--players", "3", "--round", "4",
                       "--seed", "21", *extra)
    assert code == 0, err
    for name, bot in BOTS:
        code, _, err = cli("ladder", "add", name, bot, "--ladder", str(where))
        assert code == 0, err
    return where


def finished(where: Path) -> int:
    place = find(where, None)
    assert place is not None
    db = open_database(place.url)
    try:
        with db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(games)
                                    .where(games.c.status == FINISHED)).scalar() or 0)
    finally:
        db.close()


def start_run(where: Path, count: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "ladder", "run", "--games", str(count), "-j", "2",
         "-q", "--ladder", str(where)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def state(where: Path) -> Any:
    """The schedule (slot, seed, seats, ranks) and the rating history."""
    place = find(where, None)
    assert place is not None
    db = open_database(place.url)
    try:
        with db.read() as conn:
            schedule = [tuple(r) for r in conn.execute(text(
                "SELECT g.slot, g.seed, s.seat, s.version_id, s.rank FROM games g JOIN seats s "
                "ON s.game_id = g.id WHERE g.status = 'finished' ORDER BY g.slot, s.seat"))]
            history = [tuple(r) for r in conn.execute(text(
                "SELECT slot, version_id, mu, sigma FROM rating_history "
                "ORDER BY slot, version_id"))]
            current = [tuple(r) for r in conn.execute(text(
                "SELECT version_id, mu, sigma, games, wins, rank_sum FROM ratings "
                "ORDER BY version_id"))]
    finally:
        db.close()
    return schedule, history, current


def test_kill_9_at_any_moment_loses_nothing(
    tmp_path: Path, ladder_db: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")  # two ladders of one seed: the same deals
    whole = tmp_path / "whole"
    whole.mkdir()
    other_db = None if ladder_db is None else sibling_database(ladder_db, "whole")
    uninterrupted = make(whole, other_db)
    code, _, err = cli("ladder", "run", "--games", str(GAMES), "-j", "2", "-q",
                       "--ladder", str(uninterrupted))
    assert code == 0, err
    killed = make(tmp_path, ladder_db)
    rng = random.Random(7)
    kills = 0
    for life in itertools.count():
        done = finished(killed)
        if done >= GAMES:
            break
        run = start_run(killed, GAMES - done)
        if life % 3 == 2:  # at any moment: starting, planning, before the first game...
            time.sleep(rng.uniform(0.0, 1.5))
        else:  # ... or in the middle of the games: after one more has ended
            wait_until(lambda d=done, r=run: finished(killed) > d or r.poll() is not None, 120)
            time.sleep(rng.uniform(0.0, 0.2))
        if run.poll() is None:
            os.kill(run.pid, signal.SIGKILL)
            kills += 1
        run.communicate(timeout=60)
    assert kills >= 3
    assert finished(killed) == GAMES
    code, out, err = cli("ladder", "verify", "--ladder", str(killed))
    assert code == 0, err + out
    assert state(killed) == state(uninterrupted)
    # No worker and no bot outlived the runs that were killed
    wait_until(lambda: not _workers_of(killed), 30)


def _workers_of(where: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"tajmahal.arena.tournament.worker" in cmdline and str(where).encode() in (
                    entry / "cwd").resolve().as_posix().encode():
                found.append(int(entry.name))
    return found


def test_postgresql_going_away_mid_run_loses_nothing(tmp_path: Path) -> None:
    with postgres_server() as server:
        url = server.new_database()
        where = make(tmp_path, url)
        run = start_run(where, GAMES)
        wait_until(lambda: finished(where) >= 3 or run.poll() is not None, 120)
        _kill_server(server)
        _, err = run.communicate(timeout=120)
        lines = err.decode().strip().splitlines()
        assert run.returncode == 1, err
        assert lines[-1].startswith("stopped: the database postgresql://ladder@127.0.0.1:")
        assert "cannot be reached, or went away" in lines[-1]
        server.restart()
        done = finished(where)
        assert 3 <= done < GAMES
        code, _, err2 = cli("ladder", "run", "--games", str(GAMES - done), "-j", "2", "-q",
                            "--ladder", str(where))
        assert code == 0, err2
        assert finished(where) == GAMES
        code, out, err3 = cli("ladder", "verify", "--ladder", str(where))
        assert code == 0, err3 + out


def _kill_server(server: PostgresServer) -> None:
    server.kill()
