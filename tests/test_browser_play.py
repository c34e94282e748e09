"""`tajmahal play human ...`: a person plays in the browser through the referee
(Chromium driven by playwright clicks every move of a whole game)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import browser, page

__all__ = ["browser", "page"]


class Game:
    """``tajmahal play`` in a subprocess, serving on a free port."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.record = tmp_path / "game.jsonl"
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
                "--record",
                str(self.record),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        assert "the game is at http://127.0.0.1:" in line, line
        self.url = line.split(" at ", 1)[1].split()[0]  # with its token: ?token=...
        self.base, self.query = self.url.split("?", 1)

    def post(self, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{self.base}api/act?{self.query}",
            json.dumps(data).encode(),
            {"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=20)


@pytest.fixture
def games(tmp_path: Path) -> Iterator[list[Game]]:
    started: list[Game] = []
    yield started
    for game in started:
        game.stop()


def next_human_move(page: Any) -> bool:
    """Wait until the person has a move (True) or the game is over (False)."""
    page.wait_for_function(
        "document.body.dataset.over === '1' || "
        "document.querySelector('#moves button.move:not([disabled])') !== null",
        timeout=60_000,
    )
    return page.evaluate("document.body.dataset.over") != "1"


def test_a_person_plays_a_whole_game_by_clicking(
    page: Any, tmp_path: Path, games: list[Game]
) -> None:
    game = Game(tmp_path, "human", "greedy", "first", "--seed", "12", "--linger", "30")
    games.append(game)
    page.goto(game.url)
    assert next_human_move(page)
    # the server takes only a legal choice of the decision waiting
    pending = page.evaluate("fetch('/api/state').then(r => r.json()).then(s => s.pending)")
    assert pending["seat"] == 0
    n = len(pending["options"])
    for bad in (
        {"seat": 0, "decision": pending["decision"], "choice": n},
        {"seat": 1, "decision": pending["decision"], "choice": 0},
        {"seat": 0, "decision": pending["decision"] + 1, "choice": 0},
        {"seat": 0},
    ):
        status, answer = game.post(bad)
        assert status == 409 and answer["error"]
    # a person sees their own hand, never another's
    assert page.locator("#picture #hand-0").count() == 1
    assert page.locator("#picture #hand-1, #picture #hand-2").count() == 0
    moves = on_picture = 0
    while next_human_move(page):
        version = page.evaluate("document.body.dataset.version")
        legal = page.locator("#picture .legal")
        if legal.count() and moves % 3 != 2:
            legal.first.click()  # a card in the hand or the display, or a city
            on_picture += 1
            picked = page.locator("#moves button.move.picked")
            if picked.count():  # a card with several ways to play it
                picked.first.click()
        else:
            page.locator("#moves button.move").last.click()  # withdraw, often
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        moves += 1
    assert moves > 10 and on_picture > 5
    game.process.terminate()
    game.process.wait(timeout=20)
    lines = [json.loads(x) for x in game.record.read_text().splitlines()]
    result = lines[-1]
    assert result["type"] == "result"
    assert lines[0]["players"][0]["name"] == "human"
    assert sum(1 for x in lines if x["type"] == "action" and x["seat"] == 0) == moves
    rows = page.eval_on_selector_all(
        "#final-table tr[data-seat]", "rs => rs.map(r => [...r.children].map(c => c.textContent))"
    )
    assert [int(r[-2]) for r in rows] == result["scores"]
    assert [int(r[-1]) for r in rows] == result["ranks"]
    assert [r[1] for r in rows] == ["human", "greedy", "first"]
    sources = ["palaces", "goods", "bonus", "princess", "hand"]
    assert [[int(x) for x in r[2:-2]] for r in rows] == [
        [b[s] for s in sources] for b in result["breakdown"]
    ]
    replayed = subprocess.run(
        [sys.executable, "-m", "tajmahal", "replay", "--verify", str(game.record)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert replayed.returncode == 0, replayed.stderr


def test_hot_seat_hides_a_hand_until_its_owner_is_at_the_screen(
    page: Any, tmp_path: Path, games: list[Game]
) -> None:
    game = Game(tmp_path, "human", "human", "first", "--seed", "3")
    games.append(game)
    page.goto(game.url)
    seen = set()
    for _ in range(2):  # the first decisions of two people (one after the other)
        page.wait_for_selector("#cover:not([hidden])")
        assert page.locator("#picture [id^=hand-card-]").count() == 0
        assert page.locator("#moves button").count() == 0
        page.click("#reveal")
        seat = page.evaluate("fetch('/api/state').then(r => r.json()).then(s => s.pending.seat)")
        assert page.locator(f"#picture #hand-{seat}").count() == 1
        assert page.locator("#picture .hand").count() == 1
        seen.add(seat)
        version = page.evaluate("document.body.dataset.version")
        page.locator("#moves button.move").first.click()
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert seen == {0, 1}
