"""Referee trust, attack 5's opt-in isolation: ``--sandbox`` and ``--memory MB``.

Under --sandbox a bot cannot signal, trace or look into its referee, list or plant
files where the referee writes, connect over TCP, or see the referee's
environment; it can write in a private home, removed after the game.  A bot that
tries to kill its worker when losing (attack 2) then only crashes itself.
--memory caps each bot process's address space.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import cli, hostile, match_json

from tajmahal.arena import commands, sandbox

FAST = ["--time", "2", "--bank", "0", "--grace", "0.5", "--seed", "1"]
landlock = pytest.mark.skipif(
    sandbox.unavailable() is not None, reason=str(sandbox.unavailable())
)
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux rlimits")


def probe_report(log: Path) -> dict[str, Any]:
    (line,) = [x for x in log.read_text().splitlines() if x.startswith("probe: ")]
    report: dict[str, Any] = orjson.loads(line.removeprefix("probe: "))
    return report


@landlock
def test_a_sandboxed_bot_reaches_nothing_of_the_referees(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    bot = hostile("sandbox_probe", str(records))
    result = match_json("first", bot, *FAST, "--sandbox", "--record", str(records / "g.jsonl"))
    assert result["faults"] == []
    report = probe_report(records / "g.seat1.log")
    denied = ("signal_referee", "referee_memory", "referee_fd", "referee_cwd", "list_records",
              "write_outside", "tcp")
    assert {k: report[k] for k in denied} == dict.fromkeys(denied, "PermissionError")
    assert report["write_home"] == "done"
    assert report["env"] == ["HOME", "LANG", "PATH", "TMPDIR"] or report["env"] == [
        "HOME", "PATH", "TMPDIR"]
    assert not (records / "planted.txt").exists()
    assert list(Path(tempfile.gettempdir()).glob("tajmahal-bot-*")) == []


@landlock
def test_a_sandboxed_bot_in_a_tournament_cannot_read_the_tournament(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the output directory beneath the current one, as usual
    bot = hostile("sandbox_probe", str(tmp_path / "t"))
    code, _, stderr = cli("tournament", "first", bot, "--games", "2", "--jobs", "1",
                          "--out", "t", "--sandbox", "-q", *FAST[:4])
    assert code == 0, stderr
    for log in sorted((tmp_path / "t" / "logs").glob("*.log")):
        report = probe_report(log)
        assert report["list_records"] == report["signal_referee"] == "PermissionError"
        assert report["write_outside"] == "PermissionError"


@landlock
def test_a_sandboxed_bot_that_kills_its_worker_when_losing_only_crashes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ("tournament", hostile("sore_loser", "kill"), "random", "--games", "4", "--seed", "5",
            "--jobs", "2", "--out", str(out), "--json")
    code, stdout, stderr = cli(*args, "--sandbox")
    assert code == 0, stderr
    summary = orjson.loads(stdout)
    assert summary["lost_games"] == [] and summary["complete"]
    bot = summary["entrants"][0]
    assert bot["faults"] and set(bot["faults"]) == {"crash"}  # its kill was refused
    logs = "".join(p.read_text() for p in (out / "logs").iterdir())
    assert "PermissionError" in logs
    manifest = orjson.loads((out / "tournament.json").read_bytes())
    assert manifest["plan"]["sandbox"] is True
    code, _, stderr = cli(*args[:-1])  # the same tournament without --sandbox: refused
    assert code == 2 and "--sandbox: stored on, given off" in stderr


def test_sandbox_is_refused_up_front_where_it_cannot_confine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commands, "sandbox_unavailable", lambda: "--sandbox needs X")
    code, stdout, stderr = cli("match", "random", "random", "--sandbox")
    assert code == 2 and "--sandbox needs X" in stderr and stdout == ""
    code, _, stderr = cli("tournament", "random", "random", "--sandbox", "--out",
                          str(tmp_path / "t"))
    assert code == 2 and "--sandbox needs X" in stderr and not (tmp_path / "t").exists()


@linux
def test_memory_caps_what_a_bot_can_hold() -> None:
    result = match_json("first", hostile("hog", "300"), *FAST, "--memory", "200")
    (fault,) = result["faults"]
    assert (fault["seat"], fault["kind"]) == (1, "crash") and fault["stderr"] == "MemoryError"
    assert match_json("first", hostile("hog", "100"), *FAST, "--memory", "200")["faults"] == []
