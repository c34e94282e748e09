"""Playing what the ``tournament`` command asked for, and printing it: the executor
the options name, a tournament or a gauntlet of match-ups played (or resumed) with
a progress display, then the standings and the exit status."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import click
import orjson

from ...extras import MissingExtra, require
from .. import cgroups, containment
from ..game import AnyGame
from ..options import sandbox_given, say_sandbox
from ..report import console
from ..signals import terminate_as_interrupt
from . import gauntlet
from .arguments import check_entrants, has_programs, lineup_of, plan_for, seed_stored_in
from .charges import audit
from .display import (
    LiveDisplay,
    PlainDisplay,
    count,
    pairwise_tables,
    rate_text,
    sprt_lines,
    standings_tables,
)
from .executor import Executor, game_reference
from .journal import ERRORS, GAMES, TournamentDir, TournamentError
from .local import LocalExecutor, default_jobs
from .plan import Plan
from .ray_executor import RayExecutor
from .runner import Report, run_tournament, summary_data
from .schedule import CYCLIC, Entrant


def seatings_text(plan: Plan) -> str:
    """``4 seat rotations`` or ``24 seatings``."""
    kind = "seat rotations" if plan.seatings == CYCLIC else "seatings"
    return f"{plan.per_deal} {kind}"


class Executors:
    """The executor the options ask for, for each tournament directory (one Ray
    connection for all the match-ups of a gauntlet)."""

    def __init__(
        self,
        game: AnyGame,
        kind: str,
        jobs: int | None,
        address: str | None,
        working_dir: Path | None,
    ) -> None:
        self.reference = game_reference(game)
        self.jobs = jobs
        self.ray: RayExecutor | None = None
        if kind == "ray":
            try:
                require("ray", "--executor ray", ("ray",))
            except MissingExtra as e:
                raise click.UsageError(str(e)) from None
            self.ray = RayExecutor(self.reference, jobs, address, working_dir)

    def describe(self) -> str:
        if self.ray is None:
            return count(self.jobs or default_jobs(), "job")
        where = self.ray.address or "a local Ray"
        jobs = "as many jobs as it has CPUs" if self.jobs is None else count(self.jobs, "job")
        return f"on Ray ({where}), {jobs}"

    def get(self, root: Path) -> Executor:
        """The executor, its workers' messages going to ``root/workers.log``."""
        if self.ray is not None:
            self.ray.log = self.ray.log or root / "workers.log"  # the driver's messages
            return self.ray
        jobs = self.jobs or default_jobs()
        return LocalExecutor(self.reference, jobs, root / "workers.log")

    def close(self) -> None:
        if self.ray is not None:
            self.ray.close()


def play(
    game: AnyGame,
    out: Path,
    plan: Plan,
    games: int | None,
    players: Executors,
    as_json: bool,
    quiet: bool,
) -> int:
    """Play (or resume) the tournament of ``plan`` in ``out``; print the results.
    The exit status."""
    if games is not None and games != plan.games:
        click.echo(
            f"note: {games} games rounded up to {plan.games}: "
            f"{count(plan.deals, 'deal')}, each played in {seatings_text(plan)}",
            err=True,
        )
    store, report = _played(game, out, plan, players, as_json, quiet)
    return _finish(store, report, as_json)


def play_gauntlet(
    game: AnyGame,
    out: Path,
    bots: tuple[str, ...],
    games: int | None,
    seed: int | None,
    players: Executors,
    as_json: bool,
    quiet: bool,
    options: dict[str, Any],
) -> int:
    """The candidate (BOT 0) against each other BOT, one match-up after the other."""
    if not game.min_players <= 2 <= game.max_players:
        raise click.UsageError(f"{game.title} is not played by two: no gauntlet")
    try:
        if bots:
            if len(bots) < 2:
                raise click.UsageError("--gauntlet needs the candidate BOT and its opponents")
            entrants, times = lineup_of(bots, options)
            gauntlet.prepare(out, entrants)
        else:
            stored = gauntlet.stored_entrants(out)
            if stored is None:
                raise click.UsageError(f"{out} holds no gauntlet to resume: give the BOTs")
            entrants = stored
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    check_entrants(game, entrants, options, out=out)
    if has_programs(game, tuple(e.bot for e in entrants)):
        say_sandbox(options["sandbox"], sandbox_given(), quiet)
    candidate = entrants[0]
    if seed is None and bots:  # one seed for every match-up: the same deals for each
        stored_seed = seed_stored_in(gauntlet.matchup_dir(out, 1))
        seed = secrets.randbits(63) if stored_seed is None else stored_seed
    rows = []
    status = 0
    for opponent in entrants[1:]:
        where = gauntlet.matchup_dir(out, opponent.index)
        lineup = None
        if bots:
            pair = (candidate, Entrant(1, opponent.name, opponent.bot))
            lineup = (pair, (times[0], times[opponent.index]))
        plan = plan_for(game, where, lineup, games, seed, options)
        store, report = _played(game, where, plan, players, as_json, quiet, setups=out)
        status = max(status, _finish(store, report, as_json, show=not (as_json or quiet)))
        rows.append(gauntlet.matchup_result(opponent, where.name, report))
        if report.interrupted:
            break
    path = gauntlet.write_summary(out, candidate, rows)
    if as_json:
        data = gauntlet.summary_data(candidate, rows)
        click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
    else:
        screen = console()
        screen.print(f"gauntlet: {candidate.name} against each opponent")
        for table in gauntlet.gauntlet_tables(rows, screen.width):
            screen.print(table)
        screen.print(f"results: {path}")
    return status


