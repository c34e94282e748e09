"""A local page's server: uvicorn in a thread, for the person who started it.

:class:`LocalServer` binds ``host:port`` (port 0: a free one), makes the page's
:class:`~tajmahal.arena.websession.WebSession` (its token) and serves the
application its ``app_of`` builds for them (behind a
:class:`~tajmahal.arena.webgate.Gate`), ``max_connections`` at once, with the
connection limits of :func:`~tajmahal.arena.webgate.limited_protocol`.  The
browser game (``tajmahal play``) and the live pages of ``match --watch`` and
``tournament --watch`` are served so.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from .webgate import connection_limit, limited_protocol, listening_socket
from .websession import WebSession, origin


class LocalServer:
    """uvicorn serving ``app_of(session, host, port)`` on ``host:port`` in a thread,
    to those who have the :attr:`url` (with its token); ``opened_by`` names the
    command, for the refusal a request without the token gets."""

    def __init__(
        self,
        app_of: Callable[[WebSession, str, int], Any],
        host: str,
        port: int,
        opened_by: str,
        max_connections: int | None = None,
    ) -> None:
        import uvicorn

        self.sock = listening_socket(host, port)
        self.host = host
        self.port = self.sock.getsockname()[1]
        self.session = WebSession(opened_by)
        app = app_of(self.session, host, self.port)
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
