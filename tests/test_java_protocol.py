"""protocol/schema/java.json: Java's real traffic matches the message schemas with
the game part read from java.json (as protocol/README.md says), and the schema is
what protocol/make_schema.py generates from the library's classes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referee_support import BOTS, ROOT, cli
from referencing import Registry, Resource

SCHEMAS = ROOT / "protocol" / "schema"
NAMES = {"hello": "hello", "act": "act", "events": "events", "end": "end", "error": "error"}
FROM_BOT = {"hello": "hello_reply", "action": "action"}


def java_schema(name: str) -> dict[str, Any]:
    text = (SCHEMAS / f"{name}.json").read_text().replace("tajmahal.json#", "java.json#")
    schema: dict[str, Any] = json.loads(text)
    return schema


REGISTRY = Registry().with_resources(
    [(p.name, Resource.from_contents(json.loads(p.read_text()))) for p in SCHEMAS.glob("*.json")]
)
VALIDATORS = {
    n: Draft202012Validator(java_schema(n), registry=REGISTRY)
    for n in {*NAMES.values(), *FROM_BOT.values()}
}


def check(direction: str, message: Any) -> str:
    name = (NAMES if direction == "to" else FROM_BOT)[message["type"]]
    VALIDATORS[name].validate(message)
    return name


def traced(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    trace = tmp_path / "trace.jsonl"
    code, _, err = cli("match", "--game", "java", "-q", "--trace", str(trace), *args)
    assert code == 0, err
    return [orjson.loads(x) for x in trace.read_bytes().splitlines()]


def test_real_java_traffic_matches_the_schemas(tmp_path: Path) -> None:
    lines = traced(tmp_path, str(BOTS / "random_bot.py"), "greedy", "--seed", "2")
    seen: set[str] = set()
    events: set[str] = set()
    actions: set[str] = set()
    for line in lines:
        message = line["message"]
        if message["type"] == "act":  # views are large: every act with a new kind of
            kinds = {a["type"] for a in message["legal"]}  # action, and every 10th
            if kinds <= actions and message["decision"] % 10:
                continue
            actions.update(kinds)
        if message["type"] == "events":
            events.update(e["type"] for e in message["events"])
        seen.add(check(line["dir"], message))
    assert {"hello", "act", "events", "end", "hello_reply", "action"} <= seen
    assert {"land_placed", "turn_began", "turn_ended", "final_scored", "game_over"} <= events
    assert {"place_land", "end_turn", "take_card"} <= actions


def test_a_view_with_the_pile_s_cards_is_rejected(tmp_path: Path) -> None:
    lines = traced(tmp_path, "first", "first", "--seed", "1")
    act = next(x["message"] for x in lines if x["message"]["type"] == "act")
    check("to", act)
    act["view"]["pile"] = [7, 8]  # the pile is a count, never its cards (J14)
    with pytest.raises(ValidationError):
        check("to", act)
