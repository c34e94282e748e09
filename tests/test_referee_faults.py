"""End to end: the CLI referee against one deliberately broken bot per fault kind.

Each game has the broken bot in seat 1 and three correct built-in bots; the game
must finish, the fault be named with its kind, the seat be played by the fallback
from then on, the record replay, and no process be left behind.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import orjson
import pytest
from referee_support import FAULTY, cli, faulty, match_json, processes_with

from tajmahal.arena import BotSpec, run_match
from tajmahal.tajmahal.adapter import TAJMAHAL

# A fixed seed: some faulty bots send an action that is illegal in most positions only.
FAST = ["--time", "0.5", "--bank", "0", "--grace", "0.5", "--handshake", "5", "--seed", "1"]

CASES = [
    # (bot, kind, phase)
    (faulty("crash_at_start"), "crash", "hello"),
    (faulty("hang_at_hello"), "timeout", "hello"),
    (faulty("wrong_version"), "protocol", "hello"),
    (faulty("crash_midgame"), "crash", "act"),
    (faulty("hang"), "timeout", "act"),
    (faulty("garbage", "text"), "malformed", "act"),
    (faulty("garbage", "binary"), "malformed", "act"),
    (faulty("wrong_shape", "array"), "protocol", "act"),
    (faulty("wrong_shape", "no_type"), "protocol", "act"),
    (faulty("wrong_shape", "wrong_type"), "protocol", "act"),
    (faulty("wrong_shape", "string_choice"), "protocol", "act"),
    (faulty("wrong_shape", "both"), "protocol", "act"),
    (faulty("wrong_shape", "neither"), "protocol", "act"),
    (faulty("wrong_shape", "unknown_field"), "protocol", "act"),
    (faulty("unasked"), "protocol", "act"),
    (faulty("illegal", "not_in_hand"), "illegal", "act"),
    (faulty("illegal", "unknown"), "protocol", "act"),  # no action of the game
    (faulty("illegal", "wrong_phase"), "illegal", "act"),
    (faulty("out_of_range"), "illegal", "act"),
    (faulty("oversized"), "oversized", "act"),
    (faulty("close_stdout"), "closed", "act"),
    (faulty("close_stdin"), "closed", "act"),
    (faulty("close_stdin", "after_act"), "closed", "act"),  # not a timeout: seen at once
    (faulty("ignore_end"), "timeout", "end"),
]

# The rule an illegal action object breaks, as the fault names it (docs/rules.md):
# the bot withdraws at its first act (withdrawing is the last legal action of a play
# turn) having played nothing, so at its third act it still owes a card from the
# display (W11), whatever it sends instead.
RULES = {faulty("illegal", "not_in_hand"): "W11", faulty("illegal", "wrong_phase"): "W11"}


@pytest.mark.parametrize(("bot", "kind", "phase"), CASES, ids=[c[0].split("/")[-1] for c in CASES])
def test_fault_is_named_and_the_game_finishes(
    tmp_path: Path, bot: str, kind: str, phase: str
) -> None:
    record = tmp_path / "game.jsonl"
    extra = ["--handshake", "1"] if "hang_at_hello" in bot else []
    if phase == "hello":  # else the check before the game refuses to play at all
        extra.append("--no-preflight")
    result = match_json("first", bot, "first", "first", *FAST, *extra, "--record", str(record))
    faults = result["faults"]
    assert [(f["seat"], f["kind"], f["phase"]) for f in faults] == [(1, kind, phase)], faults
    assert faults[0]["detail"]
    if bot in RULES:
        assert f" is not a legal action now: {RULES[bot]}: " in faults[0]["detail"]
    seats = result["seats"]
    assert sum(s["decisions"] for s in seats) == result["decisions"] > 150  # the game finished
    assert all(s["fault"] is None for i, s in enumerate(seats) if i != 1)
    if phase == "end":
        assert seats[1]["fallback_decisions"] == 0
        assert seats[1]["exit"] == "killed"
    else:
        assert seats[1]["fallback_decisions"] > 0
        # The bot decided until its fault, the fallback policy from then on.
        by = _seat_actions(record, 1)
        # A second answer is charged to the decision it answered, which stands.
        first_fallback = faults[0]["decision"] + ("unasked" in bot)
        assert all(who == "bot" for d, who in by if d < first_fallback)
        assert all(who == "fallback" for d, who in by if d >= first_fallback)
    code, out, err = cli("replay", "--verify", str(record))
    assert code == 0, err
    assert "OK" in out
    assert _fault_lines(record) == [(1, kind)]
    assert processes_with(str(FAULTY)) == []


def _seat_actions(record: Path, seat: int) -> list[tuple[int, str]]:
    """(decision, by) of each action of ``seat`` in the record."""
    lines = [orjson.loads(x) for x in record.read_bytes().splitlines()]
    return [(x["decision"], x["by"]) for x in lines if x["type"] == "action" and x["seat"] == seat]


def _fault_lines(record: Path) -> list[tuple[int, str]]:
    lines = [orjson.loads(x) for x in record.read_bytes().splitlines()]
    return [(x["seat"], x["kind"]) for x in lines if x["type"] == "fault"] or [
        (f["seat"], f["kind"]) for f in lines[-1]["faults"]
    ]


def test_a_faulted_bot_is_told_why(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    match_json("first", faulty("wrong_version"), "first", *FAST, "--record", str(record),
               "--no-preflight")
    log = (tmp_path / "g.seat1.log").read_text()
    assert "told: protocol: the bot speaks arena protocol version 99" in log
    assert "this referee speaks version 1" in log


def test_crash_report_quotes_the_last_stderr_line(tmp_path: Path) -> None:
    result = match_json("first", faulty("crash_midgame"), "first", *FAST)
    fault = result["faults"][0]
    assert fault["detail"] == "exited (exit 1)"
    assert fault["stderr"] == "RuntimeError: deliberate crash at my 5th decision"


def test_children_of_a_bot_are_killed(tmp_path: Path) -> None:
    marker = f"tajmahal-test-child-{os.getpid()}-{tmp_path.name}"
    result = match_json("first", faulty("children", marker), "first", *FAST)
    assert [(f["seat"], f["kind"], f["phase"]) for f in result["faults"]] == [(1, "timeout", "end")]
    assert processes_with(marker) == []


def test_stderr_flood_never_blocks_and_the_log_is_capped(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    result = match_json(
        "first", faulty("stderr_flood"), "first", "first",
        "--time", "2", "--max-log", "100000", "--record", str(record),
    )
    assert result["faults"] == []
    log = (tmp_path / "g.seat1.log").read_bytes()
    assert log.startswith(b"flood flood")
    assert 100_000 < len(log) < 100_500
    assert b"more bytes of stderr dropped; the log keeps 100000 bytes" in log


def test_time_bank_pays_for_overruns(tmp_path: Path) -> None:
    # 0.05 s per decision against 0.02 s allowed: the 5 s bank covers the game.
    result = match_json("first", faulty("slow", "0.05"), "--time", "0.02", "--bank", "5")
    assert result["faults"] == []
    seat = result["seats"][1]
    assert seat["time_max"] > 0.02


def test_per_seat_time_control_and_bank_exhaustion() -> None:
    # Only seat 1 is limited: 0.02 s plus a 0.3 s bank runs out after ~10 decisions.
    result = match_json(
        "first", faulty("slow", "0.05"), "first", "--seat-time", "1:0.02:0.3", "--time", "5"
    )
    (fault,) = result["faults"]
    assert (fault["seat"], fault["kind"], fault["phase"]) == (1, "timeout", "act")
    assert "left in the bank" in fault["detail"]
    bot_decisions = result["seats"][1]["decisions"] - result["seats"][1]["fallback_decisions"]
    assert 3 <= bot_decisions <= 14  # the bank paid for several overruns first


def test_oversized_line_keeps_memory_bounded(tmp_path: Path) -> None:
    """The referee's peak memory with a bot writing 50 MB without a newline stays
    within a few MB of a normal game's."""
    import subprocess

    probe = (
        "import resource, sys\n"
        "from tajmahal.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )

    def peak(bot: str) -> int:
        args = ["match", "first", bot, "first", *FAST, "-q"]
        done = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=60
        )
        return int(done.stderr.strip().splitlines()[-1])

    normal = peak("first")
    flooded = peak(faulty("oversized"))
    assert flooded < normal + 15_000, (normal, flooded)  # KB; the flood is 50 MB


