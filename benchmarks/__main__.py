"""``python -m benchmarks [--quick] [--game NAME]... [--markdown] [--json FILE]``:
print the benchmark table.

``--game`` measures only the games named (their engines, their built-in bots, and
their engines side by side with python-chess), none of the game-independent parts
(the referee, start-up, the sandbox, the viewer, the ladder); ``--markdown`` prints the
table as Markdown (docs/performance.md quotes it)."""

from __future__ import annotations

import argparse
import sys

from . import (
    batched,
    bots,
    compare,
    engine,
    environments,
    games,
    ladder,
    referee,
    sandbox,
    startup,
    viewer,
)
from .report import report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds, for smoke tests")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--game",
        action="append",
        metavar="NAME",
        help="only this game's figures (repeatable); default: every game and the rest",
    )
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    engines = games.selected(args.game)
    results = (
        engine.run_all(args.quick, engines)
        + bots.run_all(args.quick, engines)
        + compare.run_all(args.quick, games=args.game)
        + environments.run_all(args.quick, engines)
    )
    if not args.game or "tajmahal" in {engine.name for engine in engines}:
        results += batched.run_all(args.quick)
    if not args.game:
        results += (
            referee.run_all(args.quick)
            + startup.run_all(args.quick)
            + sandbox.run_all(args.quick)
            + viewer.run_all(args.quick)
            + ladder.run_all(args.quick)
        )
    report(results, args.markdown, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
