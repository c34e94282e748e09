"""The ``tajmahal ladder`` command group, for any game of the registry.

The commands that change a ladder live here (``init``, ``add``, ``retire``,
``owners``, ``request``, ``run``, ``upgrade``); those that read it in
:mod:`.views`; ``serve`` in :mod:`.api`.
"""

from __future__ import annotations

import secrets
import shlex
import shutil
from pathlib import Path
from typing import Any

import click

from ..game import AnyGame
from ..options import check_bots_start, game_option, load_game_option, referee_options
from ..referee import BotSpec
from ..registry import GameRegistry, registry_of
from ..sandbox import unavailable as sandbox_unavailable
from ..terms import MatchConfig
from ..text import printable
from .opening import Opened, errors_as_lines, opened, require_ladder, where_options

#: Rated slots per round of the schedule, and placement games of a new version.
DEFAULT_ROUND = 16
DEFAULT_PLACEMENT = 10


def ladder_command(games: GameRegistry | AnyGame) -> click.Group:
    registry = registry_of(games)

    @click.group(name="ladder")
    def ladder() -> None:
        """A ladder: bots of many authors meet continuously, rated as they play.

        \b
        Examples (a class in five minutes: tajmahal docs ladder):
          tajmahal ladder init class --game tikal
          cd class && tajmahal ladder add alice ../alice_bot --owner alice
          tajmahal ladder add house greedy
          tajmahal ladder run --games 100 && tajmahal ladder standings
        """
        require_ladder()  # before any command imports the database layer

    @ladder.command()
    @click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
    @game_option(registry, registry.default)
    @click.option("--players", type=click.IntRange(min=1), metavar="N",
                  help="Players in every game [default: each number the game allows, in turn].")
    @click.option("--db", "db_url", metavar="URL",
                  help="Keep the ladder in this PostgreSQL database (postgresql://USER@HOST/DB) "
                  "[default: a SQLite file in DIRECTORY].")
    @click.option("--seed", type=click.IntRange(0, 2**63 - 1),
                  help="The seed that fixes the schedule and every deal [default: a fresh "
                  "random one, kept secret in the database].")
    @click.option("--round", "round_games", type=click.IntRange(min=1), default=DEFAULT_ROUND,
                  show_default=True,
                  help="Rated games planned at once (the games under way at most: twice this).")
    @click.option("--placement", type=click.IntRange(min=0), default=DEFAULT_PLACEMENT,
                  show_default=True,
                  help="Games a new version plays more often at first (placement games).")
    @click.option("--duplicate", is_flag=True,
                  help="Play each meeting of bots as a deal in every seat rotation (needs "
                  "--players; tajmahal docs ladder says what it assumes of the bots).")
    @click.option("--variant", help="Game variant (needs --players).")
    @referee_options
    def init(directory: Path, game_name: str | None, players: int | None, db_url: str | None,
             seed: int | None, round_games: int, placement: int, duplicate: bool,
             variant: str | None, **limits: Any) -> None:
        """Make a new ladder in DIRECTORY (new or empty)."""
        require_ladder()
        from .database import create_database, now, require_driver
        from .store import described_url, make_dir, shown

        game = load_game_option(registry, game_name)
        low, high = _players(game, players)
        if (duplicate or variant is not None) and players is None:
            raise click.UsageError("--duplicate and --variant need --players N")
        if variant is not None:
            try:
                game.random_setup(low, 1, variant)
            except ValueError as e:
                raise click.UsageError(str(e)) from None
        if duplicate and round_games % low:
            round_games += low - round_games % low  # whole deals in a round
        settings = {
            "game": game.name, "players": low, "max_players": high, "variant": variant,
            "seed": secrets.randbits(63) if seed is None else seed,
            "secret": secrets.token_hex(32), "round_games": round_games,
            "placement": placement, "duplicate": duplicate,
            "time_move": limits["move"], "time_bank": limits["bank"],
            "handshake": limits["handshake"], "grace": limits["grace"],
            "max_line": limits["max_line"], "max_log": limits["max_log"],
            "memory": limits["memory"], "created": now(), "planned_rounds": 0,
        }
        with errors_as_lines():
            if db_url is not None:
                require_driver(db_url)
            existed = directory.exists()
            place = make_dir(directory, db_url)
            try:
                db = create_database(place.url, {**settings, "store": str(place.root)})
            except BaseException:  # nothing half-made is left behind
                if existed:
                    _empty(place.root)
                else:
                    shutil.rmtree(place.root)
                raise
            db.close()
        seats = str(low) if low == high else f"{low} to {high}"
        click.echo(f"a {game.title} ladder in {shown(place.root)} ({seats} players a game), "
                   f"its database {described_url(place)}")
        click.echo(f"next: tajmahal ladder add NAME (COMMAND | DIR) --ladder {directory}")

    @ladder.command()
    @click.argument("name")
    @click.argument("source", metavar="(COMMAND | DIR)")
    @click.option("--owner", metavar="WHO", help="Whose bot it is (an owner made if new: its "
                  "API token is printed once) [default: the ladder's own].")
    @click.option("--command", "folder_command", metavar="CMD",
                  help="With DIR: the command that starts the bot in it [default: the one its "
                  "bot.json names].")
    @click.option("--preflight/--no-preflight", default=True, show_default=True,
                  help="Start the bot in the sandbox and check its hello first.")
    @where_options
    def add(name: str, source: str, owner: str | None, folder_command: str | None,
            preflight: bool, ladder_dir: Path | None, db_url: str | None) -> None:
        """Submit a version of bot NAME: a built-in bot of the game, a COMMAND (its
        program's folder is copied), or a DIR holding the bot and its bot.json.  A
        new version of a known bot takes its place in matchmaking."""
        from .folders import read_manifest
        from .roster import Stored, add_version

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            builtins = sorted(lad.game.builtin_players())
            if Path(source).is_dir():
                folder = Path(source)
                command = folder_command or read_manifest(folder)
            elif folder_command is not None:
                raise click.UsageError("--command goes with a DIR")
            elif source in builtins:
                folder, command = None, source
            else:
                folder, command = _folder_of(source, builtins)
            if folder is None:
                stored = Stored.of_builtin(command)
            else:
                _require_sandbox()
                stored = Stored.of_folder(folder, command, lad.place.versions_dir)
                if preflight:
                    _preflight(lad, stored.command, lad.place.version_dir(stored.digest))
            added = add_version(lad.db, name, stored, owner=owner)
        kind = "built-in bot" if stored.builtin else f"folder {stored.digest[:12]}"
        if added.unchanged:
            click.echo(f"{name}: version {added.number} is already this {kind}: nothing added")
        else:
            click.echo(f"{name}: version {added.number} ({kind}, command "
                       f"{printable(stored.command)!r})" + (" - a new bot" if added.new_bot else
                                                            ", now in play"))
        if added.token is not None:
            click.echo(f"owner {owner}: API token {added.token} (shown this once: keep it)")

    @ladder.command()
    @click.argument("name")
    @where_options
    def retire(name: str, ladder_dir: Path | None, db_url: str | None) -> None:
        """Take bot NAME out of matchmaking (its games and ratings stay)."""
        from .roster import retire as retire_bot

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            retire_bot(lad.db, name)
        click.echo(f"{name}: retired (a new version brings it back)")

    @ladder.group(invoke_without_command=True)
    @where_options
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @click.pass_context
    def owners(ctx: click.Context, ladder_dir: Path | None, db_url: str | None,
               as_json: bool) -> None:
        """List the owners; `owners add NAME` makes one, `owners token NAME` gives one
        a new API token (each printed once)."""
        ctx.obj = (ladder_dir, db_url)
        if ctx.invoked_subcommand is not None:
            return
        from .queries import owner_list
        from .views import print_rows

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines(), lad.db.read() as c:
            rows = owner_list(c)
        print_rows(rows, as_json, ("owner", "bots", "created"))

    @owners.command(name="add")
    @click.argument("name")
    @where_options
    @click.pass_obj
    def owners_add(where: tuple[Path | None, str | None], name: str, ladder_dir: Path | None,
                   db_url: str | None) -> None:
        """Make the owner NAME and print its API token (once)."""
        from .roster import add_owner

        _token(add_owner, name, "API token", ladder_dir or where[0], db_url or where[1])

    @owners.command(name="token")
    @click.argument("name")
    @where_options
    @click.pass_obj
    def owners_token(where: tuple[Path | None, str | None], name: str, ladder_dir: Path | None,
                     db_url: str | None) -> None:
        """Give the owner NAME a new API token (the old one stops working)."""
        from .roster import new_owner_token

        _token(new_owner_token, name, "new API token", ladder_dir or where[0],
               db_url or where[1])

    def _token(make: Any, name: str, what: str, ladder_dir: Path | None,
               db_url: str | None) -> None:
        """Print the token ``make(db, name)`` gives (once: it is kept hashed)."""
        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            token = make(lad.db, name)
        click.echo(f"owner {name}: {what} {token} (shown this once: keep it)")

    @ladder.command()
    @click.argument("names", nargs=-1, required=True, metavar="BOT BOT [BOT...]")
    @click.option("--games", "-n", type=click.IntRange(1, 100), default=1, show_default=True)
    @click.option("--owner", metavar="WHO", help="The owner who asks.")
    @where_options
    def request(names: tuple[str, ...], games: int, owner: str | None,
                ladder_dir: Path | None, db_url: str | None) -> None:
        """Ask for unrated games between these bots (one per seat), played ahead of
        the schedule; the seats rotate from game to game."""
        from .schedule import make_request

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            ids = make_request(lad.db, lad.settings, list(names), games, owner_name=owner)
        click.echo(f"requested: game{'s' * (len(ids) > 1)} {', '.join(map(str, ids))} "
                   "(played before the schedule's next ones)")

    @ladder.command()
    @where_options
    def upgrade(ladder_dir: Path | None, db_url: str | None) -> None:
        """Bring the ladder's database up to this tajmahal's schema."""
        require_ladder()
        from .database import upgrade as upgrade_db
        from .store import find

        with errors_as_lines():
            place = find(ladder_dir, db_url)
            before, after = upgrade_db(place.url if place is not None else str(db_url))
        click.echo(f"schema {before} -> {after}" if before != after else
                   f"schema {after}: up to date")

    from .run_command import run_command
    from .views import add_views

    ladder.add_command(run_command(registry))
    add_views(ladder, registry)
    from .api import serve_command

    ladder.add_command(serve_command(registry))
    return ladder


