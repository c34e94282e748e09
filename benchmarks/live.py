"""Spectators of a live game (issue 35): how much watching slows a game.

Each round plays the same game of the default game (Taj Mahal, 4 players) between
in-process ``greedy`` bots three times, in a new order every round: unwatched
(its live file holds its begin and end only, as for any game nobody watches),
watched by one spectator, and watched by 100.  The spectators are server-sent-event connections to
``tajmahal ladder serve`` (a process of its own) from one client process (an
audience that watches one game after the other: each browser fetches the
unchanging pictures once, in the first, untimed game, and keeps them), all
connected before the game starts; the game is played in this process and
writes its live file as the ladder's workers do.  The figure is the game's wall
time watched over unwatched (the server and the spectators share the machine's
cores with the game, as on a ladder's one machine).  Target: 100 spectators
slow the game by under 5% (ratio at most 1.05).  Beside it, where ``/proc`` tells
it, the CPU the server and the 100 spectators spend on a game (from its start to
its end read by all): the cost of watching itself, which a busy machine's noise
hides in the ratio of wall times.

``python -m benchmarks.live [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import os
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

#: An audience of browsers (one process): for each game's events path it is
#: given (a line), COUNT connections to them, each read to its end; "ready" once
#: each has the game so far ("view"), "done" once every stream ended.  Each
#: browser fetches the unchanging pictures the events name the first time it
#: sees them (gzip-compressed, as a browser asks for them), while it reads the
#: events, and keeps them (they are served as immutable): a ladder's audience
#: watches game after game of the same board.
CLIENT = """
import asyncio, re, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
named = re.compile(rb'"pictures":"([0-9a-f]{64})"')
kept = [set() for _ in range(count)]
async def get(where, extra=""):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {where} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n{extra}"
                 "Connection: close\\r\\n\\r\\n".encode())
    return reader, writer
async def fetch(path, digest):
    base = path.rsplit("/", 2)[0]
    reader, writer = await get(f"{base}/pictures/{digest}", "Accept-Encoding: gzip\\r\\n")
    while await reader.read(65536):
        pass
    writer.close()
async def spectator(browser, path, ready):
    reader, writer = await get(path)
    seen, tail, fetching = b"", b"", []
    while b"event: view" not in seen:
        chunk = await reader.read(65536)
        if not chunk:
            raise SystemExit("the stream ended before its view: " + seen[:200].decode())
        seen += chunk
    ready()
    chunk = seen
    while chunk:
        for found in named.finditer(tail + chunk):
            digest = found[1].decode()
            if digest not in kept[browser]:
                kept[browser].add(digest)
                fetching.append(asyncio.create_task(fetch(path, digest)))
        tail = chunk[-100:]
        chunk = await reader.read(65536)
    writer.close()
    await asyncio.gather(*fetching)
async def main():
    loop = asyncio.get_running_loop()
    while path := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        left = [count]
        def ready():
            left[0] -= 1
            if not left[0]:
                print("ready", flush=True)
        await asyncio.gather(*(spectator(b, path, ready) for b in range(count)))
        print("done", flush=True)
asyncio.run(main())
"""


class Audience:
    """``count`` browsers watching the games of the server on ``port`` (the
    :data:`CLIENT` process), one game after the other."""

    def __init__(self, port: int, count: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", CLIENT, str(port), str(count)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True)

    def watch(self, number: int) -> None:
        """Connect to game ``number``'s events (it is under way); back once every
        browser has the game so far."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"/api/v1/live/{number:06d}/events\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "ready"

    def watched(self) -> None:
        """Back once every browser read its stream to the end."""
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "done"

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0


def cpu_seconds(*pids: int | None) -> float | None:
    """The CPU seconds the processes ``pids`` have used, together (None where
    ``/proc`` does not say)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def play(place: Any, number: int, audience: Audience | None,
         server: int | None = None, used: list[float] | None = None) -> float:
    """Wall seconds of the game written as game ``number``'s live file, watched
    by ``audience`` (None: nobody); ``used`` gets the CPU seconds the server
    (process ``server``) and the audience spent from the game's start until every
    spectator read its end, where ``/proc`` tells them."""
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
    before = None
    if audience is not None:
        audience.watch(number)
        writer.looked = 0.0  # it looks for the spectators' mark at its first step
        before = cpu_seconds(server, audience.process.pid)
    start = time.perf_counter()
    writer.finish(run_match(game, setup, specs, MatchConfig(on_step=writer.on_step), 7))
    taken = time.perf_counter() - start
    if audience is not None:
        audience.watched()
        after = cpu_seconds(server, audience.process.pid)
        if used is not None and before is not None and after is not None:
            used.append(after - before)
    return taken


def spectators(quick: bool) -> list[Result]:
    rounds = 3 if quick else 10
    counts = (0, 1, SPECTATORS)
    times: dict[int, list[float]] = {n: [] for n in counts}
    used: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        place, db = new_ladder(Path(tmp) / "ladder")
        db.close()
        with served(place.root) as (port, server):
            audiences = {n: Audience(port, n) for n in counts if n}
            number = 999_000
            for n in counts:  # the first games: imports, caches, the pictures fetched
                number += 1
                play(place, number, audiences.get(n))
            number = 0
            for k in range(rounds):
                for n in counts[k % 3:] + counts[: k % 3]:
                    number += 1
                    times[n].append(play(place, number, audiences.get(n), server,
                                         used if n == SPECTATORS else None))
            for audience in audiences.values():
                audience.close()
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
        *([Result(f"live game, {SPECTATORS} spectators: server and audience CPU",
                  statistics.median(used) * 1e3, "ms", higher_is_better=False,
                  note="from the game's start to its end read by all (CPU clock ticks of "
                  f"10 ms), beside the game's {base * 1e3:.0f} ms; "
                  + spread([u * 1e3 for u in used], ".0f"))] if used else []),
    ]


def run_all(quick: bool) -> list[Result]:
    return spectators(quick)


if __name__ == "__main__":
    sys.exit(module_main("python -m benchmarks.live", __doc__, run_all))
