"""Java through the arena, end to end: `tajmahal match --game java` with subprocess
bots, records that `replay --verify` accepts, tournaments, and the built-in bots."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from referee_support import BOTS, cli

from tajmahal.arena.registry import GAMES
from tajmahal.java.adapter import JAVA
from tajmahal.java.events import CardTaken


def test_java_is_registered() -> None:
    assert GAMES.get("java") is JAVA and GAMES.by_id("java") is JAVA


def test_a_match_of_subprocess_bots_leaves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "java.jsonl"
    code, out, err = cli(
        "match", "--game", "java", str(BOTS / "random_bot.py"), "greedy", "random",
        "--seed", "4", "--record", str(record), "--json",
    )  # fmt: skip
    assert code == 0, err
    result = orjson.loads(out)
    assert result["faults"] == [] and len(result["scores"]) == 3
    header = orjson.loads(record.read_bytes().splitlines()[0])
    assert header["game"] == "java" and header["variant"] == "official"
    code, out, err = cli("replay", "--verify", str(record))
    assert code == 0 and f"final scores {result['scores']}" in out, err
    code, out, err = cli("replay", str(record))
    assert code == 0 and "final scoring" in out and "game over" in out, err


def test_variants_and_player_counts_are_checked() -> None:
    code, _, err = cli("match", "--game", "java", "--variant", "dummy", "random", "random")
    assert code == 2 and "unknown variant 'dummy'" in err
    code, _, err = cli("match", "--game", "java", *["random"] * 5)
    assert code == 2 and "Java is for 2-4 players" in err
    code, _, err = cli(
        "match", "--game", "java", "--variant", "anytime", "random", "random", "-q", "--seed", "2"
    )
    assert code == 0, err


@pytest.mark.slow
def test_a_tournament_of_java_plays_and_replays(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["--games", "2", "--jobs", "1", "--seed", "3", "--out", str(out), "-q"]
    code, _, err = cli("tournament", "--game", "java", "greedy", "random", *args)
    assert code == 0, err
    plan = orjson.loads((out / "tournament.json").read_bytes())["plan"]
    assert plan["game"] == "java"
    records = sorted((out / "games").glob("*.jsonl"))
    assert len(records) == 2
    code, _, err = cli("replay", "--verify", str(records[0]))
    assert code == 0, err


def test_a_drawn_card_is_seen_by_its_taker_only() -> None:
    event = CardTaken(0, False, 12, 7)
    assert JAVA.event_data(event, 0)["card"] == 12
    assert JAVA.event_data(event, 1)["card"] is None
    assert JAVA.event_data(event, None)["card"] is None and not JAVA.is_public(event)
    shown = CardTaken(0, True, 6, 7)
    assert JAVA.event_data(shown, 1)["card"] == 6 and JAVA.is_public(shown)


def test_a_java_record_becomes_an_html_viewer(tmp_path: Path) -> None:
    record = tmp_path / "j.jsonl"
    code, _, err = cli("match", "--game", "java", "greedy", "random", "-q", "--seed", "3",
                       "--record", str(record))  # fmt: skip
    assert code == 0, err
    code, _, err = cli("replay", str(record), "--html", str(tmp_path / "j.html"))
    assert code == 0, err
    assert (tmp_path / "j.html").read_text().startswith("<!DOCTYPE html>")
