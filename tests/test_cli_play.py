"""`tajmahal play`: one in-process game between random players, with its score table."""

from __future__ import annotations

from click.testing import CliRunner

from tajmahal.arena.registry import GAMES
from tajmahal.cli import main


def test_play_prints_a_score_table_with_every_source() -> None:
    result = CliRunner().invoke(main, ["play", "--players", "3", "--seed", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Taj Mahal, 3 players, seed 4:")  # the default game
    header = lines[2].split()
    assert header == [
        "seat",
        "player",
        "palaces",
        "goods",
        "bonus",
        "princess",
        "hand",
        "total",
        "rank",
    ]
    rows = [line.split() for line in lines[4:7]]
    assert [row[0] for row in rows] == ["0", "1", "2"]
    for row in rows:  # the total is the sum of the five sources
        assert sum(int(x) for x in row[2:7]) == int(row[7])
    assert sorted(int(row[8]) for row in rows)[0] == 1


def test_play_two_players_and_verbose() -> None:
    result = CliRunner().invoke(main, ["play", "-n", "2", "--seed", "1", "-v"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    report = next(i for i, line in enumerate(lines) if line.startswith("Taj Mahal, 2 players"))
    assert report > 0 and all(line.startswith(("seat 0: ", "seat 1: ")) for line in lines[:report])
    assert {line[:7] for line in lines[:report]} == {"seat 0:", "seat 1:"}


def test_play_refuses_a_player_count_the_game_does_not_allow() -> None:
    for name in GAMES.names():
        game = GAMES.get(name)
        result = CliRunner().invoke(main, ["play", "--game", name, "-n", str(game.max_players + 1)])
        assert result.exit_code == 2
        assert f"{game.title} is for {game.min_players}-{game.max_players} players" in result.output


def test_play_plays_the_game_it_is_given() -> None:
    for name in GAMES.names():
        game = GAMES.get(name)
        result = CliRunner().invoke(main, ["play", "--game", name, "--seed", "2"])
        assert result.exit_code == 0, result.output
        players = min(max(4, game.min_players), game.max_players)
        assert result.output.startswith(f"{game.title}, {players} players, seed 2: ")
        header = result.output.splitlines()[2].split()
        assert header == ["seat", "player", *game.score_sources, "total", "rank"]
