"""Spectators of a live game (issue 35): how much watching slows a game.

Each round plays the same game of the default game (Taj Mahal, 4 players) between
in-process ``greedy`` bots three times, in a new order every round: unwatched
(its live file holds its begin and end only, as for any game nobody watches),
watched by one spectator, and watched by 100.  The spectators are server-sent-event connections to
``tajmahal ladder serve`` (a process of its own) from one client process, all
connected before the game starts; the game is played in this process and
writes its live file as the ladder's workers do.  The figure is the game's wall
time watched over unwatched (the server and the spectators share the machine's
cores with the game, as on a ladder's one machine).  Target: 100 spectators
slow the game by under 5% (ratio at most 1.05).

``python -m benchmarks.live [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .ladder import new_ladder, players_of, served
from .measure import Result, spread
from .report import module_main

SLOWDOWN_TARGET = 1.05
SPECTATORS = 100

#: The spectators: SPECTATORS connections to the game's events, each read to its
#: end; "ready" once each has the game so far ("view").
CLIENT = """
import asyncio, sys
port, path, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
async def spectator(ready):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\n".encode())
    seen = b""
    while b"event: view" not in seen:
        chunk = await reader.read(65536)
        if not chunk:
            raise SystemExit("the stream ended before its view: " + seen[:200].decode())
        seen += chunk
    ready()
    while await reader.read(65536):
        pass
    writer.close()
async def main():
    left = [count]
    def ready():
        left[0] -= 1
        if not left[0]:
            print("ready", flush=True)
    await asyncio.gather(*(spectator(ready) for _ in range(count)))
asyncio.run(main())
"""


def play(place: Any, number: int, spectators: int, port: int) -> float:
    """Wall seconds of the game written as game ``number``'s live file, watched
    by ``spectators``."""
    from tajmahal.arena.live import LiveWriter
    from tajmahal.arena.referee import BotSpec, run_match
    from tajmahal.arena.registry import GAMES
    from tajmahal.arena.terms import MatchConfig

    game = GAMES.get()
    players = players_of(game)
    bots = ["greedy"] * players
    setup = game.random_setup(players, 7)
    specs = [BotSpec.parse(b, list(game.builtin_players())) for b in bots]
    writer = LiveWriter(game, setup, bots, place.live_dir / f"{number:06d}.jsonl")
    client = None
    if spectators:
        client = subprocess.Popen(
            [sys.executable, "-c", CLIENT, str(port), f"/api/v1/live/{number:06d}/events",
             str(spectators)], stdout=subprocess.PIPE, text=True)
        assert client.stdout is not None
        assert client.stdout.readline().strip() == "ready"
        writer.looked = 0.0  # it looks for the spectators' mark at its first step
    start = time.perf_counter()
    writer.finish(run_match(game, setup, specs, MatchConfig(on_step=writer.on_step), 7))
    taken = time.perf_counter() - start
    if client is not None:
        assert client.wait(timeout=120) == 0
    return taken


def spectators(quick: bool) -> list[Result]:
    rounds = 3 if quick else 10
    counts = (0, 1, SPECTATORS)
    times: dict[int, list[float]] = {n: [] for n in counts}
    with tempfile.TemporaryDirectory() as tmp:
        place, db = new_ladder(Path(tmp) / "ladder")
        db.close()
        with served(place.root) as port:
            number = 0
            play(place, 999_999, 0, port)  # the first game: imports, caches
            for k in range(rounds):
                for n in counts[k % 3:] + counts[: k % 3]:
                    number += 1
                    times[n].append(play(place, number, n, port))
    base = statistics.median(times[0])
    from tajmahal.arena.registry import GAMES

    game = GAMES.get()
    what = f"greedy at every seat, {game.title} {players_of(game)} players, ladder serve apart"
    return [
        Result("live game, unwatched", base * 1e3, "ms", higher_is_better=False,
               note=f"{what}; " + spread([t * 1e3 for t in times[0]], ".0f")),
        *(Result(f"live game, {n} spectator{'s' if n > 1 else ''} / unwatched",
                 statistics.median(times[n]) / base, "x",
                 SLOWDOWN_TARGET if n == SPECTATORS else None, higher_is_better=False,
                 note=f"{what}; {statistics.median(times[n]) * 1e3:.0f} ms, "
                 + spread([t * 1e3 for t in times[n]], ".0f"))
          for n in counts[1:]),
    ]


def run_all(quick: bool) -> list[Result]:
    return spectators(quick)


if __name__ == "__main__":
    sys.exit(module_main("python -m benchmarks.live", __doc__, run_all))
