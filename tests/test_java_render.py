"""Java as pictures (tajmahal.java.render and .pictures): positions named on the
board's edge, land tiles outlined with their levels, figures and palaces, hands
kept to their seats, what a person clicks and its preview, and the browser game's
joined first decision."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from java_scenario import BOARD, at, fresh, land, palace, put, rim, tiles

from tajmahal.arena.offers import offers
from tajmahal.java import apply, legal_actions
from tajmahal.java.adapter import JAVA
from tajmahal.java.render import SEAT_COLORS, svg
from tajmahal.java.texts import position_label

SVG = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def spot(root: ET.Element, p: int) -> ET.Element:
    found = root.find(f".//*[@data-position='{p}']")
    assert found is not None, p
    return found


def sides(group: ET.Element) -> int:
    """How many sides of its hex the tile outline of a position draws."""
    path = next(e for e in group.iter(f"{SVG}path"))
    return path.get("d", "").count("M")


def test_positions_are_named_on_the_edge_and_clickable() -> None:
    root = parse(svg(fresh(), ["ann", "bob"]))
    assert len(root.findall(".//*[@class='pos']")) == 150 + 52  # J3: the grid and its rim
    edge = root.find(".//*[@class='coordinates']")
    assert edge is not None
    words = [t.text for t in edge.iter(f"{SVG}text")]
    for letter in "ABCDEFGHIJ":  # the rows, left and right
        assert words.count(letter) == 2
    for column in range(1, 16):  # the columns, above and below
        assert words.count(str(column)) == 2
    tip = root.find(f".//*[@id='pos-{at(2, 4)}']/{SVG}title")
    assert tip is not None and tip.text == "C5: water (a printed tank)"


def test_positions_are_named_by_row_letter_and_column_number() -> None:
    """The names the log uses, those on the board's edge: rows A-J, columns 1-15."""
    c = fresh().components
    corners = [position_label(c, at(r, k)) for r, k in ((0, 0), (0, 14), (9, 0), (9, 14))]
    assert corners == ["A1", "A15", "J1", "J15"]
    q, r = BOARD.coords[c.board.grid_size]
    assert position_label(c, rim(q, r)) == f"rim({q},{r})"


def test_land_tiles_are_outlined_and_show_their_level() -> None:
    """J22, J27: a tile's spaces share an outline; a tile on a tile lies a level up."""
    state = land(fresh(), {at(4, 4): "village", at(4, 5): "rice", at(3, 4): "rice"})
    state = land(state, {at(4, 4): "rice", at(4, 5): "village"}, level=2)
    root = parse(svg(state, ["ann", "bob"]))
    two, under = spot(root, at(4, 4)), spot(root, at(3, 4))
    assert [t.text for t in two.iter(f"{SVG}text")] == ["2"]
    assert [t.text for t in under.iter(f"{SVG}text")] == ["1"]
    # the two-space tile on top: each space outlined on 5 sides (the 6th is shared);
    # the 3-space tile's third space, alone on top now, on all 6
    assert sides(two) == sides(spot(root, at(4, 5))) == 5
    assert sides(under) == 6
    fills = {spot(root, p).find(f"{SVG}polygon").get("fill") for p in (at(4, 4), at(3, 4))}  # type: ignore[union-attr]
    assert len(fills) == 2  # rice a level higher is darker


def test_figures_palaces_and_hands() -> None:
    state = tiles(fresh(), "village", at(5, 5), at(3, 3))
    state = put(put(tiles(state, "rice", at(9, 0)), at(5, 5), 0), at(9, 0), 1)
    state = palace(state, at(3, 3), 4)
    pictures = JAVA.pictures()
    public = "".join(pictures.public(state, ["ann", "bob"]))
    root = parse(f'<g xmlns="{SVG[1:-1]}">{public}</g>')
    figures = root.findall(".//*[@class='figure']")
    assert sorted((f.get("data-seat"), f.get("fill")) for f in figures) == [
        ("0", SEAT_COLORS[0]),
        ("1", SEAT_COLORS[1]),
    ]
    [built] = root.findall(".//*[@class='palace']")
    assert built.get("data-value") == "4"
    assert "hand-card-" not in public  # J59: the hands are secret
    hand = "".join(pictures.hand(state, 0))
    assert re.findall(r'id="hand-card-(\d+)"', hand) == ["0", "1", "2"]  # seat 0: cards 0-2
    assert "hand-card-3" not in hand


