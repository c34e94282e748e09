"""Boards a person can read, measured in Chromium at 1280 x 900: names that never
overlap, click targets at least 24 px, text at least 9 px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import browser, opened
from click.testing import CliRunner

from tajmahal.cli import main

__all__ = ["browser"]

#: The page, not the engine: the pure-Python pass would only repeat them.
pytestmark = pytest.mark.once

#: Each text's size on the screen, in px.
SIZES = """sel => [...document.querySelectorAll(sel)].map(e =>
  [e.textContent, e.getScreenCTM().a * parseFloat(e.getAttribute('font-size'))])"""
BOXES = """sel => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect();
  return [e.textContent || e.id, r.left, r.top, r.right, r.bottom];
})"""


@pytest.fixture
def small(browser: Any) -> Iterator[Any]:
    with opened(browser, 1280, 900) as page:
        yield page


def viewer(tmp_path: Path, *args: str) -> str:
    record, html = tmp_path / "g.jsonl", tmp_path / "g.html"
    runner = CliRunner()
    assert runner.invoke(main, ["match", *args, "-q", "--record", str(record)]).exit_code == 0
    assert runner.invoke(main, ["replay", str(record), "--html", str(html)]).exit_code == 0
    return html.as_uri()


def overlapping(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    out = []
    for i, (a, *ra) in enumerate(boxes):
        for b, *rb in boxes[i + 1 :]:
            w = min(ra[2], rb[2]) - max(ra[0], rb[0])
            h = min(ra[3], rb[3]) - max(ra[1], rb[1])
            if w > 0.5 and h > 0.5:
                out.append((a, b))
    return out


def test_taj_mahal_map_names_never_overlap_and_targets_are_big(small: Any, tmp_path: Path) -> None:
    small.goto(viewer(tmp_path, "random", "random", "random", "random", "--seed", "2"))
    small.wait_for_selector("body[data-ready='1']")
    for _ in range(60):  # palaces, mogul palaces and bonus tiles on the map
        small.keyboard.press("ArrowRight")
    names = small.evaluate(BOXES, "#picture .city-name, #picture .province-name")
    assert len(names) == 49 + 12  # C8: 49 cities, 12 provinces
    assert overlapping(names) == []
    small_text = [t for t in small.evaluate(SIZES, "#picture text") if t[1] < 9]
    assert small_text == []  # no text smaller than 9 px
    # names do not cover the cities either
    cities = small.evaluate(BOXES, "#picture .city .hit")
    assert len(cities) == 49
    assert min(b[3] - b[1] for b in cities) >= 24  # a city is a 24 px target at least
    assert overlapping(cities) == []
    for label in names:
        for city in cities:
            inner = [c + 3 if k < 2 else c - 3 for k, c in enumerate(city[1:])]
            w = min(label[3], inner[2]) - max(label[1], inner[0])
            h = min(label[4], inner[3]) - max(label[2], inner[1])
            assert not (w > 0 and h > 0), (label[0], city[0])
    cards = small.evaluate(BOXES, "#picture [id^=hand-card-], #picture [id^=display-card-]")
    assert cards and min(b[3] - b[1] for b in cards) >= 24


def test_tikal_spaces_are_big_targets(small: Any, tmp_path: Path) -> None:
    small.goto(viewer(tmp_path, "--game", "tikal", "random", "random", "--seed", "2"))
    small.wait_for_selector("body[data-ready='1']")
    spaces = small.evaluate(BOXES, "#picture .space .hit")
    assert len(spaces) == 63 and min(b[3] - b[1] for b in spaces) >= 24
    small_text = [t for t in small.evaluate(SIZES, "#picture text") if t[1] < 9]
    assert small_text == []  # no text smaller than 9 px


def test_java_positions_are_big_targets_and_every_text_readable(small: Any, tmp_path: Path) -> None:
    small.goto(viewer(tmp_path, "--game", "java", "random", "random", "--seed", "2"))
    small.wait_for_selector("body[data-ready='1']")
    small.keyboard.press("End")
    positions = small.evaluate(BOXES, "#picture .pos .hit")
    assert len(positions) == 202 and min(b[3] - b[1] for b in positions) >= 24
    small_text = [t for t in small.evaluate(SIZES, "#picture text") if t[1] < 9]
    assert small_text == []  # no text smaller than 9 px
    # the row letters and column numbers on the board's edge
    edge = small.evaluate(BOXES, "#picture .coordinates text")
    assert len(edge) == 2 * 10 + 2 * 15
