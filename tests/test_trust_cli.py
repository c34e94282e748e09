"""Referee trust, attack 8: the command line refuses what cannot work before any
game is played, and says why (with a "did you mean"), instead of a traceback or a
whole game or tournament of faults that exits 0."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from referee_support import cli, faulty, match_json

FAST = ["--time", "2", "--bank", "0", "--grace", "0.5", "--seed", "1"]


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_attack_8_a_seed_beyond_64_bits_is_refused_up_front(tmp_path: Path, command: str) -> None:
    out = tmp_path / "t"
    where = ["--record", str(tmp_path / "g.jsonl"), "--json"] if command == "match" else [
        "--out", str(out)]
    code, _, err = cli(command, "random", "random", "--seed", str(2**64), *where)
    assert code == 2 and "--seed" in err and "18446744073709551615" in err
    assert not out.exists() and not (tmp_path / "g.jsonl").exists()
    code, _, err = cli("match", "random", "random", "--seed", str(2**64 - 1), "--json",
                            "--record", str(tmp_path / "top.jsonl"))
    assert code == 0, err
    assert cli("replay", "--verify", str(tmp_path / "top.jsonl"))[0] == 0


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_attack_8_a_misspelt_builtin_is_refused_with_a_did_you_mean(
    tmp_path: Path, command: str
) -> None:
    out = tmp_path / "t"
    extra = ["--out", str(out)] if command == "tournament" else []
    code, stdout, err = cli(command, "greedyy", "random", *extra)
    assert code == 2 and "did you mean 'greedy'?" in err, err
    assert stdout == "" and not out.exists()


def test_attack_8_a_missing_bot_file_is_refused_with_a_did_you_mean(tmp_path: Path) -> None:
    bot = faulty("slov")  # tests/faulty_bots/slow.py exists
    code, _, err = cli("match", bot, "random")
    assert code == 2 and "no such file" in err and "did you mean" in err and "slow.py" in err
    code, _, err = cli("tournament", bot, "random", "--out", str(tmp_path / "t"))
    assert code == 2 and "no such file" in err and not (tmp_path / "t").exists()


def test_attack_8_every_bot_answers_its_hello_before_the_first_game(tmp_path: Path) -> None:
    out = tmp_path / "t"
    code, _, err = cli("tournament", faulty("crash_at_start"), "random", "--games", "4",
                            "--out", str(out), "--handshake", "5")
    assert code == 2, err
    assert "failed the check before the first game" in err
    assert "crash_at_start.py: crash: exited (exit 3)" in err
    assert "giving up before the hello" in err  # its last stderr line
    assert not out.exists()
    code, _, err = cli("match", "random", faulty("wrong_version"), *FAST)
    assert code == 2 and "protocol version 99" in err


def test_attack_8_an_unwritable_record_path_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code, stdout, err = cli("match", "random", "random", "--record", str(blocker / "g.jsonl"))
    assert code == 2 and "--record" in err and "cannot write there" in err
    assert "Traceback" not in err and stdout == ""


def test_attack_8_records_game_v1_and_game_v2_keep_their_own_logs(tmp_path: Path) -> None:
    bot = faulty("stderr_flood")
    for name in ("game.v1.jsonl", "game.v2.jsonl"):
        match_json("first", bot, "--record", str(tmp_path / name), "--max-log", "100",
                   "--time", "2")
    logs = sorted(p.name for p in tmp_path.glob("*.seat1.log"))
    assert logs == ["game.v1.seat1.log", "game.v2.seat1.log"]  # not one "game.seat1.log"


def test_attack_8_an_unwritable_tournament_directory_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code, _, err = cli("tournament", "random", "random", "--games", "2",
                       "--out", str(blocker / "t"))
    assert code == 2 and "cannot write the tournament there (Not a directory)" in err
    assert "Traceback" not in err


def test_a_record_or_page_never_replaces_a_special_file(tmp_path: Path) -> None:
    """Run as root, ``--record /dev/null`` replaced the device with the record (a
    record is renamed into place when the game ends): every user then lost it."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args in (("match", "random", "random", "--record", str(fifo)),
                 ("play", "human", "random", "--record", str(fifo), "--no-browser")):
        code, _, err = cli(*args)
        assert code == 2 and "not a regular file" in err
    record = tmp_path / "g.jsonl"
    assert cli("match", "random", "random", "--record", str(record), "-q")[0] == 0
    code, _, err = cli("replay", str(record), "--html", str(fifo))
    assert code == 2 and "not a regular file" in err
    assert stat.S_ISFIFO(fifo.stat().st_mode)
