"""The replay viewer against hostile names and peeking: a bot named ``<!--<script>``
blanked the page; a seat's view showed the other seats' secret draws and the
whole log, the future included, from the first step."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
from browser_support import browser, page
from referee_support import cli, faulty

from tajmahal.arena.viewer import game_data
from tajmahal.tajmahal.adapter import TAJMAHAL

__all__ = ["browser", "page"]
NAMES = ("<!--<script>", '</script><img src=x onerror="document.title=1">')


def hostile_page(tmp_path: Path) -> tuple[Path, Path]:
    record, html = tmp_path / "g.jsonl", tmp_path / "g.html"
    code, _, err = cli("match", "first", *(faulty("odd_name", n) for n in NAMES),
                       "--seed", "9", "--record", str(record), "-q")
    assert code == 0, err
    code, _, err = cli("replay", str(record), "--html", str(html))
    assert code == 0, err
    return record, html


def test_hostile_names_stay_inside_the_pages_data(tmp_path: Path) -> None:
    _, html = hostile_page(tmp_path)
    text = html.read_text()
    (data,) = re.findall(r'<script id="data" type="application/json">(.*?)</script>', text,
                         re.DOTALL)
    assert "<" not in data  # nothing a parser could take for a tag or a comment
    index = orjson.loads(data)["index"][0]
    assert index["names"] == ["first", *NAMES]
    assert text.count("</script>") == 2  # the data's and the script's: no other


def test_a_page_with_hostile_names_loads_and_shows_them_as_text(
    page: Any, tmp_path: Path
) -> None:
    _, html = hostile_page(tmp_path)
    page.route("**/*", lambda route: (
        route.abort() if not route.request.url.startswith("file:") else route.continue_()))
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    names = page.eval_on_selector_all("#final-table td.name", "es => es.map(e => e.textContent)")
    assert names == ["first", *NAMES]
    assert page.evaluate("document.title") != "1"
    assert page.locator("img").count() == 0


def test_a_seats_view_shows_what_it_was_told_up_to_the_step_shown(
    page: Any, tmp_path: Path
) -> None:
    record, html = tmp_path / "g.jsonl", tmp_path / "g.html"
    code, _, err = cli("match", "greedy", "first", "random", "--seed", "9", "--record",
                       str(record), "-q")
    assert code == 0, err
    data = game_data(TAJMAHAL, record)
    # The card bonus tile draws from the deck: only its seat is told which (W6).
    secret = [(i, s) for i, s in enumerate(data["steps"]) if s.get("views") is not None]
    assert secret
    for _, step in secret:
        drawer = step["seat"]
        (draw,) = [x for x in step["lines"] if " draws " in x]
        assert draw in step["views"][drawer]
        others = [v for k, v in enumerate(step["views"]) if k != drawer]  # and a spectator
        assert all(draw not in view for view in others)
    code, _, err = cli("replay", str(record), "--html", str(html))
    assert code == 0, err
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    at, step = secret[0]
    log = "#log > li:not([hidden])"
    assert page.locator(log).count() > at  # every hand: the whole game
    page.select_option("#view", str((step["seat"] + 1) % 3))
    shown = page.eval_on_selector_all(log, "es => es.map(e => e.dataset.step)")
    assert set(shown) == {"0"} and page.locator("#final").is_hidden()  # the start only
    page.fill("#slider", str(at))
    page.dispatch_event("#slider", "input")
    told = page.inner_text("#log")
    assert not any(" draws " in line and "bonus tile" in line for line in told.splitlines())
    assert f"decision {step['decision'] + 1}" not in page.inner_text("#log")
    page.select_option("#view", str(step["seat"]))
    assert any(" draws " in line for line in page.inner_text("#log").splitlines())
    page.keyboard.press("End")
    assert page.locator("#final").is_visible()
