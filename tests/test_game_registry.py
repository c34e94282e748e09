"""The registry of games behind ``--game``: names, aliases, plugins, records."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import orjson
import pytest
from referee_support import cli

from tajmahal.arena.game import Game
from tajmahal.arena.registry import (
    DEFAULT_GROUP,
    GAMES,
    GROUP,
    GameEntry,
    GameRegistry,
    UnknownGame,
)
from tajmahal.tajmahal.adapter import TAJMAHAL, TajMahal


def test_the_default_game_is_the_one_the_package_names_under_its_name_and_id() -> None:
    assert GAMES.default == "tajmahal"  # pyproject.toml's tajmahal.default entry point
    assert GAMES.get() is TAJMAHAL
    assert GAMES.get("tajmahal") is TAJMAHAL
    assert GAMES.get("taj-mahal") is TAJMAHAL  # an alias the game declares
    assert GAMES.by_id("tajmahal") is TAJMAHAL


def test_every_installed_game_has_one_id_on_the_command_line_and_in_the_protocol() -> None:
    assert GAMES.names() == sorted(GAMES.names())
    for name in GAMES.names():
        assert GAMES.get(name).name == name


def test_an_unknown_game_is_refused_with_the_known_names() -> None:
    known = ", ".join(GAMES.names())
    with pytest.raises(UnknownGame, match=f"no game 'chess'; known: {known}$"):
        GAMES.get("chess")
    code, _, err = cli("match", "--game", "chess", "random", "random")
    assert code == 2
    assert f"Invalid value for --game: no game 'chess'; known: {known}" in err


def test_a_broken_reference_is_an_unknown_game() -> None:
    registry = GameRegistry([GameEntry("gone", "tajmahal.no_such_module:GAME")])
    with pytest.raises(UnknownGame, match="cannot load the game 'tajmahal.no_such_module:GAME'"):
        registry.get()


class Unfinished(TajMahal):
    """Taj Mahal as if it had left its ``words`` (a declared attribute) unset."""

    def __getattribute__(self, name: str) -> object:
        if name == "words":
            raise AttributeError(name)
        return super().__getattribute__(name)


UNFINISHED = Unfinished()


class Abstract(Game[None, None, None, None]):
    name = "abstract"


def test_registration_names_every_missing_part_in_one_line() -> None:
    registry = GameRegistry([GameEntry("x", f"{__name__}:UNFINISHED")])
    with pytest.raises(UnknownGame) as error:
        registry.get("x")
    assert str(error.value) == f"the game '{__name__}:UNFINISHED' is incomplete: no words"
    registry = GameRegistry([GameEntry("y", f"{__name__}:Abstract")])  # the class itself
    with pytest.raises(UnknownGame, match="incomplete: no the base class .*Game"):
        registry.get("y")


def test_an_abstract_method_left_out_is_named_when_the_game_is_made() -> None:
    with pytest.raises(TypeError, match="describe_action") as error:
        Abstract()  # type: ignore[abstract]
    assert "\n" not in str(error.value)


def test_installed_packages_add_games_through_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    points = {
        GROUP: importlib.metadata.EntryPoints(
            [
                importlib.metadata.EntryPoint("other", "tajmahal.tajmahal.adapter:TAJMAHAL", GROUP),
                importlib.metadata.EntryPoint("gone", "tajmahal.no_such_module:X", GROUP),
                # a name declared twice keeps its first reference
                importlib.metadata.EntryPoint("other", "tajmahal.no_such_module:Y", GROUP),
            ]
        ),
        DEFAULT_GROUP: importlib.metadata.EntryPoints(
            [importlib.metadata.EntryPoint("other", "x:Y", DEFAULT_GROUP)]
        ),
    }
    asked: list[str] = []

    def entry_points(group: str) -> importlib.metadata.EntryPoints:
        asked.append(group)
        return points[group]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    registry = GameRegistry()
    assert asked == []  # nothing is read before a game is asked for
    assert registry.names() == ["gone", "other"]
    assert registry.default == "other"
    assert registry.get() is TAJMAHAL
    assert registry.get("taj-mahal") is TAJMAHAL  # the loaded game's alias
    assert sorted(asked) == [DEFAULT_GROUP, GROUP]


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
