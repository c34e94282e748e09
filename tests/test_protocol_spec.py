"""protocol/README.md is complete: a recorded game of each game holds to the JSON
Schemas, and every field of every message is in the README's field tables (and
every type the README lists is in the schema); no line of the referee's is longer
than the README promises."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, ROOT, faulty
from schema_support import FROM_BOT, SCHEMAS, TO_BOT, traced, validators

from tajmahal.arena.terms import REPRODUCIBLE_SEEDS

README = ROOT / "protocol" / "README.md"
#: The referee's longest line, as protocol/README.md promises (Transport).
MAX_LINE = 65536
#: Games recorded for each game: (arguments of match, ...).
GAMES: dict[str, list[list[str]]] = {
    "tajmahal": [
        [str(BOTS / "random_bot.py"), "greedy", "random", "first", "--seed", "3"],
        ["greedy", "random", "--seed", "4"],  # the 2-player dummy
        ["first", faulty("illegal", "not_in_hand"), "random", "--seed", "1"],  # error, faults
    ],
    "java": [
        ["random", str(BOTS / "random_bot.py"), "--seed", "2"],
        ["random", "random", "--variant", "anytime", "--seed", "3"],
    ],
    "tikal": [
        ["random", str(BOTS / "random_bot.py"), "--seed", "2"],
        ["random", "random", "--variant", "auction", "--seed", "3"],
    ],
}


# --- The README's tables ---------------------------------------------------------

Rows = dict[str, str]  # a documented name -> the text of its row


def _sections(text: str, level: str) -> dict[str, str]:
    """Heading (without the #s) -> body, for the headings of ``level`` (``##``)."""
    parts = re.split(rf"^{level} (.*)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def table(body: str) -> Rows:
    """The first table of ``body``: each name in backticks in a row's first cell,
    with the text of the whole row."""
    rows: Rows = {}
    lines = [x for x in body.splitlines() if x.startswith("|")]
    for line in lines[2:]:  # the header, the |---| line
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        for name in re.findall(r"`([^`]+)`", cells[0]):
            rows[name.strip('"')] = line
    return rows


def game_tables(game: str) -> dict[str, Rows]:
    """The tables of a game's section: Setup, View, Actions, Events, Result."""
    text = README.read_text("utf-8")
    section = next(
        body for title, body in _sections(text, "##").items() if f'`"game": "{game}"`' in title
    )
    return {title: table(body) for title, body in _sections(section, "###").items()}


def message_tables() -> dict[str, Rows]:
    """The tables of the messages (``hello``, ``act``, ``end``, ``error``)."""
    text = README.read_text("utf-8")
    found = {}
    for title, body in _sections(text, "###").items():
        match = re.match(r"`(\w+)` \(referee → bot\)", title)
        if match:
            found[match.group(1)] = table(body)
    return found


# --- Checks ----------------------------------------------------------------------


def keys_below(value: Any) -> set[str]:
    """Every key of every object inside ``value``, at any depth."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found |= {k for k in item if not k.isdigit()}  # "2": a value's count is data
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return found


def undocumented(
    obj: dict[str, Any], rows: Rows, where: str, skip: tuple[str, ...] = ()
) -> set[str]:
    """The fields of ``obj`` that no row names, and the fields inside a field that
    its row does not name (in backticks)."""
    missing = set()
    for key, value in obj.items():
        if key in skip:
            continue
        if key not in rows:
            missing.add(f"{where}.{key}")
            continue
        missing |= {f"{where}.{key}.{k}" for k in keys_below(value) if f"`{k}`" not in rows[key]}
    return missing


def fields_of(item: dict[str, Any], rows: Rows, what: str) -> set[str]:
    """The fields of an action or event that the row of its type does not name."""
    row = rows.get(item["type"])
    if row is None:
        return {f"{what} {item['type']}"}
    inside = keys_below({k: v for k, v in item.items() if k != "type"})
    return {f"{what} {item['type']}.{k}" for k in inside if f"`{k}`" not in row}


def schema_types(game: str, name: str) -> set[str]:
    """The ``type`` constants of the game schema's ``$defs/NAME`` (action, event)."""
    schema = json.loads((SCHEMAS / f"{game}.json").read_text())
    return {
        str(v["properties"]["type"]["const"])
        for v in schema["$defs"][name].get("oneOf", schema["$defs"][name].get("anyOf", []))
    }


def schema_fields(game: str, name: str) -> set[str]:
    """The properties of the game schema's ``$defs/NAME`` (following a local ``$ref``)."""
    defs = json.loads((SCHEMAS / f"{game}.json").read_text())["$defs"]
    schema = defs[name]
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    return set(schema["properties"])


# --- The tests --------------------------------------------------------------------


def test_the_table_reader() -> None:
    body = "x\n| field | meaning |\n|---|---|\n| `a`, `b` | one `c` \\| two |\n| `d` | |\n"
    row = "| `a`, `b` | one `c` \\| two |"
    assert table(body) == {"a": row, "b": row, "d": "| `d` | |"}
    assert undocumented({"a": {"c": 1}, "d": [{"e": 2}], "z": 0}, table(body), "v") == {
        "v.d.e", "v.z"}


@pytest.mark.once  # the same messages on either engine
@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_recorded_game_is_what_the_schemas_and_the_readme_say(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot programs' seeds from the match seed, so that their games (and so the
    # events they show) are the same in every run (they are secret by default).
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
    lines = [line for args in GAMES[game] for line in traced(tmp_path, game, *args)]
    check = validators(game)
    tables = game_tables(game)
    messages = message_tables()
    assert set(tables) >= {"Setup", "View", "Actions", "Events", "Result"}, tables.keys()
    missing: set[str] = set()
    seen: set[str] = set()
    events: set[str] = set()
    phases: set[str | None] = set()
    for line in lines:
        message = line["message"]
        kind = message["type"]
        schema = (TO_BOT if line["dir"] == "to" else FROM_BOT)[kind]
        phase = message["view"].get("phase") if kind == "act" else None
        if kind != "act" or phase not in phases or message["decision"] % 5 == 0:
            check[schema].validate(message)  # every 5th view: the schemas are slow to apply
            phases.add(phase)
        seen.add(schema)
        if line["dir"] != "to":
            continue
        assert len(orjson.dumps(message)) <= MAX_LINE, f"a {kind} line over {MAX_LINE} bytes"
        if kind in messages:
            skip = ("setup", "view", "legal", "breakdown", "events")  # the games' tables
            missing |= undocumented(message, messages[kind], kind, skip=skip)
        if kind == "hello":
            missing |= undocumented(message["setup"], tables["Setup"], "setup")
        elif kind == "act":
            missing |= undocumented(message["view"], tables["View"], "view")
            for action in message["legal"]:
                missing |= fields_of(action, tables["Actions"], "action")
        elif kind == "events":
            for event in message["events"]:
                missing |= fields_of(event, tables["Events"], "event")
                events.add(event["type"])
        elif kind == "end":
            for parts in message["breakdown"]:
                missing |= undocumented(parts, tables["Result"], "breakdown")
    assert not missing, f"in {game}'s messages but not in protocol/README.md: {sorted(missing)}"
    assert {"hello", "act", "events", "end", "hello_reply", "action"} <= seen
    assert events == schema_types(game, "event")  # the games above show every event
    # and the other way: what the README lists is what the schema has
    assert set(tables["Actions"]) == schema_types(game, "action")
    assert set(tables["Events"]) == schema_types(game, "event")
    assert set(tables["View"]) <= schema_fields(game, "view")
    assert set(tables["Setup"]) <= schema_fields(game, "public_setup")
    assert set(tables["Result"]) == schema_fields(game, "breakdown")
