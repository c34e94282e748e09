"""The screenshots of docs/browser.md and docs/ladder.md: the replay viewer and
the browser game of each game, and a ladder's pages, as a person sees them in
Chromium on a desktop's 1280 x 900 and (the browser game) on a phone's 390 x 844.

    python docs/screenshots.py docs/images [NAME...]

plays short games with fixed seeds (`tajmahal match`, `tajmahal play`, `tajmahal
ladder run`), drives the pages with playwright (Debian's Chromium, as the browser
tests do: the `test` extra) and writes the PNG files named below into the folder
(only those whose names hold one of the NAMEs, if any are given).  It checks each
page as it takes it: no error in the page, and what the picture is there to show in
view without scrolling (the result banner, the turn's buttons, the board across
the phone's screen, a label whole on the board); a check that fails stops it.
"""

from __future__ import annotations

import random
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
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TAJMAHAL = [sys.executable, "-m", "tajmahal"]
#: An element's box on the screen: left, top, right, bottom.
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def run(*args: str) -> None:
    subprocess.run([*TAJMAHAL, *args], check=True, capture_output=True)


@contextmanager
def serving(*args: str) -> Iterator[str]:
    """`tajmahal play ARGS` on a free port; its address."""
    process = subprocess.Popen(
        [*TAJMAHAL, "play", *args, "--port", "0", "--no-browser", "--pace", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # the address, on whichever stream it comes
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        while line and "the game is at" not in line:  # a word on the sandbox first
            line = process.stdout.readline()
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=20)


def in_view(page: Any, selector: str) -> None:
    """The element wholly on the screen as it is."""
    left, top, right, bottom = page.eval_on_selector(selector, BOX)
    size = page.viewport_size
    assert left >= 0 and top >= 0, (selector, left, top)
    assert right <= size["width"] + 0.5, (selector, right)
    assert bottom <= size["height"] + 0.5, (selector, bottom)


def across(page: Any) -> None:
    """On a phone: the picture's areas one under another, each across the screen."""
    boxes = page.eval_on_selector_all("#picture > svg", f"es => es.map({BOX})")
    assert len(boxes) == 2, "the board and its panel, one under the other"
    for left, _, right, _ in boxes:
        assert left < 12 and right > page.viewport_size["width"] - 12, (left, right)
    in_view(page, "#turn-box")


def viewer(
    page: Any, folder: Path, name: str, game: str, bots: list[str], seed: int, step: int
) -> None:
    """The replay viewer of a match, at ``step``."""
    with tempfile.TemporaryDirectory() as scratch:
        record, html = Path(scratch) / "g.jsonl", Path(scratch) / "g.html"
        run("match", "--game", game, *bots, "--seed", str(seed), "-q", "--record", str(record))
        run("replay", str(record), "--html", str(html))
        page.goto(html.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.fill("#slider", str(step))
        page.dispatch_event("#slider", "input")
        page.screenshot(path=str(folder / name))


def wait_for_turn(page: Any) -> None:
    page.wait_for_selector("#picture .legal, #moves > button.move", timeout=60_000)


def legal(page: Any) -> list[str]:
    ids: list[str] = page.eval_on_selector_all("#picture .legal", "es => es.map(e => e.id)")
    return ids


def click(page: Any, ident: str) -> None:
    page.locator(f'#picture [id="{ident}"]').click()


def confirm(page: Any) -> None:
    version = page.evaluate("document.body.dataset.version")
    page.click("#confirm")
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    wait_for_turn(page)


def taj_mahal(page: Any, folder: Path, name: str) -> None:
    """Seat 0 picks a card of its hand: the preview on the table; the court with
    who leads each prize."""
    with serving("human", "greedy", "first", "--seed", "12") as url:
        page.goto(url)
        wait_for_turn(page)
        click(page, legal(page)[0])
        assert page.locator("#picture .prize .leader").count() >= 5
        if page.viewport_size == PHONE:
            across(page)
            page.locator("#picture #hand-0").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / name))


