"""People play in the browser: a human is a seat of the referee like any bot.

:class:`HumanSeat` is an in-process :class:`~tajmahal.arena.player.Player`: it
answers the referee's ``act`` messages with what a person clicks, so a game
with people goes through the same referee, records and checks as any match
(:mod:`.webtable`: the :class:`Table` the referee's thread and the web server
share).  :func:`play_in_browser` serves the page on a local address (starlette
under uvicorn, the ``web`` extra) and plays the match.

The page shows the game through the game's optional ``pictures()`` (see
:mod:`tajmahal.arena.viewer`): each legal action is made on the picture, by
clicking the parts ``Pictures.targets`` names one after another, with a
``Pictures.preview`` of it to confirm; the actions a picture cannot show are
buttons (a game without pictures gets buttons only).  The log tells each action
and what it caused (the events everybody saw, and the person's own secrets),
the last move is marked on the picture, and the bots' moves come ``pace``
seconds apart, so that a person can follow them.  Several people may share one
page (hot seat): each sees only their own hand, and the page hides it when the
turn passes to another person.  At the end a banner says where each person
finished and who won; on a phone the page is one column (the picture's areas
one under another).  An interrupted game keeps its decisions so far, and
``tajmahal play --resume`` goes on with it (:mod:`.resume`).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import evolve

from . import containment
from .connection import Connection, InProcessConnection
from .game import AnyGame
from .names import unique_names
from .referee import BotSpec, connect, deal, play_match
from .replayer import Replay
from .signals import terminate_as_interrupt
from .terms import DEFAULT_HANDSHAKE, MatchConfig, MatchResult, TimeControl
from .viewer import asset
from .webgate import BodyTooLarge, Gate, cannot_serve
from .webserver import LocalServer
from .websession import Launch, WebSession
from .webtable import HUMAN, HUMAN_TIME, HumanSeat, Table

#: Seconds between two bots' moves on the page (``tajmahal play --pace``).
PACE: Final = 0.8


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title><link rel="icon" href="data:,"><style>@@CSS@@</style></head>
<body>
<header><h1 id="title">@@TITLE@@</h1><span id="status"></span></header>
<section id="banner" hidden><h2 id="banner-head"></h2><p id="banner-line"></p>
<ol id="standings"></ol><a href="#final">the final table</a></section>
<div id="cover" hidden><p id="cover-text"></p><button id="reveal">show my hand</button></div>
<main><div id="board"><div id="picture"></div></div>
<aside><div id="turn-box"><h2 id="prompt"></h2><p id="hint"></p>
<div id="choice" hidden><div id="choice-text"></div>
<button id="confirm" title="Enter">confirm</button>
<button id="cancel" title="Escape">cancel</button></div>
<div id="moves"></div></div>
<table id="scores"></table><ol id="log"></ol></aside>
<details id="legend-box" open><summary>Legend</summary><div id="legend"></div></details></main>
<section id="final" hidden><h2>Final result</h2><table id="final-table"></table>
<ul id="faults"></ul></section>
<script>@@JS@@</script>
</body></html>
"""


def page(title: str) -> str:
    """The page (self-contained: its CSS and script inline)."""
    import html

    return (
        _PAGE.replace("@@TITLE@@", html.escape(title))
        .replace("@@CSS@@", asset("play.css"))
        .replace("@@JS@@", asset("session.js") + asset("common.js") + asset("play.js"))
    )


