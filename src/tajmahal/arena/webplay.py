"""People play in the browser: a human is a seat of the referee like any bot.

:class:`HumanSeat` is an in-process :class:`~tajmahal.arena.player.Player`: it
answers the referee's ``act`` messages with what a person clicks, so a game
with people goes through the same referee, records and checks as any match.  A
:class:`Table` is what the referee's thread and the web server share: the
position (followed through the referee's ``on_step`` hook), the log, the
decision a person must make and the answer.  :func:`play_in_browser` serves the
page on a local address (starlette under uvicorn, the ``web`` extra) and plays
the match.

The page shows the game through the game's optional ``pictures()`` (see
:mod:`tajmahal.arena.viewer`): each legal action is made on the picture, by
clicking the parts ``Pictures.targets`` names one after another, with a
``Pictures.preview`` of it to confirm; the actions a picture cannot show are
buttons (a game without pictures gets buttons only).  The log tells each action
and what it caused (the events everybody saw, and the person's own secrets),
the last move is marked on the picture, and the bots' moves come ``pace``
seconds apart, so that a person can follow them.  Several people may share one
page (hot seat): each sees only their own hand, and the page hides it when the
turn passes to another person.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from attrs import evolve

from . import containment
from .connection import Connection, InProcessConnection
from .game import AnyGame, Pictures
from .names import unique_names
from .offers import first_part, offers
from .player import Player
from .protocol import Message
from .referee import BotSpec, connect, deal, play_match
from .signals import terminate_as_interrupt
from .terms import MatchConfig, MatchResult, TimeControl
from .viewer import asset, seen_by
from .webgate import (
    BodyTooLarge,
    Gate,
    cannot_serve,
    connection_limit,
    limited_protocol,
    listening_socket,
)
from .websession import Launch, WebSession, origin

#: The name a seat gives for a person (``tajmahal play human greedy``).
HUMAN: Final = "human"
#: A person's time per decision: a week (no limit, in effect); no bank.
HUMAN_TIME: Final = TimeControl(move=7 * 24 * 3600.0, bank=0.0)
#: Seconds between two bots' moves on the page (``tajmahal play --pace``).
PACE: Final = 0.8


class GameClosed(Exception):
    """The table closed while a person had a decision to make."""


class Table:
    """The game as the page shows it, shared by the referee's thread and the server.

    Every change bumps :attr:`version`; the page asks for a new :meth:`snapshot`
    when the version it has is old.
    """

    def __init__(
        self,
        game: AnyGame,
        setup: Any,
        names: Sequence[str],
        humans: Sequence[int],
        pace: float = 0.0,
    ) -> None:
        self.game = game
        self.names = list(names)
        self.humans = list(humans)
        self.pace = pace
        self.pictures: Pictures | None = game.pictures()
        self.state = game.new_game(setup)
        self.board = self.pictures.board(self.state) if self.pictures is not None else None
        self.legend = [list(item) for item in self.pictures.legend()] if self.pictures else []
        self.log: list[dict[str, Any]] = [
            {
                "decision": 0,
                "seat": None,
                "text": "start",
                "lines": game.describe_start(self.state, self.names),
            }
        ]
        self.last = ""  # the mark of the last move
        self.pending: dict[str, Any] | None = None
        self.answer: int | None = None
        self.queued: list[tuple[int, int, int]] = []  # (seat, decision, choice) to come
        self.result: dict[str, Any] | None = None
        self.closed = False
        self.version = 1
        self.shown = time.monotonic()  # when the page last had something new
        self.changed = threading.Condition()
        self._cache: dict[tuple[int, int | None], str] = {}

    # -- the referee's side

    def on_step(
        self, decision: int, seat: int, before: Any, action: Any, events: Sequence[Any], by: str
    ) -> None:
        """The referee's ``on_step`` hook: follow the game, log the action and what
        it caused, mark it; a bot's move waits until ``pace`` seconds after the
        last change the page was shown."""
        game = self.game
        after, _ = game.step(before, action)
        if first_part(game, self.pictures, before, after, events):
            with self.changed:  # half an action: its last decision tells it all
                self.state = after
                self._bump()
            return
        text = game.describe_action(before, action)
        lines = game.describe_events(after, self._seen(events), self.names)
        mark = ""
        if self.pictures is not None:
            mark = self.pictures.mark(before, game.action_to_data(action))
        if seat not in self.humans and self.pace > 0:
            wait = self.shown + self.pace - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        with self.changed:
            self.state = after
            self.last = mark
            self.log.append(
                {"decision": decision, "seat": seat, "text": text, "lines": lines, "by": by}
            )
            self._bump()

    def _seen(self, events: Sequence[Any]) -> list[Any]:
        """The events the page may tell: the public ones, and with one person at the
        table also those only their seat sees (their own draws)."""
        return seen_by(self.game, events, self.humans[0] if len(self.humans) == 1 else None)

    def ask(self, seat: int, message: Message) -> int:
        """Wait for a person's choice among ``message["legal"]`` (an index); the
        second decision of a joined offer (see :mod:`tajmahal.arena.offers`) is
        answered at once."""
        decision = message["decision"]
        with self.changed:
            queued, self.queued = self.queued, []
            if (
                queued
                and queued[0][:2] == (seat, decision)
                and queued[0][2] < len(message["legal"])
            ):
                return queued[0][2]
            made = offers(self.game, self.pictures, self.state, message["legal"])
            self.pending = {
                "seat": seat,
                "decision": decision,
                "options": [o.shown() for o in made],
            }
            self.answer = None
            self._bump()
            while self.answer is None:
                if self.closed:
                    raise GameClosed("the table was closed during a person's decision")
                self.changed.wait(0.5)
            choices = made[self.answer].choices
            self.answer, self.pending = None, None
            self.queued = [(seat, decision + k, c) for k, c in enumerate(choices[1:], 1)]
            self._bump()
            return choices[0]

    def finish(self, result: MatchResult) -> None:
        """The end of the game: the final table."""
        with self.changed:
            self.result = {
                "scores": [s.score for s in result.seats],
                "ranks": [s.rank for s in result.seats],
                "breakdown": [s.breakdown for s in result.seats],
                "faults": [
                    {"seat": s.seat, "kind": s.fault.kind, "detail": s.fault.detail}
                    for s in result.seats
                    if s.fault is not None
                ],
            }
            self._bump()

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self._bump()

    # -- the page's side

    def choose(self, seat: int, decision: int, choice: int) -> str | None:
        """A person's click; None if taken, else why not."""
        with self.changed:
            pending = self.pending
            if pending is None or self.answer is not None:
                return "no decision is waiting"
            if (pending["seat"], pending["decision"]) != (seat, decision):
                return f"decision {decision} of seat {seat} is not the one waiting"
            if not (type(choice) is int and 0 <= choice < len(pending["options"])):
                return (
                    f"choice {choice!r} is not one of the {len(pending['options'])} legal actions"
                )
            self.answer = choice
            self.changed.notify_all()
            return None

    def snapshot(self, since: int) -> dict[str, Any]:
        """What the page shows; only the version if the page is up to date."""
        with self.changed:
            if since == self.version:
                return {"version": self.version}
            game = self.game
            pending = self.pending
            if pending is not None:
                seat: int | None = pending["seat"]
            elif self.result is None and len(self.humans) == 1:
                seat = self.humans[0]  # one person: their hand stays in view
            else:
                seat = None
            return {
                "version": self.version,
                "title": game.title,
                "names": self.names,
                "humans": self.humans,
                "sources": list(game.score_sources),
                "scores": game.scores(self.state),
                "to_act": game.to_act(self.state),
                "seat": seat,
                "picture": self._picture(seat),
                "last": self.last,
                "legend": self.legend,
                "log": self.log[-300:],
                "pending": pending,
                "result": self.result,
                "closed": self.closed,
            }

    def _picture(self, seat: int | None) -> str | None:
        if self.pictures is None:
            return None
        key = (self.version, seat)
        if key not in self._cache:
            self._cache.clear()
            p = self.pictures
            hand = "".join(p.hand(self.state, seat)) if seat is not None else ""
            public = "".join(p.public(self.state, self.names))
            self._cache[key] = p.document((self.board or "") + public + hand)
        return self._cache[key]

    def _bump(self) -> None:
        self.version += 1
        self.shown = time.monotonic()
        self.changed.notify_all()


