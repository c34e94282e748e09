"""What a ladder's web face lets through (``ladder serve``), around its pages and
its API, so that it can be put on a network.

- **Host**: only the names the server answers to (``--allowed-host``, and
  ``localhost``, ``127.0.0.1``, ``[::1]`` when it serves on a loopback address):
  a page of another name that resolves here (DNS rebinding) is refused.
- **CSRF**: every write (any method but GET and HEAD) needs an owner's token in
  its ``Authorization`` header, which a page of another site can neither read
  nor send (a cross-origin request with it needs a CORS preflight, never
  granted), and, when the browser tells them, an ``Origin`` that is the page's
  own and a ``Sec-Fetch-Site`` of ``same-origin``.  No cookie is ever set: the
  pages keep an owner's token in the browser's session storage (per origin).
- **Rate limits** for each client address: tokens refused (:data:`SIGN_INS`),
  uploads (:data:`UPLOADS`) and other writes (:data:`WRITES`) in a sliding
  window, on the gate's clock (monotonic seconds); past one, 429 with
  ``Retry-After`` (the seconds until the oldest event leaves the window).
- **Headers** on every answer: a Content-Security-Policy that runs only the
  ladder's own scripts (:data:`PAGE_POLICY`; a page with inline script names
  its hash itself), no framing but by the ladder's own pages, no referrer, no
  type sniffing.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Collection
from typing import Final

import orjson
from attrs import frozen

from ..webgate import (
    LOOPBACK_NAMES,
    App,
    Message,
    Receive,
    Scope,
    Send,
    is_loopback,
    respond,
    with_headers,
)


@frozen
class Limit:
    """At most ``count`` events in ``seconds`` for each client."""

    count: int
    seconds: float


#: Requests whose token was refused (a wrong token at sign-in, guessing).
SIGN_INS: Final = Limit(10, 600.0)
#: Bot uploads (each unpacked, checked and started in the sandbox).
UPLOADS: Final = Limit(20, 3600.0)
#: Other writes (game requests).
WRITES: Final = Limit(60, 600.0)
#: What each page may load and run: the ladder's own files, its own frames.
PAGE_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)
HEADERS: Final = (
    (b"content-security-policy", PAGE_POLICY.encode()),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)
_KEYS: Final = 10_000  # clients remembered at most, per limit


class Limiter:
    """A :class:`Limit` kept for each client (by address)."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.times: dict[str, deque[float]] = {}

    def wait(self, client: str, now: float) -> float:
        """Seconds before ``client`` may have one more (0: now)."""
        times = self.times.get(client)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.limit.seconds:
            times.popleft()
        if len(times) < self.limit.count:
            return 0.0
        return times[0] + self.limit.seconds - now

    def add(self, client: str, now: float) -> None:
        if client not in self.times and len(self.times) >= _KEYS:
            self.forget(now)
        self.times.setdefault(client, deque()).append(now)

    def forget(self, now: float) -> None:
        """Drop the clients with nothing in the window (the oldest ones, if need be)."""
        for key in [k for k, t in self.times.items() if not t or t[-1] <= now - self.limit.seconds]:
            del self.times[key]
        while len(self.times) >= _KEYS:
            del self.times[next(iter(self.times))]


def allowed_hosts(host: str, port: int, names: Collection[str]) -> frozenset[str] | None:
    """The Host headers to answer: each of ``names`` (with the port or without),
    and the loopback names with the port when serving on ``host`` of loopback;
    None (any) when serving to the network with no name given."""
    given = {n.lower() for n in names}
    allowed = given | {f"{n}:{port}" for n in given if not n.endswith("]") and ":" not in n}
    allowed |= {f"{n}:{port}" for n in given if n.startswith("[") and n.endswith("]")}
    if is_loopback(host):
        allowed |= {f"{n}:{port}" for n in LOOPBACK_NAMES}
    elif not given:
        return None
    return frozenset(allowed)


class LadderGate:
    """The checks above around the ladder's application ``app``; ``hosts`` from
    :func:`allowed_hosts`; the limits' windows on ``clock`` (seconds)."""

    def __init__(
        self,
        app: App,
        hosts: frozenset[str] | None,
        sign_ins: Limit = SIGN_INS,
        uploads: Limit = UPLOADS,
        writes: Limit = WRITES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.clock = clock
        self.sign_ins = Limiter(sign_ins)
        self.uploads = Limiter(uploads)
        self.writes = Limiter(writes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = with_headers(send, HEADERS)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        client = scope["client"][0] if scope.get("client") else "-"
        now = self.clock()
        refusal = self.refusal(scope, headers, client, now)
        if refusal is not None:
            status, text, wait = refusal
            extra = [(b"retry-after", str(max(1, round(wait))).encode())] if wait else []
            if scope["path"].startswith("/api/"):
                await _json(send, status, text, extra)
            else:
                await respond(send, status, text, extra)
            return
        if "authorization" in headers:
            send = self._counting_refusals(send, client)
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope, headers: dict[str, str], client: str,
                now: float) -> tuple[int, str, float] | None:
        """Why the request is refused: (status, text, seconds to wait); None: let in."""
        host = headers.get("host", "").lower()
        if self.hosts is not None and host not in self.hosts:
            return 403, f"this ladder does not answer to the name {host!r}", 0.0
        if "authorization" in headers:
            wait = self.sign_ins.wait(client, now)
            if wait:
                return 429, "too many refused tokens from your address: try again later", wait
        if scope["method"] in ("GET", "HEAD"):
            return None
        origin = headers.get("origin")
        if origin is not None and origin != f"{scope.get('scheme', 'http')}://{host}":
            return 403, "writes from other web pages are refused", 0.0
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "writes from other web pages are refused", 0.0
        path = scope["path"]
        limiter = self.uploads if path.endswith("/versions") else self.writes
        wait = limiter.wait(client, now)
        if wait:
            what = "uploads" if limiter is self.uploads else "requests"
            return 429, f"too many {what} from your address: try again later", wait
        limiter.add(client, now)
        return None

    def _counting_refusals(self, send: Send, client: str) -> Send:
        """``send`` that counts an answer 401 (a token refused) against ``client``."""

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 401:
                self.sign_ins.add(client, self.clock())
            await send(message)

        return sending


async def _json(send: Send, status: int, text: str, headers: list[tuple[bytes, bytes]]) -> None:
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
                    *headers],
    })
    await send({"type": "http.response.body", "body": orjson.dumps({"error": text})})
