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
from .sprt import H0, H1, SprtStatus
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


def llr_text(status: SprtStatus) -> str:
    """``LLR 1.23 (-2.94, 2.94)``."""
    p = status.params
    return f"LLR {status.llr:.2f} ({p.lower:.2f}, {p.upper:.2f})"


def sprt_lines(status: SprtStatus, plan: Plan) -> list[str]:
    """The sequential test's verdict, LLR with its bounds, counts and Elo estimate,
    in the form fishtest and cutechess print them."""
    p = status.params
    first, second = (e.name for e in plan.entrants[:2])
    pairs = f"{count(status.pairs, 'pair')} ({count(2 * status.pairs, 'game')})"
    if status.verdict == H1:
        verdict = f"H1 accepted after {pairs}: {first} is stronger than {second} by {p.elo1:g}"
    elif status.verdict == H0:
        verdict = f"H0 accepted after {pairs}: {first} is not stronger than {second} by {p.elo1:g}"
    elif 2 * status.pairs >= plan.games:
        verdict = f"no decision after {pairs}: the limit of {count(plan.games, 'game')} was reached"
    else:
        verdict = f"undecided after {pairs}"
    scale = "normalized Elo" if p.model == "normalized" else "logistic Elo"
    lost, tied, won = status.trinomial
    lines = [
        f"SPRT {first} vs {second}: {verdict}",
        f"{llr_text(status)} [{p.elo0:.2f}, {p.elo1:.2f}] ({scale}, {p.statistic}, "
        f"alpha {p.alpha:g}, beta {p.beta:g})",
        "Ptnml(0-2): "
        + ", ".join(str(n) for n in status.pentanomial)
        + f"; games W: {won} L: {lost} D: {tied}",
    ]
    e = status.estimate
    if e is not None:
        nelo = "-"
        if e.nelo is not None and e.nelo_low is not None and e.nelo_high is not None:
            nelo = f"{e.nelo:.1f} [{e.nelo_low:.1f}, {e.nelo_high:.1f}]"
        lines.append(
            f"Elo: {e.elo:.1f} [{e.elo_low:.1f}, {e.elo_high:.1f}], nElo: {nelo} "
            f"(95%; score {e.score:.3f})"
        )
    return lines


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
        self.llr = ""

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
        rate = rate_text(self.played, time.monotonic() - self.start) + self.llr
        self.progress.update(self.task, advance=1, rate=rate)
        if time.monotonic() - self.shown >= _TABLE_EVERY:
            self._show(standings)

    def failed(self, number: int, error: str) -> None:
        self.live.console.print(f"game {number} could not be played: {last_line(error)}")

    def tested(self, status: SprtStatus) -> None:
        self.llr = f"  {llr_text(status)}"

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
        self.llr = ""

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
        self.out.print(
            f"[{self.count:>{width}}/{self.total}] {rate}; win share: {shares}{self.llr}"
        )

    def failed(self, number: int, error: str) -> None:
        self.err.print(f"game {number} could not be played: {last_line(error)}")

    def tested(self, status: SprtStatus) -> None:
        self.llr = f"; {llr_text(status)}"


def last_line(text: str) -> str:
    """The last line of an error text, safe to print."""
    lines = [x for x in text.splitlines() if x.strip()]
    return printable(lines[-1].strip() if lines else text, limit=500)
