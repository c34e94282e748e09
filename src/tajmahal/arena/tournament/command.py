"""The ``tournament`` command, for any :class:`~tajmahal.arena.game.Game`.

A CLI registers it with ``main.add_command(tournament_command(GAMES))`` (a
:class:`~tajmahal.arena.registry.GameRegistry`, for ``--game NAME``, or one game).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import orjson

from ...extras import MissingExtra, require
from .. import containment
from ..commands import (
    SEED,
    check_bots_start,
    check_sandbox,
    default_sandbox,
    game_option,
    load_game_option,
    parse_bots,
    parse_seat_time,
    preflight_option,
    referee_options,
    sandbox_given,
    say_sandbox,
)
from ..game import AnyGame
from ..referee import MatchConfig, TimeControl
from ..registry import GameRegistry, UnknownGame, registry_of
from ..report import console
from ..signals import terminate_as_interrupt
from . import gauntlet
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
from .gauntlet import is_gauntlet
from .journal import ERRORS, GAMES, TournamentDir, TournamentError, stored_plan
from .local import LocalExecutor, default_jobs
from .plan import Plan
from .ray_executor import RayExecutor
from .runner import Report, run_tournament, summary_data
from .schedule import CYCLIC, SEATINGS, Entrant, deals_for, parse_entrants, seatings_per_deal
from .sprt import SprtError, SprtParams, parse_sprt, require_scipy

DEFAULT_GAMES = 100
#: The game limit of a sequential test when --games is not given: it stops long before
#: unless the bots are very close (then it ends undecided, see docs/tournaments.md).
SPRT_DEFAULT_GAMES = 100_000
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
    "sandbox",
    "memory",
    "seatings",
    "sprt",
)


def seatings_text(plan: Plan) -> str:
    """``4 seat rotations`` or ``24 seatings``."""
    kind = "seat rotations" if plan.seatings == CYCLIC else "seatings"
    return f"{plan.per_deal} {kind}"


def _seats_checked(game: AnyGame, seats: int) -> int:
    if not game.min_players <= seats <= game.max_players:
        raise click.UsageError(
            f"{game.title} is for {game.min_players}-{game.max_players} players: give that "
            f"many BOTs (one per seat), not {seats}"
        )
    return seats


#: The entrants of a tournament and the time control of each.
Lineup = tuple[tuple[Entrant, ...], tuple[TimeControl, ...]]


def _lineup(bots: tuple[str, ...], options: dict[str, Any]) -> Lineup:
    """Entrants from the BOT arguments, and each one's time control."""
    try:
        entrants = parse_entrants(bots)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    default = TimeControl(options["move"], options["bank"])
    times = [default] * len(bots)
    for text in options["seat_time"]:
        entrant, control = parse_seat_time(text, len(bots), default)
        times[entrant] = control
    return tuple(entrants), tuple(times)


def _new_plan(
    game: AnyGame, lineup: Lineup, games: int, seed: int, options: dict[str, Any]
) -> Plan:
    entrants, times = lineup
    seats = _seats_checked(game, len(entrants))
    try:
        game.random_setup(seats, seed, options["variant"])
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    return Plan(
        game=game.name,
        entrants=entrants,
        seed=seed,
        deals=deals_for(games, seatings_per_deal(seats, options["seatings"])),
        variant=options["variant"],
        time=times,
        handshake=options["handshake"],
        grace=options["grace"],
        max_line=options["max_line"],
        max_log=options["max_log"],
        batch_events=options["batch_events"],
        sandbox=options["sandbox"],
        memory=options["memory"],
        seatings=options["seatings"],
        sprt=_sprt_checked(options["sprt"], seats),
    )


def _sprt_checked(text: str | None, seats: int) -> SprtParams | None:
    if text is None:
        return None
    if seats != 2:
        raise click.UsageError(
            f"--sprt tests a two-bot match-up: give two BOTs, not {seats} "
            "(or --gauntlet to test one bot against several, one match-up each)"
        )
    try:
        params = parse_sprt(text)
        require_scipy()
        return params
    except SprtError as e:
        raise click.BadParameter(str(e), param_hint="--sprt") from None


def _default_games(options: dict[str, Any]) -> int:
    return DEFAULT_GAMES if options.get("sprt") is None else SPRT_DEFAULT_GAMES


def _plan(
    game: AnyGame,
    out: Path,
    lineup: Lineup | None,
    games: int | None,
    seed: int | None,
    options: dict[str, Any],
) -> Plan:
    """The plan asked for: from the arguments, or the stored one when no BOT is
    given (``lineup`` None)."""
    try:
        stored = stored_plan(out)
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    if stored is None:
        if lineup is None:
            raise click.UsageError(f"{out} holds no tournament to resume: give the BOTs")
        return _new_plan(
            game,
            lineup,
            _default_games(options) if games is None else games,
            secrets.randbits(63) if seed is None else seed,
            options,
        )
    games = stored.games if games is None else games
    if lineup is not None:
        return _new_plan(game, lineup, games, stored.seed if seed is None else seed, options)
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


