"""The browser game as a player judges it, in Chromium at 1280 x 900 and on a
phone's 390 x 844: the end in view, an interrupted game that goes on, a page that
stacks on a phone, the board's legal parts in view without hiding it."""

from __future__ import annotations

import json
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import browser_support as support
import pytest
from browser_support import Game, browser, games

from tajmahal.arena.resume import interrupted_at

__all__ = ["browser", "games"]

#: The page, not the engine: the pure-Python pass would only repeat them.
pytestmark = pytest.mark.once

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}

#: The box of an element on the screen.
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is wholly on the screen as it is (no scrolling)."""
    left, top, right, bottom = page.eval_on_selector(selector, BOX)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5


def test_the_end_names_the_winner_and_where_you_finished_in_view(
    games: list[Game], browser: Any, tmp_path: Path
) -> None:
    game = Game(tmp_path, "human", "first", "random", "--seed", "4", "--linger", "60")
    games.append(game)
    with support.opened(browser, *SIZES["phone"]) as phone:
        phone.goto(game.url)
        assert support.next_decision(phone)
        phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down at the log
        assert phone.evaluate("window.scrollY") > 500
        state = game.moves(random.Random(4))  # the person's every decision, to the end
        phone.wait_for_selector("body[data-over='1']")
        result, names = state["result"], state["names"]
        check_the_banner(phone, result, names)
        check_told_once(phone)
    with support.opened(browser, *SIZES["desktop"]) as desktop:
        desktop.goto(game.url)
        desktop.wait_for_selector("body[data-over='1']")
        check_the_banner(desktop, result, names)
        check_told_once(desktop)


def check_told_once(page: Any) -> None:
    """Each move told once in the log: no action's line is told again under it."""
    told = page.eval_on_selector_all(
        "#log li.action",
        "es => es.map(e => [e.querySelector('.what').textContent,"
        " (e.querySelector('.event') || {}).textContent || ''])",
    )
    assert len(told) > 50
    for what, first in told:
        assert not first.startswith(what.split(": ")[0] + " (seat"), (what, first)


def check_the_banner(page: Any, result: dict[str, Any], names: list[str]) -> None:
    """The banner, in view without scrolling: where the person (seat 0) finished,
    the winner named, the seats by rank with their scores."""
    assert in_view(page, "#banner")
    n, ranks, scores = len(names), result["ranks"], result["scores"]
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
    head = page.inner_text("#banner-head")
    shared = ranks.count(ranks[0]) > 1
    if ranks[0] == 1 and not shared:
        assert head == f"You won! 1st of {n}"
    else:
        assert head.startswith(f"You finished {ordinal[ranks[0]]}") and head.endswith(f"of {n}")
    winners = [names[k] for k in range(n) if ranks[k] == 1]
    assert page.inner_text("#banner-line").startswith(" and ".join(winners))
    best = max(scores)
    assert f"with {best} point" in page.inner_text("#banner-line")
    rows = page.eval_on_selector_all(
        "#standings li", "es => es.map(e => [+e.dataset.seat, e.textContent])"
    )
    order = [seat for seat, _ in rows]
    assert order == sorted(range(n), key=lambda k: (ranks[k], k))  # by rank
    for seat, line in rows:
        assert names[seat] in line and line.endswith(f" {scores[seat]}")
    assert "(you)" in rows[order.index(0)][1]


@support.whole_game
def test_an_interrupted_game_goes_on_in_the_browser(
    games: list[Game], browser: Any, tmp_path: Path
) -> None:
    """SIGTERM, then Ctrl-C: each time the decisions so far are kept in the record
    (never an empty seat log); --resume plays them again and the person's seat is
    back in the browser, the game going on to its end."""
    rng = random.Random(7)
    first = Game(tmp_path, "human", "greedy", "random", "--seed", "7")
    games.append(first)
    with support.opened(browser, *SIZES["phone"]) as page:
        page.goto(first.url)
        for _ in range(3):  # on the board, as a person plays
            assert support.next_decision(page)
            support.make_a_move(page, rng)
    said = first.interrupt(signal.SIGTERM)
    kept = interrupted_at(first.record)
    assert kept is not None and kept >= 3
    assert f"the {kept} decisions so far are in {first.record}" in said
    assert f"`tajmahal play --resume {first.record}` goes on with the game" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]  # no empty log
    before = actions(first.record)

    again = Game(tmp_path, "--resume", "game.jsonl", record=False)
    games.append(again)
    with support.opened(browser, *SIZES["desktop"]) as page:
        page.goto(again.url)
        assert support.next_decision(page)  # the person's decision, after those of the record
        shown = page.eval_on_selector_all("#log li.action", "es => es.map(e => e.value)")
        assert shown[-kept:] == list(range(1, kept + 1))
        assert page.inner_text("#scores").startswith("human (you)")
        support.make_a_move(page, rng)
    said = again.interrupt(signal.SIGINT)
    more = interrupted_at(first.record)
    assert more is not None and more > kept and f"the {more} decisions so far" in said
    assert actions(first.record)[: len(before)] == before

    last = Game(tmp_path, "--resume", "game.jsonl", record=False)
    games.append(last)
    state = last.moves(rng)
    assert state["result"] is not None
    lines = last.lines()
    assert lines[-1]["type"] == "result" and actions(first.record)[: len(before)] == before
    support.check_replays(first.record)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_an_interrupted_game_with_a_silent_program_leaves_no_empty_log(
    games: list[Game], tmp_path: Path
) -> None:
    """A bot program that wrote nothing on stderr leaves no log beside the record
    (there was one, empty, for each such seat); the game goes on with the names
    its seats were given."""
    bot = Path(__file__).resolve().parents[1] / "bots" / "random_bot.py"
    game = Game(tmp_path, "ann=human", f"bob={bot}", "random", "--seed", "8")
    games.append(game)
    assert game.state()["names"] == ["ann", "bob", "random"]
    game.moves(random.Random(8), 3)
    said = game.interrupt(signal.SIGINT)
    assert "decisions so far are in" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]
    again = Game(tmp_path, "--resume", "game.jsonl", record=False)
    games.append(again)
    assert again.moves(random.Random(9), 1)["names"] == ["ann", "bob", "random"]


