"""The HTML replay viewer in a real browser (Chromium, driven by playwright)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_support import browser, page
from click.testing import CliRunner

from tajmahal.cli import main
from tajmahal.tajmahal.rules import new_game
from tajmahal.tajmahal.setups import Setup

__all__ = ["browser", "page"]

#: The page, not the engine: the pure-Python pass would only repeat them.
pytestmark = pytest.mark.once


def test_step_through_a_replay_with_the_keys_slider_and_views(page: Any, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    runner = CliRunner()
    args = ["match", "greedy", "first", "random", "--seed", "9", "--record", str(record), "-q"]
    assert runner.invoke(main, args).exit_code == 0
    assert (
        runner.invoke(main, ["replay", str(record), "--html", str(tmp_path / "g.html")]).exit_code
        == 0
    )
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    actions = [x for x in lines if x["type"] == "action"]
    result = lines[-1]
    page.route(
        "**/*",
        lambda route: (
            route.abort() if not route.request.url.startswith("file:") else route.continue_()
        ),
    )
    page.goto((tmp_path / "g.html").as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#step-label") == f"decision 0 of {len(actions)}"
    # the start: the display of the deal, every hand (the default view)
    state = new_game(Setup.random(3, seed=lines[0]["setup_seed"]))  # seed 9's, under the key
    shown = {
        int(x)
        for x in page.eval_on_selector_all(
            "#picture [id^=display-card-]", "es => es.map(e => e.dataset.card)"
        )
    }
    assert shown == set(state.display)
    hands = page.eval_on_selector_all(
        "#picture [id^=hand-card-]", "es => es.map(e => +e.dataset.card)"
    )
    assert sorted(hands) == sorted(c for p in state.players for c in p.hand)
    assert page.locator("#picture .last-move > *").count() == 0  # no move yet
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#step-label") == f"decision 5 of {len(actions)}"
    # T3: the fifth move (a card played) is marked where it lies on the table
    assert page.locator("#picture .last-move .ring").count() >= 1
    fifth = actions[4]
    assert page.inner_text("#now").endswith(f"scores {', '.join(map(str, fifth['scores']))}")
    assert page.locator("#log li.current").get_attribute("data-step") == "5"
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step-label") == f"decision 4 of {len(actions)}"
    # a seat's view: only its own hand
    page.select_option("#view", "1")
    seat_hand = page.eval_on_selector_all("#picture [id^=hand-card-]", "es => es.length")
    assert seat_hand and page.locator("#picture #hand-1").count() == 1
    assert page.locator("#picture #hand-0").count() == 0
    page.select_option("#view", "none")
    assert page.locator("#picture [id^=hand-card-]").count() == 0
    # the slider, then the end key; the final table is the record's result
    page.fill("#slider", "20")
    page.dispatch_event("#slider", "input")
    assert page.inner_text("#step-label") == f"decision 20 of {len(actions)}"
    page.locator("body").press("End")
    assert page.inner_text("#step-label") == f"decision {len(actions)} of {len(actions)}"
    rows = page.eval_on_selector_all(
        "#final-table tr[data-seat]",
        "rs => rs.map(r => ['.total', '.rank'].map(c => r.querySelector(c).textContent))",
    )
    assert rows == [
        [str(s), str(r)] for s, r in zip(result["scores"], result["ranks"], strict=True)
    ]
    # play runs by itself; pause stops it
    page.locator("body").press("Home")
    page.select_option("#speed", "25")
    page.click("#play")
    page.wait_for_function("+document.getElementById('slider').value >= 10", timeout=30_000)
    page.click("#play")
    assert page.inner_text("#play") == "play"
    stopped = page.inner_text("#step-label")
    page.wait_for_timeout(200)
    assert page.inner_text("#step-label") == stopped != f"decision 0 of {len(actions)}"


def test_a_tikal_replay_draws_the_board_step_by_step(page: Any, tmp_path: Path) -> None:
    record, html = tmp_path / "t.jsonl", tmp_path / "t.html"
    runner = CliRunner()
    args = ["match", "--game", "tikal", "random", "random", "--seed", "1", "-q"]
    assert runner.invoke(main, [*args, "--record", str(record)]).exit_code == 0
    assert runner.invoke(main, ["replay", str(record), "--html", str(html)]).exit_code == 0
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#picture svg").count() == 1
    assert page.locator("#picture .space").count() == 63  # the reconstructed board
    assert page.locator("#picture .tile").count() == 4  # T4: the start spaces
    page.keyboard.press("ArrowRight")  # T17: the first decision places the drawn tile
    assert page.inner_text("#step-label").startswith("decision 1 of ")
    assert page.locator("#picture .tile").count() == 5


def test_a_heading_comes_after_the_move_that_began_its_section(page: Any, tmp_path: Path) -> None:
    """E1: a visit ends with its last withdrawal (and the palaces and cards it
    brings); the next visit's heading follows that move in the log, never above it."""
    record, html = tmp_path / "g.jsonl", tmp_path / "g.html"
    runner = CliRunner()
    args = ["match", "random", "random", "random", "--seed", "4", "-q", "--record", str(record)]
    assert runner.invoke(main, args).exit_code == 0
    assert runner.invoke(main, ["replay", str(record), "--html", str(html)]).exit_code == 0
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    items = page.eval_on_selector_all(
        "#log > li", "es => es.map(e => [e.className.split(' ')[0], e.textContent])"
    )
    heads = [(k, text) for k, (kind, text) in enumerate(items) if kind == "head"]
    visits = [text for _, text in heads if text.startswith("Visit ")]
    assert [v.split()[1] for v in visits] == [str(n) for n in range(1, 13)]
    for k, text in heads:
        n = int(text.split()[1]) if text.startswith("Visit ") else 0
        if n > 1:
            before = next(t for kind, t in reversed(items[:k]) if kind == "action")
            assert f"visit {n - 1} ends" in before, (text, before)
    # every symbol of the picture has its line in the legend
    legend = page.inner_text("#legend")
    for words in ("E: elephant", "R: grand mogul", "M: monk", "a mogul palace", "fortress"):
        assert words in legend