def test_a_bot_that_cannot_be_started(tmp_path: Path) -> None:
    # The CLI refuses it before the game (attack 8); the referee itself faults it.
    code, _, err = cli("match", "first", str(tmp_path / "no-such-bot"), "first", *FAST)
    assert code == 2 and "does not exist" in err
    spec = BotSpec(text="gone", argv=(str(tmp_path / "no-such-bot"),))
    setup = TAJMAHAL.random_setup(3, 1)
    result = run_match(TAJMAHAL, setup, [BotSpec.parse("first", ["first"]), spec,
                                         BotSpec.parse("first", ["first"])])
    (fault,) = result.faults
    assert (fault.seat, fault.kind, fault.phase) == (1, "crash", "hello")
    assert "could not start" in fault.detail


def test_names_are_shown_as_given() -> None:
    name = "[/bold]x:smile:[red]y"
    code, out, err = cli("match", "first", faulty("odd_name", name), "-q", "--time", "5")
    assert code == 0 and err == ""
    code, out, _ = cli("match", "first", faulty("odd_name", name), "--time", "5")
    assert code == 0 and name in out


def test_a_name_with_a_newline_is_a_protocol_fault() -> None:
    result = match_json("first", faulty("odd_name", "two\nlines"), *FAST, "--no-preflight")
    (fault,) = result["faults"]
    assert (fault["kind"], fault["phase"]) == ("protocol", "hello")
    assert "printable" in fault["detail"]
