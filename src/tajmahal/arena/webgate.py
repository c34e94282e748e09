"""Who may use the browser game's server, and how much of it.

The game's page shows a person's hand and takes their moves: only the browser of
the person who started ``tajmahal play`` may read it or play.  :class:`Gate`
wraps the web application and checks every request before it is routed:

- the *token* of its :class:`~tajmahal.arena.websession.WebSession`: every
  request but those of the page itself (``public`` paths, which hold nothing
  secret) must carry it in its ``Authorization`` header, which only the page's
  own script sends (see :mod:`~tajmahal.arena.websession`: never a cookie, which
  every port of 127.0.0.1 would receive).  A request without it is refused
  (403): another web page, another user of the machine, or a bot cannot read
  the game or play;
- the *Host* header, when serving on a loopback address: only ``localhost``,
  ``127.0.0.1`` or ``[::1]`` with the port (a DNS-rebinding page comes with its
  own name, and is refused);
- the *Origin* (and ``Sec-Fetch-Site``) when a browser sends one: only the page's
  own (a cross-site form or ``fetch``, CSRF, is refused); the page itself may
  be reached from anywhere (the launch file is a ``file:`` page) but not framed;
- a move is JSON (``Content-Type: application/json``, else 415) of at most
  :data:`MAX_BODY` bytes (else 413, without reading the rest).

:class:`LimitedH11` is the server's HTTP protocol: at most ``max_connections``
connections at once (the oldest idle one is closed for a new one: idle
connections cannot lock the person out, nor run the process out of file
descriptors), and a connection that has not completed a request within
:data:`REQUEST_TIME` seconds is closed.
"""

from __future__ import annotations

import asyncio
import resource
import socket
import time
from collections.abc import Awaitable, Callable, Collection, MutableMapping, Sequence
from typing import Any, Final

from .websession import WebSession

