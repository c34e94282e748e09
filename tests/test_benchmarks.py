"""`python -m benchmarks --quick` runs and reports every figure (never judges timings)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_benchmarks_report_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text())
    names = {(r["name"], r["unit"]) for r in rows}
    for players in (2, 3, 4, 5):  # 1. playouts
        assert (f"random playout, {players} players", "actions/s") in names
        assert (f"random playout, {players} players", "games/s") in names
    assert ("Java random playout, 2 players", "actions/s") in names  # benchmarks/java.py
    assert ("Java greedy decision", "ms") in names
    assert {n for n, _ in names} >= {  # 2., 3., 4. and 5.
        "apply alone (4 players)",
        "legal_actions alone (4 players)",
        "view",
        "view to JSON text, library",
        "view to JSON text, referee",
        "referee over pipes, 4 trivial bots",
        "raw pipe baseline, 1 child",
        "referee / raw pipe baseline",
        "referee's work a decision over pipes",
        "4-player game over pipes, wall time",
        "one state, alone",
        # issue 15: side by side, start-up, tournaments
        "engine / pure engine",
        "MCTS / pure MCTS",
        "tajmahal --version",
        "tournament random random random random, --jobs 2",
    }
    targets = {r["name"]: r for r in rows if r["target"] is not None}
    assert targets["random playout, 4 players"]["target"] == 50_000
    assert targets["referee / raw pipe baseline"]["target"] == 0.67
    assert targets["4-player game over pipes, wall time"]["target"] == 0.25
    assert targets["MCTS / pure MCTS"]["target"] == 2
    assert targets["tajmahal --version"]["target"] == 0.1
    assert targets["tournament random random random random, --jobs 2"]["target"] == 5_000
    if hasattr(os, "sched_setaffinity"):  # the referee and its baseline on one CPU
        assert targets["referee / raw pipe baseline, one CPU"]["target"] == 0.67
        assert ("referee's work a decision, one CPU", "µs") in names
    if "engine / python-chess" in targets:  # with the bench extra
        assert targets["engine / python-chess"]["target"] == 6
    assert all(r["reached"] in (True, False) for r in targets.values())
    assert all(r["value"] > 0 for r in rows)
