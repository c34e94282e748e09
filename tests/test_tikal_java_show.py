"""Tikal and Java in the terminal: their ``terminal()`` positions and `tajmahal show`
on their records (an 80-column terminal)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import orjson
from click.testing import CliRunner
from java_scenario import at as java_at
from java_scenario import fresh, palace, put, tiles
from rich.console import Console
from tikal_scenario import TEMPLE_A, lay, stacked
from tikal_scenario import at as tikal_at
from tikal_scenario import put as tikal_put

from tajmahal.cli import main
from tajmahal.java.adapter import JAVA
from tajmahal.tikal import new_game
from tajmahal.tikal.adapter import TIKAL


def text_of(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def fits(text: str, width: int = 80) -> bool:
    return max(len(line) for line in text.splitlines()) <= width


def test_tikal_lists_each_explored_space_with_its_figures_and_hides_the_tokens() -> None:
    state = new_game(stacked())  # T11: seat 0 draws tile 0 (A, jungle)
    # the top of the supply is 0, 0, 0: jade masks (T14), laid face down on C4
    state = lay(state, tikal_at(2, 2), "treasure", (1, 0, 0, 0, 0, 0), tokens=(0, 0, 0))
    state = tikal_put(state, TEMPLE_A, 1, workers=2, leader=True)
    text = text_of(TIKAL.terminal(state, ["ann", "bob"], None))
    assert fits(text)
    assert "ann (seat 0) to act: place; in hand: tile 0 (A: jungle)" in text
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line[:1].isupper()}
    # the start spaces (T4, docs/tikal-rules.md): base camp (0,3) = A4, temples of
    # value 1 on (1,2) = B3 and (1,3) = B4, jungle (0,4) = A5; stones by edge
    assert rows["A4"][1:5] == ["base", "SE2", "NE1", "S1"]
    assert rows["B3"][1:] == ["temple", "1", "SE1", "N1", "S1", "1:2+L"]
    assert rows["B4"][1:] == ["temple", "1", "NE2", "SW1", "S1"]
    assert rows["C4"][1:] == ["treasure", "SE1", "3"]  # three face down, by count only
    assert "jade mask" not in text  # nobody has seen them
    seats = [line.split() for line in text.splitlines() if re.match(r"\s+[01] (ann|bob) ", line)]
    # T12: 18 workers, 2 of bob's and the leader on B3; 2 camps and 2 guards left each
    assert seats[0] == ["0", "ann", "0", "0", "0", "0", "18", "reserve", "2", "2", "-"]
    assert seats[1] == ["1", "bob", "0", "0", "0", "0", "16", "B3", "2", "2", "-"]


def test_java_draws_the_grid_and_shows_only_the_seats_own_hand() -> None:
    state = tiles(fresh(), "village", java_at(0, 2), java_at(1, 1))
    state = tiles(state, "rice", java_at(1, 1), level=2)
    state = palace(put(state, java_at(1, 1), 1), java_at(0, 2), 6)
    text = text_of(JAVA.terminal(state, ["ann", "bob"], 1))
    assert fits(text)
    lines = text.splitlines()
    # row A: the rim cell, then A1 bare, A2 bare, A3 a village of height 1 with a palace
    row_a = next(line for line in lines if line.startswith("A "))
    assert row_a.split()[1:5] == ["^", ".", ".", "Pv1"]  # J46: the north rim is mountains
    row_b = next(line for line in lines if line.startswith("B "))
    assert row_b.split()[1:4] == ["^", ".", "1r2"]  # B2: bob's figure on rice, height 2
    assert "palaces: A3 6" in text
    # fresh(): the deck in order, seat 0 holds cards 0-2, seat 1 cards 3-5
    c = JAVA.components
    own = ", ".join("+".join(c.symbols[s] for s in c.cards[k]) for k in (3, 4, 5))
    wide = text_of(JAVA.terminal(state, ["ann", "bob"], 1), 200).splitlines()
    ann = next(line for line in wide if line.lstrip().startswith("0 ann"))
    bob = next(line for line in wide if line.lstrip().startswith("1 bob"))
    assert ann.rstrip().endswith(" 3 cards") and bob.rstrip().endswith(f" {own}")
    every = text_of(JAVA.terminal(state, ["ann", "bob"], None), 200)
    assert "3 cards" not in every


def record(tmp_path: Path, game: str) -> tuple[Path, dict[str, object]]:
    path = tmp_path / f"{game}.jsonl"
    args = ["match", "--game", game, "random", "first", "--seed", "1", "--record", str(path)]
    done = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    return path, orjson.loads(path.read_bytes().splitlines()[-1])


def show(*args: str) -> str:
    done = CliRunner().invoke(main, ["show", *args], env={"COLUMNS": "80"})
    assert done.exit_code == 0, done.output
    assert fits(done.output)
    return done.output


def seat_rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines() if re.match(r"\s+[01] (random|first) ", line)]


def test_show_prints_a_tikal_record_with_the_result_s_scores(tmp_path: Path) -> None:
    path, result = record(tmp_path, "tikal")
    out = show(str(path))
    assert "Game over" in out
    rows = seat_rows(out)
    assert [r[:3] for r in rows] == [
        ["0", "random", str(result["scores"][0])],  # type: ignore[index]
        ["1", "first", str(result["scores"][1])],  # type: ignore[index]
    ]
    start = show(str(path), "--step", "0")
    assert "random (seat 0) to act: place" in start and "A4    base" in start


def test_show_prints_a_java_record_with_the_result_s_scores(tmp_path: Path) -> None:
    path, result = record(tmp_path, "java")
    out = show(str(path))
    assert "Game over" in out
    rows = seat_rows(out)
    assert [r[:3] for r in rows] == [
        ["0", "random", str(result["scores"][0])],  # type: ignore[index]
        ["1", "first", str(result["scores"][1])],  # type: ignore[index]
    ]
    start = show(str(path), "--step", "0", "--seat", "0")
    assert "random (seat 0) to act: act" in start
    assert seat_rows(start)[1][-2:] == ["3", "cards"]  # J13: seat 1's hand, unseen
