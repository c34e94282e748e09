"""What a channel between the seatings of a deal is worth, by default and with
``--duplicate`` (issue 36, item 2).

The spy (``tests/hostile_bots/duplicate_spy.py``: the search bot, writing its
hand into a notes folder every copy can write and reading the others', as a
channel a sandbox cannot close would let it) plays its honest twin (the same
bot, not reading the notes) in a two-bot tournament of ``--games`` games, at
``--jobs 1`` and ``--jobs 2``: by default (a tournament of bot programs deals
fresh cards to every game) and with ``--duplicate`` (the cards of each deal
played in both seatings: the control, where the notes tell the spy its
opponent's hand).  The figure is the spy's win share, with its 95% interval.

``python -m benchmarks.duplicate_deals [--quick]`` (minutes; not part of
``python -m benchmarks``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .measure import Result
from .report import module_main

ROOT = Path(__file__).resolve().parent.parent
SPY = ROOT / "tests" / "hostile_bots" / "duplicate_spy.py"


def spy_share(
    games: int, jobs: int, iterations: int, duplicate: bool, seed: int
) -> tuple[dict, int]:
    """The spy's win share (mean, low, high) in one tournament, and the number of
    games in which the notes told it its opponent's hand."""
    with tempfile.TemporaryDirectory() as tmp:
        notes = Path(tmp, "notes")
        spy = f"spy={SPY} {notes} --iterations {iterations}"
        honest = f"honest={SPY} {notes} --iterations {iterations} --honest"
        mode = ["--duplicate"] if duplicate else []
        subprocess.run(
            [sys.executable, "-m", "tajmahal", "tournament", spy, honest, "--games", str(games),
             "--jobs", str(jobs), "--seed", str(seed), "--time", "30", "--no-sandbox",
             "--out", str(Path(tmp, "t")), "-q", *mode],
            check=True, capture_output=True, cwd=ROOT,
        )
        data = json.loads(Path(tmp, "t", "standings.json").read_text())
        told = sum("spy: read the hand" in log.read_text()
                   for log in Path(tmp, "t", "logs").glob("*.log"))
    share: dict = data["entrants"][0]["win_share"]
    return share, told


def run_all(quick: bool) -> list[Result]:
    games, iterations = (8, 30) if quick else (40, 100)
    rows = []
    for jobs in (1, 2):
        for duplicate in (False, True):
            share, told = spy_share(games, jobs, iterations, duplicate, seed=jobs)
            mode = "--duplicate (control)" if duplicate else "default (fresh cards)"
            interval = ("" if share["low"] is None
                        else f" [{share['low']:.2f}, {share['high']:.2f}]")
            rows.append(Result(
                f"spy's win share against its twin, --jobs {jobs}, {mode}", share["mean"],
                "share", note=f"{games} games, {iterations} iterations; 95%{interval}; "
                f"the notes told it its opponent's hand in {told} games"))
    return rows


if __name__ == "__main__":
    sys.exit(module_main("python -m benchmarks.duplicate_deals", __doc__, run_all))