def actions(record: Path) -> list[Any]:
    """The decisions of a record: who chose which action, and how."""
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    return [
        (x["decision"], x["seat"], x["action"], x["choice"], x["by"])
        for x in lines
        if x["type"] == "action"
    ]


@contextmanager
def first_decision(
    games: list[Game], browser: Any, folder: Path, name: str, size: str
) -> Iterator[Any]:
    """A page on a screen of ``size``, at the first decision of a game of ``name``
    (the person at seat 0, a bot at seat 1)."""
    game = Game(folder, "--game", name, "human", "first", "--seed", "3", record=False)
    games.append(game)
    with support.opened(browser, *SIZES[size]) as page:
        page.goto(game.url)
        assert support.next_decision(page)
        yield page


@pytest.mark.parametrize("name", ["tajmahal", "tikal", "java"])
def test_a_phone_shows_the_board_across_the_screen_and_the_panels_under_it(
    games: list[Game], browser: Any, tmp_path: Path, name: str
) -> None:
    with first_decision(games, browser, tmp_path, name, "phone") as page:
        # the picture's areas (the board, its panel) one under another, each across
        boxes = page.eval_on_selector_all("#picture > svg", f"es => es.map({BOX})")
        assert len(boxes) == 2
        for left, _, right, _ in boxes:
            assert left < 12 and right > 378
        assert boxes[1][1] >= boxes[0][3] - 1  # stacked
        # every part with an id once (it stays in the area that shows it)
        ids = page.eval_on_selector_all("#picture svg [id]:not(defs *)", "es => es.map(e => e.id)")
        assert len(ids) == len(set(ids)) > 60
        # the panels under the board; the turn's panel at the screen's foot
        aside = page.eval_on_selector("aside", BOX)
        assert aside[1] >= boxes[1][3] - 1
        turn = page.eval_on_selector("#turn-box", BOX)
        assert turn[3] <= 844.5 and turn[1] > 844 / 2 and in_view(page, "#turn-box")
        # the legend readable: a line a symbol, across the screen, never a word a line
        keys = page.eval_on_selector_all("#legend .key", f"es => es.map({BOX})")
        texts = page.eval_on_selector_all("#legend .key span", f"es => es.map({BOX})")
        assert keys and len(texts) == len(keys)
        for (left, _, right, _), (_, top, _, bottom) in zip(keys, texts, strict=True):
            assert right - left > 340 and bottom - top < 3.2 * 17  # three lines at most
        # a person plays on it: a legal part clicked, its move confirmed
        assert support.make_a_move(page, random.Random(3), lambda label: False)


@pytest.mark.parametrize("name", ["tikal", "java"])
def test_a_wide_board_goes_across_the_page(
    games: list[Game], browser: Any, tmp_path: Path, name: str
) -> None:
    with first_decision(games, browser, tmp_path, name, "desktop") as page:
        assert page.evaluate("document.body.classList.contains('wide')")
        left, _, right, bottom = page.eval_on_selector("#picture svg", BOX)
        assert right - left > 1200 and bottom < 900  # the whole picture in view
        assert in_view(page, "#turn-box")  # what to do, under it


@pytest.mark.parametrize("size", SIZES)
def test_java_rings_no_part_of_a_board_that_is_legal_nearly_everywhere(
    games: list[Game], browser: Any, tmp_path: Path, size: str
) -> None:
    """J19-J20: ~200 positions take the first decision: each gets a dot, the terrain
    stays as it is (no tint, no ring) until one is pointed at."""
    with first_decision(games, browser, tmp_path, "java", size) as page:
        legal = page.locator("#picture .pos.legal")
        assert legal.count() > 150
        assert page.locator("#picture .dots circle").count() == legal.count()
        style = """e => { const s = getComputedStyle(e.querySelector('.hit'));
          return [s.fillOpacity, s.strokeOpacity, getComputedStyle(e).filter]; }"""
        assert legal.nth(40).evaluate(style) == ["0", "0", "none"]
        legal.nth(40).hover()
        assert legal.nth(40).evaluate(style)[1] == "1"  # the ring, pointed at
        # the parts legal in few places keep their rings (the festival cards)
        others = page.locator("#picture .legal:not(.pos)")
        assert others.count() >= 1 and "dotted" not in (others.first.get_attribute("class") or "")


