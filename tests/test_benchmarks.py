"""`python -m benchmarks --quick` runs and reports every figure (never judges timings)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # about 40 s: every game, the referee and start-up, each in subprocesses
@pytest.mark.once  # it runs both engines itself (compare's workers)
def test_quick_benchmarks_report_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # wall time: a busy machine stretches the subprocesses
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text())
    names = {(r["name"], r["unit"]) for r in rows}
    games = {"Taj Mahal": (2, 3, 4, 5), "Tikal": (2, 3, 4), "Java": (2, 3, 4)}
    for title, counts in games.items():  # every game: the same rows (benchmarks/games.py)
        for players in counts:
            assert (f"{title} random playout, {players} players", "actions/s") in names
            assert (f"{title} random playout, {players} players", "games/s") in names
            beside = f"{title} engine playout beside the environments, {players} players"
            assert (beside, "decisions/s") in names
            assert (f"{title} AEC env / engine, {players} players", "ratio") in names
            assert (f"{title} parallel env / engine, {players} players", "ratio") in names
        assert {n for n, _ in names} >= {
            f"{title} apply alone (4 players)",
            f"{title} legal_actions alone (4 players)",
            f"{title} act view to JSON text",
            f"{title} largest act line",
            f"{title} one state, alone",
            f"{title} greedy decision",
            f"{title} mcts decision",
            f"{title} engine / pure engine",
            f"{title} replay page",
        }
    for title in ("Taj Mahal", "Tikal"):  # the games whose bots are on the kit's frames
        assert f"{title} MCTS / pure MCTS" in {n for n, _ in names}
    assert {n for n, _ in names} >= {  # the referee, side by side, start-up, tournaments
        "referee over pipes, 4 trivial bots",
        "raw pipe baseline, 1 child",
        "referee / raw pipe baseline",
        "referee's work a decision over pipes",
        "4-player game over pipes, wall time",
        "Taj Mahal MCTS / pure MCTS",
        "tajmahal --version",
        "Taj Mahal batched engine, 4 players, batch 64",  # the jax extra (benchmarks/batched.py)
        "tournament random random random random, --jobs 2",
        "ladder parent CPU a game",
        "tournament parent CPU a game",
        "ladder / tournament games/min",
        "ladder standings, 50 bots, 10,000 games",
    }
    targets = {r["name"]: r for r in rows if r["target"] is not None}
    assert targets["Taj Mahal random playout, 4 players"]["target"] == 50_000
    assert targets["Java AEC env / engine, 4 players"]["target"] == 0.25
    java = targets["Java OpenSpiel rl_environment random game, 4 players"]
    assert (java["target"], java["unit"], java["higher_is_better"]) == (2.0, "s CPU", False)
    assert all(targets[f"{t} largest act line"]["target"] == 32 * 1024 for t in games)
    assert targets["referee / raw pipe baseline"]["target"] == 0.67
    assert targets["4-player game over pipes, wall time"]["target"] == 0.25
    assert targets["Taj Mahal MCTS / pure MCTS"]["target"] == 2
    assert targets["tajmahal --version"]["target"] == 0.1
    assert targets["tournament random random random random, --jobs 2"]["target"] == 5_000
    taj_mahal = next(r["value"] for r in rows if r["name"] == "Taj Mahal replay page")
    for title in ("Tikal", "Java"):  # drawing a decision: at most twice Taj Mahal's
        assert targets[f"{title} replay page"]["target"] == 2 * taj_mahal
    if hasattr(os, "sched_setaffinity"):  # the referee and its baseline on one CPU
        assert targets["referee / raw pipe baseline, one CPU"]["target"] == 0.67
        assert ("referee's work a decision, one CPU", "µs") in names
    if "Tikal engine / python-chess" in targets:  # with the bench extra
        assert targets["Taj Mahal engine / python-chess"]["target"] == 6
        assert targets["Tikal engine / python-chess"]["target"] == 2
        assert targets["Java engine / python-chess"]["target"] == 1
    assert all(r["reached"] in (True, False) for r in targets.values())
    assert all(r["value"] > 0 for r in rows)


def test_one_game_alone_as_a_markdown_table() -> None:
    # docs/performance.md quotes `python -m benchmarks --game tikal --markdown`: only
    # Tikal's rows (and python-chess's, with the bench extra), none of the referee's.
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--game", "tikal", "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,  # wall time
    )
    assert run.returncode == 0, run.stderr
    header, rule, *rows = run.stdout.splitlines()
    assert header == "| benchmark | median | unit | target | | note |"
    assert rule == "|---|---:|---|---:|---|---|"
    names = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    assert all(row.count("|") == 7 for row in rows)
    assert "Tikal largest act line" in names
    assert "Tikal engine / pure engine" in names
    assert all(n.startswith("Tikal ") or "python-chess" in n for n in names), names
    act_line = next(row for row in rows if row.startswith("| Tikal largest act line |"))
    assert "| bytes | ≤ 32,768 | reached |" in act_line
