"""The ladder's reading commands: each prints a table, or with ``--json`` the
data :mod:`.queries` gives (the same the HTTP API serves)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import orjson
from rich.table import Table

from ..registry import GameRegistry
from ..report import console
from ..text import printable
from .opening import errors_as_lines, opened, where_options


def _json(data: Any) -> None:
    click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, float):
        return f"{value:.3f}"
    return printable(str(value), limit=60)


def print_rows(rows: Sequence[dict[str, Any]], as_json: bool, columns: Sequence[str],
               title: str | None = None) -> None:
    """``rows`` as JSON, or as a table of ``columns``."""
    if as_json:
        _json(list(rows))
        return
    table = Table(title=title, box=None, header_style="bold")
    for column in columns:
        table.add_column(column.replace("_", " "),
                         justify="right" if column in _NUMBERS else "left")
    for row in rows:
        table.add_row(*(_cell(row.get(c)) for c in columns))
    console().print(table)


_NUMBERS = {"place", "version", "games", "win_share", "mean_rank", "fault_games", "last_game",
            "game", "slot", "versions", "current", "mu", "sigma", "low", "high", "wins", "rank",
            "faults", "interval", "score", "seat"}


def _rating(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its rating spread over columns (mu, and the interval), and the
    bot's name with its version (``alice@2``)."""
    rating = row["rating"]
    named = f"{row['bot']}@{row['version']}" if "version" in row and "bot" in row else row.get(
        "bot")
    return {**row, "name": named, "mu": f"{rating['mu']:.1f}",
            "interval": f"{rating['low']:.1f}..{rating['high']:.1f}"}


def _seats_text(seats: Sequence[dict[str, Any]]) -> str:
    placed = sorted(seats, key=lambda s: (s["rank"] is None, s["rank"] or 0, s["seat"]))
    return ", ".join(
        f"{s['bot']}@{s['version']}" + (f" {s['rank']}." if s["rank"] is not None else "")
        + (f" ({s['fault']})" if s.get("fault") else "")
        for s in placed
    )


