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
from .record import RecordError, read_game_id, replay
from .registry import GameRegistry, UnknownGame, registry_of
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
                f"the setup is the one seed {done.header['seed']} deals"
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
