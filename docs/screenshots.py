"""The screenshots of docs/browser.md and docs/ladder.md: the replay viewer and
the browser game of each game, and a ladder's pages, as a person sees them at
1280 x 900 in Chromium.

    python docs/screenshots.py docs/images [NAME...]

plays short games with fixed seeds (`tajmahal match`, `tajmahal play`, `tajmahal
ladder run`), drives the pages with playwright (Debian's Chromium, as the browser
tests do: the `test` extra) and writes the PNG files named below into the folder
(only those whose names hold one of the NAMEs, if any are given).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
SIZE = {"width": 1280, "height": 900}
TAJMAHAL = [sys.executable, "-m", "tajmahal"]


def run(*args: str) -> None:
    subprocess.run([*TAJMAHAL, *args], check=True, capture_output=True)


@contextmanager
def serving(*args: str) -> Iterator[str]:
    """`tajmahal play ARGS` on a free port; its address."""
    process = subprocess.Popen(
        [*TAJMAHAL, "play", *args, "--port", "0", "--no-browser", "--pace", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=20)


def viewer(page: Any, folder: Path, game: str, bots: list[str], seed: int, step: int) -> None:
    """The replay viewer of a match, at ``step``."""
    with tempfile.TemporaryDirectory() as scratch:
        record, html = Path(scratch) / "g.jsonl", Path(scratch) / "g.html"
        run("match", "--game", game, *bots, "--seed", str(seed), "-q", "--record", str(record))
        run("replay", str(record), "--html", str(html))
        page.goto(html.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.fill("#slider", str(step))
        page.dispatch_event("#slider", "input")
        page.screenshot(path=str(folder / f"viewer-{game}.png"))


def wait_for_turn(page: Any) -> None:
    page.wait_for_selector("#picture .legal, #moves > button.move", timeout=60_000)


def click(page: Any, ident: str) -> None:
    page.locator(f'#picture [id="{ident}"]').click()


def confirm(page: Any) -> None:
    version = page.evaluate("document.body.dataset.version")
    page.click("#confirm")
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    wait_for_turn(page)


def taj_mahal(page: Any, folder: Path) -> None:
    """Seat 0 plays a card with its white card: the preview on the table."""
    with serving("human", "greedy", "first", "--seed", "12") as url:
        page.goto(url)
        wait_for_turn(page)
        legal = page.eval_on_selector_all("#picture .legal", "es => es.map(e => e.id)")
        click(page, legal[0])
        page.screenshot(path=str(folder / "play-tajmahal.png"))


def tikal(page: Any, folder: Path) -> None:
    """Seat 0 turns its tile in place, then brings a worker in and moves it: the
    path and its AP cost."""
    with serving("--game", "tikal", "human", "first", "--seed", "5") as url:
        page.goto(url)
        wait_for_turn(page)
        legal = page.eval_on_selector_all("#picture .legal", "es => es.map(e => e.id)")
        click(page, legal[len(legal) // 2])
        click(page, legal[len(legal) // 2])  # the same space again: the tile turns
        page.screenshot(path=str(folder / "play-tikal-place.png"))
        confirm(page)
        base = page.eval_on_selector_all("#picture .legal", "es => es.map(e => e.id)")[0]
        click(page, base)  # T23: a worker enters on the base camp
        confirm(page)
        click(page, base)  # T25: and walks on
        ahead = page.eval_on_selector_all("#picture .legal", "es => es.map(e => e.id)")
        click(page, ahead[0])
        page.screenshot(path=str(folder / "play-tikal-move.png"))


def java(page: Any, folder: Path) -> None:
    """Seat 0 clicks a position: what it can do there, the first previewed; then the
    other space of its two-space tile."""
    with serving("--game", "java", "human", "first", "--seed", "3") as url:
        page.goto(url)
        wait_for_turn(page)
        click(page, "pos-64")
        page.screenshot(path=str(folder / "play-java-where.png"))
        click(page, "pos-64")  # the same position again: the next way, a two-space tile
        confirm(page)
        ahead = page.eval_on_selector_all("#picture .legal", "es => es.map(e => e.id)")
        click(page, ahead[2])
        page.screenshot(path=str(folder / "play-java-shape.png"))


@contextmanager
def ladder_served() -> Iterator[str]:
    """A 3-player Taj Mahal ladder of four built-in bots after 24 games, served by
    `tajmahal ladder serve` on a free port; its address."""
    with tempfile.TemporaryDirectory() as scratch:
        where = str(Path(scratch) / "class")
        run("ladder", "init", where, "--players", "3", "--seed", "1")
        for name, bot in (("house", "greedy"), ("alice", "greedy"), ("bob", "random"),
                          ("starter", "first")):
            run("ladder", "add", name, bot, "--ladder", where)
        run("ladder", "run", "--games", "24", "-j", "1", "-q", "--ladder", where)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([*TAJMAHAL, "ladder", "serve", "--port", str(port),
                                   "--ladder", where], stdout=subprocess.DEVNULL)
        try:
            for _ in range(600):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=20)


def ladder(page: Any, folder: Path) -> None:
    """The leaderboard, a bot's page (its rating chart, its head-to-head) and a
    finished game's page (the replay viewer in it)."""
    with ladder_served() as root:
        page.goto(root)
        page.screenshot(path=str(folder / "ladder-leaderboard.png"))
        page.goto(f"{root}/bots/alice")
        page.screenshot(path=str(folder / "ladder-bot.png"))
        page.goto(f"{root}/games/24")
        page.frame_locator("iframe#replay").locator("body[data-ready='1']").wait_for()
        page.screenshot(path=str(folder / "ladder-game.png"))


#: The pictures made, each shown in docs/browser.md or docs/ladder.md.
FILES = (
    "viewer-tajmahal.png",
    "viewer-tikal.png",
    "viewer-java.png",
    "play-tajmahal.png",
    "play-tikal-place.png",
    "play-tikal-move.png",
    "play-java-where.png",
    "play-java-shape.png",
    "ladder-leaderboard.png",
    "ladder-bot.png",
    "ladder-game.png",
)

SHOTS: list[Callable[[Any, Path], None]] = [
    lambda page, out: viewer(page, out, "tajmahal", ["greedy", "random", "first"], 9, 60),
    lambda page, out: viewer(page, out, "tikal", ["greedy", "random"], 1, 80),
    lambda page, out: viewer(page, out, "java", ["greedy", "random", "random"], 2, 150),
    taj_mahal,
    tikal,
    java,
    ladder,
]
#: The pictures each shot makes (in its order in SHOTS).
MADE = (FILES[:1], FILES[1:2], FILES[2:3], FILES[3:4], FILES[4:6], FILES[6:8], FILES[8:])


def chosen(files: tuple[str, ...], names: list[str]) -> bool:
    """Whether a shot making ``files`` is asked for by ``names`` (none: all)."""
    return not names or any(name in file for name in names for file in files)


def main(folder: Path, names: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    before = {f: f.stat().st_mtime_ns for f in folder.glob("*.png")}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        try:
            for shot, files in zip(SHOTS, MADE, strict=True):
                if not chosen(files, names):
                    continue
                page = browser.new_page(viewport=SIZE)
                shot(page, folder)
                page.close()
        finally:
            browser.close()
    made = {f.name for f in folder.glob("*.png") if before.get(f) != f.stat().st_mtime_ns}
    wanted = {f for files in MADE if chosen(files, names) for f in files}
    assert made == wanted, f"made {sorted(made)}, FILES says {sorted(wanted)}"


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:])
