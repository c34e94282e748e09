"""protocol/schema/java.json: Java's real traffic matches the message schemas with
the game part read from java.json (as protocol/README.md says), and the schema is
what protocol/make_schema.py generates from the library's classes."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema.exceptions import ValidationError
from referee_support import BOTS
from schema_support import Messages, traced

MESSAGES = Messages("java")
check = MESSAGES.check


def test_real_java_traffic_matches_the_schemas(tmp_path: Path) -> None:
    lines = traced(tmp_path, "java", str(BOTS / "random_bot.py"), "greedy", "--seed", "2")
    seen, events, actions = MESSAGES.check_traffic(lines)
    assert {"hello", "act", "events", "end", "hello_reply", "action"} <= seen
    assert {"land_placed", "turn_began", "turn_ended", "final_scored", "game_over"} <= events
    assert {"place_land", "end_turn", "take_card"} <= actions


def test_a_view_with_the_pile_s_cards_is_rejected(tmp_path: Path) -> None:
    lines = traced(tmp_path, "java", "first", "first", "--seed", "1")
    act = next(x["message"] for x in lines if x["message"]["type"] == "act")
    check("to", act)
    act["view"]["pile"] = [7, 8]  # the pile is a count, never its cards (J14)
    with pytest.raises(ValidationError):
        check("to", act)
