"""`tajmahal replay RECORD --html FILE`: the self-contained HTML replay viewer
(its data; tests/test_browser_replay.py drives it in Chromium)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from viewer_support import Page

from tajmahal.cli import main

ROOT = Path(__file__).resolve().parent.parent
CRASH = f"{sys.executable} {ROOT / 'tests' / 'faulty_bots' / 'crash_midgame.py'}"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def record_of(path: Path, *args: str) -> dict[str, Any]:
    """Play a match into ``path``; its result line."""
    result = run("match", *args, "--record", str(path), "-q")
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[-1]["type"] == "result"
    return lines[-1]


def page_data(page: Path) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    read = Page(page)
    return read.text, read.data, read.games


def test_one_self_contained_file_with_every_step_and_the_result(tmp_path: Path) -> None:
    result = record_of(tmp_path / "g.jsonl", "greedy", "random", "first", "--seed", "5")
    out = run("replay", str(tmp_path / "g.jsonl"), "--html", str(tmp_path / "g.html"))
    assert out.exit_code == 0, out.output
    text, data, [game] = page_data(tmp_path / "g.html")
    # nothing from the network: no external scripts, styles, images or fonts
    assert not re.search(r"<(script|link|img|iframe)[^>]*(src|href)=", text)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text + json.dumps(game))
    steps = game["steps"]
    assert len(steps) == result["decisions"] + 1  # the start, then one per decision
    assert steps[-1]["scores"] == result["scores"]
    assert game["result"]["ranks"] == result["ranks"]
    assert [s["decision"] for s in steps] == list(range(len(steps)))
    assert data["index"][0]["names"] == ["greedy", "random", "first"]
    # the pictures: the board once, then per step the public part and each hand
    page = Page(tmp_path / "g.html")
    assert page.fragments[game["board"]].startswith('<g class="board">')
    assert len(game["publics"]) == len(steps)
    assert [len(h) for h in game["hands"]] == [len(steps)] * 3  # by seat, then step
    assert "hand-card-" not in page.public(0, 10)
    assert all('id="hand-1"' in page.hand(0, 1, k) for k in range(len(steps)))
    # each step's picture is the one the game draws of its state
    from tajmahal.tajmahal.actions import Action
    from tajmahal.tajmahal.render import svg
    from tajmahal.tajmahal.rules import apply, new_game
    from tajmahal.tajmahal.serialize import from_data
    from tajmahal.tajmahal.setups import Setup

    lines = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text().splitlines()]
    state = new_game(Setup.random(3, seed=lines[0]["setup_seed"]))  # seed 5's, under the key
    for step, line in enumerate([x for x in lines if x["type"] == "action"][:30], 1):
        state = apply(state, from_data(line["action"], Action))
        drawn = svg(state, ["greedy", "random", "first"])
        assert (
            page.picture(0, step, [0, 1, 2]).replace(page.fragments[game["marks"][step]], "")
            == drawn
        )


def test_a_fault_is_marked_at_its_step(tmp_path: Path) -> None:
    result = record_of(tmp_path / "f.jsonl", "first", CRASH, "--seed", "2")
    [fault] = result["faults"]
    assert (
        run("replay", str(tmp_path / "f.jsonl"), "--html", str(tmp_path / "f.html")).exit_code == 0
    )
    _, _, [game] = page_data(tmp_path / "f.html")
    marked = [s for s in game["steps"] if s.get("fault")]
    assert [s["fault"]["seat"] for s in marked] == [1]
    assert marked[0]["fault"]["kind"] == fault["kind"] == "crash"
    later = [
        s for s in game["steps"] if s.get("seat") == 1 and s["decision"] > marked[0]["decision"]
    ]
    assert later and all(s["by"] == "fallback" for s in later)


def test_a_folder_of_records_makes_one_page_of_all_games(tmp_path: Path) -> None:
    games = tmp_path / "tour" / "games"
    games.mkdir(parents=True)
    record_of(games / "000001.jsonl", "first", "random", "--seed", "1")
    record_of(games / "000002.jsonl", "random", "first", "--seed", "2")
    (tmp_path / "tour" / "journal.jsonl").write_text("")
    out = run("replay", str(tmp_path / "tour"), "--html", str(tmp_path / "t.html"))
    assert out.exit_code == 0, out.output
    assert "2 games" in out.output
    # the games replayed so far, one line each when the output is not a terminal
    assert "1/2 games replayed\n2/2 games replayed\n" in out.output
    assert "\r" not in out.output
    _, data, games_data = page_data(tmp_path / "t.html")
    assert [g["record"] for g in data["index"]] == ["000001.jsonl", "000002.jsonl"]
    assert [g["names"] for g in games_data] == [["first", "random"], ["random", "first"]]


def test_a_game_that_draws_nothing_gets_the_log_and_tables(tmp_path: Path) -> None:
    from referee_support import Undrawn

    from tajmahal.arena.viewer import write_viewer
    from tajmahal.tikal.adapter import TIKAL

    record_of(tmp_path / "t.jsonl", "--game", "tikal", "first", "random", "--seed", "3")
    assert write_viewer(lambda _: Undrawn(TIKAL), [tmp_path / "t.jsonl"], tmp_path / "t.html")
    _, _, [game] = page_data(tmp_path / "t.html")
    assert game["board"] is None and game["document"] is None
    assert game["publics"] == [] and game["hands"] == [[], []]
    assert game["sources"] == ["temples", "treasures", "capital"]
    assert all(s["lines"] or s["text"] for s in game["steps"])


def test_a_record_that_does_not_replay_writes_no_page(tmp_path: Path) -> None:
    record_of(tmp_path / "g.jsonl", "first", "first", "--seed", "4")
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    last = json.loads(lines[-1])
    last["scores"][0] += 1
    (tmp_path / "g.jsonl").write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")
    out = CliRunner().invoke(main, ["replay", str(tmp_path / "g.jsonl"), "--html", "x.html"])
    assert out.exit_code == 1
    assert "MISMATCH" in out.output
    assert not Path("x.html").exists()


def test_a_folder_needs_html_or_verify(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["replay", str(tmp_path)])
    assert out.exit_code == 2
    assert "is a folder" in out.output and "--verify, --html for a folder" in out.output
    out = CliRunner().invoke(main, ["replay", str(tmp_path), "--verify"])  # every record
    assert out.exit_code == 2 and "no game records (*.jsonl) in" in out.output


def test_the_docs_show_every_screenshot_of_the_pages() -> None:
    """docs/browser.md and docs/ladder.md show each picture docs/screenshots.py
    makes, all checked in."""
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "docs" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    screenshots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screenshots)
    shown = [name for doc in ("browser.md", "ladder.md") for name in re.findall(
        r"!\[[^]]+\]\(images/([^)]+)\)", (ROOT / "docs" / doc).read_text())]
    assert sorted(shown) == sorted(screenshots.FILES)
    made = [f for name, _, _ in screenshots.SHOTS for f in screenshots.files_of(name)]
    assert sorted(made) == sorted(screenshots.FILES)  # each picture made by one shot
    for name in shown:
        assert (ROOT / "docs" / "images" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_the_first_parts_of_a_java_action_are_told_faintly(tmp_path: Path) -> None:
    """J19: an action is what, where, then how; its first decisions cause nothing
    and the log tells the whole action at its last: they are marked as parts."""
    record_of(tmp_path / "j.jsonl", "--game", "java", "first", "first", "--seed", "1")
    record_of(tmp_path / "t.jsonl", "first", "first", "--seed", "1")
    out = run("replay", str(tmp_path), "--html", str(tmp_path / "p.html"))
    assert out.exit_code == 0, out.output
    _, _, [java, taj_mahal] = page_data(tmp_path / "p.html")
    steps = java["steps"]
    # the first turn: a 3-space tile (what), its village's position (where), its
    # shape (how): the tile is laid by the third decision
    assert [s["part"] for s in steps[1:4]] == [True, True, False]
    assert steps[1]["text"] == "lay a 3-space tile" and not steps[1]["lines"]
    # told once: by what it caused, with its level and AP
    assert steps[3]["told"] and steps[3]["text"].startswith("lays a 3-space tile on level 1")
    for k, s in enumerate(steps[1:], 1):  # a part is followed by its seat's next decision
        if s["part"]:
            assert not s["lines"] and steps[k + 1]["seat"] == s["seat"]
    assert sum(s["part"] for s in steps) > len(steps) / 3
    assert not any(s["part"] for s in taj_mahal["steps"])  # one decision an action


def test_alike_seats_are_told_apart_on_the_pictures_as_in_the_log(tmp_path: Path) -> None:
    """Two random seats: random#1 and random#2 on the panel, as the log says."""
    from tajmahal.arena.viewer import _header_names

    record = tmp_path / "g.jsonl"
    args = ["match", "--game", "java", "greedy", "random", "random", "-q", "--seed", "2"]
    made = CliRunner().invoke(main, [*args, "--record", str(record)])
    assert made.exit_code == 0, made.output
    assert _header_names(record) == ["greedy", "random#1", "random#2"]