def test_every_decision_is_clicked_on_the_picture_with_a_preview() -> None:
    pictures = JAVA.pictures()
    data = JAVA.action_to_data
    state = new = fresh(3)
    rng = random.Random(4)
    buttons: set[str] = set()
    for _ in range(150):
        if state.to_act is None:
            break
        board = pictures.board(state)
        hands = "".join("".join(pictures.hand(state, k)) for k in range(3))
        picture = pictures.document(
            board + "".join(pictures.public(state, ["a", "b", "c"])) + hands
        )
        ids = {e.get("id") for e in parse(picture).iter()}
        legal = legal_actions(state)
        shapes = [pictures.targets(state, data(a)) for a in legal if data(a)["type"] == "shape"]
        assert len(set(shapes)) == len(shapes)  # each shape its own space to click
        for action in legal:
            targets = pictures.targets(state, data(action))
            assert set(targets) <= ids, (action, targets)
            if not targets:
                buttons.add(data(action)["type"])
            ET.fromstring(f'<g xmlns="{SVG[1:-1]}">{pictures.preview(state, data(action))}</g>')
        state = apply(state, rng.choice(legal))
    assert new is not state
    # what the board has no part for: kinds of action (joined with a position in
    # the browser game), a token, the end of a turn or of a bid
    assert buttons <= {
        "place_land", "place_water", "deploy", "withdraw", "move", "build_palace",
        "extend_palace", "hold_festival", "use_token", "end_turn", "done", "pass",
    }  # fmt: skip


def test_the_first_decision_is_a_position_and_what_to_do_there() -> None:
    """J19: what to do, then where; the browser game joins the two: a few buttons,
    the rest a click on a position, each offer answering both decisions."""
    state = fresh()
    legal = [JAVA.action_to_data(a) for a in legal_actions(state)]
    made = offers(JAVA, JAVA.pictures(), state, legal)
    buttons = [o.label for o in made if not o.path]
    assert buttons == ["use an action token"]  # J20: no end of the turn before a tile
    e5 = [o for o in made if o.path == ("pos-64",)]
    assert [o.label for o in e5] == [
        "lay a 3-space tile on E5",
        "lay a 2-space tile on E5",
        "lay a rice tile on E5",
        "lay a village tile on E5",
        "lay water on E5",
    ]
    water = e5[-1]
    assert len(water.choices) == 2
    after = apply(state, legal_actions(state)[water.choices[0]])
    after = apply(after, legal_actions(after)[water.choices[1]])
    assert after.terrain[64] == 3 and after.turn.ap == 5  # J37: water, 1 AP
    assert "<polygon" in water.preview


def test_the_log_says_1_point_not_1_points() -> None:
    """J57 a palace's points (half of 2), J69 a festival's, J80 the final scoring: a
    person reads "1 point"."""
    from tajmahal.java import events as ev

    state = fresh()
    e1 = at(4, 0)
    name = position_label(state.components, e1)
    lines = JAVA.describe_events(
        state,
        [
            ev.PalaceBuilt(seat=0, position=e1, value=2, points=1, extended=False),
            ev.FestivalScored(palace=e1, symbols=(1, 0), winners=(0,), points=1),
            ev.FinalScored(seat=1, cities=(), points=2),
        ],
        ["ann", "bob"],
    )
    assert lines == [
        f"ann (seat 0) builds a palace of 2 on {name}: 1 point",
        "festival won by ann (seat 0): 1 point each",
        "bob (seat 1) final scoring: 2 points",
    ]


def test_a_big_festival_hand_lies_within_its_seats_row() -> None:
    """Twenty festival cards: two lines, closer together, all within the seat's row
    of the panel (the replay shows every hand)."""
    from attrs import evolve

    from tajmahal.java.panel import hand_parts
    from tajmahal.java.sheet import CARD_H, CARD_W, PANEL_W, SEAT_H, SEATS_TOP, sheet_of

    state = fresh()
    seat = 1
    player = evolve(state.players[seat], hand=tuple(range(20)))
    state = evolve(state, players=tuple(player if k == seat else p
                                        for k, p in enumerate(state.players)))  # fmt: skip
    hand = "".join(hand_parts(state, seat))
    spots = [(float(x), float(y)) for x, y in re.findall(
        r'<rect class="hit" x="([\d.]+)" y="([\d.]+)"', hand)]  # fmt: skip
    assert len(spots) == 20 and len({y for _, y in spots}) == 2
    left = sheet_of(state.components).width + 14 - 6  # the row's frame
    top = SEATS_TOP + SEAT_H * seat
    for x, y in spots:
        assert left <= x and x + CARD_W <= left + PANEL_W - 4
        assert top <= y and y + CARD_H <= top + SEAT_H - 6
