"""Spectators of live games: the server's side of :mod:`~tajmahal.arena.live`.

A :class:`LiveHub` serves the games under way in a folder of live files (a
ladder's or a tournament's ``live/``; a match's own).  Each game somebody
watches has one :class:`Channel`: one reader of its live file (a look every
:data:`POLL` seconds) and a watch mark beside it (the game's writer then draws
it), whatever the number of spectators; every spectator is sent the same bytes,
made once.  A spectator gets the game so far (a ``view`` event), then each
change as it comes (``steps``, ``end``), as server-sent events
(``text/event-stream``); ``gone`` says the game was stopped (it is played
again), and the stream ends with the game.  What a spectator is sent is what
:class:`~tajmahal.arena.live.LiveFeed` keeps of the file: the public view only.

The parts of the picture that never change (the board, the document around
the fragments, the legend: two thirds of what a spectator was sent) are not in
the events: a ``view`` or ``start`` names them by their SHA-256
(``pictures``), and ``PREFIX/pictures/SHA256`` serves them, made and
compressed once, to be kept by the browser for good (every game of a kind has
the same board: a spectator fetches it once, whatever the games it watches).

:func:`live_routes` gives the routes (starlette) of a list of the games under
way and of each one's events.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import os
import re
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final

import orjson
from attrs import frozen

from .live import WATCH, LiveFeed

#: Seconds between two looks at a watched game's live file.
POLL: Final = 0.1
#: Seconds without news after which a comment keeps the connection open.
KEEPALIVE: Final = 15.0
#: Messages a spectator may fall behind by; past it they are sent the game anew.
BEHIND: Final = 64
#: What a game's key (its live file's stem) may be.
KEY: Final = re.compile(r"[0-9A-Za-z_+-][0-9A-Za-z._+-]{0,63}")
#: The unchanging parts of the pictures, as a game's events name them.
PICTURES: Final = ("legend", "board", "document")
#: Pictures kept to be served, at most (every game of a kind shares one).
PICTURES_KEPT: Final = 32
_END_MARK: Final = b'{"type":"end"'


def event(kind: str, data: Any) -> bytes:
    """One server-sent event of ``kind`` whose data is ``data`` as JSON."""
    return b"event: " + kind.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"


def merged(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``changes`` with each run of ``steps`` as one (its log and new fragments
    joined, the last picture and scores): one message a look, however fast the
    game."""
    out: list[dict[str, Any]] = []
    for change in changes:
        if change["type"] == "steps" and out and out[-1]["type"] in ("start", "steps"):
            out[-1] = {**out[-1], **change, "type": out[-1]["type"],
                       "log": out[-1]["log"] + change["log"],
                       "fragments": out[-1]["fragments"] + change["fragments"]}
        else:
            out.append(change)
    return out


@frozen
class Pictures:
    """The unchanging parts of a game's pictures (:data:`PICTURES`) as JSON, and
    compressed (gzip, made once), named by the JSON's SHA-256."""

    digest: str
    text: bytes
    packed: bytes

    @classmethod
    def of(cls, data: dict[str, Any]) -> Pictures:
        text = orjson.dumps({k: data.get(k) for k in PICTURES})
        return cls(hashlib.sha256(text).hexdigest(), text, gzip.compress(text, mtime=0))


def under_way(folder: Path) -> list[dict[str, Any]]:
    """The games under way in ``folder``: each live file without an end, as
    ``{"game": KEY, "title", "names", "started"}``, by key."""
    found = []
    for path in sorted(folder.glob("*.jsonl")):
        try:
            with open(path, "rb") as f:
                first = f.readline(1 << 16)
                size = os.fstat(f.fileno()).st_size
                f.seek(max(0, size - 4096))
                tail = f.read()
        except OSError:
            continue
        if tail.startswith(_END_MARK) or b"\n" + _END_MARK in tail:
            continue
        feed = LiveFeed(path)
        with contextlib.suppress(orjson.JSONDecodeError):
            feed.take(orjson.loads(first))
        if feed.view is not None:
            view = feed.view
            found.append({"game": path.stem, "title": view["title"], "names": view["names"],
                          "started": view["started"]})
    return found


