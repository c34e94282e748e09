"""Watching games on this machine as they are played: ``tajmahal match --watch``
and ``tajmahal tournament --watch`` open a page in the browser, the live page of
a ladder's games (:mod:`~tajmahal.arena.live`, :mod:`~tajmahal.arena.livehub`).

The page is the person's own, as the browser game's is (see
:mod:`~tajmahal.arena.websession`): served on 127.0.0.1 by default, opened
through a private launch file with its token in the address's fragment, every
request but the page's own files carrying the token.  It lists the games under
way (a tournament's), shows the one chosen as a spectator sees it (the public
view: no hand, no secret) and, once its record is written, its replay.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import evolve

from .game import AnyGame
from .live import LiveWriter, chained
from .livehub import KEY, LiveHub, live_routes
from .names import unique_names
from .referee import BotSpec, run_match
from .terms import MatchConfig, MatchResult, StepHook
from .webgate import Gate
from .webpages import render, static_paths, static_routes
from .webserver import LocalServer
from .websession import Launch, WebSession

#: Seconds between two moves of a watched match (``match --watch --pace``).
PACE: Final = 0.3


def watch_app(
    hub: LiveHub,
    session: WebSession,
    host: str,
    port: int,
    title: str,
    record_of: Callable[[str], Path | None],
    game: AnyGame,
) -> Any:
    """The page of the games of ``hub`` (``/``: the list, ``/?game=KEY``: a game),
    their events, and ``/api/replay/KEY``: the replay of the record
    ``record_of(KEY)`` once there is one; behind the :class:`Gate` of ``session``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    text = render(
        "live.html", title=title, heading=title, styles=("live.css",),
        scripts=("session.js", "common.js", "live.js"),
        data={"list": "/api/live", "events-base": "/api/live/",
              "replay-frame-base": "/api/replay/"},
    )

    async def index(request: Request) -> Response:
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})

    async def replay(request: Request) -> Response:
        key = request.path_params["key"]
        path = record_of(key) if KEY.fullmatch(key) else None
        if path is None or not path.is_file():
            return JSONResponse({"error": "no record of that game yet"}, status_code=404)
        page = await run_in_threadpool(replay_page, game, path)
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    app = Starlette(routes=[
        Route("/", index),
        *static_routes(),
        *live_routes(hub, "/api/live"),
        Route("/api/replay/{key}", replay),
    ])
    return Gate(app, session, host, port, public=("/", *static_paths()))


def replay_page(game: AnyGame, path: Path) -> str:
    """The replay viewer's page of the record at ``path``."""
    from .viewer import Fragments, game_data, viewer_html

    fragments = Fragments()
    data = game_data(game, path, fragments)
    return viewer_html([data], fragments, data["title"])


class Watch:
    """The page of the games whose live files are in ``folder``, served on
    ``host:port`` while the ``with`` block runs, and opened in the browser."""

    def __init__(
        self,
        folder: Path,
        title: str,
        record_of: Callable[[str], Path | None],
        game: AnyGame,
        host: str = "127.0.0.1",
        port: int = 0,
        open_browser: bool = True,
        say: Callable[[str], None] = print,
        opened_by: str = "tajmahal match --watch",
    ) -> None:
        self.hub = LiveHub(folder)
        self.server = LocalServer(
            lambda session, h, p: watch_app(self.hub, session, h, p, title, record_of, game),
            host, port, opened_by,
        )
        self.title = title
        self.open_browser = open_browser
        self.say = say
        self.launch: Launch | None = None

    def address(self, key: str | None = None) -> str:
        """The page's address with its token (``key``: the page of that game)."""
        url = self.server.url
        return url if key is None else url.replace("/#", f"/?game={key}#", 1)

    def __enter__(self) -> Watch:
        self.server.start()
        return self

    def show(self, key: str | None = None) -> None:
        """Tell the page's address, and open it in the browser."""
        self.say(f"watch at {self.address(key)} (Ctrl-C stops)")
        if not self.open_browser:
            return
        try:
            self.launch = Launch(self.address(key), self.title)
        except OSError as e:
            self.say(f"cannot open your browser ({e.strerror or e}): open the address above")
            return
        self.launch.open_browser()

    def linger(self) -> None:
        """Keep the page up until Ctrl-C."""
        with contextlib.suppress(KeyboardInterrupt):  # (a Ctrl-C as soon as it is told)
            self.say("the page stays open until Ctrl-C")
            while True:
                time.sleep(3600)

    def __exit__(self, *_: object) -> None:
        if self.launch is not None:
            self.launch.close()
        self.hub.close()
        self.server.stop()


def paced(hook: StepHook, pace: float) -> StepHook:
    """``hook``, then a wait of ``pace`` seconds (between two moves: the bots'
    clocks do not run)."""

    def step(*args: Any) -> None:
        hook(*args)
        time.sleep(pace)

    return step


def watch_match(
    game: AnyGame,
    setup: Any,
    specs: Sequence[BotSpec],
    config: MatchConfig,
    seed: int,
    setup_seed: int | None = None,
    *,
    pace: float = PACE,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
    linger: bool = True,
    say: Callable[[str], None] = print,
) -> MatchResult:
    """:func:`~tajmahal.arena.referee.run_match`, watched on a local page, a move
    every ``pace`` seconds; the page stays until Ctrl-C after the game
    (``linger``).  Without a record in ``config`` one is kept meanwhile, for the
    page's replay, in a private folder removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="tajmahal-watch-"))  # 0700
    try:
        record = config.record or folder / "games" / "match.jsonl"
        live = folder / "live" / "match.jsonl"
        # NAME=BOT's names as the record gives them, alike bots told apart (random#1);
        # a program's own name comes in its hello, after the page is made
        names = unique_names([s.name or s.text for s in specs], [s.name is not None for s in specs])
        writer = LiveWriter(game, setup, names, live, every=0.0, watched=True)
        step = chained(config.on_step, paced(writer.on_step, pace))
        title = f"{game.title}: {', '.join(names)}"
        with Watch(folder / "live", title, lambda key: record, game, host, port,
                   open_browser, say) as watch:
            watch.show("match")
            try:
                result = run_match(game, setup, specs, evolve(config, record=record,
                                                              on_step=step), seed, setup_seed)
                writer.finish(result)
            finally:
                writer.close()
            if linger:
                say(f"{game.title}: the game is over")
                watch.linger()
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)
