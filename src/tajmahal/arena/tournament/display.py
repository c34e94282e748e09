"""What a tournament shows on the terminal: a live progress bar with running
standings when stdout is a terminal, plain progress lines otherwise (logs, CI),
and the final tables."""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Sequence
from typing import Any, Final

from attrs import frozen
from rich.console import Console, Group, JustifyMethod
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
from .sprt import H1, OVERSHOOT, EloEstimate, SprtStatus
from .standings import Standing, Standings
from .stats import Estimate

#: Seconds between two rebuilds of the live standings table.
_TABLE_EVERY = 0.5


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


@frozen
class Column:
    """A column of text cells, for :func:`fitting_tables`."""

    header: str
    cells: Sequence[str]
    justify: JustifyMethod = "right"
    max_width: int | None = None

    @property
    def width(self) -> int:
        natural = max([len(self.header), *(len(c) for c in self.cells)])
        return natural if self.max_width is None else min(natural, self.max_width)


def fitting_tables(keys: Sequence[Column], values: Sequence[Column], width: int) -> list[Table]:
    """The ``values`` columns, in order, beside the ``keys`` columns: one table if
    it fits ``width``, else as many as needed (each repeating the keys), so that no
    cell is ever wrapped."""
    groups: list[list[Column]] = []
    for column in values:
        if groups and _table_width([*keys, *groups[-1], column]) <= width:
            groups[-1].append(column)
        else:
            groups.append([column])
    return [_table([*keys, *group]) for group in groups]


def _table_width(columns: Sequence[Column]) -> int:
    return sum(c.width for c in columns) + 2 * (len(columns) - 1)


def _table(columns: Sequence[Column]) -> Table:
    out = Table(box=None, pad_edge=False, header_style="bold")
    for c in columns:
        out.add_column(
            c.header, justify=c.justify, no_wrap=True, overflow="ellipsis", max_width=c.max_width
        )
    for row in zip(*(c.cells for c in columns), strict=True):
        out.add_row(*row)
    return out


#: The widest an entrant's name is shown in a table (longer ones end in "...").
NAME_WIDTH: Final = 20


def standings_tables(
    table: Sequence[Standing], width: int, compact: bool = False
) -> list[Table]:
    """The standings with their 95% intervals, as ``[low, high]`` (or as
    ``±half-width`` when ``compact``: the live table), in as many tables as it takes
    to fit ``width``."""
    show = plus_minus if compact else interval
    keys = [
        Column("#", [str(s.entrant.index) for s in table]),
        Column("entrant", [printable(s.entrant.name) for s in table], "left", NAME_WIDTH),
    ]
    values = [
        Column("win share", [show(s.win_share, 3) for s in table]),
        Column("mean score", [show(s.score, 1) for s in table]),
        Column("mean rank", [show(s.rank, 2) for s in table]),
        Column("rating", [rating_text(s, compact) for s in table]),
        Column("faults", [faults_text(s) for s in table]),
    ]
    return fitting_tables(keys, values, width)


def rating_text(s: Standing, compact: bool) -> str:
    r = s.rating
    if compact:
        return f"{r.mu:.1f}±{r.high - r.mu:.1f}"
    return f"{r.mu:.1f} [{r.low:.1f}, {r.high:.1f}]"


def pairwise_tables(standings: Standings, width: int) -> list[Table]:
    """How often the row entrant finished ahead of the column entrant, in as many
    tables as it takes to fit ``width``."""
    rows = standings.pairwise()
    keys = [Column("#", [str(e.index) for e in standings.entrants])]
    values = [
        Column(str(e.index), [_pair_text(row[k]) for row in rows])
        for k, e in enumerate(standings.entrants)
    ]
    return fitting_tables(keys, values, width)


def _pair_text(e: Estimate | None) -> str:
    return "-" if e is None else interval(e, 2)


