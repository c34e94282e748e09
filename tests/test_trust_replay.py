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
    """A record of a game in which seat 1 times out at its first decision."""
    record = tmp_path_factory.mktemp("faulted") / "g.jsonl"
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