def tikal(page: Any, folder: Path, name: str) -> None:
    """Seat 0 turns its tile in place, then brings a worker in and moves it: the
    path and its AP cost (each label whole on the board)."""
    with serving("--game", "tikal", "human", "first", "--seed", "5") as url:
        page.goto(url)
        wait_for_turn(page)
        spaces = legal(page)
        click(page, spaces[len(spaces) // 2])
        click(page, spaces[len(spaces) // 2])  # the same space again: the tile turns
        page.screenshot(path=str(folder / name.format("place")))
        confirm(page)
        base = legal(page)[0]
        click(page, base)  # T23: a worker enters on the base camp
        confirm(page)
        click(page, base)  # T25: and walks on
        click(page, legal(page)[0])
        left, _, right, _ = page.eval_on_selector("#picture svg", BOX)
        for label in page.eval_on_selector_all("#picture .preview rect", f"es => es.map({BOX})"):
            assert left - 0.5 <= label[0] and label[2] <= right + 0.5, "a label cut at the edge"
        page.screenshot(path=str(folder / name.format("move")))


def java(page: Any, folder: Path, name: str) -> None:
    """Seat 0 clicks a position: what it can do there, the first previewed; then the
    other space of its two-space tile."""
    with serving("--game", "java", "human", "first", "--seed", "3") as url:
        page.goto(url)
        wait_for_turn(page)
        assert page.locator("#picture .dots circle").count() > 150  # legal nearly everywhere
        click(page, "pos-64")
        page.screenshot(path=str(folder / name.format("where")))
        click(page, "pos-64")  # the same position again: the next way, a two-space tile
        confirm(page)
        click(page, legal(page)[2])
        page.screenshot(path=str(folder / name.format("shape")))


@contextmanager
def ladder_served() -> Iterator[str]:
    """A 3-player Taj Mahal ladder of four built-in bots after 24 games, served by
    `tajmahal ladder serve` on a free port; its address."""
    with tempfile.TemporaryDirectory() as scratch:
        where = str(Path(scratch) / "class")
        run("ladder", "init", where, "--players", "3", "--seed", "1")
        for name, bot in (
            ("house", "greedy"),
            ("alice", "greedy"),
            ("bob", "random"),
            ("starter", "first"),
        ):
            run("ladder", "add", name, bot, "--ladder", where)
        run("ladder", "run", "--games", "24", "-j", "1", "-q", "--ladder", where)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen(
            [*TAJMAHAL, "ladder", "serve", "--port", str(port), "--ladder", where],
            stdout=subprocess.DEVNULL,
        )
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


def ladder(page: Any, folder: Path, name: str) -> None:
    """The leaderboard, a bot's page (its rating chart, its head-to-head) and a
    finished game's page (the replay viewer in it)."""
    with ladder_served() as root:
        page.goto(root)
        page.screenshot(path=str(folder / name.format("leaderboard")))
        page.goto(f"{root}/bots/alice")
        page.screenshot(path=str(folder / name.format("bot")))
        page.goto(f"{root}/games/24")
        page.frame_locator("iframe#replay").locator("body[data-ready='1']").wait_for()
        page.screenshot(path=str(folder / name.format("game")))


def phone_game(game: str) -> Callable[[Any, Path, str], None]:
    """The browser game of ``game`` on a phone, at its first decision."""

    def shot(page: Any, folder: Path, name: str) -> None:
        with serving("--game", game, "human", "greedy", "--seed", "3") as url:
            page.goto(url)
            wait_for_turn(page)
            across(page)
            page.screenshot(path=str(folder / name))

    return shot


def the_end(page: Any, folder: Path, name: str) -> None:
    """A game played to its end (the person's moves at random): the result banner in
    view, wherever the page was scrolled."""
    from playwright.sync_api import Error as PlaywrightError

    rng = random.Random(4)
    with serving("human", "greedy", "random", "--seed", "4", "--linger", "60") as url:
        page.goto(url)
        wait_for_turn(page)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        deadline = time.monotonic() + 180
        while page.evaluate("document.body.dataset.over") != "1":
            assert time.monotonic() < deadline, "the game did not end"
            page.wait_for_selector(
                "#picture .legal, #moves > button.move, body[data-over='1']", timeout=60_000
            )
            parts, moves = page.locator("#picture .legal"), page.locator("#moves > button.move")
            try:  # the page changes under the clicks (the bots move): try again
                if parts.count():
                    parts.nth(rng.randrange(parts.count())).click(timeout=2000)
                    if page.locator("#confirm:not([disabled])").count():
                        page.click("#confirm", timeout=2000)
                elif moves.count():
                    moves.nth(rng.randrange(moves.count())).click(timeout=2000)
            except (ValueError, PlaywrightError):
                continue
        in_view(page, "#banner")
        page.screenshot(path=str(folder / name))


#: Each picture: its file, the screen it is taken on, and how.
SHOTS: list[tuple[str, dict[str, int], Callable[[Any, Path, str], None]]] = [
    ("viewer-tajmahal.png", DESKTOP,
     lambda p, f, n: viewer(p, f, n, "tajmahal", ["greedy", "random", "first"], 9, 60)),
    ("viewer-tikal.png", DESKTOP,
     lambda p, f, n: viewer(p, f, n, "tikal", ["greedy", "random"], 1, 80)),
    ("viewer-java.png", DESKTOP,
     lambda p, f, n: viewer(p, f, n, "java", ["greedy", "random", "random"], 2, 150)),
    ("play-tajmahal.png", DESKTOP, taj_mahal),
    ("play-tikal-{}.png", DESKTOP, tikal),
    ("play-java-{}.png", DESKTOP, java),
    ("play-end.png", DESKTOP, the_end),
    ("phone-tajmahal.png", PHONE, taj_mahal),
    ("phone-tikal.png", PHONE, phone_game("tikal")),
    ("phone-java.png", PHONE, phone_game("java")),
    ("phone-end.png", PHONE, the_end),
    ("ladder-{}.png", DESKTOP, ladder),
]  # fmt: skip

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
    "play-end.png",
    "phone-tajmahal.png",
    "phone-tikal.png",
    "phone-java.png",
    "phone-end.png",
)


#: The pictures of the shots that make several: each part of the name's ``{}``.
PARTS = {
    "play-tikal-{}.png": ("place", "move"),
    "play-java-{}.png": ("where", "shape"),
    "ladder-{}.png": ("leaderboard", "bot", "game"),
}


def files_of(name: str) -> list[str]:
    """The pictures the shot named ``name`` makes."""
    return [name.format(part) for part in PARTS[name]] if "{}" in name else [name]


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
            for name, size, shot in SHOTS:
                if not chosen(files_of(name), names):
                    continue
                page = browser.new_page(viewport=size)
                errors: list[str] = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                shot(page, folder, name)
                assert not errors, f"{name}: errors in the page: {errors}"
                page.close()
        finally:
            browser.close()
    made = {f.name for f in folder.glob("*.png") if before.get(f) != f.stat().st_mtime_ns}
    wanted = {f for name, _, _ in SHOTS if chosen(files_of(name), names) for f in files_of(name)}
    assert made == wanted, f"made {sorted(made)}, FILES says {sorted(wanted)}"


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:])
