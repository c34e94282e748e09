"""Playwright driving Debian's Chromium by its executable path (never a downloaded
browser: `playwright install` cannot work on the CI machines)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def opened(browser: Any, width: int, height: int) -> Iterator[Any]:
    """A page of ``width`` x ``height``; no error may happen in it (an uncaught
    exception, or an error on the console: a resource that failed to load)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.errors = errors
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with opened(browser, 1400, 900) as page:
        yield page


def whole_game(test: Callable[..., None]) -> Callable[..., None]:
    """A whole game played in the browser: tens of seconds (``slow``, left out by
    ``make test-fast``), in the compiled pass only (``once``)."""
    return pytest.mark.slow(pytest.mark.once(test))


def next_decision(page: Any) -> bool:
    """Wait until the person has a decision (True) or the game is over (False)."""
    page.wait_for_function(
        "document.body.dataset.over === '1' || "
        "document.querySelector('#picture .legal, #moves button.move:not([disabled])') !== null",
        timeout=60_000,
    )
    return page.evaluate("document.body.dataset.over") != "1"


def make_a_move(page: Any, rng: Any, button: Any = lambda label: False) -> bool:
    """Make one move as a person does: click highlighted parts of the board until
    an action is chosen, then confirm; a button only for a move the board cannot
    show (or when ``button(label)`` says so for one of them). True if the move
    was made on the board."""
    buttons = page.locator("#moves > button.move")
    labels = buttons.all_inner_texts()
    wanted = [k for k, label in enumerate(labels) if button(label)]
    version = page.evaluate("document.body.dataset.version")
    on_board = page.locator("#picture .legal").count() > 0 and not wanted
    if on_board:
        for _ in range(6):
            legal = page.locator("#picture .legal")
            n = legal.count()
            if n == 0:
                break
            click_seen(legal.nth(rng.randrange(n)))
            if page.locator("#confirm:not([disabled])").count() and rng.random() < 0.75:
                break
        page.click("#confirm")
    else:
        buttons.nth(wanted[0] if wanted else rng.randrange(len(labels))).click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    return on_board


#: A point of the element that is on top there (a card of a crowded hand lies
#: partly under the next one: its left edge is what a person clicks), or null.
SEEN_AT = """e => { const r = e.getBoundingClientRect();
  for (const fx of [0.5, 0.2, 0.08, 0.8]) for (const fy of [0.5, 0.25, 0.75]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const at = document.elementFromPoint(x, y);
    if (at && e.contains(at)) return [x, y];
  }
  return null; }"""


def click_seen(part: Any) -> None:
    """Click ``part`` where it is seen, as a person does (the middle if it is on
    top there); Playwright's click would wait for what covers its middle to go."""
    part.scroll_into_view_if_needed()
    point = part.evaluate(SEEN_AT)
    if point is None:
        part.click()  # nothing of it on top: waits, and says what covers it
    else:
        part.page.mouse.click(*point)


class Game:
    """``tajmahal play ARGS`` in a subprocess in ``folder`` (its working folder),
    serving on a free port, the bots' moves at once, the record in ``game.jsonl``
    there unless ``record`` is False."""

    def __init__(self, folder: Path, *args: str, record: bool = True) -> None:
        self.folder = folder
        self.record = folder / "game.jsonl"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tajmahal",
                "play",
                *args,
                "--port",
                "0",
                "--no-browser",
                "--pace",
                "0",
                *(["--record", str(self.record)] if record else []),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # what it says, on either stream, in order
            text=True,
            cwd=folder,
        )
        assert self.process.stdout is not None
        said = [self.process.stdout.readline()]  # a word on the sandbox may come first
        while "the game is at" not in said[-1] and said[-1] and len(said) < 5:
            said.append(self.process.stdout.readline())
        line = said[-1]
        assert "the game is at http://127.0.0.1:" in line, said
        self.url = line.split(" at ", 1)[1].split()[0]  # with its token: #token=...
        self.base, self.token = self.url.split("#token=", 1)

    def request(self, path: str, data: Any = None) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{self.base}{path}",
            None if data is None else json.dumps(data).encode(),
            {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def post(self, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.request("api/act", data)

    def state(self) -> dict[str, Any]:
        return self.request("api/state")[1]

    def moves(self, rng: Any, count: int | None = None) -> dict[str, Any]:
        """The people's next ``count`` decisions (None: to the end), each a random
        legal choice sent as the page sends it; the state after them."""
        made = 0
        deadline = time.monotonic() + 120
        while count is None or made < count:
            assert time.monotonic() < deadline, "the game did not go on"
            state = self.state()
            if state["result"] is not None:
                break
            pending = state["pending"]
            if pending is None:
                time.sleep(0.02)
                continue
            choice = rng.randrange(len(pending["options"]))
            status, _ = self.post(
                {"seat": pending["seat"], "decision": pending["decision"], "choice": choice}
            )
            made += status == 200
        return self.state()

    def lines(self) -> list[dict[str, Any]]:
        self.process.terminate()
        self.process.wait(timeout=20)
        return [json.loads(x) for x in self.record.read_text().splitlines()]

    def interrupt(self, signal: int) -> str:
        """Stop the game with ``signal`` (SIGINT: Ctrl-C); what it said then."""
        self.process.send_signal(signal)
        said, _ = self.process.communicate(timeout=30)
        assert self.process.returncode == 130, said
        return said

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=20)


@pytest.fixture
def games(tmp_path: Path) -> Iterator[list[Game]]:
    """The games started; each stopped after the test (a test asks for this fixture
    before ``page``: the page closes first, never polling a stopped server)."""
    started: list[Game] = []
    yield started
    for game in started:
        game.stop()


def check_replays(record: Path) -> None:
    """The record replays, every field checked (``tajmahal replay --verify``)."""
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "replay", "--verify", str(record)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