class HumanSeat(Player):
    """A person at the table: answers each ``act`` with their click."""

    name = HUMAN

    def __init__(self, table: Table, seat: int, name: str = HUMAN) -> None:
        self.table = table
        self.seat = seat
        self.name = name  # the name of its hello: the record's name of the seat

    def choose(self, message: Message) -> int:
        return self.table.ask(self.seat, message)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title><link rel="icon" href="data:,"><style>@@CSS@@</style></head>
<body>
<header><h1 id="title">@@TITLE@@</h1><span id="status"></span></header>
<div id="cover" hidden><p id="cover-text"></p><button id="reveal">show my hand</button></div>
<main><div id="board"><div id="picture"></div>
<details id="legend-box" open><summary>Legend</summary><div id="legend"></div></details></div>
<aside><h2 id="prompt"></h2><p id="hint"></p>
<div id="choice" hidden><div id="choice-text"></div>
<button id="confirm" title="Enter">confirm</button>
<button id="cancel" title="Escape">cancel</button></div>
<div id="moves"></div>
<table id="scores"></table><ol id="log"></ol></aside></main>
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


class Server:
    """uvicorn serving ``table`` on ``host:port`` in a thread (port 0: a free one),
    to those who have the :attr:`url` (with its token), ``max_connections`` at once
    (see :mod:`~tajmahal.arena.webgate` and :mod:`~tajmahal.arena.websession`)."""

    def __init__(
        self, table: Table, host: str, port: int, max_connections: int | None = None
    ) -> None:
        import uvicorn

        self.sock = listening_socket(host, port)
        self.host = host
        self.port = self.sock.getsockname()[1]
        self.session = WebSession("tajmahal play")
        app = make_app(table, self.session, host, self.port)
        limit = connection_limit() if max_connections is None else max_connections
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            http=limited_protocol(limit),
            h11_max_incomplete_event_size=16 << 10,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def token(self) -> str:
        return self.session.token

    @property
    def url(self) -> str:
        """The page's address, with the token that opens it (in its fragment)."""
        return self.session.address(origin(self.host, self.port))

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and self.thread.is_alive():
            if time.monotonic() > deadline:
                raise RuntimeError("the web server did not start within 10 s")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        with contextlib.suppress(OSError):
            self.sock.close()


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
    setup_seed: int | None = None,
) -> MatchResult:
    """Play ``setup`` with a person at each seat whose spec is None, the bots of the
    other specs, through the referee; serve the page on ``host:port`` meanwhile.

    After the game the page stays up ``linger`` seconds (None: until Ctrl-C).  The
    bots' moves are shown ``pace`` seconds apart.  ``setup_seed``: the seed
    ``setup`` was drawn from where it is not ``seed`` (see
    :func:`~tajmahal.arena.referee.deal`)."""
    humans = [seat for seat, spec in enumerate(specs) if spec is None]
    names = seat_names(specs, config.names)
    table = Table(game, setup, names, humans, pace)
    filler = BotSpec.parse(min(game.builtin_players()), list(game.builtin_players()))
    connections: list[Connection] = connect(
        game, [filler if s is None else s for s in specs], config,
        seed if setup_seed is None else setup_seed,
    )
    for seat in humans:
        connections[seat] = InProcessConnection(HumanSeat(table, seat, names[seat]), names[seat])
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
        result = play_match(game, setup, connections, config, seed, setup_seed)
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
) -> None:
    """``tajmahal play SEAT...``: each SEAT ``human`` or a bot as ``match`` takes it.
    The bots run sandboxed unless ``sandbox`` is False (None: where the system
    allows it)."""
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
    from .registry import registry_of
    from .report import result_table, summary_line

    containment.hide_option("--seed")  # from other processes (the bots): it deals the deck
    registry = registry_of(games)
    game = load_game_option(registry, game_name)
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
    if record is not None:
        check_writable(record, "--record")
    seed = secrets.randbits(63) if seed is None else seed
    try:
        dealt = deal(game, len(seats), seed)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    programs = any(spec is not None and spec.builtin is None for spec in specs)
    confined = default_sandbox(sandbox, programs)
    check_sandbox(confined)
    check_programs_run([spec for spec in specs if spec is not None], confined)
    if record is not None:
        bot_specs = [spec for spec in specs if spec is not None]
        check_outputs_hidden(bot_specs, confined, [(record.parent, f"--record {record}")])
    if programs:
        say_sandbox(confined, sandbox)
    config = MatchConfig(
        time=TimeControl(move=move), record=record, sandbox=confined, names=given
    )
    try:
        with terminate_as_interrupt():
            result = play_in_browser(
                game,
                dealt.setup,
                specs,
                config,
                seed,
                host=host,
                port=port,
                open_browser=browser,
                linger=linger,
                say=click.echo,
                pace=pace,
                setup_seed=dealt.setup_seed,
            )
    except OSError as e:
        raise click.UsageError(cannot_serve(host, port, e)) from None
    except KeyboardInterrupt:
        click.echo("interrupted: the game was stopped; no record was written", err=True)
        sys.exit(130)
    click.echo(summary_line(game, result))
    result_table(result, game.score_sources)