def make_app(table: Table, session: WebSession, host: str, port: int) -> Any:
    """The starlette application of ``table``: the page, ``GET /api/state?since=V``
    and ``POST /api/act`` with ``{"seat", "decision", "choice"}``, behind the
    :class:`~tajmahal.arena.webgate.Gate` of ``session`` for a server on ``host:port``
    (the page is public; the game's state and moves want the session's token)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    text = page(table.game.title)

    async def index(request: Request) -> Response:
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> Response:
        try:
            since = int(request.query_params.get("since", "0"))
        except ValueError:
            since = 0
        return JSONResponse(table.snapshot(since), headers={"Cache-Control": "no-store"})

    async def act(request: Request) -> Response:
        try:
            data = await request.json()
            why = table.choose(int(data["seat"]), int(data["decision"]), data["choice"])
        except BodyTooLarge as e:
            return JSONResponse({"error": str(e)}, status_code=413)
        except (ValueError, KeyError, TypeError):
            why = 'expected {"seat": int, "decision": int, "choice": int}'
        if why is not None:
            return JSONResponse({"error": why}, status_code=409)
        return JSONResponse({"ok": True})

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/state", state),
            Route("/api/act", act, methods=["POST"]),
        ]
    )
    return Gate(app, session, host, port, public=("/",))


class Server(LocalServer):
    """uvicorn serving ``table`` on ``host:port`` in a thread (port 0: a free one),
    to those who have the :attr:`url` (with its token), ``max_connections`` at once
    (see :mod:`~tajmahal.arena.webgate` and :mod:`~tajmahal.arena.websession`)."""

    def __init__(
        self, table: Table, host: str, port: int, max_connections: int | None = None
    ) -> None:
        super().__init__(
            lambda session, host, port: make_app(table, session, host, port),
            host,
            port,
            "tajmahal play",
            max_connections,
        )


def seat_names(specs: Sequence[BotSpec | None], given: Sequence[str | None]) -> list[str]:
    """The names the page, the result and the record show: a name ``given`` (``NAME=``
    of the command line), else the bot as given, or ``human`` (``human 1``,
    ``human 2`` ... for several people); alike ones told apart (``random#1``)."""
    humans = sum(spec is None for spec in specs)
    chosen = [given[k] if k < len(given) else None for k in range(len(specs))]
    names = [
        name if name is not None
        else spec.text if spec is not None
        else (f"{HUMAN} {k}" if humans > 1 else HUMAN)
        for k, (name, spec) in enumerate(zip(chosen, specs, strict=True))
    ]
    return unique_names(names, [name is not None for name in chosen])


def play_in_browser(
    game: AnyGame,
    setup: Any,
    specs: Sequence[BotSpec | None],
    config: MatchConfig,
    seed: int,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
    linger: float | None = None,
    say: Callable[[str], None] = print,
    pace: float = PACE,
    keep: Path | None = None,
    resume: Replay | None = None,
    setup_seed: int | None = None,
) -> MatchResult:
    """Play ``setup`` with a person at each seat whose spec is None, the bots of the
    other specs, through the referee; serve the page on ``host:port`` meanwhile.

    After the game the page stays up ``linger`` seconds (None: until Ctrl-C).  The
    bots' moves are shown ``pace`` seconds apart.  If the game is interrupted, its
    decisions so far are kept at ``keep``; ``resume``: the record of an interrupted
    game to go on with (its people are the same seats again, their names too).
    ``setup_seed``: the seed ``setup`` was drawn from where it is not ``seed`` (see
    :func:`~tajmahal.arena.referee.deal`)."""
    humans = [seat for seat, spec in enumerate(specs) if spec is None]
    names = seat_names(specs, config.names)
    replayed = len(resume.steps) if resume is not None else 0
    table = Table(game, setup, names, humans, pace, replayed)
    filler = BotSpec.parse(min(game.builtin_players()), list(game.builtin_players()))
    connections: list[Connection] = connect(
        game, [filler if s is None else s for s in specs], config,
        seed if setup_seed is None else setup_seed,
    )
    for seat in humans:  # named as the person is; "human" in the record's "bot"
        connections[seat] = InProcessConnection(HumanSeat(table, seat, names[seat]), HUMAN)
    times = [config.seat_time(s) for s in range(len(specs))]
    for seat in humans:
        times[seat] = HUMAN_TIME
    config = evolve(config, time=tuple(times), on_step=table.on_step, names=tuple(names))
    server = Server(table, host, port)
    server.start()
    launch: Launch | None = None
    try:
        say(f"the game is at {server.url} (Ctrl-C stops it)")
        if open_browser:
            try:
                launch = Launch(server.url, game.title)
            except OSError as e:
                say(f"cannot open your browser ({e.strerror or e}): open the address above")
            else:
                say(f"opening it in your browser through {launch.uri} (readable by you only)")
                launch.open_browser()
        result = play_match(
            game, setup, connections, config, seed, setup_seed, keep=keep, resume=resume
        )
        table.finish(result)
        if linger is None:
            with contextlib.suppress(KeyboardInterrupt):
                while True:
                    time.sleep(3600)
        else:
            time.sleep(linger)
        return result
    finally:
        if launch is not None:
            launch.close()
        table.close()
        server.stop()


def run_play(
    games: Any,
    seats: Sequence[str],
    *,
    game_name: str | None,
    seed: int | None,
    host: str,
    port: int,
    record: Any,
    browser: bool,
    linger: float | None,
    move: float,
    pace: float = PACE,
    sandbox: bool | None = None,
    resume: Path | None = None,
) -> None:
    """``tajmahal play SEAT...``: each SEAT ``human`` or a bot as ``match`` takes it.
    The bots run sandboxed unless ``sandbox`` is False (None: where the system
    allows it).  ``resume``: the record of an interrupted game to go on with (its
    seats, deal and times; the record is then the whole game's unless ``record``)."""
    import secrets

    import click

    from .names import parse_named
    from .options import (
        check_outputs_hidden,
        check_programs_run,
        check_sandbox,
        check_writable,
        default_sandbox,
        load_game_option,
        parse_bots,
        say_sandbox,
    )
    from .record import SETUP_SEED, RecordError, read_game_id
    from .registry import registry_of
    from .report import result_table, summary_line
    from .resume import (
        ResumeError,
        interrupted_at,
        kept_at,
        read_interrupted,
        resumed_seats,
        resumed_times,
        whole_game_at,
    )

    containment.hide_option("--seed")  # from other processes (the bots): it deals the deck
    registry = registry_of(games)
    done: Replay | None = None
    times: TimeControl | tuple[TimeControl, ...] = TimeControl(move=move)
    if resume is not None:
        if seats:
            raise click.UsageError("--resume plays the seats of its record: give no SEATs")
        try:
            game = load_game_option(registry, game_name or read_game_id(resume))
            done = read_interrupted(game, resume)
        except (RecordError, ResumeError) as e:
            raise click.UsageError(f"--resume {e}") from None
        seats = [HUMAN if bot is None else bot for bot, _ in resumed_seats(done, HUMAN)]
        seed, times = done.header["seed"], resumed_times(done)
        record = record if record is not None else whole_game_at(resume)
    game = load_game_option(registry, game_name) if done is None else game
    if not game.min_players <= len(seats) <= game.max_players:
        raise click.UsageError(
            f"{game.title} is for {game.min_players}-{game.max_players} players: give that "
            f"many SEATs (human or a bot), not {len(seats)}"
        )
    try:
        named = parse_named(seats)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    if not any(bot == HUMAN for _, bot, _ in named):
        raise click.UsageError(
            "no human seat (human, or NAME=human): `tajmahal match` plays bots against "
            "each other"
        )
    builtins = sorted(game.builtin_players())
    bots = iter(parse_bots([bot for _, bot, _ in named if bot != HUMAN], builtins, named=False))
    specs = [None if bot == HUMAN else next(bots) for _, bot, _ in named]
    given = tuple(name if was_given else None for name, _, was_given in named)
    if done is not None:  # the names of the record, as they were
        given = tuple(name for _, name in resumed_seats(done, HUMAN))
    if record is not None:
        check_writable(record, "--record")
    seed = secrets.randbits(63) if seed is None else seed
    try:
        if done is not None:  # the record's deal, as it was drawn
            setup = game.setup_from_data(done.header["setup"])
            setup_seed = done.header.get(SETUP_SEED)
        else:
            dealt = deal(game, len(seats), seed)
            setup, setup_seed = dealt.setup, dealt.setup_seed
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    keep = kept_at(record, seed)
    check_writable(keep, "the record of the game if it is interrupted")  # its folder made
    programs = any(spec is not None and spec.builtin is None for spec in specs)
    confined = default_sandbox(sandbox, programs)
    check_sandbox(confined)
    check_programs_run([spec for spec in specs if spec is not None], confined)
    outputs = [(keep.parent, f"{keep} (the game so far, if it is interrupted)")]
    if record is not None:
        outputs.append((record.parent, f"--record {record}"))
    bot_specs = [spec for spec in specs if spec is not None]
    check_outputs_hidden(bot_specs, confined, outputs)
    if programs:
        say_sandbox(confined, sandbox)
    config = MatchConfig(
        time=times,
        handshake=float(done.header["handshake"]) if done is not None else DEFAULT_HANDSHAKE,
        record=record,
        sandbox=confined,
        hide=(keep.parent,),
        names=given,
    )
    before = interrupted_at(keep)
    try:
        with terminate_as_interrupt():
            result = play_in_browser(
                game,
                setup,
                specs,
                config,
                seed,
                host=host,
                port=port,
                open_browser=browser,
                linger=linger,
                say=click.echo,
                pace=pace,
                keep=keep,
                resume=done,
                setup_seed=setup_seed,
            )
    except OSError as e:
        raise click.UsageError(cannot_serve(host, port, e)) from None
    except ResumeError as e:
        raise click.UsageError(f"--resume {resume}: {e}") from None
    except KeyboardInterrupt:
        kept = interrupted_at(keep)
        if resume is not None and keep != resume and kept is not None and kept != before:
            resume.unlink(missing_ok=True)  # the game so far is in the longer record now
        if kept is None:
            click.echo("interrupted before the first decision: nothing was kept", err=True)
        else:
            new = "" if kept != before else " (no new decision)"
            click.echo(
                f"interrupted: the {kept} decisions so far are in {keep}{new}; "
                f"`tajmahal play --resume {keep}` goes on with the game",
                err=True,
            )
        sys.exit(130)
    if resume is not None and record != resume and interrupted_at(resume) is not None:
        resume.unlink()  # the whole game is in its record now
    click.echo(summary_line(game, result))
    result_table(result, game.score_sources)
