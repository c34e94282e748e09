"""The protocol's message schemas (protocol/schema/) as validators of one game's
traffic, and a match's trace to check: one home for the protocol tests of every
game (Taj Mahal's in test_protocol_docs.py, the others' in test_GAME_protocol.py,
every game's in test_protocol_spec.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from jsonschema import Draft202012Validator
from referee_support import ROOT, cli
from referencing import Registry, Resource

SCHEMAS = ROOT / "protocol" / "schema"
#: The schema of each message type, the referee's to a bot and a bot's to the referee.
TO_BOT = {t: t for t in ("hello", "act", "events", "end", "error")}
FROM_BOT = {"hello": "hello_reply", "action": "action"}


def validators(game: str) -> dict[str, Draft202012Validator]:
    """Each message schema with its game part read from ``GAME.json`` (as
    protocol/README.md says: the messages name tajmahal.json, the default game's)."""
    schemas = sorted(SCHEMAS.glob("*.json"))
    registry = Registry().with_resources(
        [(p.name, Resource.from_contents(json.loads(p.read_text()))) for p in schemas]
    )
    out = {}
    for name in {*TO_BOT.values(), *FROM_BOT.values()}:
        text = (SCHEMAS / f"{name}.json").read_text().replace("tajmahal.json#", f"{game}.json#")
        out[name] = Draft202012Validator(json.loads(text), registry=registry)
    return out


class Messages:
    """The message schemas of ``game``: :meth:`check` validates one message."""

    def __init__(self, game: str) -> None:
        self.validators = validators(game)

    def check(self, direction: str, message: Any) -> str:
        """Validate one message (``direction`` "to" a bot or "from" it); its schema's name."""
        name = (TO_BOT if direction == "to" else FROM_BOT)[message["type"]]
        self.validators[name].validate(message)
        return name

    def check_traffic(self, lines: list[dict[str, Any]]) -> Traffic:
        """Validate a trace's messages (views are large: only an act offering a new
        kind of action, and every 10th); what they held."""
        traffic = Traffic(set(), set(), set())
        for line in lines:
            message = line["message"]
            if message["type"] == "act":
                kinds = {a["type"] for a in message["legal"]}
                if kinds <= traffic.actions and message["decision"] % 10:
                    continue
                traffic.actions.update(kinds)
            if message["type"] == "events":
                traffic.events.update(e["type"] for e in message["events"])
            traffic.schemas.add(self.check(line["dir"], message))
        return traffic


class Traffic(NamedTuple):
    """What a trace held: the schemas of its messages, the types of the events and
    of the legal actions."""

    schemas: set[str]
    events: set[str]
    actions: set[str]


def traced(tmp_path: Path, game: str, *args: str) -> list[dict[str, Any]]:
    """The trace of ``tajmahal match --game GAME ARGS``, line by line (a new file a call)."""
    trace = tmp_path / f"{game}-{len(list(tmp_path.iterdir()))}.jsonl"
    code, _, err = cli("match", "--game", game, "-q", "--trace", str(trace), *args)
    assert code == 0, err
    return [orjson.loads(x) for x in trace.read_bytes().splitlines()]