#: The largest request body taken (a move is a few dozen bytes).
MAX_BODY: Final = 4096
#: Seconds a connection has to send a whole request (headers and body).
REQUEST_TIME: Final = 10.0
#: Connections served at once, at most (fewer when file descriptors are scarce).
MAX_CONNECTIONS: Final = 256
LOOPBACK_NAMES: Final = ("localhost", "127.0.0.1", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for a server to listen on (port 0: a free
    one, which ``getsockname()`` tells); OSError where it cannot be bound.

    Made as a TCP socket by name (``IPPROTO_TCP``, not the default 0): asyncio
    turns Nagle's algorithm off (``TCP_NODELAY``) only on the connections of such
    a socket.  With it on, an answer written in two parts (headers, then body)
    waited for the client's delayed acknowledgement: 40 ms on every answer
    but a connection's first."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def cannot_serve(host: str, port: int, error: OSError) -> str:
    """Why a server cannot listen on ``host:port``, and the way out a taken port has."""
    hint = " (--port 0 takes any free port)" if port else ""
    return f"cannot serve on {host}:{port}: {error.strerror or error}{hint}"


def is_loopback(host: str) -> bool:
    return host in ("127.0.0.1", "::1", "localhost") or host.startswith("127.")


def connection_limit(wanted: int = MAX_CONNECTIONS) -> int:
    """How many connections to serve at once: ``wanted``, or a quarter of this
    process's file descriptors if that is fewer (the referee, its bots' pipes
    and the logs need the rest)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(4, min(wanted, soft // 4))


#: Headers on every answer: no page may frame ours (clickjacking), no address is
#: sent on as a referrer, no type is guessed.
SAFE_HEADERS: Final = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)


class Gate:
    """The checks above, around the ASGI application ``app``, for a server on
    ``host:port`` whose requests carry the token of ``session``; a GET of one of
    the ``public`` paths (the page, without anything secret) needs no token."""

    def __init__(
        self,
        app: App,
        session: WebSession,
        host: str,
        port: int,
        public: Collection[str] = ("/",),
    ) -> None:
        self.app = app
        self.session = session
        self.public = frozenset(public)
        self.hosts: frozenset[str] | None = None  # any Host (served to the network)
        if is_loopback(host):
            self.hosts = frozenset(f"{name}:{port}" for name in LOOPBACK_NAMES)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = with_headers(send, SAFE_HEADERS)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            await respond(send, *refusal)
            return
        await self.app(scope, _limited(receive), send)

    def refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why the request is refused (status, text); None if it is let in."""
        host = headers.get("host", "")
        if self.hosts is not None and host not in self.hosts:
            return 403, f"this page answers to {sorted(self.hosts)[0]} only, not {host!r}"
        if scope["method"] in ("GET", "HEAD") and scope["path"] in self.public:
            return None  # the page: reached from the launch file, a cross-site navigation
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            return 403, "requests from other web pages are refused"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "requests from other web pages are refused"
        if not self.session.admits(headers):
            return 403, self.session.refusal
        if scope["method"] not in ("GET", "HEAD"):
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "a move is sent as application/json"
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return 413, f"a request body is at most {MAX_BODY} bytes"
        return None


def with_headers(send: Send, headers: Sequence[tuple[bytes, bytes]]) -> Send:
    """``send`` that adds ``headers`` to the answer (those it has not set itself)."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = dict(message)
            given = message.get("headers", [])
            names = {name.lower() for name, _ in given}
            message["headers"] = [*given, *((k, v) for k, v in headers if k not in names)]
        await send(message)

    return sending


class BodyTooLarge(Exception):
    """A request body longer than :data:`MAX_BODY` (sent without a length)."""


def _limited(receive: Receive) -> Receive:
    """``receive`` that raises :class:`BodyTooLarge` past :data:`MAX_BODY` bytes."""
    taken = 0

    async def receiving() -> Message:
        nonlocal taken
        message = await receive()
        if message["type"] == "http.request":
            taken += len(message.get("body", b""))
            if taken > MAX_BODY:
                raise BodyTooLarge(f"a request body is at most {MAX_BODY} bytes")
        return message

    return receiving


async def respond(
    send: Send, status: int, text: str, headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """Answer ``text`` with ``status``, and close the connection."""
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                    (b"cache-control", b"no-store"), (b"connection", b"close"), *headers],
    })
    await send({"type": "http.response.body", "body": text.encode() + b"\n"})


def limited_protocol(max_connections: int, request_time: float | None = None) -> type:
    """uvicorn's h11 protocol, with the connection limits of :class:`LimitedH11`
    (``request_time``: seconds a connection has to send a whole request, by
    default :data:`REQUEST_TIME`)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    limit_time = REQUEST_TIME if request_time is None else request_time

    class LimitedH11(H11Protocol):
        limit = max_connections

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.made_at = time.monotonic()
            self.expiry = self.loop.call_later(limit_time, self.expire)
            if len(self.connections) <= self.limit:  # (not each one looked at, then)
                return
            open_ = [c for c in self.connections if isinstance(c, LimitedH11)
                     and c is not self and not c.transport.is_closing()]
            if len(open_) >= self.limit:
                idle = [c for c in open_ if c.idle()]
                victim = min(idle, key=lambda c: c.made_at) if idle else self
                victim.transport.close()

        def idle(self) -> bool:
            """No request under way."""
            return self.cycle is None or bool(self.cycle.response_complete)

        def expire(self) -> None:
            """Close the connection if it is still waiting for a request to come
            whole (a request being answered has a new period)."""
            if self.transport.is_closing():
                return
            if self.idle() or self.conn.their_state is h11.SEND_BODY:
                self.transport.close()
            else:
                self.expiry = self.loop.call_later(limit_time, self.expire)

        def on_response_complete(self) -> None:
            self.expiry.cancel()
            self.expiry = self.loop.call_later(limit_time, self.expire)
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self.expiry.cancel()
            super().connection_lost(exc)

    return LimitedH11