def test_a_folder_makes_one_page_with_a_java_and_a_tikal_game(page: Any, tmp_path: Path) -> None:
    """A folder of records (here two games of two kinds) is one page with a game
    chooser; each game is unpacked when chosen and draws its own board."""
    runner = CliRunner()
    for game, name in (("java", "a-java"), ("tikal", "b-tikal")):
        args = ["match", "--game", game, "first", "first", "--seed", "1", "-q"]
        record = tmp_path / "games" / f"{name}.jsonl"
        assert runner.invoke(main, [*args, "--record", str(record)]).exit_code == 0
    html = tmp_path / "all.html"
    out = runner.invoke(main, ["replay", str(tmp_path), "--html", str(html)])
    assert out.exit_code == 0, out.output
    java = [json.loads(x) for x in (tmp_path / "games" / "a-java.jsonl").read_text().splitlines()]
    decisions = sum(1 for x in java if x["type"] == "action")
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#game option").all_inner_texts() == [  # seats told apart
        "1: a-java.jsonl — first#1, first#2",
        "2: b-tikal.jsonl — first#1, first#2",
    ]
    # J3: Java's grid and its rim, each position a part to point at
    assert page.locator("#picture .pos").count() == 150 + 52
    assert page.inner_text("#step-label") == f"decision 0 of {decisions}"
    for _ in range(3):  # J19-J25: what, where, then the tile's shape: the tile is laid
        page.keyboard.press("ArrowRight")
    assert page.locator("#picture .last-move > *").count() > 0
    assert "tile on level 1" in page.inner_text("#log")
    # what and where, told in full with the tile's shape: faint lines in the log
    assert page.locator("#log li.part").nth(0).inner_text() == "first#1: lay a 3-space tile"
    assert page.locator("#log li.part").count() > decisions / 3
    page.locator("body").press("End")
    totals = page.eval_on_selector_all(
        "#final-table tr[data-seat] .total", "es => es.map(e => +e.textContent)"
    )
    assert totals == java[-1]["scores"]
    # the second game: Tikal's board in place of Java's, its own log and steps
    page.select_option("#game", "1")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#picture .pos").count() == 0
    assert page.locator("#picture .space").count() == 63
    assert page.inner_text("#step-label").startswith("decision 0 of ")
    assert "tile on level" not in page.inner_text("#log")
    assert page.locator("#log li.part").count() == 0
