"""The ``tajmahal`` command line.

Start-up is kept short (``tajmahal --version`` imports click and nothing of the
engine): commands are built on first use by the factories of :class:`LazyGroup`,
and command bodies import what they need.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ._engine import select
from .version import __version__

if TYPE_CHECKING:
    from .arena.game import AnyGame


class LazyGroup(click.Group):
    """A click group whose commands are built by factories when first asked for,
    so that importing the CLI imports none of them (click's "lazily loading
    subcommands" pattern)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.factories: dict[str, Callable[[], click.Command]] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.factories})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        factory = self.factories.pop(cmd_name, None)
        if factory is not None:
            self.add_command(factory(), cmd_name)
        return super().get_command(ctx, cmd_name)


def score_table(game: AnyGame, state: Any, names: list[str]) -> str:
    """A plain-text table of each seat's score by source, with totals and ranks."""
    sources = game.score_sources
    rows = [["seat", "player", *sources, "total", "rank"]]
    parts = game.breakdown(state)
    for seat, (total, rank) in enumerate(zip(game.scores(state), game.ranks(state), strict=True)):
        points = [str(parts[seat][s]) for s in sources]
        rows.append([str(seat), names[seat], *points, str(total), str(rank)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            c.rjust(w) if i != 1 else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


@click.group(cls=LazyGroup)
@click.version_option(
    __version__,
    prog_name="tajmahal",
    message=f"%(prog)s, version %(version)s\nengine: {select()[1]}",
)
def main() -> None:
    """Three board games, Taj Mahal, Tikal and Java (--game): play them in the web
    browser against bots, and pit bots in any language against each other
    through the referee, in matches and tournaments.

    \b
    Start here:
      tajmahal play human greedy mcts        play in your browser against two bots
      tajmahal match greedy random random    a game between bots: the result table
      tajmahal match --game tikal greedy random
      tajmahal bots                          the bots, built in and to copy
      tajmahal docs                          the documentation (docs TOPIC: one)
    """


@main.command()
@click.argument("seats", nargs=-1, metavar="[SEAT...]")
@click.option("--players", "-n", type=int, help="Without SEATs: the number of players.")
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),  # as for match (arena.options.SEED): records hold it
    help="Seed of the deal, 0 to 2^64-1 [default: 1; with SEATs a fresh one, and the "
    "cards drawn from it under your referee key, as for match].",
)
@click.option("--verbose", "-v", is_flag=True, help="Print every action.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="With SEATs: serve here (0.0.0.0: to others on the network too).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="With SEATs: the port to serve on (0: any free one).",
)
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With SEATs: write the game record here.",
)
@click.option(
    "--browser/--no-browser",
    default=True,
    show_default=True,
    help="With SEATs: open the page in the web browser.",
)
@click.option(
    "--linger",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="With SEATs: stop serving this long after the game [default: at Ctrl-C].",
)
@click.option(
    "--time",
    "move",
    type=click.FloatRange(min=0, min_open=True),
    default=5.0,
    show_default=True,
    help="With SEATs: a bot's seconds per decision (people: none).",
)
@click.option(
    "--pace",
    type=click.FloatRange(min=0),
    default=0.8,
    show_default=True,
    metavar="SECONDS",
    help="With SEATs: show the bots' moves this far apart (0: at once).",
)
@click.option(
    "--game", "game_name", metavar="NAME", help="The game to play [default: the first installed]."
)
@click.option(
    "--sandbox/--no-sandbox",
    default=None,
    help="With SEATs: run the bots sandboxed (Linux namespaces; tajmahal docs cli: Trust model) "
    "[default: where the system allows it].",
)
def play(
    seats: tuple[str, ...],
    players: int | None,
    seed: int | None,
    verbose: bool,
    game_name: str | None,
    **web: Any,
) -> None:
    """Play a game in the web browser against bots: one SEAT per player, in seat
    order, each `human` (you; several people share the page, hot seat) or a bot
    as `match` takes it, and NAME=SEAT names one (alice=human).  The page opens
    in your browser; the result is printed here when the game ends.

    Without SEATs: a quick game between random players, printed here (no
    browser, no referee).

    \b
    Examples:
      tajmahal play human greedy mcts
      tajmahal play alice=human bob=human greedy --game tikal
      tajmahal play --players 3 -v
    """
    if seats:
        from .extras import MissingExtra, require

        try:
            require("web", "tajmahal play with SEATs", ("starlette", "uvicorn"))
        except MissingExtra as e:
            raise click.ClickException(str(e)) from None
        from .arena.registry import GAMES
        from .arena.webplay import run_play

        run_play(GAMES, seats, seed=seed, game_name=game_name, **web)  # the options "With SEATs"
        return
    from .arena.registry import GAMES, UnknownGame

    try:
        game = GAMES.get(game_name)
    except UnknownGame as e:
        raise click.BadParameter(str(e), param_hint="--game") from None
    if players is None:
        players = min(max(4, game.min_players), game.max_players)
    elif not game.min_players <= players <= game.max_players:
        raise click.BadParameter(
            f"{game.title} is for {game.min_players}-{game.max_players} players, not {players}",
            param_hint="--players",
        )
    seed = 1 if seed is None else seed
    click.echo(random_game(game, players, seed, verbose))


