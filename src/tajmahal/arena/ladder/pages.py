"""The ladder's web face (``tajmahal ladder serve``): its pages, beside the JSON API.

- ``/``: the leaderboard (rating and its interval, games, win share, mean rank,
  faults, last game, the trend of the last games);
- ``/bots/NAME``: a bot: its versions, its rating over its rated games (an SVG
  chart drawn here), its head-to-head against each other bot, its recent games;
- ``/games`` and ``/games/ID``: the games; a finished game's page holds the
  replay viewer as ``tajmahal replay --html`` makes it (``/games/ID/replay``), a
  game under way its live view (a spectator's: the public view only);
- ``/live``: the games playing now;
- ``/owner``: an owner's own page (signed in with their token: their bots,
  uploads, requested games, their bots' faults and logs).  Its data comes from
  the API with the token the page keeps (``ladder.js``), never from a cookie.

Every page is made from the templates of :mod:`~tajmahal.arena.webpages`: what
a bot's author controls (a manifest's command, a log, a fault's text; names
are plain already) is shown as text.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Sequence
from typing import Any, Final

from ..livehub import LiveHub, live_routes
from ..webpages import render, static_routes
from .api import API, Context
from .charts import MAX_POINTS, interval_bar, rating_chart, sparkline

#: Games a page lists at most.
PAGE_GAMES: Final = 50
#: Replay pages kept made (a replay is the record replayed and drawn).
REPLAYS_KEPT: Final = 16


def page_routes(ctx: Context, hub: LiveHub) -> list[Any]:
    """The pages' routes over the ladder of ``ctx``, its live games in ``hub``."""
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route

    from . import queries
    from .database import LadderError
    from .schema import FINISHED, SCHEDULED

    ladder_title = f"{ctx.game.title} ladder"

    def page(template: str, title: str, status: int = 200, **values: Any) -> Response:
        text = render(template, title=f"{title} - {ladder_title}" if title != ladder_title
                      else title, heading=title, nav=ladder_title,
                      styles=("live.css", "ladder.css"),
                      scripts=values.pop("scripts", ("common.js", "ladder.js")), **values)
        return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})

    def not_found(e: LadderError) -> Response:
        return page("message.html", "Not found", 404, message=str(e))

    def under_way_now(conn: Any) -> list[dict[str, Any]]:
        return _playing(conn, hub)

    def leaderboard(request: Request) -> Response:
        with ctx.db.read() as conn:
            rows = queries.standings(conn)
            summary = queries.summary(conn, ctx.db.settings())
            ids = queries.version_ids(conn)
            recent = queries.recent_ratings(conn, [ids[r["bot"], r["version"]] for r in rows])
            when = queries.finished_at(conn, [r["last_game"] for r in rows if r["last_game"]])
            playing = len(under_way_now(conn))
        low = min((r["rating"]["low"] for r in rows), default=0.0)
        high = max((r["rating"]["high"] for r in rows), default=1.0)
        for row in rows:
            _shown(row, recent[ids[row["bot"], row["version"]]], low, high)
            row["last_when"] = (when.get(row["last_game"]) or "").replace("T", " ")[:16]
        games = summary["games"]
        players = (f"{summary['players']} players" if summary["players"] == summary["max_players"]
                   else f"{summary['players']} to {summary['max_players']} players")
        text = (f"{ctx.game.title}, {players} a game · {summary['bots']} bots · "
                f"{games['finished']} games played, {games['scheduled']} scheduled")
        return page("leaderboard.html", ladder_title, rows=rows, summary=text,
                    playing=playing)

    def bot(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            with ctx.db.read() as conn:
                detail = queries.bot_detail(conn, name)
                rated, history = queries.rating_points(conn, name, MAX_POINTS)
                meetings = queries.head_to_heads(conn, name)
                recent = queries.game_list(conn, bot=name, limit=20)
        except LadderError as e:
            return not_found(e)
        current = next((v for v in detail["versions"] if v["current"]), None)
        return page("bot.html", detail["bot"], bot=detail, current=current,
                    chart=rating_chart(history, rated), meetings=meetings, games=recent,
                    focus=detail["bot"])

    def game_list(request: Request) -> Response:
        before = request.query_params.get("before")
        with ctx.db.read() as conn:
            rows = queries.game_list(conn, limit=PAGE_GAMES,
                                     before=int(before) if before and before.isdigit() else None)
        older = rows[-1]["game"] if len(rows) == PAGE_GAMES else None
        return page("games.html", "Games", games=rows, older=older, focus=None)

    def game(request: Request) -> Response:
        number = request.path_params["id"]
        try:
            with ctx.db.read() as conn:
                data = queries.game_detail(conn, number)
        except LadderError as e:
            return not_found(e)
        if data["status"] == SCHEDULED and _live(hub, number):
            return page("live.html", f"Game {number}", scripts=("common.js", "live.js",
                                                                 "ladder.js"),
                        data={"events": f"{API}/live/{_key(number)}/events",
                              "replay": f"/games/{number}", "finished": f"{API}/games/{number}"})
        data["error_line"] = queries.error_line(data["error"]) or ""
        replay = f"/games/{number}/replay" if data["status"] == FINISHED else None
        return page("game.html", f"Game {number}", g=data, replay=replay)

    def replay(request: Request) -> Response:
        number = request.path_params["id"]
        with ctx.db.read() as conn:
            data = queries.game_detail(conn, number) if _exists(conn, number) else None
        if data is None or data["status"] != FINISHED or not data["record"]:
            return page("message.html", "Not found", 404, message=f"no replay of game {number}")
        text = _replay_page(ctx.game, str(ctx.place.root / data["record"]),
                            data["record_sha256"])
        return HTMLResponse(text, headers={"Content-Security-Policy": replay_policy()})

    def live(request: Request) -> Response:
        return page("live.html", "Playing now", scripts=("common.js", "live.js", "ladder.js"),
                    data={"list": f"{API}/live"})

    def owner(request: Request) -> Response:
        return page("owner.html", "Owners")

    def listed(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with ctx.db.read() as conn:
            return _playing(conn, hub, found)

    return [
        Route("/", leaderboard),
        Route("/bots/{name}", bot),
        Route("/games", game_list),
        Route("/games/{id:int}", game),
        Route("/games/{id:int}/replay", replay),
        Route("/live", live),
        Route("/owner", owner),
        *live_routes(hub, f"{API}/live", listed),
        *static_routes(),
    ]


def _key(number: int) -> str:
    """A game's key among the live files: its record's stem."""
    return f"{number:06d}"


def _live(hub: LiveHub, number: int) -> bool:
    return (hub.folder / f"{_key(number)}.jsonl").is_file()


def _exists(conn: Any, number: int) -> bool:
    from sqlalchemy import select

    from .schema import games

    return conn.execute(select(games.c.id).where(games.c.id == number)).first() is not None


def _playing(conn: Any, hub: LiveHub, found: list[dict[str, Any]] | None = None
             ) -> list[dict[str, Any]]:
    """The games under way (``found`` in the live files, else looked up) that the
    database has as scheduled (a run killed leaves its files until the next one),
    each with its page's address."""
    from sqlalchemy import select

    from ..livehub import under_way
    from .schema import SCHEDULED, games

    found = under_way(hub.folder) if found is None else found
    numbers = {int(g["game"]): g for g in found if g["game"].isdigit()}
    if not numbers:
        return []
    scheduled = set(conn.execute(select(games.c.id).where(
        games.c.id.in_(list(numbers)), games.c.status == SCHEDULED)).scalars())
    return [{**numbers[n], "game": n, "label": str(n), "href": f"/games/{n}"}
            for n in sorted(scheduled)]


def _shown(row: dict[str, Any], recent: Sequence[float], low: float, high: float) -> None:
    """A standings row with what the leaderboard shows besides."""
    rating = row["rating"]
    row["bar"] = interval_bar(rating["low"], rating["mu"], rating["high"], low, high)
    row["wins"] = "" if row["win_share"] is None else f"{row['win_share']:.0%}"
    row["rank"] = "" if row["mean_rank"] is None else f"{row['mean_rank']:.2f}"
    row["spark"] = sparkline(recent)
    change = recent[-1] - recent[0] if len(recent) > 1 else 0.0
    row["trend"] = f"{change:+.1f}" if len(recent) > 1 else ""
    row["trend_class"] = "up" if change > 0 else "down" if change < 0 else ""


@functools.cache
def replay_policy() -> str:
    """The replay's page's policy: the gate's, with its one inline script by hash."""
    from ..viewer import asset
    from .gate import PAGE_POLICY

    script = asset("common.js") + asset("viewer.js")
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    return PAGE_POLICY.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'")


@functools.lru_cache(maxsize=REPLAYS_KEPT)
def _replay_page(game: Any, path: str, sha256: str) -> str:
    """The replay viewer of a finished game's record (kept made: a record does not
    change, and its digest is part of the key)."""
    from pathlib import Path

    from ..watch import replay_page

    return replay_page(game, Path(path))
