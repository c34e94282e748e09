"""What confining a bot costs, and what the CPU share buys (issues 26 and 36).

- *Start-up*: the wall time from starting the Python example bot
  (``bots/random_bot.py``) to its answer to the hello, as the referee starts it:
  as is (no confinement); through the launcher with Landlock's signal scoping
  (outside the sandbox on Linux 6.12+); in its cgroup (the launcher joins it);
  in the sandbox (bubblewrap's namespaces and seccomp filter, then the
  launcher); in the sandbox and its cgroup (the default where both can be had).
  Rounds interleave the modes.
- *Games per minute*: a tournament of two example bots, ``--jobs 1``, without
  and with the sandbox (and so with the filter and the cgroups).
- *The CPU hog*: two games at once (as ``--jobs 2``), in each the search bot
  (``bots/mcts_bot.py``, a fixed number of iterations) against a bot; the
  search bot's mean time a decision when its opponent is the example bot, then a
  hog that keeps four processes spinning, with and without the bots' cgroups.

A decision costs the same in every mode (the pipes are the same).

``python -m benchmarks.sandbox [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from tajmahal.arena import cgroups, sandbox
from tajmahal.arena.referee import BotSpec, run_match
from tajmahal.arena.registry import GAMES
from tajmahal.arena.terms import MatchConfig, TimeControl

from .measure import Result, spread
from .report import module_main

ROOT = Path(__file__).resolve().parent.parent
BOT = (sys.executable, str(ROOT / "bots" / "random_bot.py"))
HELLO = b'{"type": "hello", "protocol_version": 1, "seat": 0, "players": 2, "seed": 1}\n'


def hello_time(launch: sandbox.Launch) -> float:
    """Wall seconds from starting ``launch`` to its answer to the hello (the CPU time
    of a sandboxed bot is not counted here: its processes are reaped in its own
    PID namespace)."""
    argv = launch.argv
    start = time.perf_counter()
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, pass_fds=launch.fds) as bot:
        launch.close()
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write(HELLO)
        bot.stdin.flush()
        answer = bot.stdout.readline()
        took = time.perf_counter() - start
        bot.stdin.close()  # it ends at the end of its input
    if b'"hello"' not in answer:
        raise RuntimeError(f"{argv[0]} did not answer the hello: {answer!r}")
    return took


def _in_group(sandboxed: bool) -> tuple[sandbox.Launch, Callable[[], None]]:
    group = cgroups.create(None)
    return sandbox.command(BOT, sandbox=sandboxed, group=group), (
        group.remove if group is not None else lambda: None)


def modes() -> dict[str, Callable[[], tuple[sandbox.Launch, Callable[[], None]]]]:
    """How each mode starts the bot (a new launch each time: the sandbox's filter
    is handed over on a descriptor that is read once), and what ends it."""
    def plain(launch: Callable[[], sandbox.Launch]) -> Callable[[], tuple[sandbox.Launch,
                                                                          Callable[[], None]]]:
        return lambda: (launch(), lambda: None)

    found = {"as is": plain(lambda: sandbox.Launch(BOT))}
    if sandbox.scope_available():
        found["launcher, Landlock scope"] = plain(partial(sandbox.command, BOT, sandbox=False))
    if cgroups.unavailable() is None:
        found["launcher, its cgroup"] = partial(_in_group, False)
    if sandbox.unavailable() is None:
        found["sandbox"] = plain(partial(sandbox.command, BOT, sandbox=True))
        if cgroups.unavailable() is None:
            found["sandbox and its cgroup"] = partial(_in_group, True)
    return found


def start_up(quick: bool) -> list[Result]:
    commands = modes()
    rounds = 3 if quick else 20
    walls: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, start in commands.items():
            launch, end = start()
            walls[name].append(hello_time(launch) * 1e3)
            end()
    plain = statistics.median(walls["as is"])
    results = []
    for name, values in walls.items():
        median = statistics.median(values)
        extra = "" if name == "as is" else f"; +{median - plain:.0f} ms over as is"
        results.append(Result(f"bot start to hello, {name}", median, "ms",
                              higher_is_better=False, note=spread(values, ".0f") + extra))
    return results


def games_per_minute(quick: bool) -> list[Result]:
    """A tournament of two example bots at --jobs 1, without and with the sandbox."""
    games = 6 if quick else 40
    results = []
    modes = ["--no-sandbox"] + (["--sandbox"] if sandbox.unavailable() is None else [])
    for mode in modes:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "tajmahal", "tournament", BOT[1], BOT[1], "--games",
                 str(games), "--jobs", "1", "--seed", "1", "--out", str(Path(tmp, "t")), "-q",
                 mode], check=True, capture_output=True, cwd=ROOT)
            wall = time.perf_counter() - start
        results.append(Result(f"tournament of 2 example bots, --jobs 1, {mode}",
                              games / wall * 60, "games/min",
                              note=f"{games} games, wall time of the whole command"))
    return results


#: A bot that plays the first action while four processes of its own spin, each
#: in a session of its own (so that the kernel's autogroups, one per session, do
#: not keep them to one bot's share).
HOG = (
    "import json, multiprocessing, os, sys\n"
    "def spin():\n    os.setsid()\n    while True: pass\n"
    "if __name__ == '__main__':\n"
    "    for _ in range(4): multiprocessing.Process(target=spin, daemon=True).start()\n"
    "    for line in sys.stdin:\n"
    "        m = json.loads(line)\n"
    "        if m['type'] == 'hello': print(json.dumps({'type': 'hello', 'name': 'hog', "
    "'version': '0', 'protocol_version': 1}), flush=True)\n"
    "        elif m['type'] == 'act': print(json.dumps({'type': 'action', 'choice': 0}), "
    "flush=True)\n"
)


def search_time(opponent: list[str], iterations: int) -> float:
    """The search bot's mean seconds a decision in a game against ``opponent``,
    while a second such game runs beside it (as ``--jobs 2``)."""
    game = GAMES.get()  # the default game: the example bots' (bots/mcts_bot.py)
    search = BotSpec("mcts", (sys.executable, str(ROOT / "bots" / "mcts_bot.py"),
                              "--iterations", str(iterations)))
    other = BotSpec("hog", tuple(opponent))
    times: list[float] = []
    config = MatchConfig(time=TimeControl(30.0, 0.0), watch=False)

    def play(seed: int) -> None:
        result = run_match(game, game.random_setup(2, seed), [search, other], config, seed)
        seat = result.seats[0]
        times.append(seat.time_used / max(1, seat.decisions))

    threads = [threading.Thread(target=play, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statistics.mean(times)


def cpu_hog(quick: bool) -> list[Result]:
    iterations = 30 if quick else 200
    calm = search_time(list(BOT), iterations)
    hog = [sys.executable, "-c", HOG]
    rows = [Result("search bot's decision, opponent the example bot", calm * 1e3, "ms",
                   higher_is_better=False, note=f"{iterations} iterations, 2 games at once")]
    if cgroups.unavailable() is None:
        grouped = search_time(hog, iterations)
        rows.append(Result("search bot's decision, opponent a CPU hog, cgroups", grouped * 1e3,
                           "ms", higher_is_better=False, note=f"{grouped / calm:.2f}x the calm"))
    original = cgroups.create
    cgroups.create = lambda memory: None  # type: ignore[assignment]
    try:
        bare = search_time(hog, iterations)
    finally:
        cgroups.create = original  # type: ignore[assignment]
    rows.append(Result("search bot's decision, opponent a CPU hog, no cgroups", bare * 1e3, "ms",
                       higher_is_better=False, note=f"{bare / calm:.2f}x the calm"))
    return rows


def run_all(quick: bool) -> list[Result]:
    return [*start_up(quick), *games_per_minute(quick), *cpu_hog(quick)]


if __name__ == "__main__":
    sys.exit(module_main("python -m benchmarks.sandbox", __doc__, run_all))
