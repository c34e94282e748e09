"""The ``match`` command, for any :class:`~tajmahal.arena.game.Game`.

A CLI registers it with ``main.add_command(match_command(GAMES))``, where
``GAMES`` is a :class:`~tajmahal.arena.registry.GameRegistry` (``--game NAME``
chooses among its games) or a single game.  The options it shares with the other
commands are :mod:`.options`'; ``replay`` is :mod:`.replaying`.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import orjson

from . import containment
from .connection import open_private
from .game import AnyGame
from .options import (
    SEED,
    check_bots_start,
    check_memory,
    check_outputs_hidden,
    check_programs_run,
    check_sandbox,
    check_writable,
    game_option,
    load_game_option,
    parse_bots,
    parse_seat_time,
    path_option,
    preflight_option,
    referee_options,
    seat_time_option,
)
from .referee import deal, run_match
from .registry import GameRegistry, registry_of
from .report import fault_text, result_table, summary_line
from .signals import terminate_as_interrupt
from .terms import Fault, MatchConfig, TimeControl
from .text import printable


def match_command(games: GameRegistry | AnyGame) -> click.Command:
    registry = registry_of(games)

    @click.command(name="match")
    @click.argument("bots", nargs=-1, required=True, metavar="BOT BOT [BOT...]")
    @game_option(registry, registry.default)
    @click.option(
        "--seed",
        type=SEED,
        help="Seed of the deal, 0 to 2^64-1 (default: a fresh random one, printed with the "
        "result): the cards are drawn from it under your referee key, the same on this "
        "machine and none a bot can guess (TAJMAHAL_REPRODUCIBLE_SEEDS=1: from the seed itself).",
    )
    @click.option("--variant", help="Game variant (default: the one for the number of bots).")
    @path_option("--record", "Write the game record (JSON Lines) here; bot logs go beside it.")
    @path_option(
        "--log-dir",
        "Save each bot's stderr here (default: beside the record, else dropped).",
        folder=True,
    )
    @referee_options
    @seat_time_option("SEAT:MOVE[:BANK]", "Time control for one seat (repeatable).")
    @path_option(
        "--trace", "Write every protocol line (JSON Lines) here (readable by you only)."
    )
    @preflight_option
    @click.option(
        "--watch/--no-watch",
        default=True,
        show_default=True,
        help="Keep polling up to 150 µs for a fast bot's answer before sleeping (when "
        "there is more than one CPU), or always sleep.",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
    @click.option("-v", "--verbose", count=True, help="-v: every action; -vv: every event.")
    @click.option("-q", "--quiet", is_flag=True, help="Print nothing but faults.")
    def match(
        bots: tuple[str, ...],
        game_name: str | None,
        seed: int | None,
        variant: str | None,
        record: Path | None,
        log_dir: Path | None,
        move: float,
        bank: float,
        seat_time: tuple[str, ...],
        handshake: float,
        grace: float,
        max_line: int,
        max_log: int,
        trace: Path | None,
        preflight: bool,
        watch: bool,
        batch_events: bool,
        sandbox: bool | None,
        memory: int | None,
        as_json: bool,
        verbose: int,
        quiet: bool,
    ) -> None:
        game = load_game_option(registry, game_name)
        sandbox = bool(sandbox)  # off unless asked for
        check_sandbox(sandbox)
        check_memory(memory)
        builtins = sorted(game.builtin_players())
        players = len(bots)
        if not game.min_players <= players <= game.max_players:
            raise click.UsageError(
                f"{game.title} is for {game.min_players}-{game.max_players} players: "
                f"give that many BOTs, not {players}"
            )
        containment.hide_option("--seed")  # from other processes (the bots): it deals the deck
        specs = parse_bots(bots, builtins)
        check_programs_run(specs, sandbox)
        record_dir = record.parent if record is not None else None
        trace_dir = trace.parent if trace is not None else None
        check_outputs_hidden(specs, sandbox, [
            (record_dir, f"--record {record}"), (log_dir, f"--log-dir {log_dir}"),
            (trace_dir, f"--trace {trace}"),
        ])
        for path, what in ((record, "--record"), (trace, "--trace")):
            if path is not None:
                check_writable(path, what)
        if log_dir is not None:
            check_writable(log_dir / ".tajmahal-check", "--log-dir", shown=log_dir)
        try:
            if seed is None:
                seed = secrets.randbits(63)
            dealt = deal(game, players, seed, variant)
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        default = TimeControl(move, bank)
        times = [default] * players
        for text in seat_time:
            seat, control = parse_seat_time(text, players, default)
            times[seat] = control
        names = [s.text for s in specs]

        def on_fault(fault: Fault) -> None:
            click.echo(f"fault: {fault_text(fault, names)}", err=True)

        def on_step(
            decision: int, seat: int, before: Any, action: Any, events: Sequence[Any], by: str
        ) -> None:
            tag = " (fallback)" if by == "fallback" else ""
            text = printable(game.describe_action(before, action))
            click.echo(f"{decision:4} seat {seat}: {text}{tag}", err=True)
            if verbose > 1:
                for line in game.describe_events(before, events, names):
                    click.echo(f"       {printable(line.removeprefix('# '))}", err=True)

        def on_trace(seat: int, direction: str, line: bytes) -> None:
            assert trace_file is not None
            body = line.rstrip(b"\n")
            if direction == "from":  # a bot's line may be anything: keep it valid JSONL
                try:
                    orjson.loads(body)
                except orjson.JSONDecodeError:
                    body = orjson.dumps({"raw": body.decode("utf-8", "replace")})
            trace_file.write(
                b'{"seat":%d,"dir":"%s","message":%s}\n' % (seat, direction.encode(), body)
            )

        config = MatchConfig(
            time=tuple(times),
            handshake=handshake,
            grace=grace,
            max_line=max_line,
            max_log=max_log,
            record=record,
            log_dir=log_dir,
            trace=on_trace if trace is not None else None,
            on_step=on_step if verbose else None,
            on_fault=on_fault if quiet or verbose else None,
            batch_events=batch_events,
            watch=watch,
            sandbox=sandbox,
            memory=memory,
            hide=(trace_dir,) if trace_dir is not None else (),
        )
        if preflight:
            check_bots_start(game, specs, config)
        trace_file = open_private(trace) if trace is not None else None
        try:
            with terminate_as_interrupt():
                result = run_match(game, dealt.setup, specs, config, seed, dealt.setup_seed)
        except KeyboardInterrupt:
            click.echo("interrupted: every bot was stopped; no record was written", err=True)
            sys.exit(130)
        except OSError as e:  # the record could not be written after all (a full disk...)
            click.echo(f"error: {e.filename or record}: {e.strerror or e}", err=True)
            sys.exit(1)
        finally:
            if trace_file is not None:
                trace_file.close()
        if as_json:
            click.echo(orjson.dumps(result.to_data(), option=orjson.OPT_INDENT_2).decode())
        elif not quiet:
            click.echo(summary_line(game, result))
            result_table(result, game.score_sources)

    match.help = """Play one game between bots and print the result.

    Each BOT is a built-in player of the game (random, greedy, mcts, ...) or a command
    line that starts a bot speaking the protocol (tajmahal docs protocol); a program
    ending in .py runs with this Python and one ending in .js with node.  Give one BOT
    per seat, in seat order.

    \b
    Examples:
      tajmahal match bots/random_bot.py bots/greedy_bot.py "node bots/random_bot.js" greedy
      tajmahal match --game tikal greedy random random
    """
    return match
