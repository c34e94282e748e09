"""What the commands that play share: the referee's options (time control,
limits, confinement), ``--game``, ``--seed``, the paths they write, and the
checks made before anything starts (bots, outputs, the sandbox).

``match`` (:mod:`.commands`), ``tournament``, ``play`` and ``show`` build on it;
``replay`` (:mod:`.replaying`) too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from .cgroups import unavailable as cgroups_unavailable
from .game import AnyGame
from .referee import BotSpec, preflight
from .registry import GameRegistry, UnknownGame
from .sandbox import exposed as sandbox_exposed
from .sandbox import hidden_need as sandbox_hidden_need
from .sandbox import unavailable as sandbox_unavailable
from .signals import terminate_as_interrupt
from .terms import (
    DEFAULT_BANK,
    DEFAULT_GRACE,
    DEFAULT_HANDSHAKE,
    DEFAULT_MAX_LINE,
    DEFAULT_MAX_LOG,
    DEFAULT_MOVE,
    MatchConfig,
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
        "and its own, read-only (tajmahal docs cli: Trust model).  Default: on for "
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


def preflight_option(command: F) -> F:
    """The ``--preflight/--no-preflight`` option of match and tournament."""
    return click.option(
        "--preflight/--no-preflight",
        default=True,
        show_default=True,
        help="Start every bot and check its hello before the first game; refuse to play "
        "if one fails.",
    )(command)


def parse_bots(
    bots: Sequence[str], builtins: Sequence[str], named: bool = True
) -> list[BotSpec]:
    """The bots of the command line (``BOT`` or ``NAME=BOT``; only ``BOT`` unless
    ``named``), each checked as far as can be without starting it (a usage error,
    with a "did you mean", for a misspelt built-in or a missing file, or a name
    given twice)."""
    try:
        specs = (
            BotSpec.named(bots, builtins) if named else [BotSpec.parse(b, builtins) for b in bots]
        )
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    for spec in specs:
        problem = spec.problem(builtins)
        if problem is not None:
            raise click.UsageError(problem + _examples_hint(spec, problem))
    return specs


def _examples_hint(spec: BotSpec, problem: str) -> str:
    """Where to get an example bot that is not here (a pip install has no ``bots/``),
    unless ``problem`` already points at one."""
    script = Path(spec.script or (spec.argv[0] if spec.argv else ""))
    if script.exists() or "did you mean" in problem:
        return ""
    from .. import shipped

    try:
        names = {p.name for p in shipped.example_bots()}
    except shipped.NotShipped:
        return ""
    if script.name not in names:
        return ""
    folder = script.parent if script.parent.name == "bots" else script.parent / "bots"
    then = "" if folder == script.parent else f"; then give {folder / script.name}"
    return (
        f"\n(the example bots come with tajmahal: `tajmahal bots --copy {folder.parent}` "
        f"writes them into {folder}{then})"
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
        click.echo("the bots run sandboxed (tajmahal docs cli: Trust model; --no-sandbox "
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


def check_programs_run(specs: Sequence[BotSpec], sandboxed: bool) -> None:
    """Refuse a bot program that would not run in the sandbox although it runs
    outside (:func:`~tajmahal.arena.sandbox.hidden_need`), naming what the
    sandbox hides and how to get past it, before anything is started."""
    if not sandboxed:
        return
    for spec in specs:
        if spec.builtin is None:
            problem = sandbox_hidden_need(spec.argv, spec.home)
            if problem is not None:
                raise click.UsageError(f"bot {spec.text!r}: {problem}")


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
    missing, but only when the folder's own parent exists (:func:`check_folder`)."""
    shown = path if shown is None else shown
    if path.exists() and not path.is_file():
        raise click.UsageError(f"{option} {shown}: not a regular file (give a file's path)")
    folder = path.parent
    check_folder(folder, option, shown)
    try:
        folder.mkdir(exist_ok=True)
        probe = folder / f".{path.name}.{os.getpid()}.check"
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as e:
        why = e.strerror or e
        raise click.UsageError(f"{option} {shown}: cannot write there ({why})") from None




def check_folder(folder: Path, option: str, shown: Path) -> None:
    """A usage error (naming ``option`` and ``shown``) when ``folder`` is missing and
    so is its parent: a missing folder is made only when its parent exists (one
    ``mkdir``, as for ``runs/``), a path several missing folders deep is more
    likely a typo."""
    if folder.exists() or folder.parent.is_dir():
        return
    missing = folder
    while not missing.parent.exists():
        missing = missing.parent
    raise click.UsageError(
        f"{option} {shown}: no folder {missing} (a missing folder is made only when "
        "its parent exists)"
    )
