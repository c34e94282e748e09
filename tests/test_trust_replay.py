"""Referee trust, attack 6: ``replay --verify`` proves what it says.

A record must replay to the game it describes, and every part of it that can be
checked is: the setup against the seed (a stacked deck under "seed 1" is not
seed 1's game), the fault lines against who chose each action, the header's
players and limits, the result's counts and faults.  A malformed record is a
MISMATCH with a reason, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_support import cli, faulty, match_json

from tajmahal.arena import BotSpec, MatchConfig, RecordError, replay, run_match
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS
from tajmahal.tajmahal.adapter import TAJMAHAL

Lines = list[dict[str, Any]]


def _read(path: Path) -> Lines:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def _write(path: Path, lines: Lines) -> Path:
    path.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    return path


def _verify(path: Path) -> tuple[int, str]:
    code, out, err = cli("replay", "--verify", str(path))
    assert "Traceback" not in err
    return code, out + err


@pytest.fixture(scope="module")
def faulted(tmp_path_factory: pytest.TempPathFactory) -> Lines:
    """A record of a game in which seat 1 times out at its first decision (the
    cards of seed 1 itself, which seat 1 starts)."""
    record = tmp_path_factory.mktemp("faulted") / "g.jsonl"
    with pytest.MonkeyPatch.context() as env:
        env.setenv(REPRODUCIBLE_SEEDS, "1")
        match_json("first", faulty("hang"), "first", "--time", "0.3", "--bank", "0",
                   "--seed", "1", "--record", str(record))
    return _read(record)


def test_attack_6_a_stacked_deck_under_a_seed_is_a_mismatch(tmp_path: Path) -> None:
    data = TAJMAHAL.setup_to_data(TAJMAHAL.random_setup(3, 1))
    data["deck"] = list(reversed(data["deck"]))  # the cards of seed 1, stacked
    stacked = TAJMAHAL.setup_from_data(data)
    record = tmp_path / "stacked.jsonl"
    bots = [BotSpec.parse("first", ["first"])] * 3
    run_match(TAJMAHAL, stacked, bots, MatchConfig(record=record), seed=1)
    lines = _read(record)
    assert lines[0]["seed"] == 1 and lines[0]["deal"] == "given"  # the referee says so
    code, text = _verify(record)
    assert code == 0 and "the setup was given to the referee" in text
    del lines[0]["deal"]  # now it claims to be seed 1's game
    code, text = _verify(_write(tmp_path / "claims.jsonl", lines))
    assert code == 1 and "the setup is not the one seed 1 deals" in text
    lines[0]["deal"] = "seed"
    assert _verify(_write(tmp_path / "claims.jsonl", lines))[0] == 1


def test_attack_6_an_honest_record_says_its_setup_is_the_seeds(faulted: Lines,
                                                               tmp_path: Path) -> None:
    code, text = _verify(_write(tmp_path / "g.jsonl", faulted))
    assert code == 0 and "the setup is the one seed 1 deals" in text


def _tamper(lines: Lines, change: str) -> Lines:
    lines = orjson.loads(orjson.dumps(lines))  # a deep copy
    actions = [x for x in lines if x["type"] == "action"]
    seat1 = [x for x in actions if x["seat"] == 1]
    others = [x for x in actions if x["seat"] != 1]
    if change == "bot_after_fault":
        seat1[3]["by"] = "bot"
    elif change == "no_fault_line":
        lines = [x for x in lines if x["type"] != "fault"]
        lines[-1]["faults"] = []
    elif change == "fallback_without_fault":
        others[5]["by"] = "fallback"
    elif change == "fault_not_in_result":
        lines[-1]["faults"] = []
    elif change == "fault_kind":
        for fault in [x for x in lines if x["type"] == "fault"] + lines[-1]["faults"]:
            fault["kind"] = "cheating"
    elif change == "decision_count":
        lines[-1]["decisions"] += 1
    elif change == "fallback_count":
        lines[-1]["players"][1]["fallback_decisions"] -= 1
    elif change == "players":
        lines[0]["players"].pop()
    elif change == "variant":
        lines[0]["variant"] = "dummy"
    elif change == "time":
        lines[0]["time"][0] = {"move": "fast", "bank": 1}
    elif change == "seed":
        lines[0]["seed"] = -1
    elif change == "scores_5":
        lines[-1]["scores"] = 5
    elif change == "step_scores_5":
        actions[7]["scores"] = 5
    elif change == "choice_text":
        actions[3]["choice"] = "0"
    return lines


@pytest.mark.parametrize(("change", "reason"), [
    ("bot_after_fault", "by 'fallback'"),
    ("no_fault_line", "it has no fault line before"),
    ("fallback_without_fault", "it has no fault line before"),
    ("fault_not_in_result", "the result's faults are not those of the fault lines"),
    ("fault_kind", "unknown fault kind"),
    ("decision_count", "decisions, the record has"),
    ("fallback_count", "decisions (all, fallback)"),
    ("players", '"players" must list 3 entries'),
    ("variant", "but the setup is for 'standard'"),
    ("time", 'must be a number of seconds'),
    ("seed", '"seed" must be an integer'),
    ("scores_5", "final scores replay as"),
    ("step_scores_5", "scores after the step are"),
    ("choice_text", "is not an index of the"),
])
def test_attack_6_each_part_of_a_record_is_checked(
    faulted: Lines, tmp_path: Path, change: str, reason: str
) -> None:
    code, text = _verify(_write(tmp_path / "t.jsonl", _tamper(faulted, change)))
    assert code == 1 and "MISMATCH" in text and reason in text, text


def test_attack_6_a_fallback_action_must_be_the_fallback_policys(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    match_json("first", faulty("hang"), "--time", "0.3", "--bank", "0", "--seed", "4",
               "--record", str(record))
    lines = _read(record)
    state = TAJMAHAL.new_game(TAJMAHAL.setup_from_data(lines[0]["setup"]))
    for line in lines:  # the first fallback action where another action was legal
        if line["type"] != "action":
            continue
        legal = TAJMAHAL.legal_actions(state)
        if line["by"] == "fallback" and line["choice"] != 0:
            line["choice"] = 0  # the first legal action instead (whose totals differ later)
            line["action"] = TAJMAHAL.action_to_data(legal[0])
            break
        state, _ = TAJMAHAL.step(state, legal[line["choice"]])
    else:
        pytest.fail("no fallback action where another action was legal")
    code, text = _verify(_write(tmp_path / "t.jsonl", lines))
    assert code == 1 and "the fallback policy plays" in text, text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_attack_6_any_damaged_record_is_a_mismatch_never_a_crash(
    faulted: Lines, tmp_path: Path, data: st.DataObject
) -> None:
    lines = orjson.loads(orjson.dumps(faulted))
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        how = data.draw(st.sampled_from(["set", "drop", "line", "cut"]))
        if how == "line":
            lines[index] = data.draw(json_values)
        elif how == "cut":
            lines = lines[: index + 1]
        elif isinstance(line, dict) and line:
            key = data.draw(st.sampled_from(sorted(line)))
            if how == "drop":
                del line[key]
            else:
                line[key] = data.draw(json_values)
    path = tmp_path / "fuzzed.jsonl"
    raw = b"".join(orjson.dumps(x) + b"\n" for x in lines)
    if data.draw(st.booleans()):  # and damage the bytes too
        at = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + data.draw(st.binary(max_size=8)) + raw[at + 1 :]
    path.write_bytes(raw)
    try:
        replay(TAJMAHAL, path, describe=data.draw(st.booleans()))
    except RecordError as e:
        assert str(e)


# -- round 4: every field as the referee writes it (the red team's tampering list)


def _rewrite(lines: Lines, change: str) -> Lines:
    """``lines`` (the ``faulted`` record: first, hang, first; 0.3 s a decision, no
    bank; seat 1 times out at decision 1) with one thing changed."""
    lines = orjson.loads(orjson.dumps(lines))  # a deep copy
    header, result = lines[0], lines[-1]
    players, times = header["players"], header["time"]
    fault_lines = [x for x in lines if x["type"] == "fault"]
    faults = fault_lines + result["faults"]
    moves = [x for x in lines if x["type"] == "action" and x["by"] == "bot"]
    fallbacks = [x for x in lines if x["type"] == "action" and x["by"] == "fallback"]
    changes = {
        "fault_kind_crash": lambda: [f.update(kind="crash") for f in faults],
        "fault_kind_illegal": lambda: [f.update(kind="illegal") for f in faults],
        "fault_detail_limit": lambda: [f.update(detail=f["detail"].replace("0.300", "0.900"))
                                       for f in faults],
        "fault_detail_other": lambda: [f.update(detail="exited (exit 1)") for f in faults],
        "names_swapped": lambda: [p.update(name=n) for p, n in
                                  zip(players, ["hang", "first"], strict=False)],
        "commands_swapped": lambda: [p.update(bot=b) for p, b in
                                     zip(players, [players[1]["bot"], "first"], strict=False)],
        "entries_swapped": lambda: players.__setitem__(
            slice(0, 2), [{**players[1], "seat": 0}, {**players[0], "seat": 1}]),
        "name_nul": lambda: players[1].update(name="ha\0ng"),
        "builtin_version": lambda: players[0].update(version="9.9"),
        "command_nul": lambda: players[1].update(bot="hang\0.py"),
        "move_time": lambda: moves[3].update(time=5.0),
        "negative_time": lambda: moves[3].update(time=-0.001),
        "fallback_time": lambda: fallbacks[3].update(time=0.2),
        "time_used": lambda: result["players"][0].update(time_used=3.0),
        "duration": lambda: result.update(duration=0.0001),
        "header_move": lambda: times[1].update(move=1.0),
        "header_bank": lambda: times[1].update(bank=5.0),
        "handshake": lambda: header.update(handshake=0),
        "referee": lambda: header.update(referee="someone else"),
        "started": lambda: header.update(started="yesterday"),
        "extra_header": lambda: header.update(note="gg"),
        "extra_player": lambda: players[0].update(email="a@b.c"),
        "extra_time": lambda: times[0].update(increment=1),
        "extra_action": lambda: moves[2].update(comment="gg"),
        "extra_fault": lambda: fault_lines[0].update(extra=1),
        "extra_result": lambda: result.update(winner=2),
        "extra_result_player": lambda: result["players"][0].update(rating=1500),
        "builtin_exit": lambda: result["players"][0].update(exit="exit 0"),
        "program_exit": lambda: result["players"][1].update(exit="exited fine"),
    }
    changes[change]()
    return lines


LAST = "the result line"  # of the ``faulted`` record: its last


@pytest.mark.parametrize(("change", "where", "reason"), [
    ("fault_kind_crash", "line 2", 'is not one the referee gives a crash fault'),
    ("fault_kind_illegal", "line 2", 'is not one the referee gives an illegal action'),
    ("fault_detail_limit", "line 2", "the timeout's limit is 0.900 s, but seat 1 had 0.300 s"),
    ("fault_detail_other", "line 2", 'is not one the referee gives a timeout'),
    ("names_swapped", "line 1", "\"players\" entry 0: the built-in 'first' is 'first' '1.0'"),
    ("commands_swapped", "line 1", "\"players\" entry 1: the built-in 'first' is 'first'"),
    ("entries_swapped", LAST, '"players" entry 1: "exit" "killed" is not how a built-in'),
    ("name_nul", "line 1", '"players" entry 1: "name" "ha\\u0000ng" is not a name a bot can'),
    ("builtin_version", "line 1", "the built-in 'first' is 'first' '1.0', not \"first\" \"9.9\""),
    ("command_nul", "line 1", '"players" entry 1: "bot" must be a command'),
    ("move_time", "", '"time" 5.0 s is more than seat'),
    ("negative_time", "", '"time" must be seconds to the microsecond: -0.001'),
    ("fallback_time", "", '"time" 0.2: a fallback action takes no time'),
    ("time_used", LAST, '"players" entry 0: "time_used" 3.0, but its moves took'),
    ("duration", LAST, '"duration" 0.0001 s is shorter than the moves'),
    ("header_move", "line 2", "the timeout's limit is 0.300 s, but seat 1 had 1.000 s"),
    ("header_bank", "line 2", "the timeout's limit is 0.300 s, but seat 1 had 5.300 s"),
    ("handshake", "line 1", '"handshake" must be a positive number of seconds'),
    ("referee", "line 1", '"referee" must be "tajmahal VERSION"'),
    ("started", "line 1", '"started" must be a UTC time to the second'),
    ("extra_header", "line 1", 'unknown field "note" in the header'),
    ("extra_player", "line 1", 'unknown field "email" in "players" entry 0'),
    ("extra_time", "line 1", 'unknown field "increment" in "time" entry 0'),
    ("extra_action", "", 'unknown field "comment" in an action line'),
    ("extra_fault", "line 2", 'unknown field "extra" in a fault line'),
    ("extra_result", LAST, 'unknown field "winner" in the result line'),
    ("extra_result_player", LAST, 'unknown field "rating" in "players" entry 0 of the result'),
    ("builtin_exit", LAST, '"players" entry 0: "exit" "exit 0" is not how a built-in bot'),
    ("program_exit", LAST, '"players" entry 1: "exit" "exited fine" is not how a program'),
])
def test_round_4_each_field_is_checked_against_what_the_referee_writes(
    faulted: Lines, tmp_path: Path, change: str, where: str, reason: str
) -> None:
    """The red team's edits that verify accepted (a fault's kind or detail,
    swapped names and commands, impossible times, changed limits, unknown fields,
    a NUL in a name): each a MISMATCH naming its line and field, before the seal
    is even looked at."""
    code, text = _verify(_write(tmp_path / "t.jsonl", _rewrite(faulted, change)))
    assert code == 1 and "MISMATCH" in text and reason in text, text
    where = where.replace(LAST, f"line {len(faulted)}") or "line "  # an action's
    assert f": {where}" in text, text
    assert "seal" not in text


def test_round_4_the_seal_names_a_line_changed_where_no_replay_can_tell(
    faulted: Lines, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program's name, the handshake, a bot's move time within its limits: no
    replay can recompute them, the referee's seal can; elsewhere (another key) or
    without its seal the record says so instead of vouching for them."""
    code, text = _verify(_write(tmp_path / "g.jsonl", faulted))
    assert code == 0 and "sealed by this machine's referee, every line as it wrote it" in text
    moved = next(x for x in faulted[2:] if x["type"] == "action" and x["by"] == "bot")
    at = faulted.index(moved) + 1
    for change, line in (
        (lambda x: x[0]["players"][1].update(name="champion"), 1),
        (lambda x: x[0].update(handshake=30.0), 1),
        (lambda x: x[at - 1].update(time=round(x[at - 1]["time"] + 0.00002, 6)), at),
        (lambda x: x.insert(3, x[2]), 4),  # a fallback action repeated: the replay notices
    ):
        lines = orjson.loads(orjson.dumps(faulted))
        change(lines)
        code, text = _verify(_write(tmp_path / "t.jsonl", lines))
        assert code == 1 and f"line {line}" in text, text
    lines = orjson.loads(orjson.dumps(faulted))
    lines[0]["players"][1]["name"] = "champion"
    forged = _write(tmp_path / "t.jsonl", lines)
    code, text = _verify(forged)
    assert code == 1 and "line 1: not as the referee wrote it (the seal does not match)" in text
    monkeypatch.setenv("TAJMAHAL_REFEREE_KEY", str(tmp_path / "another.key"))
    code, text = _verify(forged)
    assert code == 0 and "sealed under another referee's key (not checked here" in text
    del lines[-1]["seal"]
    code, text = _verify(_write(tmp_path / "t.jsonl", lines))
    assert code == 0 and "not sealed (its players and times are as written)" in text
    lines[-1]["seal"] = {"key": "x", "lines": "not hex"}
    code, text = _verify(_write(tmp_path / "t.jsonl", lines))
    assert code == 1 and f'line {len(lines)}: "seal": its "lines" are not hexadecimal' in text
