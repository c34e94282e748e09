"""The ``match`` and ``replay`` commands, for any :class:`~tajmahal.arena.game.Game`.

A CLI registers them with ``main.add_command(match_command(GAMES))``, where
``GAMES`` is a :class:`~tajmahal.arena.registry.GameRegistry` (``--game NAME``
chooses among its games) or a single game.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import click
import orjson

from . import containment, seal
from .cgroups import unavailable as cgroups_unavailable
from .connection import open_private
from .game import AnyGame
from .record import RecordError, dealt_from, read_game_id, replay
from .referee import BotSpec, deal, preflight, run_match
from .registry import GameRegistry, UnknownGame, registry_of
from .report import fault_text, replay_table, result_table
from .sandbox import exposed as sandbox_exposed
from .sandbox import unavailable as sandbox_unavailable
from .signals import terminate_as_interrupt
from .terms import (
    DEFAULT_BANK,
    DEFAULT_GRACE,
    DEFAULT_HANDSHAKE,
    DEFAULT_MAX_LINE,
    DEFAULT_MAX_LOG,
    DEFAULT_MOVE,
    Fault,
    MatchConfig,
    MatchResult,
    TimeControl,
)
from .text import printable

F = TypeVar("F", bound=Callable[..., Any])

#: Seeds are 0 to 2^64 - 1: they go into records and JSON as they are.
SEED = click.IntRange(0, 2**64 - 1)


_SECONDS = click.FloatRange(min=0)
_POSITIVE_SECONDS = click.FloatRange(min=0, min_open=True)

#: The referee's limits, number options: flags (and parameter name), type, default, help.
_LIMITS = (
    ("--time move", _POSITIVE_SECONDS, DEFAULT_MOVE, "Seconds per decision."),
    ("--bank", _SECONDS, DEFAULT_BANK, "Time bank (seconds) per game that pays for overruns."),
    ("--handshake", _POSITIVE_SECONDS, DEFAULT_HANDSHAKE, "Seconds a bot has to start and "
     "answer the hello."),
    ("--grace", _SECONDS, DEFAULT_GRACE, "Seconds a bot has to exit after the end message."),
    ("--max-line", click.IntRange(min=64), DEFAULT_MAX_LINE, "Longest line (bytes) accepted "
     "from a bot."),
    ("--max-log", click.IntRange(min=0), DEFAULT_MAX_LOG, "Bytes of each bot's stderr kept "
     "in its log."),
)

#: The referee's limits: the same options for ``match`` and ``tournament``.
_REFEREE_OPTIONS = (
    *(
        click.option(*flags.split(), type=kind, default=default, show_default=True, help=text)
        for flags, kind, default, text in _LIMITS
    ),
    click.option(
        "--batch-events/--no-batch-events",
        default=True,
        show_default=True,
        help="Send each bot its events with its next request (faster), or at once.",
    ),
    click.option(
        "--sandbox/--no-sandbox",
        default=None,
        help="Run each bot in a sandbox of its own (Linux namespaces, with bubblewrap): "
        "no network, no other process, your files hidden but the system's, Python's "
        "and its own, read-only (see docs/cli.md, Trust model).  Default: on for "
        "tournament and play where the system allows it, off for match.",
    ),
    click.option(
        "--memory",
        type=click.IntRange(min=16),
        metavar="MB",
        help="Bound each bot's memory, all its processes, memory files and shared "
        "memory together, at MB megabytes (a cgroup of its own; refused where none can "
        "be made).",
    ),
)


def referee_options(command: F) -> F:
    """Add the referee's limits (time control, handshake, grace, line and log sizes,
    event batching, confinement) to a click command."""
    for option in reversed(_REFEREE_OPTIONS):
        command = option(command)
    return command


def path_option(flag: str, text: str, *, folder: bool = False) -> Callable[[F], F]:
    """An option naming a file (``folder``: a directory) that the command writes."""
    kind = click.Path(file_okay=not folder, dir_okay=folder, path_type=Path)
    return click.option(flag, type=kind, help=text)


def seat_time_option(metavar: str, text: str) -> Callable[[F], F]:
    """The repeatable ``--seat-time`` option (read by :func:`parse_seat_time`)."""
    return click.option("--seat-time", multiple=True, metavar=metavar, help=text)


def parse_seat_time(text: str, players: int, default: TimeControl) -> tuple[int, TimeControl]:
    """``SEAT:MOVE`` or ``SEAT:MOVE:BANK`` (seconds)."""
    parts = text.split(":")
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        seat = int(parts[0])
        move = float(parts[1])
        bank = float(parts[2]) if len(parts) == 3 else default.bank
    except ValueError:
        raise click.BadParameter(
            f"{text!r}: expected SEAT:MOVE or SEAT:MOVE:BANK, e.g. 2:0.5:5",
            param_hint="--seat-time",
        ) from None
    if not 0 <= seat < players:
        raise click.BadParameter(f"no seat {seat} among {players}", param_hint="--seat-time")
    if move <= 0 or bank < 0:
        raise click.BadParameter(f"{text!r}: times must be positive", param_hint="--seat-time")
    return seat, TimeControl(move, bank)


def game_option(registry: GameRegistry, what: str) -> Callable[[F], F]:
    """The ``--game NAME`` option (the installed games' names; a game is loaded, and
    checked, when the command runs)."""
    return click.option(
        "--game",
        "game_name",
        metavar="NAME",
        help=f"The game to play ({', '.join(registry.names())}) [default: {what}].",
    )


def load_game_option(registry: GameRegistry, name: str | None) -> AnyGame:
    """The game ``--game`` names; a usage error for an unknown one."""
    try:
        return registry.get(name)
    except UnknownGame as e:
        raise click.BadParameter(str(e), param_hint="--game") from None


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
            click.echo(_summary(game, result, players))
            result_table(result, game.score_sources)

    match.help = """Play one game between bots and print the result.

    Each BOT is a built-in player of the game (random, greedy, mcts, ...) or a command
    line that starts a bot speaking the protocol of protocol/README.md; a program
    ending in .py runs with this Python and one ending in .js with node.  Give one BOT
    per seat, in seat order.

    \b
    Examples:
      tajmahal match bots/random_bot.py bots/greedy_bot.py "node bots/random_bot.js" greedy
      tajmahal match --game tikal greedy random random
    """
    return match


def preflight_option(command: F) -> F:
    """The ``--preflight/--no-preflight`` option of match and tournament."""
    return click.option(
        "--preflight/--no-preflight",
        default=True,
        show_default=True,
        help="Start every bot and check its hello before the first game; refuse to play "
        "if one fails.",
    )(command)


def parse_bots(bots: Sequence[str], builtins: Sequence[str]) -> list[BotSpec]:
    """The bots of the command line, each checked as far as can be without starting
    it (a usage error, with a "did you mean", for a misspelt built-in or a missing
    file)."""
    try:
        specs = [BotSpec.parse(b, builtins) for b in bots]
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    for spec in specs:
        problem = spec.problem(builtins)
        if problem is not None:
            raise click.UsageError(problem + _examples_hint(spec))
    return specs


def _examples_hint(spec: BotSpec) -> str:
    """Where to get an example bot that is not here (a pip install has no ``bots/``)."""
    script = spec.script or (spec.argv[0] if spec.argv else "")
    if Path(script).parent.name != "bots" or Path(script).exists():
        return ""
    from .. import shipped

    try:
        names = {p.name for p in shipped.example_bots()}
    except shipped.NotShipped:
        return ""
    if Path(script).name not in names:
        return ""
    folder = Path(script).parent
    return (
        f"\n(the example bots come with tajmahal: `tajmahal bots --copy {folder.parent}` "
        f"writes them into {folder})"
    )


def check_sandbox(wanted: bool) -> None:
    """Refuse ``--sandbox`` where it cannot confine the bots."""
    if wanted:
        problem = sandbox_unavailable()
        if problem is not None:
            raise click.UsageError(f"{problem} (or give --no-sandbox)")


def check_memory(memory: int | None) -> None:
    """Refuse ``--memory`` where no cgroup can bound a bot's whole memory (rather
    than leave memory files, shared memory and children unbounded)."""
    if memory is not None:
        problem = cgroups_unavailable()
        if problem is not None:
            raise click.BadParameter(
                f"a bound on a bot's whole memory needs a cgroup for each bot: {problem}",
                param_hint="--memory",
            )


def default_sandbox(given: bool | None, programs: bool = True) -> bool:
    """``--sandbox``/``--no-sandbox`` as given; neither: the sandbox where the
    system allows it (see :func:`say_sandbox`), if there are ``programs`` to put
    in it (built-in bots run inside the referee)."""
    if given is not None:
        return given
    return programs and sandbox_unavailable() is None


def sandbox_given() -> bool | None:
    """``--sandbox`` or ``--no-sandbox`` as given on the command line (None: neither)."""
    ctx = click.get_current_context()
    if ctx.get_parameter_source("sandbox") is not click.core.ParameterSource.COMMANDLINE:
        return None
    return bool(ctx.params["sandbox"])


def say_sandbox(on: bool, given: bool | None, quiet: bool = False) -> None:
    """Say once whether the bots run sandboxed, and how to change it (on stderr):
    a warning when they are not and nobody asked for that."""
    if on and not quiet:
        click.echo("the bots run sandboxed (see docs/cli.md, Trust model; --no-sandbox "
                   "turns it off)", err=True)
    elif not on and given is None:
        why = sandbox_unavailable()
        reason = f": {why}" if why else " (this tournament was started with --no-sandbox)"
        click.echo(f"warning: the bots are not sandboxed{reason}; they run as you, with "
                   "your files, network and processes within reach", err=True)


def check_outputs_hidden(
    specs: Sequence[BotSpec], sandboxed: bool, outputs: Sequence[tuple[Path | None, str]]
) -> None:
    """Refuse outputs that a sandboxed bot could read while it plays: each of
    ``outputs`` is a directory of the referee's (records, logs, a trace, a
    tournament) and the option that put it there.  The sandbox hides such a
    directory when it lies beneath a bot's folder, but not when it *is* one (the
    flat layout ``match --sandbox ./a.py ./b.py --record game.jsonl``) or holds
    one: the other seats' logs, and with ``--trace`` every hand, would be
    readable by the bots."""
    if not sandboxed:
        return
    for directory, option in outputs:
        if directory is None:
            continue
        for spec in specs:
            if spec.builtin is not None:
                continue
            seen = sandbox_exposed(spec.argv, directory)
            if seen is None:
                continue
            where = os.path.abspath(directory)
            what = (
                f"{where} is a folder" if seen == where else f"{where} holds {seen}, a folder"
            )
            raise click.UsageError(
                f"{option}: {what} the sandbox lets bot {spec.text!r} read: the bots could "
                "read the other seats' logs (and records, traces) while they play. Write "
                "them into a folder of their own beneath it (such as games/) or outside "
                "the bots' folders"
            )


def check_bots_start(game: AnyGame, specs: Sequence[BotSpec], config: MatchConfig) -> None:
    """Start every bot and exchange the hello (see :func:`preflight`); a usage error
    naming each bot that failed.  Interrupted (Ctrl-C, SIGTERM, SIGHUP), it stops
    the bots it started and exits with status 130."""
    try:
        with terminate_as_interrupt():
            faults = preflight(game, specs, config)
    except KeyboardInterrupt:
        click.echo("interrupted before the first game: every bot was stopped", err=True)
        sys.exit(130)
    if faults:
        lines = "\n".join(
            printable(
                f"  {specs[f.seat].text}: {f.kind}: {f.detail}"
                + (f"; last stderr line: {f.stderr}" if f.stderr else "")
            )
            for f in faults
        )
        raise click.UsageError(
            f"{'a bot' if len(faults) == 1 else 'bots'} failed the check before the first "
            f"game (started, and sent the hello):\n{lines}\n"
            "(--no-preflight plays anyway, with a fault for each)"
        )


def check_writable(path: Path, option: str, shown: Path | None = None) -> None:
    """A usage error (naming ``option`` and ``shown``, default ``path``) unless a
    file can be created at ``path``, which is no special file (a record replaces
    its path when done: as root, ``/dev/null`` itself).  Its folder is made if
    missing, but only when the folder's own parent exists (one ``mkdir``, as for
    ``runs/``): a path several missing folders deep is more likely a typo."""
    shown = path if shown is None else shown
    if path.exists() and not path.is_file():
        raise click.UsageError(f"{option} {shown}: not a regular file (give a file's path)")
    folder = path.parent
    if not folder.exists() and not folder.parent.is_dir():
        missing = folder
        while not missing.parent.exists():
            missing = missing.parent
        raise click.UsageError(
            f"{option} {shown}: no folder {missing} (a missing folder is made only when "
            "its parent exists)"
        )
    try:
        folder.mkdir(exist_ok=True)
        probe = folder / f".{path.name}.{os.getpid()}.check"
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as e:
        why = e.strerror or e
        raise click.UsageError(f"{option} {shown}: cannot write there ({why})") from None


def _summary(game: AnyGame, result: MatchResult, players: int) -> str:
    return (
        f"{game.title}, {players} players ({result.variant}), seed {result.seed}: "
        f"{result.decisions} decisions in {result.duration:.2f} s"
        + (f"; record {result.record}" if result.record else "")
    )


#: What ``replay --verify`` says of a record's seal (see :mod:`.seal`).
_SEALS: Final = {
    seal.HERE: "sealed by this machine's referee, every line as it wrote it",
    seal.ELSEWHERE: (
        "sealed under another referee's key (not checked here: its players and times "
        "are as written)"
    ),
    seal.UNSEALED: "not sealed (its players and times are as written)",
}


def replay_command(games: GameRegistry | AnyGame) -> click.Command:
    registry = registry_of(games)

    @click.command(name="replay")
    @click.argument("record", type=click.Path(exists=True, path_type=Path))
    @game_option(registry, "the one named in the record")
    @click.option(
        "--verify",
        is_flag=True,
        help="Only check the record; exit 1 at the first mismatch.",
    )
    @path_option(
        "--html",
        "Write a self-contained HTML replay viewer here (RECORD may then be a "
        "tournament's --out folder or a folder of records: one page for all its games).",
    )
    def replay_(record: Path, game_name: str | None, verify: bool, html: Path | None) -> None:
        """Re-play a game record, check it, and print the game step by step.

        Every action is re-applied to the recorded setup; the seats, actions, scores
        after each step and the final result must all match the record.
        """
        if html is not None:
            write_html(registry, game_name, record, html)
            return
        if record.is_dir():
            raise click.BadParameter(
                f"{record} is a folder: give a record (or --html for a folder of records)",
                param_hint="RECORD",
            )
        try:
            if game_name is None:
                game = registry.by_id(read_game_id(record))
            else:
                game = load_game_option(registry, game_name)
            done = replay(game, record, describe=not verify)
        except UnknownGame as e:
            click.echo(printable(f"{record}: MISMATCH: {e}"), err=True)
            sys.exit(1)
        except RecordError as e:
            click.echo(printable(f"{record}: MISMATCH: {e}"), err=True)
            sys.exit(1)
        scores = done.result["scores"]
        if verify:
            setup = (
                f"the setup is the one {dealt_from(done.header)} deals"
                if done.dealt
                else "the setup was given to the referee (not dealt from a seed: not checked)"
            )
            click.echo(
                f"{record}: OK: {len(done.steps)} decisions replayed; final scores {scores} "
                f"and ranks {done.result['ranks']} match; {setup}; {_SEALS[done.sealed]}"
            )
            return
        names = done.names
        header = done.header
        click.echo(
            printable(
                f"{game.title}, {len(names)} players ({header.get('variant')}), seed "
                f"{header.get('seed')}: " + ", ".join(f"seat {i} {n}" for i, n in enumerate(names))
            )
        )
        state = game.new_game(game.setup_from_data(header["setup"]))
        for line in game.describe_start(state, names):
            _echo_line(line)
        for step in done.steps:
            if step.fault is not None:
                click.echo(
                    printable(
                        f"  !! seat {step.fault.get('seat')} faulted ({step.fault.get('kind')}): "
                        f"{step.fault.get('detail')}; the fallback policy plays it from here"
                    )
                )
            tag = " [fallback]" if step.by == "fallback" else ""
            for i, line in enumerate(step.lines):
                _echo_line(line + (tag if i == 0 else ""))
        click.echo("")
        replay_table(done.result, names, game.score_sources)
        click.echo(f"{record}: OK: the replay matches the recorded result")

    return replay_


def write_html(registry: GameRegistry, game_name: str | None, source: Path, out: Path) -> None:
    """``replay --html``: the viewer of the record (or folder of records) ``source``."""
    from .viewer import records_in, write_viewer

    paths = records_in(source)
    if not paths:
        raise click.BadParameter(f"no game records (*.jsonl) in {source}", param_hint="RECORD")
    check_writable(out, "--html")

    def game_of(path: Path) -> AnyGame:
        if game_name is not None:
            return load_game_option(registry, game_name)
        return registry.by_id(read_game_id(path))

    live = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:  # a folder: the games replayed so far
        if total > 1 and (live or done == total or done % max(1, total // 10) == 0):
            start, end = ("\r", "\n" if done == total else "") if live else ("", "\n")
            click.echo(f"{start}{done}/{total} games replayed{end}", nl=False, err=True)

    try:
        count = write_viewer(game_of, paths, out, progress)
    except (UnknownGame, RecordError) as e:
        click.echo(printable(f"{source}: MISMATCH: {e}"), err=True)
        sys.exit(1)
    except OSError as e:
        click.echo(f"error: {e.filename or out}: {e.strerror or e}", err=True)
        sys.exit(1)
    click.echo(printable(f"{out}: the viewer of {count} game{'s' * (count != 1)} from {source}"))


def _echo_line(line: str) -> None:
    line = printable(line)  # names in a record may hold anything
    if line.startswith("# "):
        click.echo(f"\n{line[2:]}")
    else:
        click.echo(f"  {line}")
