"""`tajmahal play`: one in-process game between random players, with its score table."""

from __future__ import annotations

from click.testing import CliRunner

from tajmahal.cli import main


def test_play_prints_a_score_table_with_every_source() -> None:
    result = CliRunner().invoke(main, ["play", "--players", "3", "--seed", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("3 players, seed 4:") and "12 visits" in lines[0]
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
    assert result.output.startswith("visit  1 ")
    assert "seat 0: " in result.output


def test_play_refuses_six_players() -> None:
    result = CliRunner().invoke(main, ["play", "-n", "6"])
    assert result.exit_code == 2
    assert "6 is not in the range 2<=x<=5" in result.output
