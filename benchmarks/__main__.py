"""``python -m benchmarks [--quick] [--game NAME]... [--markdown] [--json FILE]``:
print the benchmark table.

``--game`` measures only the games named (their engines, their built-in bots, and
their engines side by side with python-chess), none of the game-independent parts
(the referee, start-up, the sandbox, the viewer); ``--markdown`` prints the table as Markdown
(docs/performance.md quotes it)."""

from __future__ import annotations

import argparse
import json
import platform
import sys

from rich.console import Console
from rich.table import Table

from . import batched, bots, compare, engine, games, referee, sandbox, startup, viewer
from .measure import Result


def table(results: list[Result]) -> Table:
    title = f"tajmahal benchmarks — Python {platform.python_version()}, {platform.machine()}"
    out = Table(title=title)
    for column in ("benchmark", "median", "unit", "target", "", "note"):
        out.add_column(column, justify="right" if column in ("median", "target") else "left")
    for r in results:
        figure = _figure(r.value)
        if r.target is None:
            target, mark = "", ""
        else:
            sign = "≥" if r.higher_is_better else "≤"
            target = f"{sign} {r.target:,g}"
            mark = "[green]reached[/]" if r.reached else "[red]missed[/]"
        out.add_row(r.name, figure, r.unit, target, mark, r.note)
    return out


def print_table(results: list[Result], markdown: bool = False) -> None:
    if markdown:
        print(markdown_table(results))
        return
    console = Console() if sys.stdout.isatty() else Console(width=130)
    console.print(table(results))


def markdown_table(results: list[Result]) -> str:
    """The table as Markdown: one row a result, the figures of :func:`table`."""
    lines = ["| benchmark | median | unit | target | | note |", "|---|---:|---|---:|---|---|"]
    for r in results:
        target = "" if r.target is None else f"{'≥' if r.higher_is_better else '≤'} {r.target:,g}"
        mark = {None: "", True: "reached", False: "**missed**"}[r.reached]
        lines.append(f"| {r.name} | {_figure(r.value)} | {r.unit} | {target} | {mark} | {r.note} |")
    return "\n".join(lines)


def _figure(value: float) -> str:
    if value < 1:
        return f"{value:.3f}"
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


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
    )
    if not args.game or "tajmahal" in {engine.name for engine in engines}:
        results += batched.run_all(args.quick)
    if not args.game:
        results += (
            referee.run_all(args.quick)
            + startup.run_all(args.quick)
            + sandbox.run_all(args.quick)
            + viewer.run_all(args.quick)
        )
    report(results, args.markdown, args.json)
    return 0


def report(results: list[Result], markdown: bool, json_path: str | None) -> None:
    """Print the table, and write the figures as JSON to ``json_path`` if given."""
    print_table(results, markdown)
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump([r.__dict__ | {"reached": r.reached} for r in results], f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
