"""``tajmahal ladder run``: play the ladder's games on this machine's CPUs or on a
Ray cluster (the tournament's executors), one line a game, until stopped."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson

from ..registry import GameRegistry
from ..text import printable
from .opening import errors_as_lines, opened, where_options


class Lines:
    """Prints one line a game as it ends."""

    def ended(self, end: object) -> None:
        from .runner import GameEnd

        assert isinstance(end, GameEnd)
        where = f"game {end.id}" + (f" (slot {end.slot})" if end.slot is not None else
                                    " (requested)")
        if end.error is not None:
            last = printable(end.error.strip().splitlines()[-1], limit=160)
            then = "void: it is skipped" if end.void else "it is played again"
            click.echo(f"{where} could not be played ({last}); {then}", err=True)
            return
        assert end.ranks is not None
        placed = sorted(zip(end.ranks, end.names, strict=True))
        click.echo(f"{where}: " + ", ".join(f"{printable(n)} {r}." for r, n in placed))


def run_command(registry: GameRegistry) -> click.Command:
    @click.command(name="run")
    @click.option("--games", "-n", type=click.IntRange(min=1),
                  help="Play this many games, then stop [default: play until stopped, waiting "
                  "for bots when there are too few].")
    @click.option("--jobs", "-j", type=click.IntRange(min=1),
                  help="Games played at once [default: the number of CPUs (of the Ray cluster "
                  "with --executor ray)].")
    @click.option("--executor", type=click.Choice(["local", "ray"]), default="local",
                  show_default=True,
                  help="Worker processes on this machine, or Ray tasks on a cluster (needs "
                  "tajmahal[ray]; every node needs the ladder's directory at the same path).")
    @click.option("--address", metavar="ADDR",
                  help="With --executor ray: the cluster to join [default: RAY_ADDRESS, else "
                  "a local Ray].")
    @click.option("--json", "as_json", is_flag=True, help="Print the run's summary as JSON.")
    @click.option("-q", "--quiet", is_flag=True, help="No line per game.")
    @where_options
    def run(games: int | None, jobs: int | None, executor: str, address: str | None,
            as_json: bool, quiet: bool, ladder_dir: Path | None, db_url: str | None) -> None:
        """Schedule and play the ladder's games: requested ones first, then the
        rated schedule; ratings are updated after every game.  Stop it at any
        moment (Ctrl-C, kill): the next run goes on with nothing lost."""
        from .. import containment
        from ..signals import terminate_as_interrupt
        from ..tournament.display import rate_text
        from ..tournament.session import Executors
        from .runner import Ladder, run_ladder
        from .store import shown

        if executor != "ray" and address is not None:
            raise click.UsageError("--address is for --executor ray")
        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            _check_sandbox(lad)
            players = Executors(lad.game, executor, jobs, address, None)
            try:
                with lad.db.run_lock(lad.place.root):
                    state = Ladder.load(lad.db, lad.place, lad.game)
                    listener = None if quiet or as_json else Lines()
                    if not (quiet or as_json):
                        click.echo(f"{lad.game.title} ladder in {shown(lad.place.root)}: playing "
                                   f"{'until stopped' if games is None else f'{games} games'}, "
                                   f"{players.describe()}")
                    with terminate_as_interrupt(), containment.guarded():
                        report = run_ladder(state, players.get(lad.place.root), listener,
                                            games, wait=games is None)
            finally:
                players.close()
        summary = {
            "finished": report.finished, "failed": report.failed, "void": report.void,
            "interrupted": report.interrupted, "stopped": report.lost, "idle": report.idle,
            "seconds": round(report.seconds, 3),
        }
        if as_json:
            click.echo(orjson.dumps(summary, option=orjson.OPT_INDENT_2).decode())
        elif not quiet:
            click.echo(f"{report.finished} games finished in {report.seconds:.1f} s "
                       f"({rate_text(report.finished, report.seconds)})")
        if report.lost is not None:
            click.echo(f"stopped: {report.lost}; every finished game is saved: run "
                       "`tajmahal ladder run` again to go on", err=True)
            sys.exit(1)
        if report.interrupted:
            click.echo("interrupted: the games under way were stopped (they are played "
                       "again next time)", err=True)
            sys.exit(130)
        if report.idle is not None and games is not None:
            click.echo(f"stopped: {report.idle} (`tajmahal ladder add` adds some)", err=True)
            sys.exit(1)

    return run


def _check_sandbox(lad: object) -> None:
    """Refuse to run program bots where the sandbox is not to be had."""
    from sqlalchemy import select

    from ..sandbox import unavailable
    from .schema import versions

    problem = unavailable()
    if problem is None:
        return
    db = lad.db  # type: ignore[attr-defined]
    with db.read() as conn:
        programs = conn.execute(select(versions.c.id).where(~versions.c.builtin)).first()
    if programs is not None:
        raise click.ClickException(f"a ladder runs every bot program in the sandbox: {problem}")
