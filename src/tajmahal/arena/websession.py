"""A local web page only the person who started it can use: its token, and how
the token reaches their browser.

A command that serves such a page (``tajmahal play``; a ladder's web face) makes
a random *token* and lets in only requests that carry it.  The token never goes
where another user of the machine, or another server on it, could read it:

- **not on a command line** (``/proc/PID/cmdline`` is readable by every local
  user): the browser is opened on a *launch file* (:class:`Launch`, as Jupyter's
  redirect file) in a folder made for it, readable by its owner only, which sends
  the browser on to the page's address with the token in the *fragment*
  (``http://127.0.0.1:PORT/#token=...``).  Only the file's path is on the
  browser's command line, and a browser never sends a fragment to any server;
- **not in a cookie**: cookies are not bound to ports, so every server on
  127.0.0.1 (another user's too) that the browser visits would receive one.
  The page's script (``session.js``) keeps the token in the tab's
  ``sessionStorage``, which the browser keeps apart for each origin (scheme,
  host *and port*), takes it out of the address bar, and sends it with each of
  its requests as ``Authorization: Bearer TOKEN`` (:meth:`WebSession.admits`).
  A page of another origin can neither read it nor send that header (a
  cross-origin request with it needs a CORS preflight, which the server never
  grants).

The address with its token is also printed for the person to open by hand (a
browser confined by snap or flatpak cannot read the launch file).
:func:`open_browser` never waits for the browser: a ``BROWSER`` command that
runs the browser in the foreground does not stall the game, and the browser
runs outside the referee's process tree (it is not swept with the bots).
"""

from __future__ import annotations

import contextlib
import hmac
import html
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Final

#: The fragment's key the page takes the token from (``#token=...``).
FRAGMENT_KEY: Final = "token"
#: The request header that carries the token, and its scheme.
HEADER: Final = "authorization"
SCHEME: Final = "Bearer"
#: The launch file's name in its private folder.
LAUNCH_FILE: Final = "open.html"


def new_token() -> str:
    """A random token: 192 bits, URL-safe."""
    return secrets.token_urlsafe(24)


def origin(host: str, port: int) -> str:
    """The page's address without a token: ``http://HOST:PORT/`` (an IPv6 host
    in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


class WebSession:
    """The token of one served page, and the check of each request.

    ``opened_by`` names the command whose printed address opens the page, for
    the refusal a request without the token gets."""

    def __init__(self, opened_by: str, token: str | None = None) -> None:
        self.opened_by = opened_by
        self.token = new_token() if token is None else token

    def address(self, base: str) -> str:
        """``base`` (see :func:`origin`) with the token in its fragment."""
        return f"{base}#{FRAGMENT_KEY}={self.token}"

    def admits(self, headers: Mapping[str, str]) -> bool:
        """Whether the request of ``headers`` (lower-case names) carries the token
        (compared in constant time)."""
        scheme, _, given = headers.get(HEADER, "").strip().partition(" ")
        if scheme.lower() != SCHEME.lower():
            return False
        return hmac.compare_digest(given.strip().encode(), self.token.encode())

    @property
    def refusal(self) -> str:
        return (
            f"open the address `{self.opened_by}` printed, with its token: this page is "
            "only for the person who started it"
        )


class Launch:
    """The launch file of ``address``: a page that sends the browser on to it,
    written in a new private folder (mode 0700, the file 0600) and removed with
    it by :meth:`close` (or at the end of a ``with`` block).  Raises OSError
    where it cannot be written (no temporary folder)."""

    def __init__(self, address: str, title: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tajmahal-"))  # 0700, made anew
        self.path = self.folder / LAUNCH_FILE
        target = html.escape(address, quote=True)
        text = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="refresh" content="0;url={target}">\n'
            f"<title>{html.escape(title)}</title></head>\n"
            f'<body><p>Opening <a href="{target}">{html.escape(title)}</a> ...</p></body>'
            "</html>\n"
        )
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError:
            self.close()
            raise

    @property
    def uri(self) -> str:
        """The file's ``file://`` address (no token in it)."""
        return self.path.as_uri()

    def open_browser(self) -> None:
        """Open the launch file in the person's browser (see :func:`open_browser`)."""
        open_browser(self.uri)

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Launch:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


#: The launcher's program: it forks, its parent exits at once (this process waits
#: only for that), and the child, handed to init, opens the browser and waits
#: for it if it must (a ``BROWSER`` command runs in the foreground).
_LAUNCHER: Final = (
    "import os, sys\n"
    "if os.fork():\n"
    "    os._exit(0)\n"
    "import webbrowser\n"
    "webbrowser.open(sys.argv[1])\n"
)


def open_browser(target: str) -> None:
    """Open ``target`` in the person's browser (the one :mod:`webbrowser` picks,
    ``BROWSER`` first) without waiting for it.

    On POSIX it is opened by a detached process outside this one's tree: the
    referee, a child subreaper while it plays, never adopts the browser, so it
    is not stopped with the bots at the end of the game.  The browser's output
    goes nowhere (the terminal is the game's)."""
    if not hasattr(os, "fork"):
        import webbrowser

        threading.Thread(target=webbrowser.open, args=(target,), daemon=True).start()
        return
    try:
        launcher = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, target],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return  # no browser then: the printed address still opens the page
    with contextlib.suppress(subprocess.TimeoutExpired):
        launcher.wait(timeout=10)
