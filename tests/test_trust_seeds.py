"""Referee trust, round 4: the seed a bot is told says nothing of the deal.

The red team worked small match seeds (``--seed 1``, ``7``, ``42``) back from the
seed in the hello, which was a hash of the match seed and the seat, and dealt the
deck themselves.  The seed told is now an HMAC of the seat under a secret the
referee draws per match (per game from the tournament directory's key): the same
search finds nothing, the seeds differ from run to run of the same ``--seed``,
and the record's header keeps them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import FAULTY, cli, faulty, hostile, interrupted, needs_sandbox
from tournament_support import make_plan

from tajmahal.arena import seal
from tajmahal.arena.referee import deal
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS, seat_seed, setup_seed, told_seed
from tajmahal.arena.tournament.journal import TournamentDir, TournamentError
from tajmahal.arena.tournament.plan import Plan
from tajmahal.arena.tournament.runner import task_for
from tajmahal.arena.tournament.schedule import KEYED_SETUPS, SEEDING, deal_seed, fresh_seed
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tajmahal.setups import Setup


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


# The deal itself: drawn from the seed under a key only the referee holds.


def test_match_deals_a_seed_under_the_referees_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same cards for ``--seed 1`` on this machine (its referee's key), other
    cards under another key; the seed's own under TAJMAHAL_REPRODUCIBLE_SEEDS."""
    monkeypatch.setenv(seal.KEY_VARIABLE, str(tmp_path / "here.key"))
    first = deal(TAJMAHAL, 3, 1)
    assert deal(TAJMAHAL, 3, 1) == first
    key = seal.load_key()
    assert key is not None
    digest = hmac.new(key, b"tajmahal setup seed 1", hashlib.sha256).digest()
    assert first.setup_seed == int.from_bytes(digest[:8], "big") >> 1 == setup_seed(key, 1)
    assert first.setup == TAJMAHAL.random_setup(3, first.setup_seed) != TAJMAHAL.random_setup(3, 1)
    monkeypatch.setenv(seal.KEY_VARIABLE, str(tmp_path / "elsewhere.key"))
    assert deal(TAJMAHAL, 3, 1).setup_seed != first.setup_seed
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
    assert deal(TAJMAHAL, 3, 1).setup_seed == 1


