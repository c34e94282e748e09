"""Referee trust, round 4: the seed a bot is told says nothing of the deal.

The red team worked small match seeds (``--seed 1``, ``7``, ``42``) back from the
seed in the hello, which was a hash of the match seed and the seat, and dealt the
deck themselves.  The seed told is now an HMAC of the seat under a secret the
referee draws per match (per game from the tournament directory's key): the same
search finds nothing, the seeds differ from run to run of the same ``--seed``,
and the record's header keeps them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from referee_support import cli, faulty
from tournament_support import make_plan

from tajmahal.arena.terms import REPRODUCIBLE_SEEDS, seat_seed, told_seed
from tajmahal.arena.tournament.journal import TournamentDir


def told_and_recorded(where: Path) -> tuple[list[int], list[int]]:
    """A match of two log_input bots with --seed 1: the seeds their hellos told
    them, and those the record's header holds."""
    record = where / "g.jsonl"
    bot = faulty("log_input")
    code, _, stderr = cli("match", bot, bot, "--seed", "1", "--record", str(record), "-q")
    assert code == 0, stderr
    told = []
    for seat in (0, 1):
        hello = json.loads((where / f"g.seat{seat}.log").read_text().splitlines()[0])
        told.append(hello["seed"])
    header = json.loads(record.read_text().splitlines()[0])
    return told, [p["seed"] for p in header["players"]]


def test_the_seed_told_is_no_hash_of_a_small_match_seed_and_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    told, recorded = told_and_recorded(tmp_path / "a")
    assert told == recorded
    # The red team's search: every small match seed, hashed as before, for each seat.
    searched = {seat_seed(seed, seat) for seed in range(10_000) for seat in (0, 1)}
    assert not searched & set(told)
    again, _ = told_and_recorded(tmp_path / "b")
    assert again != told and len(set(told)) == 2  # fresh per match, one per seat


def test_told_seeds_are_an_hmac_of_the_seat() -> None:
    import hashlib
    import hmac

    digest = hmac.new(b"k", b"tajmahal seat seed 3", hashlib.sha256).digest()
    assert told_seed(b"k", 3) == int.from_bytes(digest[:4], "big") >> 1 < 2**31
    assert told_seed(b"k", 3) != told_seed(b"l", 3)


def test_a_tournament_tells_a_game_played_again_the_same_seeds(tmp_path: Path) -> None:
    """Derived from the directory's key: the same for a game on every resume,
    different between games and between tournaments of the same seed."""
    store = TournamentDir.open(tmp_path / "t", make_plan())
    keys = [store.seat_key(n) for n in range(3)]
    store.close()
    reopened = TournamentDir.open(tmp_path / "t", make_plan())
    assert [reopened.seat_key(n) for n in range(3)] == keys and len(set(keys)) == 3
    reopened.close()
    other = TournamentDir.open(tmp_path / "u", make_plan())
    assert other.seat_key(0) != keys[0]
    other.close()


def test_reproducible_seeds_are_the_hash_of_the_match_seed_when_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the docs' figures run with: two runs of one seed tell the same seeds."""
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
    (tmp_path / "a").mkdir()
    told, recorded = told_and_recorded(tmp_path / "a")
    assert told == recorded == [seat_seed(1, 0), seat_seed(1, 1)]
