"""The command line's start-up and a tournament's throughput (issue 15, items 3 and 4).

- ``tajmahal --version``: wall time of the whole command (a fresh interpreter,
  click, the package root), against ``python -c pass`` in the same rounds;
- ``tajmahal tournament random random random random --jobs 2``: games per minute
  of wall time, start-up, workers and the final tables included.

``python -m benchmarks.startup [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .measure import Result, spread
from .report import module_main

STARTUP_TARGET = 0.1  # seconds, tajmahal --version
TOURNAMENT_TARGET = 5_000  # games a minute, built-in bots, --jobs 2
CLI = [sys.executable, "-c", "from tajmahal.cli import main; main()"]


def _wall(command: list[str]) -> float:
    return _run(command)[0]


def _run(command: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system, of every process it waited for) of
    ``command``: on a shared machine the CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def startup(rounds: int) -> list[Result]:
    python, version, cpu = [], [], []
    for _ in range(rounds):  # interleaved
        python.append(_wall([sys.executable, "-c", "pass"]))
        wall, used = _run([*CLI, "--version"])
        version.append(wall)
        cpu.append(used)
    median = statistics.median
    return [
        Result(
            "tajmahal --version",
            median(version),
            "s",
            STARTUP_TARGET,
            higher_is_better=False,
            note=f"wall; {spread(version, '.3f')}",
        ),
        Result(
            "tajmahal --version, CPU time",
            median(cpu),
            "s",
            higher_is_better=False,
            note=f"user + system; {spread(cpu, '.3f')}",
        ),
        Result(
            "python -c pass (reference)",
            median(python),
            "s",
            higher_is_better=False,
            note=f"same rounds; {spread(python, '.3f')}",
        ),
    ]


def tournament(games: int, rounds: int, bots: tuple[str, ...]) -> tuple[float, float]:
    """Median games a minute of ``rounds`` tournaments of ``games`` games, and the
    median CPU time a game (the tournament process and its workers)."""
    rates, costs = [], []
    for i in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp, "t")
            command = [*CLI, "tournament", *bots, "--games", str(games), "--jobs", "2"]
            wall, cpu = _run([*command, "--seed", str(i + 1), "--out", str(out)])
        rates.append(games / wall * 60)
        costs.append(cpu / games)
    return statistics.median(rates), statistics.median(costs)


def tournaments(quick: bool) -> list[Result]:
    out = []
    for bots, target, games, rounds in (
        (("random",) * 4, TOURNAMENT_TARGET, 1_000, 3),
        (("greedy", "random", "random", "random"), None, 400, 1),
    ):
        if quick:
            games, rounds = 40, 1
        rate, cost = tournament(games, rounds, bots)
        name = f"tournament {' '.join(bots)}, --jobs 2"
        out += [
            Result(
                name,
                rate,
                "games/min",
                target,
                note=f"{games} games, wall time of the whole command; median of {rounds}",
            ),
            Result(
                name,
                cost * 1e3,
                "ms CPU/game",
                higher_is_better=False,
                note=f"all processes; two free cores would play {120 / cost:,.0f} games/min",
            ),
        ]
    return out


def run_all(quick: bool) -> list[Result]:
    return startup(5 if quick else 20) + tournaments(quick)


def main(argv: list[str] | None = None) -> int:
    return module_main("python -m benchmarks.startup", __doc__, run_all, argv)


if __name__ == "__main__":
    sys.exit(main())
