"""What the commands print fits an 80-column terminal: no table wraps a cell, no
interval is cut in two, the live table does not stay above the final one."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from referee_support import cli
from rich.console import Console

from tajmahal.arena.report import logs_text
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS
from tajmahal.arena.tournament.display import LiveDisplay

WIDTH = 80


def assert_fits(text: str) -> None:
    for line in text.splitlines():
        assert len(line.rstrip()) <= WIDTH, f"wider than {WIDTH}: {line!r}"
        assert line.count("[") == line.count("]"), f"an interval cut in two: {line!r}"


def test_five_entrants_tables_fit_in_80_columns(tmp_path: Path) -> None:
    code, out, err = cli(
        "tournament", "first", "random", "random", "random", "random", "--games", "10",
        "--seed", "1", "--jobs", "2", "--out", str(tmp_path / "t"), columns=WIDTH,
    )
    assert code == 0, err
    assert_fits(out)
    # every number with its interval, the pairwise table split in two (5 x 17 columns)
    assert re.search(r"^0\s+first\s+\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", out, re.M)
    assert re.search(r"^#\s+entrant\s+rating\s+faults$", out, re.M)
    assert re.search(r"^#\s+0\s+1\s+2\s+3$", out, re.M) and re.search(r"^#\s+4$", out, re.M)
    assert "10 of 10 games finished; this run: 10 games in" in out


def test_a_gauntlet_with_q_prints_its_table_and_not_each_match_ups(tmp_path: Path) -> None:
    code, out, err = cli(
        "tournament", "--gauntlet", "first", "random", "first", "--games", "4", "--seed", "2",
        "-q", "--out", str(tmp_path / "g"), columns=WIDTH,
    )
    assert code == 0, err
    assert_fits(out)
    assert "win share" not in out and "finished" not in out
    assert re.search(r"^1\s+random\s+4\s+\d\.\d{3} \[", out, re.M)


def test_a_match_with_a_fault_fits_and_explains_the_fault_under_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")  # seed 1's own cards: seat 1 starts
    code, out, err = cli(
        "match", "first", "tests/faulty_bots/hang.py", "first", "--time", "0.3", "--bank", "0",
        "--seed", "1", columns=WIDTH,
    )
    assert code == 0, err
    assert_fits(out)
    assert re.search(r"^\s+1\s+hang(\s+\d+){7}\s+[\d.]+s\s+timeout$", out, re.M)
    assert "seat 1: tests/faulty_bots/hang.py" in out
    assert "fault: seat 1 (hang) timeout at decision 1" in out
    assert "the fallback policy played it from there" in " ".join(out.split())


def test_only_the_logs_that_hold_something_are_listed(tmp_path: Path) -> None:
    paths = [tmp_path / f"g.seat{k}.log" for k in range(4)]
    for k, path in enumerate(paths):
        path.write_text("warning\n" if k in (0, 2) else "")
    assert logs_text([str(p) for p in paths]) == f"{tmp_path}/g.seat{{0,2}}.log"
    assert logs_text([str(paths[2])]) == str(paths[2])
    assert logs_text([str(paths[1]), str(tmp_path / "gone.log")]) == ""


def test_the_live_table_is_gone_when_the_final_one_is_printed() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=WIDTH, color_system=None)
    assert LiveDisplay(console).live.transient  # rich erases it when the display stops