class Channel:
    """One watched game: its feed, its spectators' queues, the last view made."""

    def __init__(self, hub: LiveHub, key: str) -> None:
        self.hub = hub
        self.key = key
        self.feed = LiveFeed(hub.folder / f"{key}.jsonl")
        self.queues: set[asyncio.Queue[bytes | None]] = set()
        self.view: bytes | None = None
        self.mark = hub.folder / f"{key}.{hub.ident}{WATCH}"
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def open(self) -> bool:
        """Read the game so far; False if it is not under way."""
        changes = self.feed.poll()
        if changes is None or self.feed.view is None:
            return False
        with contextlib.suppress(OSError):
            self.mark.touch()
        self.task = asyncio.get_running_loop().create_task(self.follow())
        return True

    def join(self) -> asyncio.Queue[bytes | None]:
        """A new spectator's queue, the game so far first in it."""
        if self.view is None:
            assert self.feed.view is not None
            self.view = event("view", self.hub.named(self.feed.view))
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(BEHIND)
        queue.put_nowait(self.view)
        if self.feed.ended or self.closed:
            queue.put_nowait(None)
        self.queues.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[bytes | None]) -> None:
        self.queues.discard(queue)
        if not self.queues:
            self.close()

    async def follow(self) -> None:
        loop = asyncio.get_running_loop()
        news = loop.time()
        while not self.closed:
            await asyncio.sleep(self.hub.poll)
            changes = self.feed.poll()
            if changes is None:
                self.send(event("gone", {"game": self.key}))
                self.close()
                return
            if not changes:
                if loop.time() - news >= KEEPALIVE:  # a comment keeps the connections open
                    news = loop.time()
                    self.send(b": still here\n\n")
                continue
            news = loop.time()
            self.view = None
            for change in merged(changes):
                self.send(event(change["type"], self.hub.named(change)))
            if self.feed.ended:
                self.close()
                return

    def send(self, message: bytes) -> None:
        for queue in list(self.queues):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:  # too far behind: told the game anew
                self.queues.discard(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)

    def close(self) -> None:
        """No more news: each spectator's stream ends once it has read what came."""
        if self.closed:
            return
        self.closed = True
        for queue in self.queues:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)
        if self.hub.channels.get(self.key) is self:
            del self.hub.channels[self.key]
        with contextlib.suppress(OSError):
            self.mark.unlink()
        if self.task is not None:
            self.task.get_loop().call_soon_threadsafe(self.task.cancel)


class LiveHub:
    """The games of the live files in ``folder``, to as many spectators as come."""

    def __init__(self, folder: Path, poll: float = POLL) -> None:
        self.folder = folder
        self.poll = poll
        self.channels: dict[str, Channel] = {}
        #: This server's part of its watch marks' names.
        self.ident = secrets.token_hex(6)
        #: The pictures named in the events sent, by their texts (the latest last),
        #: and by digest.
        self.pictures: dict[tuple[Any, Any, bytes], Pictures] = {}
        self.digests: dict[str, Pictures] = {}

    def named(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` (a view, a change) with its unchanging pictures, if it holds
        them, named instead (``pictures``: their digest; None until the game's
        start): kept here to be served."""
        if not any(k in data for k in PICTURES):
            return data
        shown = {k: v for k, v in data.items() if k not in PICTURES}
        if not data.get("board") and not data.get("document"):
            return {**shown, "pictures": None}
        # (the same texts as the last time: a dictionary's look, their hashes kept)
        key = (data.get("board"), data.get("document"), orjson.dumps(data.get("legend")))
        kept = self.pictures.pop(key, None) or Pictures.of(data)
        self.pictures[key] = kept
        self.digests[kept.digest] = kept
        while len(self.pictures) > PICTURES_KEPT:
            gone = self.pictures.pop(next(iter(self.pictures)))
            self.digests.pop(gone.digest, None)
        return {**shown, "pictures": kept.digest}

    def channel(self, key: str) -> Channel | None:
        """The channel of game ``key``, opened if need be; None if not under way."""
        if not KEY.fullmatch(key):
            return None
        found = self.channels.get(key)
        if found is None or found.closed:
            found = Channel(self, key)
            if not found.open():
                return None
            self.channels[key] = found
        return found

    async def stream(self, key: str) -> AsyncIterator[bytes] | None:
        """The events of game ``key`` for one spectator; None if not under way."""
        channel = self.channel(key)
        if channel is None:
            return None
        queue = channel.join()

        async def events() -> AsyncIterator[bytes]:
            try:
                while True:
                    message = await queue.get()
                    if message is None:
                        return
                    yield message
            finally:
                channel.leave(queue)

        return events()

    def close(self) -> None:
        for channel in list(self.channels.values()):
            channel.close()


def live_routes(
    hub: LiveHub, prefix: str, listed: Callable[[list[dict[str, Any]]], Any] | None = None
) -> list[Any]:
    """``GET PREFIX``: the games under way (``listed`` may add to the list or leave
    games out), ``GET PREFIX/KEY/events``: a game's events (404 for a game not
    under way), and ``GET PREFIX/pictures/SHA256``: the unchanging pictures the
    events name (gzip-compressed for a client that takes it; they never change:
    kept by the browser for a year, and its ``ETag`` answered 304)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    async def games(request: Request) -> Response:
        found = under_way(hub.folder)
        if listed is not None:
            found = await run_in_threadpool(listed, found)
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        stream = await hub.stream(request.path_params["key"])
        if stream is None:
            return JSONResponse({"error": "no game of that number is under way"},
                                status_code=404)
        return StreamingResponse(stream, media_type="text/event-stream", headers={
            "Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def pictures(request: Request) -> Response:
        found = hub.digests.get(request.path_params["digest"])
        if found is None:
            return JSONResponse({"error": "no such pictures (of a game under way)"},
                                status_code=404)
        tag = f'"{found.digest}"'
        headers = {"ETag": tag, "Cache-Control": "public, max-age=31536000, immutable",
                   "Vary": "Accept-Encoding"}
        if tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(found.packed, media_type="application/json",
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(found.text, media_type="application/json", headers=headers)

    return [Route(prefix, games), Route(f"{prefix}/pictures/{{digest}}", pictures),
            Route(f"{prefix}/{{key}}/events", events)]