def random_game(game: AnyGame, players: int, seed: int, verbose: bool) -> str:
    """The report of one game between random players (every action with ``verbose``)."""
    import random

    state = game.new_game(game.random_setup(players, seed))
    rng = random.Random(seed)
    from .arena.names import unique_names

    names = unique_names(["random"] * players)
    lines = []
    actions = 0
    while (seat := game.to_act(state)) is not None:
        action = rng.choice(game.legal_actions(state))
        if verbose:
            lines.append(f"seat {seat}: {game.describe_action(state, action)}")
        state, _ = game.step(state, action)
        actions += 1
    lines.append(f"{game.title}, {players} players, seed {seed}: {actions} actions\n")
    lines.append(score_table(game, state, names))
    return "\n".join(lines)


#: The arena's commands, each built on first use by ``FACTORY(GAMES)`` (the
#: factory named ``module:name``, relative to this package).
_ARENA_COMMANDS = {
    "match": ".arena.commands:match_command",
    "replay": ".arena.replaying:replay_command",
    "tournament": ".arena.tournament.command:tournament_command",
    "show": ".arena.show:show_command",
    "ladder": ".arena.ladder.command:ladder_command",
}


def _arena_command(path: str) -> Callable[[], click.Command]:
    """The factory of the arena command made by ``module:name`` for every game."""

    def build() -> click.Command:
        from .arena.registry import GAMES

        module, name = path.split(":")
        factory = getattr(importlib.import_module(module, __package__), name)
        command: click.Command = factory(GAMES)
        return command

    return build


main.factories.update((name, _arena_command(path)) for name, path in _ARENA_COMMANDS.items())


@main.command()
@click.option(
    "--copy",
    "destination",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write the example bots (DIR/bots) and the protocol's spec and JSON schemas "
    "(DIR/protocol) into DIR.",
)
@click.option("--force", is_flag=True, help="With --copy: overwrite files that differ.")
def bots(destination: Path | None, force: bool) -> None:
    """List the bots: the built-in ones of each game, and the example programs
    that speak the protocol (to copy and change: --copy DIR writes them out).

    \b
    Example:
      tajmahal bots --copy . && tajmahal match bots/greedy_bot.py random random
    """
    from . import shipped
    from .arena.registry import GAMES

    try:
        base = shipped.root()
    except shipped.NotShipped as e:
        raise click.ClickException(str(e)) from None
    if destination is not None:
        from .arena.options import check_folder

        check_folder(destination, "--copy", destination)
        try:
            written = shipped.copy(destination, overwrite=force)
        except FileExistsError as e:
            raise click.UsageError(f"--copy {destination}: these exist and differ: {e} "
                                   "(--force overwrites them)") from None
        except OSError as e:
            raise click.UsageError(f"--copy {destination}: {e.strerror or e}") from None
        count = sum(1 for p in written if p.parent.name == "bots")
        click.echo(
            f"wrote {destination / 'bots'} ({count} example bots) and "
            f"{destination / 'protocol'} (the protocol's spec and schemas)"
        )
        example = destination / "bots" / "greedy_bot.py"
        click.echo(f"try: tajmahal match {example} random random")
        return
    from rich.table import Table

    from .arena.report import console

    out = console()
    out.print("Built-in bots (run inside the referee; give their names as BOTs):")
    for entry in GAMES.entries():
        names = ", ".join(sorted(GAMES.get(entry.name).builtin_players()))
        out.print(f"  --game {entry.name:9} {names}")
    out.print("\nExample bots (programs that speak the protocol: tajmahal docs protocol; "
              "--copy DIR writes them):")
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column()
    for path in shipped.example_bots():
        table.add_row(f"  {path.as_posix()}", shipped.summary(base / path))
    out.print(table)


@main.command(short_help="The documentation: the topics, or one (tajmahal docs cli).")
@click.argument("topic", required=False)
@click.option(
    "--path",
    "show_path",
    is_flag=True,
    help="Print where the doc is (to open it in an editor or a Markdown viewer).",
)
def docs(topic: str | None, show_path: bool) -> None:
    """The documentation, which comes with tajmahal: without TOPIC, the topics;
    with one, its text (Markdown), through a pager on a terminal.  The docs speak
    of the repository's files (`bots/`, `protocol/`; `tajmahal bots --copy .`
    writes those); examples that need a clone of the repository say so.

    \b
    Examples:
      tajmahal docs
      tajmahal docs cli
      tajmahal docs protocol --path
    """
    import difflib

    from . import shipped

    try:
        found = shipped.docs()
    except shipped.NotShipped as e:
        raise click.ClickException(str(e)) from None
    if topic is None:
        width = max(len(t) for t in found)
        for name, doc in found.items():
            click.echo(f"  {name:{width}}  {shipped.title(doc)}")
        folder = found["readme"].parent
        click.echo(f"\n`tajmahal docs TOPIC` shows one; they are in {folder} (docs/, protocol/)")
        return
    path = found.get(topic.lower().removesuffix(".md"))
    if path is None:
        close = difflib.get_close_matches(topic.lower(), list(found), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise click.BadParameter(
            f"no topic {topic!r}{hint} (topics: {', '.join(found)})", param_hint="TOPIC"
        )
    if show_path:
        click.echo(str(path))
        return
    text = path.read_text(encoding="utf-8")
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text, nl=False)
