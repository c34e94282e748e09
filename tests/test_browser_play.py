"""`tajmahal play human ...`: a person plays in the browser through the referee
(Chromium driven by playwright plays whole games by clicking the board)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import browser, make_a_move, next_decision, page, whole_game

__all__ = ["browser", "page"]

#: The page, not the engine: the pure-Python pass would only repeat them.
pytestmark = pytest.mark.once


class Game:
    """``tajmahal play`` in a subprocess, serving on a free port (bots at once)."""

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
                "--pace",
                "0",
                "--record",
                str(self.record),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None  # the address, on stdout
        line = self.process.stdout.readline()
        assert "the game is at http://127.0.0.1:" in line, line
        self.url = line.split(" at ", 1)[1].split()[0]  # with its token: #token=...
        self.base, self.token = self.url.split("#token=", 1)

    def post(self, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{self.base}api/act",
            json.dumps(data).encode(),
            {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def lines(self) -> list[dict[str, Any]]:
        self.process.terminate()
        self.process.wait(timeout=20)
        return [json.loads(x) for x in self.record.read_text().splitlines()]

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


def play_to_the_end(page: Any, seed: int, button: Any) -> tuple[int, int, int]:
    """Play the person's every decision; the moves made, those made on the board,
    and the most last-move marks seen on a picture."""
    rng = random.Random(seed)
    moves = on_board = marked = 0
    while next_decision(page):
        marked = max(marked, page.locator("#picture .last-move > *").count())
        on_board += make_a_move(page, rng, button)
        moves += 1
    return moves, on_board, marked


def final_rows(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#final-table tr[data-seat]", "rs => rs.map(r => [...r.children].map(c => c.textContent))"
    )


def check_the_record(game: Game, page: Any, moves: int, sources: list[str]) -> None:
    lines = game.lines()
    result = lines[-1]
    assert result["type"] == "result"
    assert lines[0]["players"][0]["name"] == "human"
    # a move of the page answers one decision, or two joined (Java's what and where)
    made = sum(1 for x in lines if x["type"] == "action" and x["seat"] == 0)
    assert moves <= made <= 2 * moves
    rows = final_rows(page)
    assert [int(r[-2]) for r in rows] == result["scores"]
    assert [int(r[-1]) for r in rows] == result["ranks"]
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


@whole_game
def test_a_person_plays_a_whole_taj_mahal_game_on_the_board(
    games: list[Game], page: Any, tmp_path: Path
) -> None:
    game = Game(tmp_path, "human", "first", "--seed", "12", "--linger", "30")
    games.append(game)
    page.goto(game.url)
    assert next_decision(page)
    # the server takes only a legal choice of the decision waiting
    pending = page.evaluate("api('/api/state').then(r => r.json()).then(s => s.pending)")
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
    # a person sees their own hand, never another's; the first decision is made on
    # the board (a card of the hand) or with the one button the board has no part
    # for (T2: withdraw)
    assert page.locator("#picture #hand-0").count() == 1
    assert page.locator("#picture #hand-1").count() == 0
    assert page.locator("#moves > button.move").all_inner_texts() == ["withdraw"]
    assert {e.split("-")[0] for e in page.eval_on_selector_all(
        "#picture .legal", "es => es.map(e => e.id)")} == {"hand"}  # fmt: skip
    # T2/W1: after a card or two the person withdraws
    moves, on_board, marked = play_to_the_end(
        page, 12, lambda label: label == "withdraw" and random.random() < 0.5
    )
    assert moves > 20 and on_board > moves * 0.6
    assert marked > 0  # the last move is marked on the board
    log = page.inner_text("#log")
    assert "withdraws and wins" in log and "Visit 12 of 12" in log and "scores" in log
    check_the_record(game, page, moves, ["palaces", "goods", "bonus", "princess", "hand"])


@whole_game
def test_a_person_plays_a_whole_tikal_game_on_the_board(
    games: list[Game], page: Any, tmp_path: Path
) -> None:
    game = Game(tmp_path, "--game", "tikal", "human", "first", "--seed", "5", "--linger", "30")
    games.append(game)
    page.goto(game.url)
    assert next_decision(page)
    # T17: the first decision places the tile in hand, drawn in the panel, on the board
    assert page.locator("#picture #in-hand polygon").count() == 1
    assert page.locator("#moves > button.move").count() == 0
    # a few actions a turn on the board, then the turn ends (T18, a button)
    moves, on_board, marked = play_to_the_end(
        page, 5, lambda label: label == "end the turn" and random.random() < 0.4
    )
    assert moves > 20 and on_board > moves * 0.5 and marked > 0
    log = page.inner_text("#log")
    assert "scoring round" in log and "scores" in log
    check_the_record(game, page, moves, ["temples", "treasures", "capital"])


@whole_game
def test_a_person_plays_a_whole_java_game_on_the_board(
    games: list[Game], page: Any, tmp_path: Path
) -> None:
    game = Game(tmp_path, "--game", "java", "human", "first", "--seed", "3", "--linger", "30")
    games.append(game)
    page.goto(game.url)
    assert next_decision(page)
    # J19-J20: the first decision is a position on the board and what to do there;
    # the only button the board has no part for: a token
    assert page.locator("#moves > button.move").all_inner_texts() == ["use an action token"]
    assert page.locator("#picture .legal").count() > 100
    moves, on_board, marked = play_to_the_end(
        page, 3, lambda label: label == "end the turn" and random.random() < 0.6
    )
    assert moves > 20 and on_board > moves * 0.6 and marked > 0
    log = page.inner_text("#log")
    assert "tile on level" in log and "final scoring" in log.lower()
    check_the_record(game, page, moves, ["water", "palaces", "festivals", "final"])


def test_hot_seat_hides_a_hand_until_its_owner_is_at_the_screen(
    games: list[Game], page: Any, tmp_path: Path
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
        seat = page.evaluate("api('/api/state').then(r => r.json()).then(s => s.pending.seat)")
        assert page.locator(f"#picture #hand-{seat}").count() == 1
        assert page.locator("#picture .hand").count() == 1
        seen.add(seat)
        assert make_a_move(page, random.Random(seat))  # T3: a card of the hand
    assert seen == {0, 1}
