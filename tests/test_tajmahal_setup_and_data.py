"""Components and setup: rules C1-C8 and S1-S6."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from attrs import evolve

from tajmahal import CARDS, DEFAULT_BOARD, BonusTile, ComponentError, Setup, SetupError, new_game
from tajmahal.tajmahal.board import board_from_dict, board_to_dict, load_board
from tajmahal.tajmahal.cards import Card, validate_cards
from tajmahal.tajmahal.tiles import DEFAULT_BONUS_TILES, PROVINCE_GOODS


def test_c3_deck_composition() -> None:
    colours = Counter(c.color for c in CARDS)
    assert colours == {
        "red": 21,
        "yellow": 21,
        "green": 21,
        "purple": 21,
        "white": 12,
        "special": 4,
    }
    for colour in ("red", "yellow", "green", "purple"):
        cards = [c for c in CARDS if c.color == colour]
        assert sum(c.symbols == ("elephant", "elephant") for c in cards) == 2
        assert sum("elephant" in c.symbols for c in cards) == 16  # the shared core
        assert sum(len(c.symbols) == 2 for c in cards) == 21
    assert sum(c.symbols == ("elephant",) for c in CARDS if c.color == "white") == 7
    assert CARDS[96].symbols == ("mogul",) and CARDS[97].symbols == ("elephant",)
    assert CARDS[98].symbols == () and CARDS[99].symbols == ()


def test_c2_c3_card_validation_rejects_a_wrong_deck() -> None:
    cards = list(CARDS)
    cards[0] = Card(0, "red", ("elephant", "mogul"))
    with pytest.raises(ComponentError, match="C3: the red cards"):
        validate_cards(tuple(cards))
    cards[0] = Card(0, "red", ("elephant", "elephant", "elephant"))
    with pytest.raises(ComponentError, match="C2"):
        validate_cards(tuple(cards))


def test_c4_province_tiles() -> None:
    assert PROVINCE_GOODS[1] == ("rice",)
    assert all(len(PROVINCE_GOODS[n]) == 2 for n in range(2, 13))
    assert PROVINCE_GOODS[12] == ("rice", "spice")


def test_c5_default_bonus_tiles() -> None:
    assert Counter(DEFAULT_BONUS_TILES) == {
        BonusTile("points"): 4,
        BonusTile("card"): 3,
        **{BonusTile("good", g): 2 for g in ("rice", "tea", "spice", "jewels")},
    }


def test_c8_default_board_counts() -> None:
    b = DEFAULT_BOARD
    assert len(b.provinces) == 12 and len(b.cities) == 49
    assert sorted(len(c) for c in b.province_cities) == [4] * 11 + [5]
    assert len(b.province_cities[b.final_province]) == 5
    assert b.provinces[b.final_province] == "Agra"
    assert len(b.fortresses) == 16
    assert all(1 <= sum(b.cities[c].fortress for c in cs) <= 2 for cs in b.province_cities)


def test_c8_neighbouring_provinces_are_joined_by_roads() -> None:
    b = DEFAULT_BOARD
    links = {frozenset((b.cities[a].province, b.cities[c].province)) for a, c in b.roads}
    assert frozenset((b.province("Delhi"), b.province("Agra"))) in links
    assert frozenset((b.province("Kabul"), b.province("Kashmir"))) in links
    assert frozenset((b.province("Gujarat"), b.province("Malwa"))) in links


def _raw() -> dict:  # type: ignore[type-arg]
    return board_to_dict(DEFAULT_BOARD)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["provinces"].append("Bengal"), "12 provinces, this one has 13"),
        (
            lambda r: r["cities"].append({"name": "Patna", "province": "Awadh", "x": 0, "y": 0}),
            "49 cities, this one has 50",
        ),
        (lambda r: r["cities"][1].update(province="Agra"), "province 'Kabul' has 3 cities"),
        (lambda r: r["cities"][1].update(fortress=True), "16 fortresses, this one has 17"),
        (lambda r: r["cities"][28].update(taj_mahal=False), "exactly one city holds the Taj Mahal"),
        (lambda r: r["roads"].append(["Kabul", "Nowhere"]), "unknown city 'Nowhere'"),
        (lambda r: r["roads"].append(["Agra", "Mathura"]), "listed twice"),
        (lambda r: r["roads"].remove(["Kabul", "Ghazni"]), "cities of 'Kabul' are not joined"),
        (lambda r: r.pop("roads"), "missing field 'roads'"),
    ],
)
def test_c8_bad_board_files_get_clear_errors(change, message: str) -> None:  # type: ignore[no-untyped-def]
    raw = _raw()
    change(raw)
    with pytest.raises(ComponentError, match=message):
        board_from_dict(raw)


def test_c8_a_board_built_again_from_changed_data_is_checked_again() -> None:
    # The last board built is kept (every record of a tournament carries the same
    # one); data changed after the first build must not get the kept board.
    raw = _raw()
    first = board_from_dict(raw)
    assert board_from_dict(_raw()) is first  # the same data: the kept board
    raw["cities"][1]["fortress"] = True  # the caller changes its dict ...
    with pytest.raises(ComponentError, match="16 fortresses, this one has 17"):
        board_from_dict(raw)  # ... and the changed board is validated (C8)
    raw["cities"][1]["fortress"] = False
    raw["cities"][0]["x"] += 1  # Kabul drawn a point further right
    moved = board_from_dict(raw)
    assert moved.cities[0].x == first.cities[0].x + 1 and moved != first


def test_c8_load_board_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(_raw()))
    assert load_board(path) == DEFAULT_BOARD
    path.write_text("{not json")
    with pytest.raises(ComponentError, match="not JSON"):
        load_board(path)


def test_s1_to_s6_new_game() -> None:
    setup = Setup.random(4, seed=11)
    state = new_game(setup)
    for seat in range(4):
        assert state.players[seat].hand == tuple(sorted(setup.deck[6 * seat : 6 * seat + 6]))
    assert state.display == tuple(sorted(setup.deck[24:31]))  # S2: 2n - 1 = 7
    assert state.deck == setup.deck[31:]
    assert state.discard == ()
    b = setup.board
    assert setup.province_tiles[b.final_province] == 12  # S3
    assert state.province == setup.province_tiles.index(1)
    assert dict(setup.bonus_tiles)[b.taj_mahal_city] == BonusTile("taj_mahal")  # S4
    assert state.court == ("elephant", "mogul", "vizier", "general", "monk", "princess")  # S5
    assert state.reserve == (5, 5, 5, 5)
    assert state.supply == (96, 97, 98, 99)
    assert state.to_act == setup.start_player == state.start_player  # S6
    assert all(p.score.total == 0 for p in state.players)


@pytest.mark.parametrize(("players", "shown"), [(2, 3), (3, 5), (4, 7), (5, 9)])
def test_s2_display_size(players: int, shown: int) -> None:
    assert len(new_game(Setup.random(players, 0)).display) == shown


def test_setup_random_is_deterministic() -> None:
    assert Setup.random(5, 42) == Setup.random(5, 42)
    assert Setup.random(5, 42).deck != Setup.random(5, 43).deck


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(players=6), "C1: the standard game is for 3-5 players"),
        (dict(players=2), "D1: the dummy variant is for 2 players|C1"),
        (dict(start_player=4), "S6"),
        (dict(deck=(0,) * 96), "S1"),
        (dict(province_tiles=(12, *range(1, 12))), "S3"),
        (dict(bonus_tiles=()), "S4"),
        (dict(variant="solo"), "C1: unknown variant"),
    ],
)
def test_bad_setups_are_refused(change: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SetupError, match=message):
        new_game(evolve(Setup.random(4, 1), **change))