def _empty(folder: Path) -> None:
    """Take out what ``folder`` holds (it was empty before)."""
    for path in folder.iterdir():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _players(game: AnyGame, players: int | None) -> tuple[int, int]:
    if players is None:
        return game.min_players, game.max_players
    if not game.min_players <= players <= game.max_players:
        raise click.BadParameter(
            f"{game.title} is for {game.min_players}-{game.max_players} players",
            param_hint="--players")
    return players, players


def _folder_of(command: str, builtins: list[str]) -> tuple[Path, str]:
    """The folder of a COMMAND's program or script, and the command in it."""
    try:
        args = shlex.split(command)
    except ValueError as e:
        raise click.UsageError(f"the command {command!r}: {e}") from None
    files = [i for i, a in enumerate(args[:2]) if a and Path(a).is_file()]
    if not args or not files:
        raise click.UsageError(
            f"{printable(command)!r} is neither a built-in bot ({', '.join(builtins)}), a "
            "folder, nor a command whose program or script is a file: give the bot's folder "
            "(DIR, with a bot.json naming its command) or such a command"
        )
    folder = Path(args[files[0]]).resolve().parent
    for i in files:
        path = Path(args[i]).resolve()
        if path.parent == folder:
            args[i] = path.name if not path.name.startswith("-") else f"./{path.name}"
            if i == 0 and not path.name.endswith((".py", ".js", ".mjs")):
                args[i] = f"./{path.name}"
    return folder, shlex.join(args)


def _require_sandbox() -> None:
    problem = sandbox_unavailable()
    if problem is not None:
        raise click.ClickException(f"a ladder runs every bot program in the sandbox: {problem}")


def _preflight(lad: Opened, command: str, home: Path) -> None:
    s = lad.settings
    spec = BotSpec.parse(command, [], home=str(home))
    config = MatchConfig(handshake=s["handshake"], max_line=s["max_line"],
                         max_log=s["max_log"], sandbox=True, memory=s["memory"])
    check_bots_start(lad.game, [spec], config)
