"""The ``replay`` command, for any :class:`~tajmahal.arena.game.Game`: a record
re-played, checked and told step by step; with ``--verify`` only checked; with
``--html`` a page to watch it (or a folder of records) in the browser.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

import click

from . import seal
from .game import AnyGame
from .options import check_writable, game_option, load_game_option, path_option
from .record import RecordError, dealt_from, read_game_id
from .registry import GameRegistry, UnknownGame, registry_of
from .replayer import replay
from .report import replay_table
from .text import printable

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
        help="Only check the record (or every record of a folder, as a tournament's "
        "--out): a line for each that does not replay, and exit status 1 if one does not.",
    )
    @path_option(
        "--html",
        "Write a self-contained HTML replay viewer here (RECORD may then be a "
        "tournament's --out folder or a folder of records: one page for all its games; "
        "a record that does not replay is named and left out).",
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
            if verify:
                verify_folder(registry, game_name, record)
                return
            raise click.BadParameter(
                f"{record} is a folder: give a record (or --verify, --html for a folder of "
                "records)",
                param_hint="RECORD",
            )
        try:
            game = game_of_record(registry, game_name, record)
            done = replay(game, record, describe=not verify)
        except (UnknownGame, RecordError) as e:
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
                printable(
                    f"{record}: OK: {len(done.steps)} decisions replayed; final scores "
                    f"{scores} and ranks {done.result['ranks']} match; {setup}; "
                    f"{_SEALS[done.sealed]}"
                )
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


def game_of_record(registry: GameRegistry, game_name: str | None, record: Path) -> AnyGame:
    """The game ``--game`` names, else the one the record names (UnknownGame,
    RecordError)."""
    if game_name is not None:
        return load_game_option(registry, game_name)
    return registry.by_id(read_game_id(record))


def verify_folder(registry: GameRegistry, game_name: str | None, folder: Path) -> None:
    """``replay --verify DIR``: every record of ``folder`` (a tournament's ``--out``:
    those in its ``games/``) replayed and checked; a line for each that does not
    replay, then one for all; exit status 1 if one does not."""
    from .viewer import records_in

    paths = records_in(folder)
    if not paths:
        raise click.BadParameter(f"no game records (*.jsonl) in {folder}", param_hint="RECORD")
    bad = 0
    seals: dict[str, int] = {}
    decisions = 0
    for path in paths:
        try:
            done = replay(game_of_record(registry, game_name, path), path, describe=False)
        except (UnknownGame, RecordError) as e:
            click.echo(printable(f"{path}: MISMATCH: {e}"), err=True)
            bad += 1
            continue
        seals[done.sealed] = seals.get(done.sealed, 0) + 1
        decisions += len(done.steps)
    good = len(paths) - bad
    sealed = "; ".join(f"{_SEALS[kind]}: {n}" for kind, n in sorted(seals.items()))
    if bad:
        click.echo(printable(
            f"{folder}: {bad} of {len(paths)} records do not replay (named above); "
            f"{good} OK"
        ))
        sys.exit(1)
    click.echo(printable(
        f"{folder}: OK: {len(paths)} record{'s' * (len(paths) != 1)} replayed, "
        f"{decisions} decisions, every result matches ({sealed})"
    ))


def write_html(registry: GameRegistry, game_name: str | None, source: Path, out: Path) -> None:
    """``replay --html``: the viewer of the record (or folder of records) ``source``;
    a record of a folder that does not replay is named and left out (exit status 1)."""
    from .viewer import records_in, write_viewer

    paths = records_in(source)
    if not paths:
        raise click.BadParameter(f"no game records (*.jsonl) in {source}", param_hint="RECORD")
    check_writable(out, "--html")
    live = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:  # a folder: the games replayed so far
        if total > 1 and (live or done == total or done % max(1, total // 10) == 0):
            start, end = ("\r", "\n" if done == total else "") if live else ("", "\n")
            click.echo(f"{start}{done}/{total} games replayed{end}", nl=False, err=True)

    left_out: list[Path] = []

    def bad(path: Path, error: Exception) -> None:
        if live:
            click.echo("", err=True)  # past the progress line
        click.echo(printable(f"{path}: MISMATCH: {error}; left out of the page"), err=True)
        left_out.append(path)

    try:
        count = write_viewer(
            lambda path: game_of_record(registry, game_name, path), paths, out, progress,
            bad if source.is_dir() else None,
        )
    except (UnknownGame, RecordError) as e:
        click.echo(printable(f"{source}: MISMATCH: {e}"), err=True)
        sys.exit(1)
    except OSError as e:
        click.echo(f"error: {e.filename or out}: {e.strerror or e}", err=True)
        sys.exit(1)
    if not count:
        click.echo(printable(f"{source}: no record replays: no page written"), err=True)
        sys.exit(1)
    games = f"{count} game{'s' * (count != 1)}"
    if left_out:
        click.echo(printable(
            f"{out}: the viewer of {games} from {source}; {len(left_out)} record"
            f"{'s' * (len(left_out) != 1)} left out (named above)"
        ))
        sys.exit(1)
    click.echo(printable(f"{out}: the viewer of {games} from {source}"))


def _echo_line(line: str) -> None:
    line = printable(line)  # names in a record may hold anything
    if line.startswith("# "):
        click.echo(f"\n{line[2:]}")
    else:
        click.echo(f"  {line}")
