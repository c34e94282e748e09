"""The ``tournament`` command, for any :class:`~tajmahal.arena.game.Game`.

A CLI registers it with ``main.add_command(tournament_command(GAMES))`` (a
:class:`~tajmahal.arena.registry.GameRegistry`, for ``--game NAME``, or one game).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .. import containment
from ..game import AnyGame
from ..options import (
    SEED,
    default_sandbox,
    game_option,
    preflight_option,
    referee_options,
    sandbox_given,
    say_sandbox,
    seat_time_option,
)
from ..registry import GameRegistry, registry_of
from .arguments import (
    DEFAULT_GAMES,
    check_entrants,
    has_programs,
    lineup_of,
    plan_for,
    tournament_game,
)
from .gauntlet import is_gauntlet
from .logbudget import DEFAULT_MAX_LOGS
from .schedule import CYCLIC, SEATINGS
from .session import Executors, play, play_gauntlet


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
        help="Tournament seed, 0 to 2^64-1: fixes every deal's seed, the cards following "
        "from it under DIR/.key [default: a fresh random one, or as stored].",
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
        "--max-logs",
        type=click.IntRange(min=0),
        default=DEFAULT_MAX_LOGS,
        show_default=True,
        metavar="B",
        help="Bytes of the bots' stderr the whole tournament keeps (--max-log is per bot "
        "and game); once spent, later games keep none, and the tournament says so.",
    )
    @click.option(
        "--duplicate/--fresh-deals",
        default=None,
        help="Play each deal's cards in every seating (duplicate deals: the luck of the "
        "cards cancels out), or fresh cards in every game [default: duplicate when every "
        "BOT is built in; fresh when one is a program, which could tell another seating "
        "what it saw: tajmahal docs tournaments].",
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
    @seat_time_option(
        "N:MOVE[:BANK]", "Time control for the N-th BOT (from 0), wherever it sits (repeatable)."
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
        game = tournament_game(registry, game_name, out, is_gauntlet_run)
        options["sandbox"] = default_sandbox(options["sandbox"], has_programs(game, bots))
        if options["duplicate"] is None:
            options["duplicate"] = not has_programs(game, bots)
        if executor != "ray" and (address is not None or ray_working_dir is not None):
            raise click.UsageError("--address and --ray-working-dir are for --executor ray")
        players = Executors(game, executor, jobs, address, ray_working_dir)
        try:
            if is_gauntlet_run:
                status = play_gauntlet(
                    game, out, bots, games, seed, players, as_json, quiet, options
                )
            else:
                lineup = lineup_of(bots, options) if bots else None
                plan = plan_for(game, out, lineup, games, seed, options)
                check_entrants(game, plan.entrants, options, plan, out)
                if has_programs(game, tuple(e.bot for e in plan.entrants)):
                    say_sandbox(plan.sandbox, sandbox_given(), quiet)
                status = play(game, out, plan, games, players, as_json, quiet)
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
