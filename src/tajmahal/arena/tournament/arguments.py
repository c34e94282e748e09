"""What the ``tournament`` command's arguments ask for, checked before anything is
played: the game, the entrants and their time controls, the plan (new, or the one
stored in the output directory to resume), and whether every entrant starts."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..game import AnyGame
from ..options import (
    check_bots_start,
    check_memory,
    check_outputs_hidden,
    check_programs_run,
    check_sandbox,
    load_game_option,
    parse_bots,
    parse_seat_time,
)
from ..registry import GameRegistry, UnknownGame
from ..terms import MatchConfig, TimeControl, reproducible
from . import gauntlet
from .journal import TournamentError, stored_plan
from .plan import Plan
from .schedule import (
    Entrant,
    deals_for,
    duplicate_by_default,
    parse_entrants,
    seatings_per_deal,
)
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
    "max_logs",
    "batch_events",
    "sandbox",
    "memory",
    "seatings",
    "duplicate",
    "sprt",
)


#: The entrants of a tournament and the time control of each.
Lineup = tuple[tuple[Entrant, ...], tuple[TimeControl, ...]]


def lineup_of(bots: tuple[str, ...], options: dict[str, Any]) -> Lineup:
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


def _seats_checked(game: AnyGame, seats: int) -> int:
    if not game.min_players <= seats <= game.max_players:
        raise click.UsageError(
            f"{game.title} is for {game.min_players}-{game.max_players} players: give that "
            f"many BOTs (one per seat), not {seats}"
        )
    return seats


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
        max_logs=options["max_logs"],
        batch_events=options["batch_events"],
        sandbox=options["sandbox"],
        memory=options["memory"],
        seatings=options["seatings"],
        sprt=_sprt_checked(options["sprt"], seats),
        duplicate=options["duplicate"],
        keyed=not reproducible(),
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


def plan_for(
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


def tournament_game(registry: GameRegistry, name: str | None, out: Path, gauntlet: bool) -> AnyGame:
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


def has_programs(game: AnyGame, bots: Sequence[str]) -> bool:
    """Whether any of ``bots`` (BOT or NAME=BOT) is a program (none given: maybe)."""
    try:
        entrants = parse_entrants(bots)
    except ValueError:
        return True
    return not bots or not duplicate_by_default([e.bot for e in entrants], game.builtin_players())


def check_entrants(
    game: AnyGame,
    entrants: Sequence[Entrant],
    options: dict[str, Any],
    plan: Plan | None = None,
    out: Path | None = None,
) -> None:
    """Refuse to play unless every entrant looks startable and (unless
    --no-preflight) starts and answers the hello, and (sandboxed) no bot could
    read the output directory ``out``: before any game, and before the output
    directory is made."""
    builtins = sorted(game.builtin_players())
    specs = parse_bots([e.bot for e in entrants], builtins, named=False)
    source = plan.to_data() if plan is not None else options
    check_sandbox(source["sandbox"])
    check_memory(source["memory"])
    check_programs_run(specs, source["sandbox"])
    if out is not None:
        check_outputs_hidden(specs, source["sandbox"], [(out, f"--out {out}")])
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


def seed_stored_in(root: Path) -> int | None:
    try:
        stored = stored_plan(root)
    except TournamentError:
        return None
    return None if stored is None else stored.seed
