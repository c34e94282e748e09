"""The ladder's HTTP JSON API (``tajmahal ladder serve``; starlette + uvicorn, the
``web`` extra), under versioned paths: ``/api/v1/...``.

Reading needs nothing; writing needs an owner's token (``Authorization: Bearer
TOKEN``, as ``ladder owners`` printed it).  Every answer is JSON (a record is
JSON Lines), shaped as the files of ``schemas/`` say; an error is
``{"error": TEXT}`` with its status code.  docs/ladder.md lists the endpoints.

:func:`make_app` returns the application; :func:`api_routes` its routes, to
which a web face adds its pages (each view reads through :mod:`.queries`).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import frozen

from ..game import AnyGame

API: Final = "/api/v1"
SCHEMAS: Final = Path(__file__).with_name("schemas")
#: Media types a bot upload may come as.
ARCHIVES: Final = ("application/zip", "application/x-tar", "application/gzip",
                   "application/x-gzip", "application/octet-stream")
_MAX_REQUEST: Final = 16 << 10


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@frozen
class Context:
    """What the views need: the ladder's database, directory, game and settings."""

    db: Any
    place: Any
    game: AnyGame
    settings: dict[str, Any]


def api_routes(ctx: Context) -> list[Any]:
    """The API's routes (starlette ``Route`` objects) over the ladder of ``ctx``."""
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from . import queries
    from .database import LadderError

    def reading(view: Callable[[Request, Any], Any]) -> Callable[[Request], Any]:
        def endpoint(request: Request) -> Response:
            try:
                with ctx.db.read() as conn:
                    return JSONResponse(view(request, conn))
            except ApiError as e:
                return JSONResponse({"error": str(e)}, status_code=e.status)
            except LadderError as e:
                status = 404 if str(e).startswith("no ") else 400
                return JSONResponse({"error": str(e)}, status_code=status)
        return endpoint

    def index(request: Request, conn: Any) -> Any:
        data = queries.summary(conn, ctx.db.settings())
        data["api"] = API
        return data

    def standings(request: Request, conn: Any) -> Any:
        return queries.standings(conn, request.query_params.get("all") in ("1", "true"))

    def bot_list(request: Request, conn: Any) -> Any:
        return queries.bot_list(conn)

    def bot(request: Request, conn: Any) -> Any:
        return queries.bot_detail(conn, request.path_params["name"])

    def bot_ratings(request: Request, conn: Any) -> Any:
        return queries.rating_history_of(conn, request.path_params["name"])

    def game_list(request: Request, conn: Any) -> Any:
        params = request.query_params
        status = params.get("status", "finished")
        if status not in ("finished", "scheduled", "void"):
            raise ApiError(400, "status is finished, scheduled or void")
        return queries.game_list(conn, bot=params.get("bot"), limit=_int(params, "limit", 50),
                                 before=_int(params, "before", None), status=status)

    def game(request: Request, conn: Any) -> Any:
        return queries.game_detail(conn, request.path_params["id"])

    def head_to_head(request: Request, conn: Any) -> Any:
        return queries.head_to_head(conn, request.path_params["a"], request.path_params["b"])

    def me(request: Request, conn: Any) -> Any:
        owner = _owner(ctx, request)
        mine = [b for b in queries.bot_list(conn) if b["owner"] == owner[1]]
        return {"owner": owner[1], "bots": mine}

    def my_games(request: Request, conn: Any) -> Any:
        owner = _owner(ctx, request)
        seated = queries.faults_of_owner(conn, owner[1], _int(request.query_params, "limit", 50))
        return _with_fault_details(ctx, conn, seated)

    def my_requests(request: Request, conn: Any) -> Any:
        owner = _owner(ctx, request)
        return queries.requests_of_owner(conn, owner[0], _int(request.query_params, "limit", 20))

    def record(request: Request) -> Response:
        from sqlalchemy import select

        from .schema import FINISHED, games

        with ctx.db.read() as conn:
            row = conn.execute(select(games.c.record, games.c.status).where(
                games.c.id == request.path_params["id"])).first()
        if row is None or row.status != FINISHED or not row.record:
            return JSONResponse({"error": "no finished game of that number"}, status_code=404)
        data = (ctx.place.root / row.record).read_bytes()
        return Response(data, media_type="application/x-ndjson")

    def log(request: Request) -> Response:
        try:
            owner = _owner(ctx, request)
            data = _own_log(ctx, owner[0], request.path_params["id"], request.path_params["seat"])
        except ApiError as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        return Response(data, media_type="text/plain; charset=utf-8")

    def schema(request: Request) -> Response:
        name = request.path_params["name"]
        path = SCHEMAS / f"{name}.schema.json"
        if "/" in name or not path.is_file():
            return JSONResponse({"error": f"no schema {name!r}"}, status_code=404)
        return Response(path.read_bytes(), media_type="application/schema+json")

    async def upload(request: Request) -> Response:
        try:
            owner = await run_in_threadpool(_owner, ctx, request)
            kind = request.headers.get("content-type", "").split(";")[0].strip()
            if kind not in ARCHIVES:
                raise ApiError(415, "send the bot's folder as a zip or tar archive "
                               f"(Content-Type: {', '.join(ARCHIVES[:3])})")
            from .folders import MAX_ARCHIVE

            data = await _body(request, MAX_ARCHIVE)
            added = await run_in_threadpool(_submit, ctx, request.path_params["name"], data,
                                            owner[0])
        except ApiError as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except LadderError as e:
            return JSONResponse({"error": str(e)}, status_code=422)
        status = 200 if added["unchanged"] else 201
        return JSONResponse(added, status_code=status)

    async def request_games(request: Request) -> Response:
        from .schedule import make_request

        try:
            owner = await run_in_threadpool(_owner, ctx, request)
            data = _json_object(await _body(request, _MAX_REQUEST))
            names, count = data.get("bots"), data.get("games", 1)
            if (not isinstance(names, list) or not all(isinstance(n, str) for n in names)
                    or not isinstance(count, int) or not 1 <= count <= 100):
                raise ApiError(400, 'expected {"bots": [NAME, ...], "games": 1 to 100}')
            ids = await run_in_threadpool(make_request, ctx.db, ctx.settings, names, count,
                                          None, owner[0])
        except ApiError as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except LadderError as e:
            return JSONResponse({"error": str(e)}, status_code=422)
        return JSONResponse({"games": ids}, status_code=201)

    return [
        Route(f"{API}/", reading(index)),
        Route(f"{API}/standings", reading(standings)),
        Route(f"{API}/bots", reading(bot_list)),
        Route(f"{API}/bots/{{name}}", reading(bot)),
        Route(f"{API}/bots/{{name}}/ratings", reading(bot_ratings)),
        Route(f"{API}/bots/{{name}}/versions", upload, methods=["POST"]),
        Route(f"{API}/games", reading(game_list)),
        Route(f"{API}/games/{{id:int}}", reading(game)),
        Route(f"{API}/games/{{id:int}}/record", record),
        Route(f"{API}/games/{{id:int}}/logs/{{seat:int}}", log),
        Route(f"{API}/head-to-head/{{a}}/{{b}}", reading(head_to_head)),
        Route(f"{API}/me", reading(me)),
        Route(f"{API}/me/games", reading(my_games)),
        Route(f"{API}/me/requests", reading(my_requests)),
        Route(f"{API}/requests", request_games, methods=["POST"]),
        Route(f"{API}/schemas/{{name}}", schema),
    ]


