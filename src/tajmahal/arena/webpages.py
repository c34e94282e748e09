"""The pages of the web faces (a ladder's, the live games'): jinja2 templates
(``arena/web/templates``) that escape every text they are given, so that a name,
a manifest's command or a log line shows as text and never as markup, and the
static files (CSS, scripts) they load from ``/static/NAME``."""

from __future__ import annotations

import functools
from typing import Any, Final

from .viewer import asset

#: The files served under ``/static/`` (from ``arena/web``), with their types.
STATIC: Final = {
    "session.js": "text/javascript",
    "common.js": "text/javascript",
    "live.js": "text/javascript",
    "ladder.js": "text/javascript",
    "live.css": "text/css",
    "ladder.css": "text/css",
}
STATIC_PREFIX: Final = "/static/"


@functools.cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("tajmahal.arena", "web/templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # (the package's own files: no look at each page for a change)
    )


def render(template: str, **values: Any) -> str:
    """The page of ``template`` with ``values`` (each text escaped).  Every page
    has a ``title``, ``styles`` and ``scripts`` (names of :data:`STATIC`), ``data``
    (the body's data attributes) and ``nav`` (a ladder's name, or empty)."""
    values = {"styles": (), "scripts": (), "data": {}, "nav": "", **values}
    text: str = _environment().get_template(template).render(**values)
    return text


@functools.cache
def _static(name: str) -> bytes:
    return asset(name).encode()


def static_paths() -> tuple[str, ...]:
    """The paths of the static files (public: nothing in them is secret)."""
    return tuple(STATIC_PREFIX + name for name in STATIC)


def static_routes() -> list[Any]:
    """A route for each static file."""
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    def serve(name: str) -> Any:
        kind = f"{STATIC[name]}; charset=utf-8"

        async def endpoint(request: Request) -> Response:
            return Response(_static(name), media_type=kind,
                            headers={"Cache-Control": "no-cache"})

        return endpoint

    return [Route(STATIC_PREFIX + name, serve(name)) for name in STATIC]
