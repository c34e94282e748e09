"""Result tables for people (rich)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from .referee import Fault, MatchResult
from .text import printable


def _console() -> Console:
    # sys.stdout as it is now, so that click's test runner sees the table too.
    width = None if sys.stdout.isatty() else 160
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
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("seat", justify="right")
    table.add_column("player", no_wrap=True)
    table.add_column("bot", overflow="fold", style="dim")
    for source in sources:
        table.add_column(source, justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("rank", justify="right")
    table.add_column("time", justify="right")
    table.add_column("fault")
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
            "" if s.name == s.bot else printable(s.bot),
            *(str(s.breakdown.get(src, 0)) for src in sources),
            str(s.score),
            str(s.rank),
            f"{s.time_used:.2f}s",
            printable(fault),
        )
    console = _console()
    console.print(table)
    for s in result.seats:
        if s.fault is not None:
            console.print(f"fault: {fault_text(s.fault, [x.name for x in result.seats])}")
    if result.logs:
        console.print(f"bot logs: {', '.join(result.logs)}")


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
