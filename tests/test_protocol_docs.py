"""protocol/: the JSON Schemas hold for real traffic, and the example is current."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referee_support import BOTS, NODE, ROOT, faulty
from schema_support import FROM_BOT, SCHEMAS, TO_BOT, Messages, traced

check = Messages("tajmahal").check


def test_every_schema_is_valid_and_has_a_title() -> None:
    for path in SCHEMAS.glob("*.json"):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        assert schema.get("title"), path.name


def test_every_games_schema_is_what_its_classes_generate() -> None:
    """protocol/schema/GAME.json is protocol/make_schema.py's output (one generator
    for every game: tajmahal.kit.schema), with the defs the message schemas use."""
    for game in ("tajmahal", "tikal", "java"):
        schema = json.loads((SCHEMAS / f"{game}.json").read_text())
        used = {"game", "public_setup", "view", "action", "event", "breakdown"}
        assert used <= set(schema["$defs"]), game
    path = ROOT / "protocol" / "make_schema.py"
    spec = importlib.util.spec_from_file_location("make_schema", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0, "run: python protocol/make_schema.py"


def test_real_traffic_matches_the_schemas(tmp_path: Path) -> None:
    bots = [str(BOTS / "random_bot.py"), str(BOTS / "greedy_bot.py"), "greedy"]
    if NODE is not None:
        bots.append(str(BOTS / "random_bot.js"))
    lines = traced(tmp_path, "tajmahal", *bots, "--seed", "3")
    lines += traced(tmp_path, "tajmahal", "greedy", "random", "--seed", "4")  # 2 players: dummy
    # Faults: an error message, faults in the end message, the action-object answer.
    lines += traced(tmp_path, "tajmahal", "first", faulty("illegal", "not_in_hand"), "random")
    seen: dict[str, int] = {}
    events: set[str] = set()
    for line in lines:
        name = check(line["dir"], line["message"])
        seen[name] = seen.get(name, 0) + 1
        if line["message"]["type"] == "events":
            events.update(e["type"] for e in line["message"]["events"])
    assert set(seen) == {*TO_BOT.values(), *FROM_BOT.values()}
    expected = {
        "played", "withdrew", "palace_built", "bonus_taken", "province_tile_taken", "scored",
        "discarded", "card_drawn", "card_taken", "special_card_taken", "dummy_turned",
        "dummy_withdrew", "visit_ended", "visit_began", "game_over",
    }
    assert expected <= events, expected - events


@pytest.mark.parametrize(
    ("direction", "message"),
    [
        ("from", {"type": "action", "choice": -1}),
        ("from", {"type": "action", "choice": 0, "action": {"type": "withdraw"}}),
        ("from", {"type": "action", "action": {"type": "fly"}}),
        ("from", {"type": "hello", "name": "", "version": "1", "protocol_version": 1}),
        ("from", {"type": "hello", "name": "x", "protocol_version": 1}),
        ("to", {"type": "error", "fault": "tantrum", "message": "?"}),
        ("to", {"type": "events", "decision": 1, "events": [{"type": "played", "seat": 0}]}),
    ],
)
def test_schemas_reject_wrong_messages(direction: str, message: Any) -> None:
    with pytest.raises(ValidationError):
        check(direction, message)


def test_schemas_reject_a_view_with_a_hidden_field(tmp_path: Path) -> None:
    lines = traced(tmp_path, "tajmahal", "first", "first", "--seed", "1")
    act = next(x["message"] for x in lines if x["message"]["type"] == "act")
    check("to", act)
    act["view"]["players"][1]["hand"] = [1, 2, 3]  # another seat's hand must never appear
    with pytest.raises(ValidationError):
        check("to", act)


def test_the_example_exchange_is_current() -> None:
    path = ROOT / "protocol" / "make_example.py"
    spec = importlib.util.spec_from_file_location("make_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0, "run: python protocol/make_example.py"
    for raw in (ROOT / "protocol" / "example.jsonl").read_bytes().splitlines():
        line = orjson.loads(raw)
        check(line["dir"], line["message"])


def test_the_hello_carries_the_card_and_tile_data_a_bot_needs(tmp_path: Path) -> None:
    """protocol/README.md: a bot in any language needs no data file of the package.
    The numbers are C3 and C4 of docs/rules.md."""
    lines = traced(tmp_path, "tajmahal", "first", "first", "first", "--seed", "1")
    hello = next(x["message"] for x in lines if x["message"]["type"] == "hello")
    cards = hello["setup"]["cards"]
    assert [c["id"] for c in cards] == list(range(100))
    assert cards[2] == {"id": 2, "color": "red", "symbols": ["elephant", "vizier"], "special": None}
    assert cards[0]["symbols"] == ["elephant", "elephant"]  # counts two elephants
    assert cards[95] == {"id": 95, "color": "white", "symbols": ["mogul"], "special": None}
    assert cards[96] == {"id": 96, "color": "special", "symbols": ["mogul"], "special": "vizier"}
    assert cards[97]["symbols"] == ["elephant"]  # the general's card: +1 elephant
    assert cards[98]["symbols"] == [] and cards[99]["symbols"] == []  # monk's, princess's
    colours = [c["color"] for c in cards]
    kinds = ("red", "yellow", "green", "purple", "white", "special")
    assert [colours.count(k) for k in kinds] == [21, 21, 21, 21, 12, 4]
    goods = dict((tile, tuple(g)) for tile, g in hello["setup"]["province_goods"])
    assert goods[1] == ("rice",) and goods[3] == ("spice", "jewels")
    assert goods[12] == ("rice", "spice")
    assert sorted(goods) == list(range(1, 13))


def test_an_extra_of_null_is_no_extra_for_the_schema_as_for_the_referee() -> None:
    answer = {"type": "action", "action": {"type": "play", "card": 5, "extra": None}}
    check("from", answer)
    check("from", {"type": "action", "action": {"type": "play", "card": 5}})
    with pytest.raises(ValidationError):
        check("from", {"type": "action", "action": {"type": "play", "card": 5, "extra": "x"}})
