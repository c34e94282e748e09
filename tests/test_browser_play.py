"""`tajmahal play human ...`: a person plays in the browser through the referee
(Chromium driven by playwright plays whole games by clicking the board)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    Game,
    browser,
    check_replays,
    games,
    make_a_move,
    next_decision,
    page,
    whole_game,
)

__all__ = ["browser", "games", "page"]

#: The page, not the engine: the pure-Python pass would only repeat them.
pytestmark = pytest.mark.once


def play_to_the_end(page: Any, seed: int, button: str, share: float) -> tuple[int, int, int]:
    """Play the person's every decision, pressing ``button`` (when offered) in
    ``share`` of them, all from ``seed`` (the same person, and so the same game, on
    every run); the moves made, those made on the board, and the most last-move
    marks seen on a picture."""
    rng, presses = random.Random(seed), random.Random(-seed)

    def pressed(label: str) -> bool:
        return label == button and presses.random() < share

    moves = on_board = marked = 0
    while next_decision(page):
        marked = max(marked, page.locator("#picture .last-move > *").count())
        on_board += make_a_move(page, rng, pressed)
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
    check_replays(game.record)


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
    moves, on_board, marked = play_to_the_end(page, 12, "withdraw", 0.5)
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
    moves, on_board, marked = play_to_the_end(page, 5, "end the turn", 0.4)
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
    moves, on_board, marked = play_to_the_end(page, 3, "end the turn", 0.6)
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
