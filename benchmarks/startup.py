"""The command line's start-up and a tournament's throughput (issue 15, items 3 and 4).

- ``tajmahal --version``: wall time of the whole command (a fresh interpreter,
  click, the package root), against ``python -c pass`` in the same rounds;
- ``tajmahal tournament random random random random --jobs 2``: games per minute
  of wall time, start-up, workers and the final tables included.

``python -m benchmarks.startup [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .measure import Result, spread

STARTUP_TARGET = 0.1  # seconds, tajmahal --version
TOURNAMENT_TARGET = 5_000  # games a minute, built-in bots, --jobs 2
CLI = [sys.executable, "-c", "from tajmahal.cli import main; main()"]


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def startup(rounds: int) -> list[Result]:
    python, version = [], []
    for _ in range(rounds):  # interleaved
        python.append(_wall([sys.executable, "-c", "pass"]))
        version.append(_wall([*CLI, "--version"]))
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
            "python -c pass (reference)",
            median(python),
            "s",
            higher_is_better=False,
            note=f"same rounds; {spread(python, '.3f')}",
        ),
    ]


def tournament(games: int, rounds: int, bots: tuple[str, ...]) -> float:
    """Median games a minute of ``rounds`` tournaments of ``games`` games."""
    rates = []
    for i in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp, "t")
            command = [*CLI, "tournament", *bots, "--games", str(games), "--jobs", "2"]
            wall = _wall([*command, "--seed", str(i + 1), "--out", str(out)])
        rates.append(games / wall * 60)
    return statistics.median(rates)


def tournaments(quick: bool) -> list[Result]:
    games, rounds = (40, 1) if quick else (2_000, 3)
    out = []
    for bots, target in (
        (("random",) * 4, TOURNAMENT_TARGET),
        (("greedy", "random", "random", "random"), None),
    ):
        rate = tournament(games, rounds, bots)
        out.append(
            Result(
                f"tournament {' '.join(bots)}, --jobs 2",
                rate,
                "games/min",
                target,
                note=f"{games} games, wall time of the whole command; median of {rounds}",
            )
        )
    return out


def run_all(quick: bool) -> list[Result]:
    return startup(5 if quick else 20) + tournaments(quick)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds")
    args = parser.parse_args(argv)
    from .__main__ import print_table

    print_table(run_all(args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