def _int(params: Any, key: str, default: int | None) -> Any:
    value = params.get(key)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ApiError(400, f"{key} must be a whole number") from None


def _owner(ctx: Context, request: Any) -> tuple[int, str]:
    """The owner whose token the request carries (401 without a good one)."""
    from .roster import owner_of_token

    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "this needs an owner's token: Authorization: Bearer TOKEN")
    owner = owner_of_token(ctx.db, token.strip())
    if owner is None:
        raise ApiError(401, "this token is no owner's (`tajmahal ladder owners token NAME` "
                       "makes a new one)")
    return owner


async def _body(request: Any, limit: int) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes without reading on."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"larger than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _json_object(data: bytes) -> dict[str, Any]:
    import orjson

    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise ApiError(400, "the body is not JSON") from None
    if not isinstance(value, dict):
        raise ApiError(400, "the body is not a JSON object")
    return value


def _with_fault_details(ctx: Context, conn: Any, seated: list[dict[str, Any]]
                        ) -> list[dict[str, Any]]:
    """The owner's seats of :func:`~.queries.faults_of_owner`, each fault with its
    text as the game's record tells it (its result line)."""
    from sqlalchemy import select

    from ..record import RecordError, record_ends
    from .schema import games

    faulted = sorted({s["game"] for s in seated if s["fault"]})
    details: dict[tuple[int, int], str] = {}
    if faulted:
        paths = dict(conn.execute(select(games.c.id, games.c.record)
                                  .where(games.c.id.in_(faulted))).all())
        for number in faulted:
            try:
                _, result = record_ends(ctx.place.root / paths[number])
            except (RecordError, KeyError, TypeError):
                continue
            for fault in result.get("faults") or []:
                if isinstance(fault, dict) and type(fault.get("seat")) is int:
                    details[number, fault["seat"]] = str(fault.get("detail", ""))
    return [{**s, "fault_detail": details.get((s["game"], s["seat"]))} for s in seated]