def add_views(group: click.Group, registry: GameRegistry) -> None:
    @group.command()
    @click.option("--all", "every_version", is_flag=True,
                  help="Every version of every bot, retired ones too.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @where_options
    def standings(every_version: bool, as_json: bool, ladder_dir: Path | None,
                  db_url: str | None) -> None:
        """The bots in play, best first: by the low end of their rating's 95% interval."""
        from .queries import standings as query

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines(), lad.db.read() as c:
            rows = query(c, every_version)
        if as_json:
            _json(rows)
            return
        print_rows([{**_rating(r), "wins": r["win_share"], "rank": r["mean_rank"],
                     "faults": r["fault_games"]} for r in rows], False,
                   ("place", "name", "owner", "mu", "interval", "games", "wins", "rank",
                    "faults"))

    @group.command()
    @click.argument("name", required=False)
    @click.option("--history", is_flag=True, help="With NAME: its rating after each game.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @where_options
    def bots(name: str | None, history: bool, as_json: bool, ladder_dir: Path | None,
             db_url: str | None) -> None:
        """The bots (with NAME: that bot's versions, or its rating history)."""
        from .queries import bot_detail, bot_list, rating_history_of

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines(), lad.db.read() as c:
            if name is None:
                if history:
                    raise click.UsageError("--history goes with a bot's NAME")
                rows = bot_list(c)
                print_rows(rows if as_json else [_rating(r) for r in rows], as_json,
                           ("bot", "owner", "versions", "current", "retired", "mu", "interval",
                            "games"))
            elif history:
                print_rows(rating_history_of(c, name), as_json,
                           ("version", "slot", "game", "mu", "sigma", "low", "high"))
            else:
                detail = bot_detail(c, name)
                if as_json:
                    _json(detail)
                    return
                retired = f", retired {detail['retired']}" if detail["retired"] else ""
                click.echo(printable(f"{detail['bot']}: owner {detail['owner'] or '-'}{retired}"))
                print_rows([_rating(v) for v in detail["versions"]], False,
                           ("version", "command", "digest", "created", "mu", "interval",
                            "games", "win_share", "current"))

    @group.command()
    @click.option("--bot", metavar="NAME", help="Only the games of this bot.")
    @click.option("--limit", type=click.IntRange(1, 500), default=20, show_default=True)
    @click.option("--scheduled", is_flag=True, help="The games waiting to be played instead.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @where_options
    def games(bot: str | None, limit: int, scheduled: bool, as_json: bool,
              ladder_dir: Path | None, db_url: str | None) -> None:
        """The latest finished games (newest first)."""
        from .queries import game_list

        status = "scheduled" if scheduled else "finished"
        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines(), lad.db.read() as c:
            rows = game_list(c, bot=bot, limit=limit, status=status)
        if as_json:
            _json(rows)
            return
        print_rows([{**r, "seats": _seats_text(r["seats"])} for r in rows], False,
                   ("game", "slot", "kind", "finished", "seats"))

    @group.command()
    @click.argument("game_id", type=int, metavar="GAME")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @where_options
    def show(game_id: int, as_json: bool, ladder_dir: Path | None, db_url: str | None) -> None:
        """One game: who sat where, how it ended, its record and the ratings after."""
        from .queries import game_detail

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines(), lad.db.read() as c:
            data = game_detail(c, game_id)
            root = lad.place.root
        if as_json:
            _json(data)
            return
        kind = f"rated, slot {data['slot']}" if data["slot"] is not None else "requested"
        click.echo(f"game {data['game']} ({kind}): {data['status']}"
                   + (f" {data['finished']}" if data["finished"] else ""))
        if data["record"]:
            click.echo(f"record {root / data['record']} (sha256 {data['record_sha256'][:16]}...)")
        if data["error"]:
            click.echo(printable(f"error: {data['error'].strip().splitlines()[-1]}"))
        rows = [{**s, "rating_after": None if s["rating_after"] is None else
                 f"{s['rating_after']['mu']:.2f} +- {s['rating_after']['sigma'] * 1.96:.2f}"}
                for s in data["seats"]]
        print_rows(rows, False, ("seat", "bot", "version", "score", "rank", "fault",
                                 "rating_after"))

    @group.command(name="head-to-head")
    @click.argument("first", metavar="BOT")
    @click.argument("second", metavar="BOT")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @where_options
    def head_to_head(first: str, second: str, as_json: bool, ladder_dir: Path | None,
                     db_url: str | None) -> None:
        """How often the first BOT finished ahead of the second in their rated games."""
        from .queries import head_to_head as query

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines(), lad.db.read() as c:
            data = query(c, first, second)
        if as_json:
            _json(data)
            return
        if not data["games"]:
            click.echo(printable(f"{first} and {second} have not met in a rated game yet"))
            return
        share = data["ahead"]
        interval = "" if share["low"] is None else f" [{share['low']:.3f}, {share['high']:.3f}]"
        click.echo(printable(
            f"{first} ahead of {second} in {share['mean']:.3f}{interval} of {data['games']} "
            f"games ({data['ahead_games']} ahead, {data['behind_games']} behind, "
            f"{data['tied_games']} tied); last games: "
            + ", ".join(map(str, data["last_games"]))))

    @group.command()
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @where_options
    def verify(as_json: bool, ladder_dir: Path | None, db_url: str | None) -> None:
        """Check every record against the database, the database against the
        records, and the ratings against the games; exit 1 on any difference."""
        from .verify import verify as check

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            found = check(lad.db, lad.place, lad.game, lad.settings)
        if as_json:
            _json(found.to_data())
        else:
            for line in found.problems:
                click.echo(printable(f"MISMATCH: {line}"), err=True)
            for line in found.notes:
                click.echo(printable(f"note: {line}"), err=True)
            click.echo(f"{found.records} records replayed, {found.rated} rated games re-rated: "
                       + ("OK" if not found.problems else f"{len(found.problems)} problems"))
        if found.problems:
            sys.exit(1)
