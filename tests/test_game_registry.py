"""The registry of games behind ``--game``: names, aliases, plugins, records."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import orjson
import pytest
from referee_support import cli

from tajmahal.arena.registry import GAMES, GROUP, GameEntry, GameRegistry, UnknownGame
from tajmahal.tajmahal.adapter import TAJMAHAL


def test_the_default_game_is_taj_mahal_under_its_name_and_its_protocol_id() -> None:
    assert GAMES.get() is TAJMAHAL
    assert GAMES.get("tajmahal") is TAJMAHAL
    assert GAMES.get("taj-mahal") is TAJMAHAL  # an alias the command line accepts
    assert GAMES.by_id("tajmahal") is TAJMAHAL


def test_every_game_has_one_id_on_the_command_line_and_in_the_protocol() -> None:
    assert [(e.name, GAMES.get(e.name).name) for e in GAMES.builtin] == [
        ("tajmahal", "tajmahal"), ("tikal", "tikal"), ("java", "java")]


def test_an_unknown_game_is_refused_with_the_known_names() -> None:
    with pytest.raises(UnknownGame, match="no game 'chess'; known: tajmahal, tikal, java"):
        GAMES.get("chess")
    code, _, err = cli("match", "--game", "chess", "random", "random")
    assert code == 2
    assert "Invalid value for --game: no game 'chess'; known: tajmahal, tikal, java" in err


def test_a_broken_reference_is_an_unknown_game() -> None:
    registry = GameRegistry([GameEntry("gone", "tajmahal.no_such_module:GAME")], "gone", None)
    with pytest.raises(UnknownGame, match="cannot load the game 'tajmahal.no_such_module:GAME'"):
        registry.get()


def test_installed_packages_add_games_through_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    points = importlib.metadata.EntryPoints(
        [
            importlib.metadata.EntryPoint("other", "tajmahal.tajmahal.adapter:TAJMAHAL", GROUP),
            # a plugin never replaces a built-in game
            importlib.metadata.EntryPoint("taj-mahal", "tajmahal.no_such_module:X", GROUP),
        ]
    )
    asked: list[str] = []

    def entry_points(group: str) -> importlib.metadata.EntryPoints:
        asked.append(group)
        return points

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    registry = GameRegistry(
        [GameEntry("taj-mahal", "tajmahal.tajmahal.adapter:TAJMAHAL")], "taj-mahal"
    )
    assert registry.get("taj-mahal") is TAJMAHAL
    assert asked == []  # built-in names need no look-up of the installed packages
    assert registry.names() == ["taj-mahal", "other"]
    assert registry.get("other") is TAJMAHAL
    assert asked == [GROUP]


def test_replay_finds_the_game_in_the_record(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    code, _, err = cli("match", "random", "random", "--seed", "5", "--record", str(record), "-q")
    assert code == 0, err
    code, out, _ = cli("replay", "--verify", str(record))
    assert code == 0
    assert "OK" in out
    lines = record.read_bytes().splitlines()
    header = orjson.loads(lines[0])
    header["game"] = "chess"
    other = tmp_path / "chess.jsonl"
    other.write_bytes(b"\n".join([orjson.dumps(header), *lines[1:]]) + b"\n")
    code, _, err = cli("replay", "--verify", str(other))
    assert code == 1
    assert "MISMATCH: no game with the id 'chess'" in err
    # --game names the game whatever the record says; the record must agree
    code, _, err = cli("replay", "--verify", "--game", "taj-mahal", str(other))
    assert code == 1
    assert "a record of \"chess\", not 'tajmahal'" in err
