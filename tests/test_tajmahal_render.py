"""The SVG picture of a state or a view (tajmahal.tajmahal.render)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from attrs import evolve

from tajmahal import BuildMogulPalace, BuildPalace, Setup, apply, legal_actions, new_game, view
from tajmahal.tajmahal.board import board_from_dict, board_to_dict
from tajmahal.tajmahal.maplayout import MAP_BOX
from tajmahal.tajmahal.render import SEAT_COLORS, layers, svg, write_pictures
from tajmahal.tajmahal.state import State

NS = "{http://www.w3.org/2000/svg}"
DOCS_IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)  # raises on anything that is not well-formed XML
    assert root.tag == f"{NS}svg"
    return root


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == ident]
    assert len(found) == 1, f"{len(found)} elements with id {ident!r}"
    return found[0]


def ids(root: ET.Element, prefix: str) -> set[int]:
    return {
        int(e.get("id", "")[len(prefix) :])
        for e in root.iter()
        if e.get("id", "").startswith(prefix)
    }


def played(players: int, seed: int, decisions: int) -> State:
    state = new_game(Setup.random(players, seed=seed))
    rng = random.Random(seed)
    for _ in range(decisions):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_city_and_hand_of_a_state_is_drawn(players: int) -> None:
    state = played(players, seed=players, decisions=40)
    root = parse(svg(state))
    assert ids(root, "city-") == set(range(49))  # C8: 49 cities
    hands = ids(root, "hand-card-")
    assert hands == {c for p in state.players for c in p.hand}
    assert ids(root, "display-card-") == set(state.display)
    names = [t.text for t in root.iter(f"{NS}text")]
    assert any(str(state.visit) in (n or "") for n in names)


@pytest.mark.parametrize("players", [2, 5])
def test_a_view_shows_only_its_own_hand(players: int) -> None:
    state = played(players, seed=7, decisions=25)
    for seat in range(players):
        root = parse(svg(view(state, seat)))
        assert ids(root, "hand-card-") == set(state.players[seat].hand)
        # the other seats' hands only as a count
        text = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
        for other in range(players):
            if other != seat and state.players[other].hand:
                assert f"hand: {len(state.players[other].hand)} cards" in text
    spectator = parse(svg(view(state, None)))
    assert ids(spectator, "hand-card-") == set()


def test_palaces_take_their_seat_colour_and_mogul_palaces_are_ringed() -> None:
    state = new_game(Setup.random(3, seed=11))
    rng = random.Random(11)
    built: dict[int, int] = {}
    moguls: dict[int, int] = {}
    while state.to_act is not None and not (built and moguls):
        action = rng.choice(legal_actions(state))
        if isinstance(action, BuildPalace):
            built[action.city] = state.to_act
        if isinstance(action, BuildMogulPalace):
            moguls[action.city] = state.to_act
        state = apply(state, action)
    assert built
    root = parse(svg(state))
    for city, seat in built.items():
        shape = next(iter(by_id(root, f"city-{city}").iter()))  # the group itself
        fills = {e.get("fill") for e in shape.iter() if e.tag in (f"{NS}rect", f"{NS}circle")}
        assert SEAT_COLORS[seat] in fills
    for city, seat in moguls.items():
        rings = [e for e in by_id(root, f"city-{city}").iter() if e.get("class") == "mogul"]
        assert [r.get("stroke") for r in rings] == [SEAT_COLORS[seat]]
    untouched = set(range(49)) - set(built) - set(moguls)
    some = by_id(root, f"city-{min(untouched)}")
    assert not {e.get("fill") for e in some.iter()} & set(SEAT_COLORS)


def test_names_are_escaped_and_the_layers_make_the_whole() -> None:
    state = played(4, seed=2, decisions=10)
    names = ["<b>&", "o'neil", 'say "hi"', "plain"]
    root = parse(svg(state, names=names))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "<b>&" in texts
    board, public, hands = layers(state, names)
    assert len(hands) == 4
    for part in (board, public, *hands):
        ET.fromstring(part)
    with pytest.raises(ValueError, match="3 names for 4 seats"):
        svg(state, names=names[:3])
    with pytest.raises(TypeError, match="State or a PlayerView"):
        svg("not a state")  # type: ignore[arg-type]


def test_any_valid_board_file_is_drawn_inside_the_picture() -> None:
    raw = board_to_dict(Setup.random(2, seed=1).board)
    for city in raw["cities"]:  # a board ten times larger, mirrored
        city["x"], city["y"] = -10 * city["x"], 10 * city["y"] + 5000
    board = board_from_dict(raw)
    state = new_game(Setup.random(2, seed=1, board=board))
    root = parse(svg(state))
    left, top, width, height = MAP_BOX
    for c in range(49):
        group = by_id(root, f"city-{c}")
        for e in group.iter():
            if e.tag == f"{NS}circle" and e.get("class") != "mogul":
                assert left + 17 <= float(e.get("cx", -1)) <= left + width - 17
                assert top + 17 <= float(e.get("cy", -1)) <= top + height - 17


def test_jupyter_shows_states_and_views_as_pictures() -> None:
    state = played(3, seed=5, decisions=5)
    assert state._repr_svg_() == svg(state)
    assert view(state, 1)._repr_svg_() == svg(view(state, 1))
    assert re.match(r"<svg [^>]*width=\"1240\"", svg(state))


def test_the_pictures_in_docs_are_up_to_date(tmp_path: Path) -> None:
    """docs/images/*.svg are what `python -m tajmahal.tajmahal.render docs/images` writes."""
    write_pictures(str(tmp_path))
    for name in ("board.svg", "view.svg"):
        fresh = (tmp_path / name).read_text("utf-8")
        kept = (DOCS_IMAGES / name).read_text("utf-8")
        assert kept == fresh, f"docs/images/{name} is stale: run python -m tajmahal.tajmahal.render"


def card(*symbols: str, color: str | None = None) -> int:
    """The id of a card with these symbols (and colour)."""
    from tajmahal.tajmahal.cards import CARDS

    return next(
        c.id for c in CARDS if c.symbols == symbols and (color is None or c.color == color)
    )


def test_the_court_shows_who_leads_each_prize_w1() -> None:
    """W1: a prize goes to the one still in with the most of its symbol (at least 1,
    more than each other); a withdrawn seat's cards count for nobody; a tie wins
    nothing.  The court shows each prize's leader and the count against the next."""
    from tajmahal.tajmahal.panel import races
    from tajmahal.tajmahal.scene import scene_of

    from tajmahal_scenario import with_player

    state = new_game(Setup.random(4, seed=1))
    state = evolve(state, court=("elephant", "mogul", "vizier", "general", "monk", "princess"))
    elephants, vizier = card("elephant", "elephant"), card("elephant", "vizier", color="red")
    state = with_player(state, 0, played=(elephants, card("mogul", color="white")))  # E2 R1
    state = with_player(state, 1, played=(vizier,))  # E1 V1
    state = with_player(state, 2, played=(card("general", color="white"), 96))  # G1, V* = R1
    state = with_player(state, 3, played=(), withdrawn=True)
    lead = {r.prize: (r.leader, r.best, r.next) for r in races(scene_of(state, None))}
    assert lead == {
        "elephant": (0, 2, 1),
        "mogul": (None, 1, 1),  # seat 0's white mogul, seat 2's vizier's card: a tie
        "vizier": (1, 1, 0),
        "general": (2, 1, 0),
        "monk": (None, 0, 0),
        "princess": (None, 0, 0),
    }
    root = parse(svg(state, ["ann", "bob", "cy", "dee"]))
    shown = {
        g.get("data-prize"): [t.text for t in g.iter(f"{NS}text")]
        for g in root.iter(f"{NS}g")
        if g.get("class") == "prize"
    }
    assert shown["elephant"] == ["E", "ann", "2 to 1"]
    assert shown["mogul"] == ["R", "tie", "1"]
    assert shown["vizier"] == ["V", "bob", "1 to 0"]
    assert shown["monk"][:2] == ["M", "—"]  # nobody has played one
    # each seat's row counts the symbols of the cards it played
    counts = [e.text for e in root.iter(f"{NS}text") if e.get("class") == "counts"]
    assert counts == ["E2 R1", "E1 V1", "R1 G1"]


def test_hand_cards_are_big_targets_and_goods_are_drawn_as_goods() -> None:
    from tajmahal.tajmahal.scene import CARD_H, CARD_W, GOOD_ICONS

    assert (CARD_W, CARD_H) == (52, 70)  # half as big again as 34 x 46
    state = played(3, 5, 80)
    root = parse(svg(state))
    uses = [e for e in root.iter(f"{NS}use") if e.get("href", "").startswith("#card-")]
    big = [e for e in uses if e.get("width") == str(CARD_W)]
    assert big and all(e.get("height") == str(CARD_H) for e in big)
    goods = {e.get("href") for e in root.iter(f"{NS}use") if "good-" in e.get("href", "")}
    assert goods and goods <= {f"#good-{g}" for g in GOOD_ICONS}
