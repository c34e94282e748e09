"""Referee trust, attacks 1, 7 and 8: what a bot writes can neither crash the
referee nor reach the terminal as control codes; odd but valid lines are read.

Each attack is a small hostile bot (tests/hostile_bots) played through the real
CLI; the game must finish, the fault be charged to the bot, the record replay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import HOSTILE, cli, faulty, hostile, match_json, processes_with

FAST = ["--time", "2", "--bank", "0", "--grace", "0.5", "--seed", "1"]


def _replays(record: Path) -> None:
    code, out, err = cli("replay", "--verify", str(record))
    assert code == 0 and "OK" in out, err


# -- attack 1: one line crashes the referee


@pytest.mark.parametrize(
    ("field", "phase"),
    [
        ("choice", "act"),
        ("type", "act"),
        ("action", "act"),
        ("name", "hello"),
        ("version", "hello"),
        ("protocol_version", "hello"),
        ("type_hello", "hello"),
    ],
)
def test_attack_1_deeply_nested_field_is_the_bots_fault(
    tmp_path: Path, field: str, phase: str
) -> None:
    record = tmp_path / "g.jsonl"
    result = match_json("first", hostile("deep_reply", field), "first", *FAST,
                        "--record", str(record), "--no-preflight")
    (fault,) = result["faults"]
    kind = "protocol"  # for "action": an object, but no action of the game
    assert (fault["seat"], fault["kind"], fault["phase"]) == (1, kind, phase), fault
    assert len(fault["detail"]) < 400  # quoted, bounded
    # the game finished: its 12 visits each end once all 3 seats withdrew (E1, E5)
    assert result["decisions"] >= 12 * 3 and result["ranks"]
    _replays(record)


def test_attack_1_nesting_beyond_the_json_limit_is_malformed() -> None:
    result = match_json("first", hostile("deep_reply", "choice", "5000"), *FAST)
    (fault,) = result["faults"]
    assert (fault["kind"], fault["phase"]) == ("malformed", "act")
    assert len(fault["detail"]) < 400


# -- attack 7: terminal injection


def test_attack_7_escape_codes_in_stderr_never_reach_the_terminal(tmp_path: Path) -> None:
    bot = hostile("escape_codes", "stderr")
    record = tmp_path / "g.jsonl"
    for extra in ([], ["-q"], ["-v"]):
        code, out, err = cli("match", "first", bot, "first", *FAST, "--record", str(record),
                             *extra)
        assert code == 0
        text = out + err
        assert "crash" in text and "pwned" in text  # the fault is reported, its text shown
        assert not _controls(text), (extra, [c for c in text if _controls(c)])
    code, out, err = cli("replay", str(record))
    assert code == 0 and not _controls(out + err)


def test_attack_7_a_version_with_escapes_or_nul_is_refused() -> None:
    result = match_json("first", hostile("escape_codes", "version"), *FAST, "--no-preflight")
    (fault,) = result["faults"]
    assert (fault["kind"], fault["phase"]) == ("protocol", "hello")
    assert fault["detail"].startswith('"version" must be a printable string')
    assert not _controls(fault["detail"])
    code, out, err = cli("match", "first", hostile("escape_codes", "version"), *FAST)
    assert code == 2 and "printable" in err and not _controls(out + err)  # refused


def test_attack_7_replay_escapes_what_a_forged_record_says(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    match_json("first", faulty("hang"), "first", "--time", "0.3", "--bank", "0",
               "--seed", "1", "--record", str(record))
    lines = [orjson.loads(x) for x in record.read_bytes().splitlines()]
    lines[0]["players"][1]["name"] = "\x1b[2Jevil\x07"
    for fault in [x for x in lines if x["type"] == "fault"] + lines[-1]["faults"]:
        fault["detail"] = "\x1b]0;title\x07\x1b[31m"
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    # the referee never writes a control character: a MISMATCH, told safely
    code, out, err = cli("replay", str(forged))
    assert code == 1 and "MISMATCH" in err and "title" in err and not _controls(out + err)
    for fault in [x for x in lines if x["type"] == "fault"] + lines[-1]["faults"]:
        fault["detail"] = "no answer within 0.300 s (0.3 s per decision + 0.000 s left in the bank)"
    forged.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    code, out, err = cli("replay", "--verify", str(forged))
    assert code == 1 and "MISMATCH" in err and "evil" in err and not _controls(out + err)


def _controls(text: str) -> bool:
    return any(
        (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or c == "\u202e" for c in text
    )


# -- attack 8 (the protocol's part): BOM, huge integers; missing fields


def test_attack_8_a_line_starting_with_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    result = match_json("first", hostile("wire_quirks", "bom"), *FAST, "--record", str(record))
    assert result["faults"] == []
    assert result["seats"][1]["name"] == "bom"
    assert result["seats"][1]["fallback_decisions"] == 0
    _replays(record)


def test_attack_8_a_huge_integer_choice_is_not_an_integer() -> None:
    result = match_json("first", hostile("wire_quirks", "huge_choice"), *FAST)
    (fault,) = result["faults"]
    assert (fault["kind"], fault["phase"]) == ("protocol", "act")
    assert "100000000000000000000000 is not an integer" in fault["detail"]
    assert "e+" not in fault["detail"]  # not shown as the float JSON decoding made of it


def test_a_missing_version_says_missing() -> None:
    result = match_json("first", hostile("wire_quirks", "no_version"), *FAST, "--no-preflight")
    (fault,) = result["faults"]
    assert (fault["kind"], fault["phase"]) == ("protocol", "hello")
    assert '"version"' in fault["detail"] and "missing" in fault["detail"]


def test_a_second_answer_is_reported_against_the_decision_it_answered(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    bot = hostile("wire_quirks", "second_answer")
    result = match_json("first", bot, "first", *FAST, "--record", str(record))
    (fault,) = result["faults"]
    lines: list[dict[str, Any]] = [orjson.loads(x) for x in record.read_bytes().splitlines()]
    mine = [x for x in lines if x["type"] == "action" and x["seat"] == 1]
    assert fault["decision"] == mine[1]["decision"]  # its second act, answered twice
    assert [x["by"] for x in mine[:3]] == ["bot", "bot", "fallback"]
    assert f"after its answer to decision {mine[1]['decision']}" in fault["detail"]
    _replays(record)
    assert processes_with(str(HOSTILE)) == []


def test_a_second_answer_to_the_last_decision_is_reported_too(tmp_path: Path) -> None:
    played = match_json("first", hostile("wire_quirks", "bom"), *FAST)  # the same choices
    last = played["seats"][1]["decisions"]  # its acts, all answered with choice 0
    record = tmp_path / "g.jsonl"
    bot = hostile("wire_quirks", "second_answer", str(last))
    result = match_json("first", bot, *FAST, "--record", str(record))
    (fault,) = result["faults"]
    lines: list[dict[str, Any]] = [orjson.loads(x) for x in record.read_bytes().splitlines()]
    mine = [x for x in lines if x["type"] == "action" and x["seat"] == 1]
    assert len(mine) == last and [x["by"] for x in mine] == ["bot"] * last
    assert (fault["seat"], fault["kind"], fault["phase"]) == (1, "protocol", "act")
    assert fault["decision"] == mine[-1]["decision"]
    assert f"after its answer to decision {mine[-1]['decision']}" in fault["detail"]
    assert result["scores"] == played["scores"]  # the game itself is the same
    _replays(record)