def _tournament_game(
    registry: GameRegistry, name: str | None, out: Path, gauntlet: bool
) -> AnyGame:
    """The game ``--game`` names (it must be the game of a tournament stored in
    ``out``); without it, the stored tournament's game, else the default game."""
    try:
        stored = stored_plan(gauntlet_dir(out) if gauntlet else out)
    except TournamentError:
        stored = None  # reported where the plan is read
    try:
        if name is None:
            return registry.get() if stored is None else registry.by_id(stored.game)
    except UnknownGame as e:
        raise click.UsageError(f"{out}: {e}") from None
    game = load_game_option(registry, name)
    if stored is not None and stored.game != game.name:
        raise click.UsageError(
            f"{out} holds a tournament of {stored.game!r}, not of {game.name!r}: "
            "give another --out, or leave out --game to resume it"
        )
    return game


def gauntlet_dir(out: Path) -> Path:
    """The directory of a gauntlet's first match-up (its plan names the game)."""
    return gauntlet.matchup_dir(out, 1)


def tournament_command(games: GameRegistry | AnyGame) -> click.Command:
    registry = registry_of(games)

    @click.command(name="tournament")
    @click.argument("bots", nargs=-1, metavar="BOT BOT [BOT...]")
    @game_option(registry, f"{registry.default}, or the stored tournament's")
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
        help="Games played at once [default: the number of CPUs (of the Ray cluster with "
        "--executor ray)].",
    )
    @click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Who plays the games: worker processes on this machine, or Ray tasks on a "
        "Ray cluster (needs tajmahal[ray]).",
    )
    @click.option(
        "--address",
        metavar="ADDR",
        help="With --executor ray: the Ray cluster to join (host:port, or 'auto') "
        "[default: RAY_ADDRESS, else a local Ray started for the run].",
    )
    @click.option(
        "--ray-working-dir",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="With --executor ray: a directory shipped to every node, where the bots run "
        "[default: the bots run in this directory, which each node must have].",
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
    @click.option(
        "--sprt",
        metavar="elo0=E0,elo1=E1[,alpha=A,beta=B,model=M,stat=S,stop=T]",
        help="Stop a two-bot match-up when a sequential probability ratio test decides "
        "between H0: the first BOT is E0 Elo stronger than the second, and H1: E1 "
        "stronger (alpha, beta: error rates, default 0.05; model: normalized or "
        "logistic Elo, default normalized; stat: pentanomial (pairs of games of a "
        "deal) or trinomial, default pentanomial; stop: overshoot, fishtest's "
        "overshoot-corrected bounds, or bounds, the plain ones; default overshoot).",
    )
    @click.option("--variant", help="Game variant (default: the one for the number of bots).")
    @referee_options
    @click.option(
        "--seat-time",
        multiple=True,
        metavar="N:MOVE[:BANK]",
        help="Time control for the N-th BOT (from 0), wherever it sits (repeatable).",
    )
    @click.option(
        "--gauntlet",
        is_flag=True,
        help="The first BOT plays each of the others in a two-bot match-up of its own "
        "(in DIR/vs1, DIR/vs2, ...), on the same deals; with --sprt each match-up stops "
        "on its own.",
    )
    @preflight_option
    @click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
    @click.option("-q", "--quiet", is_flag=True, help="No progress display.")
    def tournament(
        bots: tuple[str, ...],
        game_name: str | None,
        out: Path,
        games: int | None,
        jobs: int | None,
        seed: int | None,
        executor: str,
        address: str | None,
        ray_working_dir: Path | None,
        gauntlet: bool,
        preflight: bool,
        as_json: bool,
        quiet: bool,
        **options: Any,
    ) -> None:
        containment.hide_option("--seed")  # from other processes (the bots): it deals all
        options["preflight"] = preflight
        is_gauntlet_run = gauntlet or (not bots and is_gauntlet(out))
        game = _tournament_game(registry, game_name, out, is_gauntlet_run)
        options["sandbox"] = default_sandbox(options["sandbox"], _programs(game, bots))
        if executor != "ray" and (address is not None or ray_working_dir is not None):
            raise click.UsageError("--address and --ray-working-dir are for --executor ray")
        players = _Executors(game, executor, jobs, address, ray_working_dir)
        try:
            if is_gauntlet_run:
                status = _gauntlet(game, out, bots, games, seed, players, as_json, quiet, options)
            else:
                lineup = _lineup(bots, options) if bots else None
                plan = _plan(game, out, lineup, games, seed, options)
                _check_entrants(game, plan.entrants, options, plan)
                if _programs(game, tuple(e.bot for e in plan.entrants)):
                    say_sandbox(plan.sandbox, sandbox_given(), quiet)
                status = _play(game, out, plan, games, players, as_json, quiet)
        finally:
            players.close()
        sys.exit(status)

    tournament.help = """Play many games between bots and rank them.

    Each BOT is a built-in player of the game or a command line, as for `match`;
    NAME=BOT names it.  There is one seat per BOT.  Every deal is played
    once per seat rotation (or in every order of the bots, with --seatings all), so
    each bot plays each seat on the same cards.  The
    standings (win share, mean score, mean rank, rating, with 95% intervals, and
    faults) go to DIR/standings.json and .csv, each game's record to DIR/games/.
    Run the same command again to resume an interrupted tournament (or give only
    --out DIR, and --games to extend it).

    \b
    Examples:
      tajmahal tournament greedy random random random --games 200 --out runs/t1
      tajmahal tournament --game tikal greedy random --games 20 --out runs/t2
    """
    return tournament


def _play(
    game: AnyGame,
    out: Path,
    plan: Plan,
    games: int | None,
    players: _Executors,
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
    try:
        store = TournamentDir.open(out, plan)
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    try:
        report = _run(game, store, players, as_json, quiet)
    finally:
        store.close()
    return _finish(store, report, as_json)


def _gauntlet(
    game: AnyGame,
    out: Path,
    bots: tuple[str, ...],
    games: int | None,
    seed: int | None,
    players: _Executors,
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
            entrants, times = _lineup(bots, options)
            gauntlet.prepare(out, entrants)
        else:
            stored = gauntlet.stored_entrants(out)
            if stored is None:
                raise click.UsageError(f"{out} holds no gauntlet to resume: give the BOTs")
            entrants = stored
    except TournamentError as e:
        raise click.UsageError(str(e)) from None
    _check_entrants(game, entrants, options)
    if _programs(game, tuple(e.bot for e in entrants)):
        say_sandbox(options["sandbox"], sandbox_given(), quiet)
    candidate = entrants[0]
    if seed is None and bots:  # one seed for every match-up: the same deals for each
        stored_seed = _stored_seed(gauntlet.matchup_dir(out, 1))
        seed = secrets.randbits(63) if stored_seed is None else stored_seed
    rows = []
    status = 0
    for opponent in entrants[1:]:
        where = gauntlet.matchup_dir(out, opponent.index)
        lineup = None
        if bots:
            pair = (candidate, Entrant(1, opponent.name, opponent.bot))
            lineup = (pair, (times[0], times[opponent.index]))
        plan = _plan(game, where, lineup, games, seed, options)
        try:
            store = TournamentDir.open(where, plan)
        except TournamentError as e:
            raise click.UsageError(str(e)) from None
        try:
            report = _run(game, store, players, as_json, quiet)
        finally:
            store.close()
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


def _programs(game: AnyGame, bots: Sequence[str]) -> bool:
    """Whether any of ``bots`` (BOT or NAME=BOT) is a program (none given: maybe)."""
    try:
        entrants = parse_entrants(bots)
    except ValueError:
        return True
    return not bots or any(e.bot not in game.builtin_players() for e in entrants)


def _check_entrants(
    game: AnyGame, entrants: Sequence[Entrant], options: dict[str, Any], plan: Plan | None = None
) -> None:
    """Refuse to play unless every entrant looks startable and (unless
    --no-preflight) starts and answers the hello: before any game, and before the
    output directory is made."""
    builtins = sorted(game.builtin_players())
    specs = parse_bots([e.bot for e in entrants], builtins)
    source = plan.to_data() if plan is not None else options
    check_sandbox(source["sandbox"])
    if not options["preflight"]:
        return
    config = MatchConfig(
        handshake=source["handshake"],
        max_line=source["max_line"],
        max_log=source["max_log"],
        sandbox=source["sandbox"],
        memory=source["memory"],
    )
    check_bots_start(game, specs, config)


def _stored_seed(root: Path) -> int | None:
    try:
        stored = stored_plan(root)
    except TournamentError:
        return None
    return None if stored is None else stored.seed


class _Executors:
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
            return f"{self.jobs or default_jobs()} jobs"
        where = self.ray.address or "a local Ray"
        jobs = "as many jobs as it has CPUs" if self.jobs is None else f"{self.jobs} jobs"
        return f"on Ray ({where}), {jobs}"

    def get(self, store: TournamentDir) -> Executor:
        if self.ray is not None:
            self.ray.log = self.ray.log or store.root / "workers.log"  # the driver's messages
            return self.ray
        jobs = self.jobs or default_jobs()
        return LocalExecutor(self.reference, jobs, store.root / "workers.log")

    def close(self) -> None:
        if self.ray is not None:
            self.ray.close()


def _run(
    game: AnyGame, store: TournamentDir, players: _Executors, as_json: bool, quiet: bool
) -> Report:
    plan = store.plan
    err = console(stderr=True)
    if not as_json:
        screen = console()
        names = ", ".join(e.name for e in plan.entrants)
        up_to = "" if plan.sprt is None else "at most "
        screen.print(f"{game.title} tournament: {names}")
        screen.print(
            f"{up_to}{count(plan.games, 'game')} ({count(plan.deals, 'deal')} x "
            f"{seatings_text(plan)}), seed {plan.seed}, {players.describe()}; "
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
    executor = players.get(store)
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
