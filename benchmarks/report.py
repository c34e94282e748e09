"""The benchmark table, printed (rich, or Markdown for docs/performance.md), and
the ``python -m benchmarks.MODULE`` entry of each benchmark module."""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

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


def report(results: list[Result], markdown: bool, json_path: str | None) -> None:
    """Print the table, and write the figures as JSON to ``json_path`` if given."""
    print_table(results, markdown)
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump([r.__dict__ | {"reached": r.reached} for r in results], f, indent=2)


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


def module_main(prog: str, description: str | None, run_all: Callable[[bool], list[Result]],
                argv: list[str] | None = None) -> int:
    """``python -m PROG [--quick] [--markdown]``: run one benchmark module and print
    its table (in Markdown, as the docs show it, with ``--markdown``)."""
    import argparse

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--quick", action="store_true", help="a few seconds")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    print_table(run_all(args.quick), markdown=args.markdown)
    return 0