def _played(
    game: AnyGame,
    out: Path,
    plan: Plan,
    players: Executors,
    as_json: bool,
    quiet: bool,
    setups: Path | None = None,
) -> tuple[TournamentDir, Report]:
    """The tournament of ``plan`` in ``out`` opened (or resumed) and played; its
    setups drawn under the key of ``setups`` (a gauntlet's directory: the same
    cards in every match-up), by default its own."""
    try:
        store = TournamentDir.open(out, plan, setups)
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    try:
        return store, _run(game, store, players, as_json, quiet)
    finally:
        store.close()


def _run(
    game: AnyGame, store: TournamentDir, players: Executors, as_json: bool, quiet: bool
) -> Report:
    plan = store.plan
    err = console(stderr=True)
    for line in store.repeated:
        click.echo(f"game {line.number}: {line.text()} (noted in {store.root / ERRORS})", err=True)
    if not as_json:
        screen = console()
        names = ", ".join(e.name for e in plan.entrants)
        up_to = "" if plan.sprt is None else "at most "
        screen.print(f"{game.title} tournament: {names}")
        fresh = "" if plan.duplicate else ", fresh cards in every game"
        screen.print(
            f"{up_to}{count(plan.games, 'game')} ({count(plan.deals, 'deal')} x "
            f"{seatings_text(plan)}{fresh}), seed {plan.seed}, {players.describe()}; "
            f"results in {store.root}"
        )
        if plan.sprt is not None:
            test = plan.sprt.text().replace(",", ", ")  # wraps between parameters
            screen.print(f"SPRT {test}: stops when H0 or H1 is accepted")
        doubted = audit(game, store)
        if doubted:
            click.echo(
                f"{count(len(doubted), 'journaled game')} not believed (its journal line or "
                f"record was changed; see {store.root / ERRORS}): played again",
                err=True,
            )
        if store.finished:
            screen.print(f"resuming: {len(store.finished)} of {plan.games} games already finished")
    # Where cgroup v2 is delegated to this process's group alone, it is split now
    # (this process into a leaf), before the workers start: each worker then makes
    # its bots' groups beside it; a group holding the workers could not be split.
    cgroups.hierarchy()
    executor = players.get(store.root)
    display: LiveDisplay | PlainDisplay | None = None
    if not (as_json or quiet):
        out = console()
        display = LiveDisplay(out) if out.is_terminal else PlainDisplay(out, err)
    # Not dumpable (it knows every deal), and a subreaper: the bots of a worker that
    # dies are handed to it, and killed.
    with terminate_as_interrupt(), containment.guarded():
        if display is None:
            return run_tournament(store, executor, game=game)
        with display:
            return run_tournament(store, executor, display, game=game)


def _finish(store: TournamentDir, report: Report, as_json: bool, show: bool = True) -> int:
    """Print the results (unless not ``show``); the exit status."""
    plan = store.plan
    if as_json and show:
        data = summary_data(store, report.standings, report.interrupted, report.sprt)
        click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
    elif show:
        out = console()
        if report.standings.games:
            out.print()
            for table in standings_tables(report.standings.table(), out.width):
                out.print(table)
                out.print()
            out.print(
                "How often the row entrant finished ahead of the column one (a tie counts 1/2):"
            )
            for table in pairwise_tables(report.standings, out.width):
                out.print(table)
                out.print()
        if report.sprt is not None:
            for line in sprt_lines(report.sprt, plan):
                out.print(line)
            out.print()
        out.print(
            f"{report.finished} of {plan.games} games finished; this run: "
            f"{count(report.played, 'game')} in {report.seconds:.1f} s "
            f"({rate_text(report.played, report.seconds)})"
        )
        files = ", ".join(p.name for p in report.files)
        out.print(f"results in {store.root}: {files}, {GAMES}/")
    if report.logs is not None:
        click.echo(f"note: {report.logs}", err=True)
    if report.lost is not None:
        click.echo(
            f"stopped: {report.lost}; {report.finished} of {plan.games} games are saved in "
            f"{store.root}: run the same command to resume",
            err=True,
        )
        return 1
    if report.interrupted:
        click.echo(
            f"interrupted: the games under way were stopped and their bots killed; "
            f"{report.finished} of {plan.games} games are saved in {store.root}: "
            "run the same command to resume",
            err=True,
        )
        return 130
    if report.failed:
        click.echo(
            f"{len(report.failed)} games could not be played (see {store.root / ERRORS}): "
            "run the same command to retry them",
            err=True,
        )
        return 1
    return 0
