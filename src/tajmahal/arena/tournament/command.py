"""The ``tournament`` command, for any :class:`~tajmahal.arena.game.Game`.

A game's CLI registers it with ``main.add_command(tournament_command(GAME))``.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any

import click
import orjson

from ..commands import (
    SEED,
    check_bots_start,
    parse_bots,
    parse_seat_time,
    preflight_option,
    referee_options,
)
from ..game import AnyGame
from ..referee import MatchConfig, TimeControl
from ..signals import terminate_as_interrupt
from .display import (
    LiveDisplay,
    PlainDisplay,
    console,
    count,
    pairwise_table,
    rate_text,
    standings_table,
)
from .executor import game_reference
from .journal import ERRORS, GAMES, TournamentDir, TournamentError, stored_plan
from .local import LocalExecutor, default_jobs
from .plan import Plan
from .runner import Report, run_tournament, summary_data
from .schedule import CYCLIC, SEATINGS, deals_for, parse_entrants, seatings_per_deal

DEFAULT_GAMES = 100
#: Options that make up the plan: without BOTs (resuming as started) they cannot be given.
_PLAN_OPTIONS = (
    "variant",
    "move",
    "bank",
    "seat_time",
    "handshake",
    "grace",
    "max_line",
    "max_log",
    "batch_events",
    "seatings",
)


def seatings_text(plan: Plan) -> str:
    """``4 seat rotations`` or ``24 seatings``."""
    kind = "seat rotations" if plan.seatings == CYCLIC else "seatings"
    return f"{plan.per_deal} {kind}"


def _seats_checked(game: AnyGame, bots: tuple[str, ...]) -> int:
    seats = len(bots)
    if not game.min_players <= seats <= game.max_players:
        raise click.UsageError(
            f"{game.title} is for {game.min_players}-{game.max_players} players: give that "
            f"many BOTs (one per seat), not {seats}"
        )
    return seats


def _new_plan(
    game: AnyGame, bots: tuple[str, ...], games: int, seed: int, options: dict[str, Any]
) -> Plan:
    seats = _seats_checked(game, bots)
    try:
        entrants = parse_entrants(bots)
        game.random_setup(seats, seed, options["variant"])
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    default = TimeControl(options["move"], options["bank"])
    times = [default] * seats
    for text in options["seat_time"]:
        entrant, control = parse_seat_time(text, seats, default)
        times[entrant] = control
    return Plan(
        game=game.name,
        entrants=tuple(entrants),
        seed=seed,
        deals=deals_for(games, seatings_per_deal(seats, options["seatings"])),
        variant=options["variant"],
        time=tuple(times),
        handshake=options["handshake"],
        grace=options["grace"],
        max_line=options["max_line"],
        max_log=options["max_log"],
        batch_events=options["batch_events"],
        seatings=options["seatings"],
    )


def _plan(
    game: AnyGame,
    out: Path,
    bots: tuple[str, ...],
    games: int | None,
    seed: int | None,
    options: dict[str, Any],
) -> Plan:
    """The plan asked for: from the arguments, or the stored one when no BOT is given."""
    try:
        stored = stored_plan(out)
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    if stored is None:
        if not bots:
            raise click.UsageError(f"{out} holds no tournament to resume: give the BOTs")
        return _new_plan(
            game,
            bots,
            DEFAULT_GAMES if games is None else games,
            secrets.randbits(63) if seed is None else seed,
            options,
        )
    games = stored.games if games is None else games
    if bots:
        return _new_plan(game, bots, games, stored.seed if seed is None else seed, options)
    ctx = click.get_current_context()
    given = [
        name
        for name in _PLAN_OPTIONS
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    ]
    if given or (seed is not None and seed != stored.seed):
        flags = ", ".join(f"--{n.replace('_', '-')}" for n in given) or "--seed"
        raise click.UsageError(
            f"without BOTs the tournament in {out} resumes as it was started: "
            f"{flags} cannot be changed"
        )
    return stored.with_deals(deals_for(games, stored.per_deal))  # fewer deals are refused


def tournament_command(game: AnyGame) -> click.Command:
    builtins = sorted(game.builtin_players())

    @click.command(name="tournament")
    @click.argument("bots", nargs=-1, metavar="BOT BOT [BOT...]")
    @click.option(
        "--out",
        "-o",
        required=True,
        type=click.Path(file_okay=False, path_type=Path),
        help="Directory for the results, records and journal (resumes the tournament in it).",
    )
    @click.option(
        "--games",
        "-n",
        type=click.IntRange(min=1),
        help=f"Number of games, rounded up to whole deals (a deal is played once per "
        f"seating: as many games as BOTs, or BOTs! with --seatings all) "
        f"[default: {DEFAULT_GAMES}, or as stored].",
    )
    @click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        help="Games played at once [default: the number of CPUs].",
    )
    @click.option(
        "--seed",
        type=SEED,
        help="Tournament seed, 0 to 2^64-1: fixes every deal [default: a fresh random one, "
        "or as stored].",
    )
    @click.option(
        "--seatings",
        type=click.Choice(sorted(SEATINGS)),
        default=CYCLIC,
        show_default=True,
        help="Seatings per deal: cyclic rotations (each bot at each seat once), or all "
        "orders of the bots (neighbours balanced too).",
    )
    @click.option("--variant", help="Game variant (default: the one for the number of bots).")
    @referee_options
    @click.option(
        "--seat-time",
        multiple=True,
        metavar="N:MOVE[:BANK]",
        help="Time control for the N-th BOT (from 0), wherever it sits (repeatable).",
    )
    @preflight_option
    @click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
    @click.option("-q", "--quiet", is_flag=True, help="No progress display.")
    def tournament(
        bots: tuple[str, ...],
        out: Path,
        games: int | None,
        jobs: int | None,
        seed: int | None,
        preflight: bool,
        as_json: bool,
        quiet: bool,
        **options: Any,
    ) -> None:
        plan = _plan(game, out, bots, games, seed, options)
        specs = parse_bots([e.bot for e in plan.entrants], builtins)
        if preflight:  # every entrant starts and answers the hello, or nothing is played
            check_bots_start(game, specs, _preflight_config(plan))
        if games is not None and games != plan.games:
            click.echo(
                f"note: {games} games rounded up to {plan.games}: "
                f"{count(plan.deals, 'deal')}, each played in {seatings_text(plan)}",
                err=True,
            )
        try:
            store = TournamentDir.open(out, plan)
        except TournamentError as e:
            raise click.UsageError(str(e)) from None
        try:
            report = _run(game, store, jobs or default_jobs(), as_json, quiet)
        finally:
            store.close()
        _finish(store, report, as_json)

    tournament.help = f"""Play many games of {game.title} between bots and rank them.

    Each BOT is a built-in player ({", ".join(builtins)}) or a command line, as for
    `match`; NAME=BOT names it.  There is one seat per BOT.  Every deal is played
    once per seat rotation (or in every order of the bots, with --seatings all), so
    each bot plays each seat on the same cards.  The
    standings (win share, mean score, mean rank, rating, with 95% intervals, and
    faults) go to DIR/standings.json and .csv, each game's record to DIR/games/.
    Run the same command again to resume an interrupted tournament (or give only
    --out DIR, and --games to extend it).

    \b
    Example:
      tajmahal tournament greedy random random random --games 200 --out runs/t1
    """
    return tournament


def _preflight_config(plan: Plan) -> MatchConfig:
    return MatchConfig(
        time=plan.time, handshake=plan.handshake, max_line=plan.max_line, max_log=plan.max_log
    )


def _run(game: AnyGame, store: TournamentDir, jobs: int, as_json: bool, quiet: bool) -> Report:
    plan = store.plan
    err = console(stderr=True)
    if not as_json:
        names = ", ".join(e.name for e in plan.entrants)
        click.echo(
            f"{game.title} tournament: {names}; {count(plan.games, 'game')} "
            f"({count(plan.deals, 'deal')} x "
            f"{seatings_text(plan)}), seed {plan.seed}, {jobs} jobs; results in {store.root}"
        )
        if store.finished:
            click.echo(f"resuming: {len(store.finished)} of {plan.games} games already finished")
    executor = LocalExecutor(game_reference(game), jobs, store.root / "workers.log")
    display: LiveDisplay | PlainDisplay | None = None
    if not (as_json or quiet):
        out = console()
        display = LiveDisplay(out) if out.is_terminal else PlainDisplay(out, err)
    with terminate_as_interrupt():
        if display is None:
            return run_tournament(store, executor)
        with display:
            return run_tournament(store, executor, display)


def _finish(store: TournamentDir, report: Report, as_json: bool) -> None:
    plan = store.plan
    if as_json:
        data = summary_data(store, report.standings, report.interrupted)
        click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
    else:
        out = console()
        if report.standings.games:
            out.print()
            out.print(standings_table(report.standings.table()))
            out.print()
            out.print(
                "How often the row entrant finished ahead of the column entrant (a tie counts 1/2):"
            )
            out.print(pairwise_table(report.standings))
            out.print()
        click.echo(
            f"{report.finished} of {plan.games} games finished "
            f"({count(len(report.standings.deals), 'deal')}); this run: "
            f"{count(report.played, 'game')} in "
            f"{report.seconds:.1f} s ({rate_text(report.played, report.seconds)})"
        )
        click.echo(
            "results: "
            + ", ".join(str(p) for p in report.files)
            + f"; records in {store.root / GAMES}"
        )
    if report.interrupted:
        click.echo(
            f"interrupted: the games under way were stopped and their bots killed; "
            f"{report.finished} of {plan.games} games are saved in {store.root}: "
            "run the same command to resume",
            err=True,
        )
        sys.exit(130)
    if report.failed:
        click.echo(
            f"{len(report.failed)} games could not be played (see {store.root / ERRORS}): "
            "run the same command to retry them",
            err=True,
        )
        sys.exit(1)
