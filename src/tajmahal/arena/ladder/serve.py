"""``tajmahal ladder serve``: the ladder's JSON API and its pages (starlette and
uvicorn, the ``web`` extra), behind its :class:`~.gate.LadderGate`."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import click

from ..registry import GameRegistry
from .api import API, Context, make_app
from .opening import errors_as_lines, opened, where_options

#: Connections served at once, at most (fewer when file descriptors are scarce):
#: room for a hundred spectators of a game and more.
MAX_CONNECTIONS: Final = 1000
#: Seconds a connection has to send a whole request (an upload is up to 64 MiB).
REQUEST_TIME: Final = 120.0


def web_app(ctx: Context, host: str, port: int, names: Sequence[str] = (), **gate: Any) -> Any:
    """The API and the pages of the ladder of ``ctx`` for a server on
    ``host:port`` that answers to the host ``names`` too, behind a
    :class:`~.gate.LadderGate` (``gate``: its limits and clock, if not its own)."""
    from ..livehub import LiveHub
    from .gate import LadderGate, allowed_hosts
    from .pages import page_routes

    hub = LiveHub(ctx.place.live_dir)
    return LadderGate(make_app(ctx, page_routes(ctx, hub)), allowed_hosts(host, port, names),
                      **gate)


def serve_command(registry: GameRegistry) -> click.Command:
    @click.command(name="serve")
    @click.option("--host", default="127.0.0.1", show_default=True,
                  help="Serve here (0.0.0.0: to the network too).")
    @click.option("--port", type=click.IntRange(0, 65535), default=8770, show_default=True)
    @click.option("--allowed-host", "--host-name", "names", multiple=True, metavar="NAME",
                  help="A name the server is reached by (ladder.example.org), checked "
                  "against each request's Host (repeatable) [default: localhost and "
                  "127.0.0.1 on a loopback address; any name on another one].")
    @where_options
    def serve(host: str, port: int, names: tuple[str, ...], ladder_dir: Path | None,
              db_url: str | None) -> None:
        """Serve the ladder's pages (/) and JSON API (/api/v1/...) until Ctrl-C."""
        from ...extras import require_pages

        require_pages("tajmahal ladder serve")
        import uvicorn

        from ..webgate import (
            cannot_serve,
            connection_limit,
            is_loopback,
            limited_protocol,
            listening_socket,
        )
        from ..websession import origin

        with opened(registry, ladder_dir, db_url) as lad, errors_as_lines():
            try:
                sock = listening_socket(host, port)
            except OSError as e:
                raise click.UsageError(cannot_serve(host, port, e)) from None
            port = sock.getsockname()[1]  # (port 0: the one it was given)
            ctx = Context(lad.db, lad.place, lad.game, lad.settings)
            server = uvicorn.Server(uvicorn.Config(
                web_app(ctx, host, port, names), log_level="warning",
                http=limited_protocol(connection_limit(MAX_CONNECTIONS), REQUEST_TIME),
                h11_max_incomplete_event_size=16 << 10))
            address = origin(host, port)
            click.echo(f"the ladder on {address} and its API on {address.rstrip('/')}{API}/ "
                       "(Ctrl-C stops it)")
            if not names and not is_loopback(host):
                click.echo("note: any Host name is answered: give the names the ladder is "
                           "reached by with --allowed-host NAME", err=True)
            with contextlib.suppress(KeyboardInterrupt):
                server.run(sockets=[sock])

    return serve
