"""`tajmahal show RECORD --step N` and the match table in an 80-column terminal."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from click.testing import CliRunner

from tajmahal.cli import main

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = str(ROOT / "bots" / "random_bot.py")


def record(tmp_path: Path) -> tuple[Path, list[dict[str, object]]]:
    path = tmp_path / "g.jsonl"
    args = ["match", "first", "random", "greedy", "--seed", "3", "--record", str(path), "-q"]
    assert CliRunner().invoke(main, args).exit_code == 0
    return path, [json.loads(x) for x in path.read_text().splitlines()]


def show(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, ["show", *args], env={"COLUMNS": "120"})
    return done.exit_code, done.output


def test_show_the_start_a_step_and_the_end(tmp_path: Path) -> None:
    path, lines = record(tmp_path)
    actions = [x for x in lines if x["type"] == "action"]
    code, out = show(str(path), "--step", "0")
    assert code == 0, out
    assert f"decision 0 of {len(actions)}" in out
    assert "Visit 1 of 12" in out
    assert out.count("hand:  ") == 3  # a record is seen with every hand
    code, out = show(str(path), "--step", "7")
    assert code == 0, out
    seventh = actions[6]
    assert f"(seat {seventh['seat']}): " in out.splitlines()[1]
    code, out = show(str(path))
    assert code == 0 and f"decision {len(actions)} of {len(actions)}" in out
    assert "Game over" in out
    code, out = show(str(path), "--step", "-2")  # counted from the end, -1 the end
    assert f"decision {len(actions) - 1} of" in out


def test_a_seat_sees_only_its_own_hand(tmp_path: Path) -> None:
    path, _ = record(tmp_path)
    code, out = show(str(path), "--step", "0", "--seat", "1")
    assert code == 0, out
    # its own hand's cards, the two others' as counts
    assert out.count("hand:  ") == 1
    assert out.count(" cards") >= 2


def test_bad_steps_and_seats_are_usage_errors(tmp_path: Path) -> None:
    path, lines = record(tmp_path)
    decisions = sum(1 for x in lines if x["type"] == "action")
    code, out = show(str(path), "--step", str(decisions + 1))
    assert code == 2 and f"decisions 0 to {decisions}" in out
    code, out = show(str(path), "--seat", "3")
    assert code == 2 and "no seat 3 among 3" in out


def test_the_match_table_fits_80_columns(tmp_path: Path) -> None:
    bots = [RANDOM_BOT, "greedy", f"{sys.executable} {RANDOM_BOT}", "first"]
    done = CliRunner().invoke(
        main, ["match", *bots, "--seed", "1"], env={"COLUMNS": "80"}, catch_exceptions=False
    )
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    table = [x for x in lines[1:] if not re.match(r"seat \d+: ", x)]  # not the commands under it
    assert max(len(x) for x in table) <= 80
    header = lines[1].split()
    assert header == [
        "seat",
        "player",
        *["palaces", "goods", "bonus", "princess", "hand"],
        "total",
        "rank",
        "time",
    ]  # and no fault column: no seat faulted
    assert f"seat 0: {RANDOM_BOT}" in lines  # the commands, whole, under the table
    assert f"seat 2: {sys.executable} {RANDOM_BOT}" in lines
    wide = CliRunner().invoke(main, ["match", *bots, "--seed", "1"], env={"COLUMNS": "300"})
    assert wide.output.splitlines()[1].split()[2] == "bot"  # room enough: a column


def test_a_game_without_a_terminal_view_gets_the_scores(tmp_path: Path) -> None:
    from referee_support import Undrawn

    from tajmahal.arena.show import show_command
    from tajmahal.tikal.adapter import TIKAL

    path = tmp_path / "t.jsonl"
    args = ["match", "--game", "tikal", "first", "random", "--seed", "3", "--record", str(path)]
    assert CliRunner().invoke(main, [*args, "-q"]).exit_code == 0
    result = json.loads(path.read_text().splitlines()[-1])
    done = CliRunner().invoke(show_command(Undrawn(TIKAL)), [str(path)])
    assert done.exit_code == 0, done.output
    rows = [line.split() for line in done.output.splitlines()[-2:]]
    assert rows == [
        ["0", "first", str(result["scores"][0])],
        ["1", "random", str(result["scores"][1])],
    ]


def test_a_hand_wraps_between_cards_never_inside_one() -> None:
    import io

    from rich.console import Console

    from tajmahal.tajmahal.terminal import CardRows

    console = Console(width=20, record=True, file=io.StringIO(), color_system=None)
    # white elephant, the vizier's special card (a ring), red EE, EV, EV, EG, VR
    console.print(CardRows("hand:  ", [84, 96, 0, 2, 3, 5, 20]))
    # 7 columns of label, then 3 per card and 1 between: three cards a line at 20
    assert console.export_text().splitlines() == [
        "hand:   E  V*R EE ",
        "       EV  EV  EG ",
        "       VR ",
    ]
