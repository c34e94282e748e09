"""Mistakes on the command line get a clear usage error, before anything starts,
and leave nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from referee_support import cli


def test_play_refuses_a_negative_seed_as_match_does() -> None:
    for command in (["play"], ["match", "random", "random"]):
        code, _, err = cli(*command, "--seed", "-5")
        assert code == 2 and "'--seed': -5 is not in the range 0<=x<=" in err, command


def test_a_record_folder_is_made_only_when_its_parent_exists(tmp_path: Path) -> None:
    deep = tmp_path / "no" / "such" / "x.jsonl"
    code, _, err = cli("match", "random", "random", "--record", str(deep))
    assert code == 2 and f"no folder {tmp_path / 'no'}" in err
    assert not (tmp_path / "no").exists()
    code, _, err = cli("match", "random", "random", "--log-dir", str(tmp_path / "a" / "b"))
    assert code == 2 and f"--log-dir {tmp_path / 'a' / 'b'}: no folder {tmp_path / 'a'}" in err
    code, _, err = cli("match", "random", "random", "--record", str(tmp_path / "runs/x.jsonl"))
    assert code == 0, err  # one missing folder, as runs/ in a fresh clone: made
    assert (tmp_path / "runs" / "x.jsonl").is_file()


def test_a_file_that_is_not_a_bot_gets_no_did_you_mean_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("README.md").write_text("# not a bot\n")
    code, _, err = cli("match", "README.md", "greedy")
    assert code == 2 and "did you mean" not in err
    assert "'README.md' is a file here but not a bot" in err and "not executable" in err
    Path("run_me").write_text("#!/bin/sh\n")
    Path("run_me").chmod(0o755)
    code, _, err = cli("match", "run_me", "greedy")
    assert code == 2 and "run it as ./run_me" in err
    code, _, err = cli("match", "greedyy", "greedy")
    assert code == 2 and "did you mean 'greedy'?" in err
