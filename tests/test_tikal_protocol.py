"""protocol/schema/tikal.json: Tikal's real traffic matches the message schemas with
the game part read from tikal.json (as protocol/README.md says)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referee_support import BOTS, NODE
from schema_support import SCHEMAS, Messages, traced

MESSAGES = Messages("tikal")
check = MESSAGES.check


def test_tikal_schema_is_valid() -> None:
    schema = json.loads((SCHEMAS / "tikal.json").read_text())
    Draft202012Validator.check_schema(schema)
    tajmahal = json.loads((SCHEMAS / "tajmahal.json").read_text())
    used = {"public_setup", "view", "action", "event", "breakdown"}
    assert used <= set(schema["$defs"]) and used <= set(tajmahal["$defs"])


def test_real_tikal_traffic_matches_the_schemas(tmp_path: Path) -> None:
    bots = [str(BOTS / "random_bot.py"), "greedy"]
    if NODE is not None:
        bots.append(str(BOTS / "tikal_bot.js"))
    lines = traced(tmp_path, "tikal", *bots, "--seed", "2")
    lines += traced(tmp_path, "tikal", "greedy", "random", "--variant", "auction", "--seed", "3")
    seen, events, actions = MESSAGES.check_traffic(lines)
    assert {"hello", "act", "events", "end", "hello_reply", "action"} <= seen
    assert {"tile_drawn", "tile_placed", "scoring_began", "scored", "auction_won",
            "tiles_revealed", "game_over"} <= events  # fmt: skip
    assert {"place", "enter", "move", "end_turn", "bid", "pass", "choose"} <= actions


def test_a_view_with_the_face_down_treasures_is_rejected(tmp_path: Path) -> None:
    lines = traced(tmp_path, "tikal", "first", "first", "--seed", "1")
    act = next(x["message"] for x in lines if x["message"]["type"] == "act")
    check("to", act)
    space = next(s for s in act["view"]["spaces"] if s is not None)
    space["tokens"] = [3, 4]  # the identities of face-down tokens must never appear
    with pytest.raises(ValidationError):
        check("to", act)