def _own_log(ctx: Context, owner_id: int, game_id: int, seat: int) -> bytes:
    """The log of ``seat`` in game ``game_id``, if that seat's bot is the owner's."""
    from sqlalchemy import select

    from .schema import bots, seats, versions

    with ctx.db.read() as conn:
        row = conn.execute(
            select(seats.c.log, bots.c.owner_id)
            .join(versions, versions.c.id == seats.c.version_id)
            .join(bots, bots.c.id == versions.c.bot_id)
            .where(seats.c.game_id == game_id, seats.c.seat == seat)
        ).first()
    if row is None:
        raise ApiError(404, "no such seat")
    if row.owner_id != owner_id:
        raise ApiError(403, "the logs of a seat are its bot's owner's only")
    if not row.log:
        return b""
    try:
        return bytes((ctx.place.root / row.log).read_bytes())
    except OSError:
        return b""


def _submit(ctx: Context, name: str, data: bytes, owner_id: int) -> dict[str, Any]:
    """Unpack, check, store and add an uploaded version (before any of it runs: the
    archive's checks, the manifest's command, then its hello in the sandbox)."""
    from ..referee import BotSpec, preflight
    from ..terms import MatchConfig
    from ..text import printable
    from .database import LadderError
    from .folders import read_manifest, unpack
    from .roster import Stored, add_version, check_name

    check_name(name, "bot")
    ctx.place.incoming.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="upload-", dir=ctx.place.incoming))
    try:
        folder = unpack(data, tmp / "bot")
        stored = Stored.of_folder(folder, read_manifest(folder), ctx.place.versions_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    s = ctx.settings
    spec = BotSpec.parse(stored.command, [], home=str(ctx.place.version_dir(stored.digest)))
    config = MatchConfig(handshake=s["handshake"], max_line=s["max_line"],
                         max_log=s["max_log"], sandbox=True, memory=s["memory"])
    faults = preflight(ctx.game, [spec], config)
    if faults:
        f = faults[0]
        raise LadderError(printable(f"the bot did not start in the sandbox: {f.kind}: {f.detail}"
                                    + (f"; last stderr line: {f.stderr}" if f.stderr else "")))
    added = add_version(ctx.db, name, stored, owner_id=owner_id)
    return {"bot": added.name, "version": added.number, "digest": added.digest,
            "command": stored.command, "new_bot": added.new_bot, "unchanged": added.unchanged}


def make_app(ctx: Context, pages: Sequence[Any] = ()) -> Any:
    """The API's starlette application, and ``pages`` (more routes: a web face's)."""
    from starlette.applications import Starlette

    return Starlette(routes=[*api_routes(ctx), *pages])