def count(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def rate_text(games: int, seconds: float) -> str:
    if games == 0 or seconds <= 0:
        return "-"
    return f"{games / seconds * 60:.1f} games/min"


def llr_text(status: SprtStatus) -> str:
    """``LLR 1.23 (-2.90, 2.81)``: the LLR and the bounds it stops at now."""
    return f"LLR {status.llr:.2f} ({status.lower_stop:.2f}, {status.upper_stop:.2f})"


#: What a verdict says (accepting H1: True; H0: False): the comparison with the
#: bound, and the sentence for a bound above 0, below 0, and of 0.
_CLAIMS: Final = {
    True: (
        ">",
        "{a} is more than {b} {u} stronger than {c}",
        "{a} is at most {b} {u} weaker than {c}",
        "{a} is stronger than {c}",
    ),
    False: (
        "<",
        "{a} is not {b} {u} stronger than {c}",
        "{a} is more than {b} {u} weaker than {c}",
        "{a} is weaker than {c}",
    ),
}


def verdict_claim(status: SprtStatus, first: str, second: str) -> str:
    """What a decided test says about ``first`` against ``second``, and no more.

    Accepting H1 rejects "``first`` is at most ``elo0`` stronger" (at error rate
    alpha); accepting H0 rejects "``first`` is at least ``elo1`` stronger" (at
    error rate beta).  Neither says that the difference is ``elo1``.

    >>> from .sprt import SprtParams
    >>> def claim(verdict, elo0, elo1):
    ...     status = SprtStatus(SprtParams(elo0, elo1), 1, (0,) * 5, (0,) * 3, 0.0, verdict)
    ...     return verdict_claim(status, "new", "old")
    >>> claim("H1", 0, 5), claim("H1", -3, 1)
    ('new is stronger than old (nElo > 0)', 'new is at most 3 nElo weaker than old (nElo > -3)')
    >>> claim("H0", 0, 5), claim("H0", -5, 0)
    ('new is not 5 nElo stronger than old (nElo < 5)', 'new is weaker than old (nElo < 0)')
    """
    p = status.params
    unit = "nElo" if p.model == "normalized" else "Elo"
    bound = p.elo0 if status.verdict == H1 else p.elo1
    sign, above, below, zero = _CLAIMS[status.verdict == H1]
    template = above if bound > 0 else below if bound < 0 else zero
    text = template.format(a=first, b=f"{abs(bound):g}", u=unit, c=second)
    return f"{text} ({unit} {sign} {bound:g})"


def sprt_lines(status: SprtStatus, plan: Plan) -> list[str]:
    """The sequential test's verdict, LLR with its bounds, counts and Elo estimate,
    in the form fishtest and cutechess print them."""
    p = status.params
    first, second = (e.name for e in plan.entrants[:2])
    pairs = f"{count(status.pairs, 'pair')} ({count(2 * status.pairs, 'game')})"
    if status.verdict is not None:
        verdict = f"{status.verdict} accepted after {pairs}: {verdict_claim(status, first, second)}"
    elif 2 * status.pairs >= plan.games:
        verdict = f"no decision after {pairs}: the limit of {count(plan.games, 'game')} was reached"
    else:
        verdict = f"undecided after {pairs}"
    scale = "normalized Elo" if p.model == "normalized" else "logistic Elo"
    lost, tied, won = status.trinomial
    bounds = f"LLR {status.llr:.2f} ({p.lower:.2f}, {p.upper:.2f})"
    if p.stop == OVERSHOOT:
        bounds += (
            f", stops at ({status.lower_stop:.2f}, {status.upper_stop:.2f}) "
            "(overshoot correction)"
        )
    lines = [
        f"SPRT {first} vs {second}: {verdict}",
        bounds,
        f"elo0 {p.elo0:g}, elo1 {p.elo1:g} ({scale}, {p.statistic}, alpha {p.alpha:g}, "
        f"beta {p.beta:g})",
        "Ptnml(0-2): "
        + ", ".join(str(n) for n in status.pentanomial)
        + f"; games W: {won} L: {lost} D: {tied}",
    ]
    e = status.estimate
    if e is not None:
        nelo = "-"
        if e.nelo is not None and e.nelo_low is not None and e.nelo_high is not None:
            nelo = f"{e.nelo:.1f} [{e.nelo_low:.1f}, {e.nelo_high:.1f}]"
        lines.append(f"Elo: {elo_text(e, 1)}, nElo: {nelo} (95%; score {e.score:.3f})")
    return lines


def elo_text(e: EloEstimate, digits: int) -> str:
    """``72.9 [50.5, 95.2]``; a bound where no Elo is finite: ``> 365.2`` (every
    game won), ``< -365.2`` (every game lost)."""
    if e.elo is None or e.elo_low is None or e.elo_high is None:
        if e.elo_low is not None:
            return f"> {e.elo_low:.{digits}f}"
        return f"< {e.elo_high:.{digits}f}" if e.elo_high is not None else "-"
    return f"{e.elo:.{digits}f} [{e.elo_low:.{digits}f}, {e.elo_high:.{digits}f}]"


def game_line(game: Finished, entrants: Sequence[str]) -> str:
    """One line for a finished game, as cutechess prints them: its number, then
    each seat's entrant (named as in ``entrants``) with its score, best first
    (``1.``, ``2.`` ..., alike ranks alike), then the faults.

    >>> result = {"scores": [28, 70, 38], "ranks": [3, 1, 2],
    ...           "faults": [{"seat": 1, "kind": "timeout"}]}
    >>> entrants = ["greedy", "random#1", "random#2"]
    >>> game_line(Finished(2, 0, 2, 7, (1, 2, 0), "games/000002.jsonl", result), entrants)
    'game 2: 1. random#2 70, 2. greedy 38, 3. random#1 28; random#2 timeout'
    """
    data = game.result
    scores, ranks = data.get("scores", []), data.get("ranks", [])
    names = [entrants[e] for e in game.seating]
    order = sorted(range(len(scores)), key=lambda k: (ranks[k], k))
    places = ", ".join(f"{ranks[k]}. {printable(names[k])} {scores[k]}" for k in order)
    faults = [
        f"{printable(names[f['seat']])} {f.get('kind')}"
        for f in data.get("faults", [])
        if isinstance(f.get("seat"), int) and 0 <= f["seat"] < len(names)
    ]
    return f"game {game.number}: {places}" + (f"; {', '.join(faults)}" if faults else "")


def folded(line: str, width: int) -> str:
    """A :func:`game_line` folded to ``width`` between two seats (never inside one's
    ``1. name score``), the lines after the first indented.

    >>> print(folded("game 1: 1. a 49, 2. bb 35, 3. c 23", 22))
    game 1: 1. a 49,
      2. bb 35, 3. c 23
    """
    head, _, rest = line.partition(": ")
    places = rest.split(", ")
    glued = f"{head}:\u00a0" + ", ".join(p.replace(" ", "\u00a0") for p in places)
    lines = textwrap.wrap(
        glued, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )
    return "\n".join(lines).replace("\u00a0", " ")


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
        self.live = Live(self.progress, console=out, refresh_per_second=4, transient=True)
        self.start = time.monotonic()
        self.played = 0
        self.shown = 0.0
        self.llr = ""
        self.plan: Plan | None = None

    def __enter__(self) -> LiveDisplay:
        self.live.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.stop()

    def started(self, plan: Plan, standings: Standings, resumed: int) -> None:
        self.plan = plan
        self.task = self.progress.add_task("games", total=plan.games, completed=resumed, rate="")
        self.start = time.monotonic()
        self._show(standings)

    def finished(self, game: Finished, standings: Standings) -> None:
        assert self.task is not None and self.plan is not None
        line = game_line(game, [e.name for e in self.plan.entrants])
        self.live.console.print(folded(line, self.console.width), soft_wrap=True)  # above
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
        width = self.console.width
        tables = standings_tables(standings.table(live=True), width, compact=True)
        self.live.update(Group(self.progress, *tables))


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
        self.plan: Plan | None = None

    def __enter__(self) -> PlainDisplay:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def started(self, plan: Plan, standings: Standings, resumed: int) -> None:
        self.plan = plan
        self.total = plan.games
        self.step = max(1, math.ceil(plan.games / 10))
        self.count = resumed
        self.start = time.monotonic()

    def finished(self, game: Finished, standings: Standings) -> None:
        assert self.plan is not None
        line = game_line(game, [e.name for e in self.plan.entrants])
        self.out.print(folded(line, self.out.width), soft_wrap=True)
        self.count += 1
        self.played += 1
        if self.count % self.step and self.count != self.total:
            return
        table = standings.table(live=True)
        rate = rate_text(self.played, time.monotonic() - self.start)
        done = f"[{self.count:>{len(str(self.total))}}/{self.total}] {rate}; win share: "
        line = done + ", ".join(f"{s.entrant.name} {s.win_share.mean:.3f}" for s in table)
        if len(line + self.llr) > self.out.width:  # the entrants' order of the first line
            line = done + " ".join(f"{s.win_share.mean:.3f}" for s in table)
        self.out.print(line + self.llr, soft_wrap=True)

    def failed(self, number: int, error: str) -> None:
        self.err.print(f"game {number} could not be played: {last_line(error)}")

    def tested(self, status: SprtStatus) -> None:
        self.llr = f"; {llr_text(status)}"


def last_line(text: str) -> str:
    """The last line of an error text, safe to print."""
    lines = [x for x in text.splitlines() if x.strip()]
    return printable(lines[-1].strip() if lines else text, limit=500)
