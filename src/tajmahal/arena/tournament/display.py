"""What a tournament shows on the terminal: a live progress bar with running
standings when stdout is a terminal, plain progress lines otherwise (logs, CI),
and the final tables."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..text import printable
from .journal import Finished
from .plan import Plan
from .standings import Standing, Standings
from .stats import Estimate

#: Seconds between two rebuilds of the live standings table.
_TABLE_EVERY = 0.5


def console(stderr: bool = False) -> Console:
    """A console on stdout (or stderr) as it is now; 160 columns when not a terminal.
    No markup or emoji codes: names come from the command line and bots."""
    file = sys.stderr if stderr else sys.stdout
    width = None if file.isatty() else 160
    return Console(file=file, width=width, highlight=False, markup=False, emoji=False)


def interval(e: Estimate, digits: int) -> str:
    """``0.412 [0.371, 0.453]``; the bracket is left out when there is no interval."""
    if math.isnan(e.mean):
        return "-"
    if e.low is None or e.high is None:
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def plus_minus(e: Estimate, digits: int) -> str:
    """``0.41±0.04`` (the half-width of the interval), compact for the live table."""
    if math.isnan(e.mean):
        return "-"
    if e.half is None:
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f}±{e.half:.{digits}f}"


def faults_text(s: Standing) -> str:
    if not s.fault_games:
        return "0"
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(s.faults.items()))
    return f"{s.fault_games} ({kinds})"


def standings_table(table: Sequence[Standing], compact: bool = False) -> Table:
    """The standings with their 95% intervals: as ``[low, high]``, or as
    ``±half-width`` when ``compact`` (the live table)."""
    out = Table(box=None, pad_edge=False, header_style="bold")
    out.add_column("#", justify="right")
    out.add_column("entrant", no_wrap=True)
    for name in ("win share", "mean score", "mean rank", "rating", "faults"):
        out.add_column(name, justify="right")
    for s in table:
        rating = s.rating
        if compact:
            cells = [
                plus_minus(s.win_share, 3),
                plus_minus(s.score, 1),
                plus_minus(s.rank, 2),
                f"{rating.mu:.1f}±{rating.high - rating.mu:.1f}",
            ]
        else:
            cells = [
                interval(s.win_share, 3),
                interval(s.score, 1),
                interval(s.rank, 2),
                f"{rating.mu:.1f} [{rating.low:.1f}, {rating.high:.1f}]",
            ]
        out.add_row(str(s.entrant.index), s.entrant.name, *cells, faults_text(s))
    return out


def pairwise_table(standings: Standings) -> Table:
    out = Table(box=None, pad_edge=False, header_style="bold")
    out.add_column("#", justify="right")
    for entrant in standings.entrants:
        out.add_column(str(entrant.index), justify="right")
    for entrant, row in zip(standings.entrants, standings.pairwise(), strict=True):
        out.add_row(str(entrant.index), *("-" if e is None else interval(e, 2) for e in row))
    return out


def count(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def rate_text(games: int, seconds: float) -> str:
    if games == 0 or seconds <= 0:
        return "-"
    return f"{games / seconds * 60:.1f} games/min"


class LiveDisplay:
    """A rich progress bar with the running standings under it (a terminal)."""

    def __init__(self, out: Console) -> None:
        self.console = out
        self.progress = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=out,
        )
        self.task: TaskID | None = None
        self.live = Live(self.progress, console=out, refresh_per_second=4, transient=False)
        self.start = time.monotonic()
        self.played = 0
        self.shown = 0.0

    def __enter__(self) -> LiveDisplay:
        self.live.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.stop()

    def started(self, plan: Plan, standings: Standings, resumed: int) -> None:
        self.task = self.progress.add_task("games", total=plan.games, completed=resumed, rate="")
        self.start = time.monotonic()
        self._show(standings)

    def finished(self, game: Finished, standings: Standings) -> None:
        assert self.task is not None
        self.played += 1
        rate = rate_text(self.played, time.monotonic() - self.start)
        self.progress.update(self.task, advance=1, rate=rate)
        if time.monotonic() - self.shown >= _TABLE_EVERY:
            self._show(standings)

    def failed(self, number: int, error: str) -> None:
        self.live.console.print(f"game {number} could not be played: {last_line(error)}")

    def _show(self, standings: Standings) -> None:
        self.shown = time.monotonic()
        if not standings.games:
            return
        table = standings_table(standings.table(live=True), compact=True)
        self.live.update(Group(self.progress, table))


class PlainDisplay:
    """Progress as plain lines, about ten in all (stdout is not a terminal)."""

    def __init__(self, out: Console, err: Console) -> None:
        self.out = out
        self.err = err
        self.total = 0
        self.step = 1
        self.count = 0
        self.played = 0
        self.start = time.monotonic()

    def __enter__(self) -> PlainDisplay:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def started(self, plan: Plan, standings: Standings, resumed: int) -> None:
        self.total = plan.games
        self.step = max(1, math.ceil(plan.games / 10))
        self.count = resumed
        self.start = time.monotonic()

    def finished(self, game: Finished, standings: Standings) -> None:
        self.count += 1
        self.played += 1
        if self.count % self.step and self.count != self.total:
            return
        shares = ", ".join(
            f"{s.entrant.name} {s.win_share.mean:.3f}" for s in standings.table(live=True)
        )
        rate = rate_text(self.played, time.monotonic() - self.start)
        width = len(str(self.total))
        self.out.print(f"[{self.count:>{width}}/{self.total}] {rate}; win share: {shares}")

    def failed(self, number: int, error: str) -> None:
        self.err.print(f"game {number} could not be played: {last_line(error)}")


def last_line(text: str) -> str:
    """The last line of an error text, safe to print."""
    lines = [x for x in text.splitlines() if x.strip()]
    return printable(lines[-1].strip() if lines else text, limit=500)
