"""``python -m benchmarks [--quick] [--json FILE]``: print the benchmark table."""

from __future__ import annotations

import argparse
import json
import platform
import sys

from rich.console import Console
from rich.table import Table

from . import bots, compare, engine, referee, sandbox, startup, viewer
from .measure import Result


def table(results: list[Result]) -> Table:
    title = f"tajmahal benchmarks — Python {platform.python_version()}, {platform.machine()}"
    out = Table(title=title)
    for column in ("benchmark", "median", "unit", "target", "", "note"):
        out.add_column(column, justify="right" if column in ("median", "target") else "left")
    for r in results:
        if r.value < 1:
            figure = f"{r.value:.3f}"
        else:
            figure = f"{r.value:,.1f}" if r.value < 100 else f"{r.value:,.0f}"
        if r.target is None:
            target, mark = "", ""
        else:
            sign = "≥" if r.higher_is_better else "≤"
            target = f"{sign} {r.target:,g}"
            mark = "[green]reached[/]" if r.reached else "[red]missed[/]"
        out.add_row(r.name, figure, r.unit, target, mark, r.note)
    return out


def print_table(results: list[Result]) -> None:
    console = Console() if sys.stdout.isatty() else Console(width=130)
    console.print(table(results))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds, for smoke tests")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    results = (
        engine.run_all(args.quick)
        + bots.run_all(args.quick)
        + compare.run_all(args.quick)
        + referee.run_all(args.quick)
        + startup.run_all(args.quick)
        + sandbox.run_all(args.quick)
        + viewer.run_all(args.quick)
    )
    print_table(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([r.__dict__ | {"reached": r.reached} for r in results], f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
