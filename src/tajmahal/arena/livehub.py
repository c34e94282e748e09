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

:func:`live_routes` gives the routes (starlette) of a list of the games under
way and of each one's events.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final

import orjson

from .live import WATCH, LiveFeed

#: Seconds between two looks at a watched game's live file.
POLL: Final = 0.1
#: Seconds without news after which a comment keeps the connection open.
KEEPALIVE: Final = 15.0
#: Messages a spectator may fall behind by; past it they are sent the game anew.
BEHIND: Final = 64
#: What a game's key (its live file's stem) may be.
KEY: Final = re.compile(r"[0-9A-Za-z_+-][0-9A-Za-z._+-]{0,63}")
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
            self.view = event("view", self.feed.view)
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
        while not self.closed:
            await asyncio.sleep(self.hub.poll)
            changes = self.feed.poll()
            if changes is None:
                self.send(event("gone", {"game": self.key}))
                self.close()
                return
            if not changes:
                continue
            self.view = None
            for change in merged(changes):
                self.send(event(change["type"], change))
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
                    try:
                        message = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except TimeoutError:
                        yield b": still here\n\n"
                        continue
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
    games out), and ``GET PREFIX/KEY/events``: a game's events (404 for a game not
    under way)."""
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

    return [Route(prefix, games), Route(f"{prefix}/{{key}}/events", events)]
