"""The ladder's own cost (issue 34, item 7), and the tournament's parent.

- **parent CPU a game**: the CPU time the process that runs the games spends on
  each (scheduling, the database, the record's check and digest; its workers'
  CPU is theirs), for a ladder (SQLite) and for a tournament of the same bots:
  four in-process ``random`` bots, the default game (4 players where it seats
  them), ``--jobs 2``.  Target:
  at most 1 ms.
- **games a minute** of the ladder against the tournament for those bots and
  jobs (wall time, in the same rounds): the ladder within 10% (ratio >= 0.9).
- **``ladder standings``** with 50 bots and 10,000 rated games in the database
  (made directly, not played): the command's own work (the query and the
  table, in process), target 50 ms, and the whole command's wall time
  (a fresh interpreter: its start-up).
- **the pages** of ``tajmahal ladder serve`` on that ladder (the command itself,
  in a process of its own): the leaderboard (``/``) and a bot's page
  (``/bots/NAME``, its chart, head-to-head and recent games), each asked for
  one after the other by one client; the 95th percentile of the answers' wall
  times.  Target: under 100 ms (issue 35).

``python -m benchmarks.ladder [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import http.client
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tajmahal.arena.game import AnyGame
from tajmahal.arena.registry import GAMES

from .measure import Result, spread
from .report import module_main

PARENT_TARGET = 1.0  # ms of CPU a game
PAGE_TARGET = 100.0  # ms, the 95th percentile of a page's answers
STANDINGS_TARGET = 50.0  # ms
RATIO_TARGET = 0.9  # ladder games/min over the tournament's
BOTS = ("random", "random", "random", "random")


def players_of(game: AnyGame) -> int:
    """The players of the benchmark's games: as many as its bots, within the game's range."""
    return max(game.min_players, min(len(BOTS), game.max_players))


def new_ladder(root: Path) -> tuple[Any, Any]:
    """A new ladder of the default game in ``root`` (SQLite): its directory and database."""
    from tajmahal.arena.ladder.database import create_database, now
    from tajmahal.arena.ladder.store import make_dir

    game = GAMES.get()
    place = make_dir(root, None)
    settings = {
        "game": game.name, "players": players_of(game), "max_players": players_of(game),
        "variant": None, "seed": 1,
        "secret": "0" * 64, "round_games": 16, "placement": 10, "duplicate": False,
        "time_move": 1.0, "time_bank": 10.0, "handshake": 10.0, "grace": 2.0, "max_line": 1 << 20,
        "max_log": 10 << 20, "memory": None, "created": now(), "planned_rounds": 0,
        "store": str(place.root),
    }
    return place, create_database(place.url, settings)


def _ladder(root: Path, games: int, jobs: int) -> tuple[float, float]:
    """Parent CPU seconds and wall seconds of ``games`` ladder games."""
    from tajmahal.arena.ladder.roster import Stored, add_version
    from tajmahal.arena.ladder.runner import Ladder, run_ladder
    from tajmahal.arena.tournament import LocalExecutor, game_reference

    game = GAMES.get()
    place, db = new_ladder(root)
    try:
        for index, bot in enumerate(BOTS):
            add_version(db, f"{bot}{index}", Stored.of_builtin(bot))
        state = Ladder.load(db, place, game)
        executor = LocalExecutor(game_reference(game), jobs)
        cpu, wall = time.process_time(), time.perf_counter()
        report = run_ladder(state, executor, None, games)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        assert report.finished == games, report
    finally:
        db.close()
    return cpu, wall


def _tournament(root: Path, games: int, jobs: int) -> tuple[float, float]:
    from tajmahal.arena.tournament import (
        LocalExecutor,
        Plan,
        TournamentDir,
        game_reference,
        run_tournament,
    )

    game = GAMES.get()
    plan = Plan(game.name, list(BOTS), seed=1, deals=games // len(BOTS))
    store = TournamentDir.open(root, plan)
    try:
        executor = LocalExecutor(game_reference(game), jobs)
        cpu, wall = time.process_time(), time.perf_counter()
        report = run_tournament(store, executor, game=game)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        assert report.played == plan.games, report
    finally:
        store.close()
    return cpu, wall


def throughput(quick: bool) -> list[Result]:
    games, rounds, jobs = (40, 1, 2) if quick else (400, 3, 2)
    ladder_cpu, tour_cpu, ratios, ladder_rate, tour_rate = [], [], [], [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            lc, lw = _ladder(Path(tmp) / "ladder", games, jobs)
            tc, tw = _tournament(Path(tmp) / "tournament", games, jobs)
        ladder_cpu.append(lc / games * 1e3)
        tour_cpu.append(tc / games * 1e3)
        ladder_rate.append(games / lw * 60)
        tour_rate.append(games / tw * 60)
        ratios.append(ladder_rate[-1] / tour_rate[-1])
    game = GAMES.get()
    what = f"{games} games of {game.name}, 4 x random, {players_of(game)} players, --jobs {jobs}"
    return [
        Result("ladder parent CPU a game", statistics.median(ladder_cpu), "ms",
               PARENT_TARGET, higher_is_better=False,
               note=f"{what}; SQLite; " + spread(ladder_cpu, ".2f")),
        Result("tournament parent CPU a game", statistics.median(tour_cpu), "ms",
               PARENT_TARGET, higher_is_better=False, note=f"{what}; " + spread(tour_cpu, ".2f")),
        Result("ladder games/min", statistics.median(ladder_rate), "games/min",
               note=f"{what}; " + spread(ladder_rate, ".0f")),
        Result("ladder / tournament games/min", statistics.median(ratios), "x", RATIO_TARGET,
               note=f"same bots, rounds interleaved; tournament "
               f"{statistics.median(tour_rate):,.0f} games/min"),
    ]


def fill(root: Path, bots: int, games: int) -> Path:
    """A ladder of ``bots`` built-in bots and ``games`` finished, rated games (rows
    written directly: random seats and ranks, ratings from the model)."""
    from sqlalchemy import insert, update

    from tajmahal.arena.ladder.database import now
    from tajmahal.arena.ladder.meetings import recount
    from tajmahal.arena.ladder.rating import INITIAL, rate
    from tajmahal.arena.ladder.roster import Stored, add_version
    from tajmahal.arena.ladder.schema import games as games_table
    from tajmahal.arena.ladder.schema import ladder, rating_history, ratings, seats

    place, db = new_ladder(root)
    for index in range(bots):
        add_version(db, f"bot{index:02d}", Stored.of_builtin("random"))
    rng = random.Random(1)
    current = {v: INITIAL for v in range(1, bots + 1)}
    totals = {v: [0, 0.0, 0] for v in current}
    game_rows, seat_rows, history = [], [], []
    stamp = now()
    players = players_of(GAMES.get())
    for number in range(games):
        seated = rng.sample(sorted(current), players)
        ranks = rng.sample(range(1, players + 1), players)
        game_rows.append({"id": number + 1, "slot": number, "kind": "rated", "seed": number,
                          "deal": number, "rotation": 0, "status": "finished",
                          "created": stamp, "finished": stamp, "tries": 0,
                          "record": f"games/{number + 1:06d}.jsonl", "decisions": 100})
        after = rate([current[v] for v in seated], ranks)
        for seat, (version, rank, rated) in enumerate(zip(seated, ranks, after, strict=True)):
            seat_rows.append({"game_id": number + 1, "seat": seat, "version_id": version,
                              "score": 50 - 10 * rank, "rank": rank, "decisions": 25,
                              "fallback_decisions": 0, "time_used": 0.1})
            history.append({"slot": number, "version_id": version, "game_id": number + 1,
                            "mu": rated[0], "sigma": rated[1]})
            current[version] = rated
            totals[version][0] += 1
            totals[version][1] += rank == 1
            totals[version][2] += rank
    with db.write() as conn:
        conn.execute(insert(games_table), game_rows)
        conn.execute(insert(seats), seat_rows)
        conn.execute(insert(rating_history), history)
        for version, (mu, sigma) in current.items():
            played, wins, rank_sum = totals[version]
            conn.execute(update(ratings).where(ratings.c.version_id == version).values(
                mu=mu, sigma=sigma, games=played, wins=wins, rank_sum=rank_sum))
        conn.execute(update(ladder).values(planned_rounds=games // 16))
        recount(conn)  # the head-to-head sums, as the games' ends keep them
    db.close()
    return place.root


def standings(quick: bool) -> list[Result]:
    from tajmahal.arena.ladder.database import open_database
    from tajmahal.arena.ladder.queries import standings as query
    from tajmahal.arena.ladder.store import find

    rounds = 5 if quick else 30
    with tempfile.TemporaryDirectory() as tmp:
        root = fill(Path(tmp) / "ladder", 50, 10_000)
        place = find(root, None)
        assert place is not None
        db = open_database(place.url)
        answers = []
        for _ in range(rounds):
            start = time.perf_counter()
            with db.read() as conn:
                rows = query(conn)
            answers.append((time.perf_counter() - start) * 1e3)
        db.close()
        assert len(rows) == 50
        command = [sys.executable, "-m", "tajmahal", "ladder", "standings", "--ladder", str(root)]
        walls = []
        for _ in range(3 if quick else 10):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            walls.append((time.perf_counter() - start) * 1e3)
    return [
        Result("ladder standings, 50 bots, 10,000 games", statistics.median(answers), "ms",
               STANDINGS_TARGET, higher_is_better=False,
               note="the query, in process (SQLite); " + spread(answers, ".1f")),
        Result("tajmahal ladder standings, 50 bots, 10,000 games", statistics.median(walls),
               "ms", higher_is_better=False,
               note="the whole command: a fresh interpreter, imports, the table; "
               + spread(walls, ".0f")),
    ]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


@contextmanager
def served(root: Path) -> Iterator[tuple[int, int]]:
    """``tajmahal ladder serve`` on the ladder in ``root``, on a free port,
    started: the port and the server's process id; stopped after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "ladder", "serve", "--port", str(port),
         "--ladder", str(root)], stdout=subprocess.DEVNULL)
    try:
        for _ in range(1200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("ladder serve did not start")
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


def pages(quick: bool) -> list[Result]:
    answers = 40 if quick else 300
    with tempfile.TemporaryDirectory() as tmp:
        root = fill(Path(tmp) / "ladder", 50, 10_000)
        with served(root) as (port, _):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            times: dict[str, list[float]] = {"/": [], "/bots/bot07": []}
            for _ in range(3):  # the first answers: imports, templates, caches
                for path in times:
                    connection.request("GET", path)
                    connection.getresponse().read()
            for _ in range(answers):
                for path, taken in times.items():
                    start = time.perf_counter()
                    connection.request("GET", path)
                    answer = connection.getresponse()
                    body = answer.read()
                    taken.append((time.perf_counter() - start) * 1e3)
                    assert answer.status == 200 and len(body) > 1000, (path, answer.status)
            connection.close()
    what = "50 bots, 10,000 games (SQLite), ladder serve in its own process, one client"
    return [
        Result(f"ladder page {name}, p95", p95(taken), "ms", PAGE_TARGET,
               higher_is_better=False,
               note=f"{what}; median {statistics.median(taken):.1f} ms, "
               f"{len(taken)} answers")
        for name, taken in (("leaderboard /", times["/"]),
                            ("of a bot /bots/NAME", times["/bots/bot07"]))
    ]


def run_all(quick: bool) -> list[Result]:
    return throughput(quick) + standings(quick) + pages(quick)


if __name__ == "__main__":
    sys.exit(module_main("python -m benchmarks.ladder", __doc__, run_all))
