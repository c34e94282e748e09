"""Tikal as pictures (tajmahal.tikal.render): the SVG of hand-built positions, what
it hides, the click targets, and the HTML replay viewer of a Tikal record."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from attrs import evolve
from referee_support import cli
from tikal_scenario import TEMPLE_A, TEMPLE_B, at, lay, put, stacked
from viewer_support import Page

from tajmahal.tikal import Choose, EndTurn, Move, Place, apply, legal_actions, new_game
from tajmahal.tikal.adapter import TIKAL
from tajmahal.tikal.render import SEAT_COLORS, svg
from tajmahal.tikal.state import State
from tajmahal.tikal.views import view

SVG = "{http://www.w3.org/2000/svg}"


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = root.find(f".//*[@id='{ident}']")
    assert found is not None, ident
    return found


def test_a_placed_tile_lies_on_its_hex_with_its_stones_turned() -> None:
    state = new_game(stacked())  # T11: seat 0 draws tile 0 (A jungle, stones 0 1 2 0 0 0)
    a6 = at(0, 5)
    state = apply(state, Place(a6, 1))  # T19: edge d now faces direction d + 1
    root = ET.fromstring(svg(state, ["ann", "bob"]))
    assert root.tag == f"{SVG}svg"
    tile = by_id(root, f"tile-{a6}")
    assert tile.get("data-kind") == "jungle" and tile.get("data-tile") == "0"
    # the hex of (0, 5): flat-topped, radius 40, 12 px margin; column 0 is at x 52,
    # row 5 at 40 * sqrt(3) * 5.5 + 12; its first corner points east
    x, y = 52.0, 40 * math.sqrt(3) * 5.5 + 12
    polygon = tile.find(f"{SVG}polygon")
    assert polygon is not None
    first = [float(v) for v in polygon.get("points", "").split()[0].split(",")]
    assert first == [round(x + 40, 1), round(y, 1)]
    stones = [(int(s.get("data-edge", "")), float(s.get("cx", "")), float(s.get("cy", "")))
              for s in tile.iter(f"{SVG}circle")]  # fmt: skip
    assert sorted(d for d, _, _ in stones) == [2, 3, 3]  # 1 stone north, 2 northwest
    north = next((cx, cy) for d, cx, cy in stones if d == 2)
    assert north[0] == x and north[1] < y - 25
    assert all(cx < x - 20 and cy < y for d, cx, cy in stones if d == 3)
    # the start spaces (T4) are drawn too, and the unexplored rest is not
    assert len(root.findall(".//*[@class='tile']")) == 5
    assert tile_count(root, "temple") == 2


def tile_count(root: ET.Element, kind: str) -> int:
    return sum(1 for e in root.iter() if e.get("class") == "tile" and e.get("data-kind") == kind)


def hand_built() -> State:
    """Seat 1 has a camp on C4 (a jungle), 2 workers and the leader on temple B3 and a
    jade mask; seat 0 guards temple B4; C3 holds three cacao jars face down."""
    state = new_game(stacked())
    c4, c3 = at(2, 2), at(2, 1)
    state = lay(state, c4, "jungle")
    state = lay(state, c3, "treasure", tokens=(5, 5, 5))  # 5: cacao jar
    spaces = list(state.spaces)
    spaces[c4] = evolve(spaces[c4], camp=1)
    spaces[TEMPLE_B] = evolve(spaces[TEMPLE_B], guard=0)
    state = put(evolve(state, spaces=tuple(spaces)), TEMPLE_A, 1, workers=2, leader=True)
    players = list(state.players)
    players[1] = evolve(players[1], camps=(c4,), treasures=(1, 0, 0, 0, 0, 0, 0, 0))
    players[0] = evolve(players[0], guards=(TEMPLE_B,))
    return evolve(state, players=tuple(players))


def test_camps_guards_and_figures_in_their_seats_colours() -> None:
    state = hand_built()
    root = ET.fromstring(svg(state, ["ann", "bob"]))
    camp = by_id(root, f"camp-{at(2, 2)}")
    assert camp.get("fill") == SEAT_COLORS[1] and camp.get("data-seat") == "1"
    guard = by_id(root, f"guard-{TEMPLE_B}")
    rect = guard.find(f"{SVG}rect")
    assert rect is not None and rect.get("fill") == SEAT_COLORS[0]
    figures = by_id(root, f"figures-{TEMPLE_A}-1")
    assert (figures.get("data-workers"), figures.get("data-leader")) == ("2", "1")
    assert "".join(figures.itertext()) == "2+L"
    assert root.find(f".//*[@id='figures-{TEMPLE_A}-0']") is None  # seat 0 has none there
    seat = "".join(by_id(root, "seat-1").itertext())
    assert seat == "bob: 0 points"
    text = "".join(root.itertext())
    assert "temples 0, treasures 0, capital 0" in text
    assert "camps left 1, guards left 2" in text and "camps left 2, guards left 1" in text
    assert "16 workers in reserve, 0 removed; leader on B3" in text  # T12: 18 workers


def test_nothing_hidden_is_drawn_and_every_seat_sees_the_same_picture() -> None:
    state = hand_built()
    picture = svg(state, ["ann", "bob"])
    root = ET.fromstring(picture)
    c3 = by_id(root, f"tile-{at(2, 1)}")
    # T21: three tokens face down, drawn as backs; nobody knows they are cacao jars
    assert c3.get("data-tokens") == "3" and len(c3.findall(f"{SVG}rect")) == 3
    assert "cacao" not in picture
    assert "jade mask" in picture  # seat 1's treasure lies face up (T32)
    # T11: the stack's order is hidden: tile 1 is next, only its back letter shows
    assert "tile 0 (A: jungle)" in picture and not re.search(r"tile 1\b", picture)
    assert "stack: 35 tiles (A3 B6 C5 D6 E5 F6 G4)" in "".join(root.itertext())
    pictures = TIKAL.pictures()
    assert [pictures.hand(state, k) for k in (0, 1)] == [[], []]
    assert svg(view(state, 1), ["ann", "bob"]) == picture == svg(view(state, 0), ["ann", "bob"])
    assert state._repr_svg_() == svg(state) == view(state, 1)._repr_svg_()  # Jupyter


def test_actions_on_a_space_click_that_space() -> None:
    pictures = TIKAL.pictures()
    data = TIKAL.action_to_data
    state = new_game(stacked())
    assert pictures.targets(state, data(Place(7, 2))) == ("space-7",)
    # T25: a figure's move: the space it leaves, then the one it goes to
    assert pictures.targets(state, data(Move(3, 9, True))) == ("space-3", "space-9")
    assert pictures.targets(state, data(Choose(4))) == ("choice-4",)
    assert pictures.targets(state, data(EndTurn())) == ()
    # every target of a short random game is an element of its picture
    state = new_game(TIKAL.random_setup(3, 2, "auction"))
    rng = random.Random(2)
    board = pictures.board(state)
    for _ in range(60):
        public = "".join(pictures.public(state, ["a", "b", "c"]))
        root = ET.fromstring(pictures.document(board + public))
        ids = {e.get("id") for e in root.iter()}
        for action in legal_actions(state):
            targets = pictures.targets(state, data(action))
            assert set(targets) <= ids, (action, targets)
            ET.fromstring(f'<g xmlns="{SVG[1:-1]}">{pictures.preview(state, data(action))}</g>')
        state = apply(state, rng.choice(legal_actions(state)))


def test_a_tikal_record_becomes_an_html_viewer_with_pictures(tmp_path: Path) -> None:
    record = tmp_path / "t.jsonl"
    code, _, err = cli("match", "--game", "tikal", "random", "random", "-q", "--seed", "1",
                       "--record", str(record))  # fmt: skip
    assert code == 0, err
    page = tmp_path / "t.html"
    code, _, err = cli("replay", str(record), "--html", str(page))
    assert code == 0, err
    read = Page(page)
    game = read.games[0]
    document = read.fragments[game["document"]]
    assert document.startswith("<svg")
    start = ET.fromstring(read.picture(0, 0, []))
    assert len(start.findall(".//*[@class='space']")) == 63
    assert len(start.findall(".//*[@class='tile']")) == 4  # T4: the four start spaces
    last = ET.fromstring(read.picture(0, len(game["steps"]) - 1, []))
    assert "Tikal (basic): game over" in "".join(last.itertext())
    assert "game over" not in "".join(start.itertext())


def test_a_preview_label_lies_whole_on_the_board() -> None:
    """A label beside a space at the board's edge (a camp's cost on A-column spaces)
    is moved along, never cut by the picture's edge ("uild camp: 5 AP")."""
    from tajmahal.tikal.render import _geometry

    pictures = TIKAL.pictures()
    width = _geometry(TIKAL.components)[1]
    state = new_game(stacked())
    seen = 0
    for _ in range(12):  # the first turns: tiles and figures on the left edge
        for action in legal_actions(state):
            preview = pictures.preview(state, TIKAL.action_to_data(action))
            tags = r'<rect x="([-\d.]+)" y="[-\d.]+" width="([\d.]+)" height="17"'
            for x, w in re.findall(tags, preview):
                assert float(x) >= 0 and float(x) + float(w) <= width, preview
                seen += 1
        state = apply(state, legal_actions(state)[0])
    assert seen > 50