def _lines(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def _written(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    return path


def test_the_record_keeps_the_setup_seed_and_replays_by_it(tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    code, _, stderr = cli("match", "random", "greedy", "random", "--seed", "1",
                          "--record", str(record), "-q")
    assert code == 0, stderr
    lines = _lines(record)
    header = lines[0]
    drawn = header["setup_seed"]
    assert header["seed"] == 1 and drawn != 1 and header["deal"] == "seed"
    assert TAJMAHAL.setup_from_data(header["setup"]) == TAJMAHAL.random_setup(3, drawn)
    code, out, _ = cli("replay", "--verify", str(record))
    assert code == 0 and (
        f"the setup is the one setup seed {drawn} (seed 1 under the referee's key) deals") in out
    lines[-1].pop("seal")  # unsealed: only the replay speaks for it
    header["setup_seed"] += 1
    code, _, err = cli("replay", "--verify", str(_written(tmp_path / "other.jsonl", lines)))
    assert code == 1 and f"the setup is not the one setup seed {drawn + 1}" in err
    del lines[0]["setup_seed"]  # a record from before: its setup must be the seed's own
    code, _, err = cli("replay", "--verify", str(_written(tmp_path / "old.jsonl", lines)))
    assert code == 1 and "the setup is not the one seed 1 deals" in err


def test_a_record_from_before_setup_seeds_replays_from_its_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
    record = tmp_path / "g.jsonl"
    assert cli("match", "random", "random", "random", "--seed", "1", "--record", str(record),
               "-q")[0] == 0
    lines = _lines(record)
    assert lines[0]["setup_seed"] == 1
    del lines[0]["setup_seed"]
    lines[-1].pop("seal")
    code, out, _ = cli("replay", "--verify", str(_written(tmp_path / "old.jsonl", lines)))
    assert code == 0 and "the setup is the one seed 1 deals" in out


def test_a_tournament_draws_its_setups_under_its_key_and_as_it_started(tmp_path: Path) -> None:
    """The same setup seed for a game on every resume, another in another
    directory; a manifest from before (not keyed) resumes as it was, and so does
    a keyed one resumed with TAJMAHAL_REPRODUCIBLE_SEEDS."""
    store = TournamentDir.open(tmp_path / "t", make_plan())
    drawn = store.setup_seed(5)
    store.close()
    again = TournamentDir.open(tmp_path / "t", make_plan(keyed=False))  # as if reproducible
    assert again.plan.keyed and again.setup_seed(5) == drawn != 5
    again.close()
    other = TournamentDir.open(tmp_path / "u", make_plan())
    assert other.setup_seed(5) != drawn
    other.close()
    (tmp_path / "w").mkdir()  # a new directory with the first one's key: its cards
    shutil.copy(tmp_path / "t" / ".key", tmp_path / "w" / ".key")
    brought = TournamentDir.open(tmp_path / "w", make_plan())
    assert brought.setup_seed(5) == drawn
    brought.close()
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / ".key").write_bytes(b"1")
    with pytest.raises(TournamentError, match="not a tournament's key"):
        TournamentDir.open(tmp_path / "x", make_plan())
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == [".key", ".lock"]
    data = make_plan().to_data()
    assert data["seeding"] == SEEDING + KEYED_SETUPS and Plan.from_data(data).keyed
    data["seeding"] = SEEDING  # a manifest written before setups were keyed
    assert not Plan.from_data(data).keyed
    old = TournamentDir.open(tmp_path / "v", Plan.from_data(data))
    assert old.setup_seed(5) == 5
    old.close()


def test_a_gauntlets_match_ups_are_dealt_the_same_cards(tmp_path: Path) -> None:
    """Under the gauntlet's own key, which its games hide from sandboxed bots."""
    out = tmp_path / "g"
    code, _, stderr = cli("tournament", "--gauntlet", "random", "first", "greedy", "--games",
                          "2", "--seed", "4", "--jobs", "1", "--out", str(out), "-q")
    assert code == 0, stderr
    headers = [_lines(out / vs / "games" / "000000.jsonl")[0] for vs in ("vs1", "vs2")]
    assert headers[0]["seed"] == headers[1]["seed"]  # the schedule's, from --seed 4
    assert headers[0]["setup_seed"] == headers[1]["setup_seed"] != headers[0]["seed"]
    store = TournamentDir.open(out / "vs1", Plan.from_data(
        orjson.loads((out / "vs1" / "tournament.json").read_bytes())["plan"]), out)
    task = task_for(store.plan, store.plan.slot(0), store)
    store.close()
    assert task.setup_seed == headers[0]["setup_seed"] and task.hide == (str(out.resolve()),)


@needs_sandbox
def test_the_referees_key_is_empty_to_a_sandboxed_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's folder may hold the key (a home folder does); the sandbox covers
    it there.  Unsandboxed, the bot reads it (the control)."""
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "reader.py").write_text(
        "import sys\n"
        "try:\n"
        "    print('read', len(open(sys.argv[1], 'rb').read()), file=sys.stderr, flush=True)\n"
        "except OSError as e:\n"
        "    print('denied', e.errno, file=sys.stderr, flush=True)\n"
        "exec(open(sys.argv[2]).read())\n"
    )
    shutil.copy(FAULTY / "log_input.py", bots)  # it plays on (a sibling folder is not there)
    key = bots / "data" / "referee.key"
    monkeypatch.setenv(seal.KEY_VARIABLE, str(key))
    reader = shlex.join([str(bots / "reader.py"), str(key), str(bots / "log_input.py")])
    for sandboxed, read in ((True, ("read 0", "denied 13")), (False, ("read 32",))):
        record = tmp_path / f"out{sandboxed}" / "g.jsonl"
        code, _, stderr = cli("match", reader, "random", "--seed", "1", "--record", str(record),
                              "-q", "--sandbox" if sandboxed else "--no-sandbox")
        assert code == 0, stderr
        assert key.stat().st_size == 32
        log = (record.parent / "g.seat0.log").read_text()
        assert log.splitlines()[0] in read, log
    # A tournament's first game on a machine without a key yet: made before the
    # sandboxes are, so that they cover it too.
    key = bots / "fresh" / "referee.key"
    monkeypatch.setenv(seal.KEY_VARIABLE, str(key))
    reader = shlex.join([str(bots / "reader.py"), str(key), str(bots / "log_input.py")])
    code, _, stderr = cli("tournament", reader, "random", "--games", "2", "--jobs", "1",
                          "--no-preflight", "--out", str(tmp_path / "t"), "-q")
    assert code == 0, stderr
    logs = sorted((tmp_path / "t" / "logs").glob("*.log"))
    assert len(logs) == 2 and key.stat().st_size == 32
    assert {log.read_text().splitlines()[0] for log in logs} <= {"read 0", "denied 13"}


# The red team's search (tests/hostile_bots/seed_search.py): every seed from 0 to
# 10^5 dealt with the library, against the public setup of its hello.  Where the
# setup is the seed's own (TAJMAHAL_REPRODUCIBLE_SEEDS), it finds the deck: the
# control that shows the search works.


def search_report(log: Path) -> dict[str, Any]:
    for line in log.read_text().splitlines():
        if line.startswith("seed_search: "):
            report: dict[str, Any] = orjson.loads(line.removeprefix("seed_search: "))
            return report
    raise AssertionError(f"no report in {log}")


def found_nothing(report: dict[str, Any], tried: int) -> bool:
    return report["found"] is None and report["tried"] == tried


@pytest.fixture(params=[True, False], ids=["reproducible", "keyed"])
def reproducible(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Each search runs twice: with TAJMAHAL_REPRODUCIBLE_SEEDS (the control) and
    without (the default, where it must find nothing)."""
    if request.param:
        monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
    else:
        monkeypatch.delenv(REPRODUCIBLE_SEEDS, raising=False)
    return bool(request.param)


@pytest.mark.slow  # each search deals 10^5 setups or more
@pytest.mark.once
def test_a_bot_searching_small_seeds_finds_no_deal_in_a_match(
    tmp_path: Path, reproducible: bool
) -> None:
    record = tmp_path / "g.jsonl"
    code, _, stderr = cli("match", hostile("seed_search"), "random", "random", "--seed", "42",
                          "--record", str(record), "-q", "--time", "120")
    assert code == 0, stderr
    report = search_report(tmp_path / "g.seat0.log")
    if reproducible:
        assert report["found"] == 42 and report["deck"] == _lines(record)[0]["setup"]["deck"]
    else:
        assert found_nothing(report, 10**5 + 1), report


@pytest.mark.slow  # each search deals 10^5 setups or more
@pytest.mark.once
def test_a_bot_searching_small_seeds_finds_no_deal_in_a_tournament(
    tmp_path: Path, reproducible: bool
) -> None:
    """The bot tries the first game's seed of the tournaments of every seed
    (duplicate deals or fresh cards); sandboxed where the system allows it."""
    out = tmp_path / "t"
    code, _, stderr = cli("tournament", hostile("seed_search", "--tournament"), "greedy",
                          "--games", "2", "--seed", "3", "--jobs", "1", "--out", str(out), "-q",
                          "--time", "120")
    assert code == 0, stderr
    report = search_report(out / "logs" / "000000.seat0.log")
    assert search_report(out / "logs" / "000001.seat1.log") == {"skipped": True}
    if reproducible:
        header = _lines(out / "games" / "000000.jsonl")[0]
        assert report["found"] == header["seed"] == fresh_seed(3, 0, 0)
        assert report["deck"] == header["setup"]["deck"]
    else:
        assert found_nothing(report, 2 * (10**5 + 1)), report


@pytest.mark.slow  # each search deals 10^5 setups or more
@pytest.mark.once
def test_a_bot_searching_small_seeds_finds_not_the_persons_hand_in_play(
    tmp_path: Path, reproducible: bool
) -> None:
    """``tajmahal play``: the person's hand is in the deck the bot would deal."""
    pytest.importorskip("uvicorn")
    record = tmp_path / "game.jsonl"
    argv = [sys.executable, "-m", "tajmahal", "play", hostile("seed_search"), "human",
            "--port", "0", "--no-browser", "--seed", "7", "--record", str(record),
            "--time", "120"]
    log = tmp_path / "game.seat0.log"
    reports: list[dict[str, Any]] = []

    def reported() -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if log.exists() and "seed_search: " in log.read_text():
                reports.append(search_report(log))
                return
            time.sleep(0.2)
        raise AssertionError(f"no report in {log}")

    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as play:
        stderr = interrupted(play, signal.SIGTERM, reported)
    assert play.returncode == 130, stderr
    (report,) = reports
    if reproducible:
        assert report["found"] == 7 and report["deck"] == list(Setup.random(2, 7).deck)
    else:
        assert found_nothing(report, 10**5 + 1), report


@pytest.mark.once  # the ladder's logic does not depend on the engine
def test_a_ladders_games_are_dealt_under_its_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ladder init --seed 1``: each game's seed is its deal's keyed with the
    ladder's secret (other cards in another ladder of seed 1), and replays and
    verifies; the deal's own under TAJMAHAL_REPRODUCIBLE_SEEDS."""
    seeds: dict[str, list[int]] = {}
    for name in ("a", "b", "reproducible"):
        if name == "reproducible":
            monkeypatch.setenv(REPRODUCIBLE_SEEDS, "1")
        where = tmp_path / name
        assert cli("ladder", "init", str(where), "--game", "tajmahal", "--players", "2",
                   "--seed", "1", "--round", "2")[0] == 0
        for bot in ("random", "first"):
            assert cli("ladder", "add", bot, bot, "--ladder", str(where))[0] == 0
        code, out, err = cli("ladder", "run", "--games", "2", "-j", "1", "--ladder", str(where))
        assert code == 0 and "2 games finished" in out, err + out
        headers = [_lines(where / "games" / f"00000{n}.jsonl")[0] for n in (1, 2)]
        seeds[name] = [h["seed"] for h in headers]
        for header in headers:
            assert TAJMAHAL.setup_from_data(header["setup"]) == TAJMAHAL.random_setup(
                2, header["seed"])
        code, out, err = cli("ladder", "verify", "--ladder", str(where))
        assert code == 0 and out.strip().endswith("OK"), err + out
    own = [deal_seed(1, deal) for deal in (0, 1)]
    assert seeds["reproducible"] == own
    assert not set(seeds["a"]) & set(own) and not set(seeds["a"]) & set(seeds["b"])