def test_taj_mahal_cards_are_big_and_the_playable_ones_ringed(
    games: list[Game], browser: Any, tmp_path: Path
) -> None:
    game = Game(tmp_path, "human", "first", "random", "--seed", "12", record=False)
    games.append(game)
    for width, height in SIZES.values():
        with support.opened(browser, width, height) as page:
            page.goto(game.url)
            assert support.next_decision(page)
            cards = page.eval_on_selector_all("#picture [id^=hand-card-]", f"es => es.map({BOX})")
            assert cards
            for left, top, right, bottom in cards:
                assert right - left >= 36 and bottom - top >= 48  # was 26 x 35 at 1280 x 900
            ring = page.locator("#picture .card.legal .hit").first.evaluate(
                "e => [getComputedStyle(e).stroke, getComputedStyle(e).strokeWidth]"
            )
            assert ring == ["rgb(224, 48, 30)", "3px"]
            # who leads each prize, at the court
            prizes = page.eval_on_selector_all(
                "#picture .prize", "es => es.map(e => e.querySelector('.leader').textContent)"
            )
            assert prizes and all(p for p in prizes)


@pytest.mark.parametrize("name", ["tajmahal", "java"])
def test_the_replay_on_a_phone_shows_the_board_across_the_screen(
    browser: Any, tmp_path: Path, name: str
) -> None:
    from click.testing import CliRunner

    from tajmahal.cli import main

    record, html = tmp_path / "g.jsonl", tmp_path / "g.html"
    runner = CliRunner()
    made = runner.invoke(main, ["match", "--game", name, "greedy", "random", "random", "-q",
                                "--seed", "2", "--record", str(record)])  # fmt: skip
    assert made.exit_code == 0, made.output
    assert runner.invoke(main, ["replay", str(record), "--html", str(html)]).exit_code == 0
    with support.opened(browser, *SIZES["phone"]) as page:
        page.goto(html.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("End")  # every hand shown: the panel at its fullest
        boxes = page.eval_on_selector_all("#picture > svg", f"es => es.map({BOX})")
        assert len(boxes) == 2
        for left, _, right, _ in boxes:
            assert left < 12 and right > 378
        log = page.eval_on_selector("aside", BOX)
        assert log[1] >= boxes[1][3] - 1 and log[2] - log[0] > 360  # under it, across


#: Each move of the list chosen in turn: the boxes on the screen of its preview's
#: labels and of the board (the picture's first area; on a phone, its own picture).
LABELS = r"""() => {
  const shown = [];
  const count = document.querySelectorAll('#all-moves button.move').length;
  for (let k = 0; k < count; k++) {
    const button = document.querySelectorAll('#all-moves button.move')[k];
    button.click();
    const svg = document.querySelector('#picture > svg'), m = svg.getScreenCTM();
    const [l, t, w, h] = (svg.dataset.areas || svg.getAttribute('viewBox'))
      .split('|')[0].trim().split(/\s+/).map(Number);
    const board = [m.a * l + m.e, m.d * t + m.f, m.a * (l + w) + m.e, m.d * (t + h) + m.f];
    for (const label of svg.querySelectorAll('.preview rect')) {
      const r = label.getBoundingClientRect();
      shown.push([button.textContent, [r.left, r.top, r.right, r.bottom], board]);
    }
  }
  return shown;
}"""


@pytest.mark.parametrize("size", SIZES)
def test_tikal_labels_lie_whole_on_the_board(
    games: list[Game], browser: Any, tmp_path: Path, size: str
) -> None:
    """Every move's preview label (a tile's turn, a figure's AP cost) wholly on the
    board, also beside a space at its edge ("uild camp: 5 AP" was cut)."""
    game = Game(tmp_path, "--game", "tikal", "human", "first", "--seed", "5", record=False)
    games.append(game)
    rng = random.Random(5)
    with support.opened(browser, *SIZES[size]) as page:
        page.goto(game.url)
        seen: set[str] = set()
        for _ in range(3):  # a tile placed, then figures moved and camps built
            assert support.next_decision(page)
            for what, (left, top, right, bottom), board in page.evaluate(LABELS):
                assert board[0] - 0.5 <= left and right <= board[2] + 0.5, what
                assert board[1] - 0.5 <= top and bottom <= board[3] + 0.5, what
                seen.add(what.split(" ")[0])
            game.moves(rng, 1)
        assert len(seen) >= 2, seen
