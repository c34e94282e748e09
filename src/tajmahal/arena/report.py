"""Result tables for people (rich)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from .referee import Fault, MatchResult
from .text import printable


def _console() -> Console:
    # sys.stdout as it is now, so that click's test runner sees the table too; not
    # a terminal: as wide as $COLUMNS says, else 160 (a log file).
    width = None
    if not sys.stdout.isatty():
        columns = os.environ.get("COLUMNS", "")
        width = int(columns) if columns.isdigit() and int(columns) >= 20 else 160
    # No markup or emoji codes: names and details come from bots and are shown as is.
    return Console(file=sys.stdout, width=width, highlight=False, markup=False, emoji=False)


def fault_text(fault: Fault, names: Sequence[str]) -> str:
    """One line for a fault, safe to print (whatever the bot wrote)."""
    name = names[fault.seat] if 0 <= fault.seat < len(names) else "?"
    when = (
        "before the game"
        if fault.decision == 0 and fault.phase == "hello"
        else ("after the game" if fault.phase == "end" else f"at decision {fault.decision}")
    )
    text = f"seat {fault.seat} ({name}) {fault.kind} {when}: {fault.detail}"
    if fault.stderr:
        text = f"{text}; last stderr line: {fault.stderr}"
    return printable(text)


def result_table(result: MatchResult, sources: Sequence[str]) -> None:
    """The result of a match: a row per seat.  How each bot was started is a column
    when the console is wide enough, else a line per bot under the table, so that
    the table fits (80 columns for Taj Mahal's five score sources)."""
    console = _console()
    bots = [(s.seat, printable(s.bot)) for s in result.seats if s.name != s.bot]
    table = _result_table(result, sources, with_bots=bool(bots))
    natural = console.measure(table, options=console.options.update_width(10_000)).maximum
    if bots and natural > console.width:
        table = _result_table(result, sources, with_bots=False)
    else:
        bots = []
    console.print(table)
    for seat, bot in bots:
        console.print(f"seat {seat}: {bot}", overflow="fold")
    for s in result.seats:
        if s.fault is not None:
            console.print(f"fault: {fault_text(s.fault, [x.name for x in result.seats])}")
    if result.logs:
        console.print(f"bot logs: {', '.join(result.logs)}")


def _number_column(table: Table, header: str, style: str = "") -> None:
    """A right-aligned column that is never wrapped and never cuts its header."""
    table.add_column(header, justify="right", no_wrap=True, min_width=len(header), style=style)


def _result_table(result: MatchResult, sources: Sequence[str], with_bots: bool) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold", collapse_padding=True)
    _number_column(table, "seat")
    table.add_column("player", no_wrap=True, max_width=24)
    if with_bots:
        table.add_column("bot", overflow="fold", style="dim")
    for source in sources:
        _number_column(table, source)
    _number_column(table, "total", style="bold")
    _number_column(table, "rank")
    _number_column(table, "time")
    table.add_column("fault", min_width=5)
    for s in result.seats:
        fault = ""
        if s.fault is not None:
            fault = (
                f"{s.fault.kind} after the end"
                if s.fault.phase == "end"
                else (f"{s.fault.kind} at {s.fault.decision}; fallback")
            )
        table.add_row(
            str(s.seat),
            printable(s.name),
            *(["" if s.name == s.bot else printable(s.bot)] if with_bots else []),
            *(str(s.breakdown.get(src, 0)) for src in sources),
            str(s.score),
            str(s.rank),
            f"{s.time_used:.2f}s",
            printable(fault),
        )
    return table


def replay_table(result: dict[str, Any], names: Sequence[str], sources: Sequence[str]) -> None:
    """The final table of a replayed record (checked by the replay: well formed)."""
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("seat", justify="right")
    table.add_column("player")
    for source in sources:
        table.add_column(source, justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("rank", justify="right")
    for seat, name in enumerate(names):
        parts = result["breakdown"][seat]
        table.add_row(
            str(seat),
            printable(name),
            *(str(parts.get(src, 0)) for src in sources),
            str(result["scores"][seat]),
            str(result["ranks"][seat]),
        )
    _console().print(table)
