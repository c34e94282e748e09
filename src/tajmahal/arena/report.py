"""Result tables for people (rich)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, Final

from rich.console import Console
from rich.table import Table

from .game import AnyGame
from .terms import Fault, MatchResult
from .text import printable


def console(stderr: bool = False) -> Console:
    """A console on stdout (or stderr) as it is now (so that click's test runner sees
    it too).  On a terminal as wide as the terminal; otherwise as wide as
    ``$COLUMNS`` says, else 80.  No markup or emoji codes: names and details come
    from bots and are shown as they are."""
    file = sys.stderr if stderr else sys.stdout
    width = None
    if not file.isatty():
        columns = os.environ.get("COLUMNS", "")
        width = int(columns) if columns.isdigit() and int(columns) >= 20 else 80
    return Console(file=file, width=width, highlight=False, markup=False, emoji=False)


def summary_line(game: AnyGame, result: MatchResult) -> str:
    """The line above a result's table: the game, its players, variant and seed,
    the decisions and time it took, and where its record is."""
    return (
        f"{game.title}, {len(result.seats)} players ({result.variant}), seed {result.seed}: "
        f"{result.decisions} decisions in {result.duration:.2f} s"
        + (f"; record {result.record}" if result.record else "")
    )


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
    """The result of a match: a row per seat, then a line per fault and the bots'
    logs.  The table fits the console: how each bot was started is a column when
    there is room, else a line per bot under it; then long names are cut (ending
    in "..."); last, the fault column is left out (the lines under the table tell
    each fault in full).  Taj Mahal's five score sources, a fault and names of
    20 characters fit 80 columns."""
    out = console()
    bots = [(s.seat, printable(s.bot)) for s in result.seats if _bot_shown(s.name, s.bot)]
    layouts = [
        (with_bots, faults, width)
        for with_bots, faults in ((True, True), (False, True), (False, False))
        if with_bots <= bool(bots)
        for width in PLAYER_WIDTHS
    ]
    for with_bots, faults, width in layouts:
        table = _result_table(result, sources, with_bots, faults, width)
        natural = out.measure(table, options=out.options.update_width(10_000)).maximum
        if natural <= out.width:
            break
    if with_bots:
        bots = []
    out.print(table)
    for seat, bot in bots:
        out.print(f"seat {seat}: {bot}", overflow="fold")
    names = [x.name for x in result.seats]
    for s in result.seats:
        if s.fault is not None:
            after = "" if s.fault.phase == "end" else "; the fallback policy played it from there"
            out.print(f"fault: {fault_text(s.fault, names)}{after}")
    written = logs_text(result.logs)
    if written:
        out.print(f"bot logs: {written}", overflow="fold")


#: The widths the player column is tried at, widest first, until the table fits.
PLAYER_WIDTHS: Final = (20, 16, 12, 8)


def _bot_shown(name: str, bot: str) -> bool:
    """Whether a seat's bot is worth showing beside its name: not when the name is
    the bot's text (``greedy``), or it numbered (``greedy#2``)."""
    return name != bot and name.rsplit("#", 1)[0] != bot


def logs_text(paths: Sequence[str]) -> str:
    """The logs among ``paths`` that hold something (an in-process bot's log stays
    empty unless it fails), as ``runs/g.seat{0,2}.log`` when they share a name."""
    written = [p for p in paths if os.path.isfile(p) and os.path.getsize(p) > 0]
    parts = [p.rpartition(".seat") for p in written]
    stems = {stem for stem, _, _ in parts}
    seats = [seat.removesuffix(".log") for _, _, seat in parts]
    if len(written) > 1 and len(stems) == 1 and all(s.isdigit() for s in seats):
        return printable(f"{stems.pop()}.seat{{{','.join(seats)}}}.log")
    return printable(", ".join(written))


def _number_column(table: Table, header: str, style: str = "") -> None:
    """A right-aligned column that is never wrapped and never cuts its header."""
    table.add_column(header, justify="right", no_wrap=True, min_width=len(header), style=style)


def _result_table(
    result: MatchResult, sources: Sequence[str], with_bots: bool, faults: bool, player: int
) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold", collapse_padding=True)
    _number_column(table, "seat")
    table.add_column("player", no_wrap=True, max_width=player, overflow="ellipsis")
    if with_bots:
        table.add_column("bot", overflow="fold", style="dim")
    for source in sources:
        _number_column(table, source)
    _number_column(table, "total", style="bold")
    _number_column(table, "rank")
    _number_column(table, "time")
    faulted = faults and any(s.fault is not None for s in result.seats)
    if faulted:  # the kind: the line under the table says more
        table.add_column("fault", no_wrap=True)
    for s in result.seats:
        fault = ""
        if s.fault is not None:
            fault = s.fault.kind + (" (end)" if s.fault.phase == "end" else "")
        table.add_row(
            str(s.seat),
            printable(s.name),
            *([printable(s.bot) if _bot_shown(s.name, s.bot) else ""] if with_bots else []),
            *(str(s.breakdown.get(src, 0)) for src in sources),
            str(s.score),
            str(s.rank),
            f"{s.time_used:.2f}s",
            *([printable(fault)] if faulted else []),
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
    console().print(table)
