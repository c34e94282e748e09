"""Tikal through the arena, end to end: `tajmahal match --game tikal` with subprocess
bots, records that `replay --verify` accepts, tournaments, and the built-in bots."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import orjson
from attrs import evolve
from referee_support import BOTS, NODE, ROOT, cli
from tikal_scenario import BASE, TEMPLE_A, TEMPLE_B, acting, at, lay, put, stacked

from tajmahal.arena.referee import BotSpec, run_match
from tajmahal.arena.registry import GAMES
from tajmahal.arena.terms import MatchConfig
from tajmahal.kit.bots import GreedyPlayer
from tajmahal.kit.search import search_choice
from tajmahal.tikal import Dig, EndTurn, legal_actions, new_game
from tajmahal.tikal.adapter import TIKAL
from tajmahal.tikal.bots import TikalBots
from tajmahal.tikal.views import view


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from tajmahal.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_match_of_subprocess_bots_leaves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "tikal.jsonl"
    js = [f"node {BOTS / 'tikal_bot.js'}"] if NODE else ["greedy"]
    done = run_cli(
        "match", "--game", "tikal", str(BOTS / "random_bot.py"), "greedy", *js,
        "--seed", "4", "--record", str(record), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = orjson.loads(done.stdout)
    assert result["faults"] == [] and len(result["scores"]) == 3
    header = orjson.loads(record.read_bytes().splitlines()[0])
    assert header["game"] == "tikal" and header["variant"] == "basic"
    verified = run_cli("replay", "--verify", str(record))
    assert verified.returncode == 0, verified.stderr
    assert f"final scores {result['scores']}" in verified.stdout
    told = run_cli("replay", str(record))
    assert "volcano! scoring round" in told.stdout and "final scoring round" in told.stdout


def test_the_auction_variant_plays_through_the_referee(tmp_path: Path) -> None:
    record = tmp_path / "auction.jsonl"
    code, out, err = cli(
        "match", "--game", "tikal", "--variant", "auction", "greedy", "random",
        "--seed", "9", "--record", str(record), "-q",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = cli("replay", "--verify", str(record))
    assert code == 0 and "OK" in out, err
    code, _, err = cli("match", "--game", "tikal", "--variant", "dummy", "random", "random")
    assert code == 2 and "unknown variant 'dummy'" in err
    code, _, err = cli("match", "--game", "tikal", *["random"] * 5)
    assert code == 2 and "Tikal is for 2-4 players" in err


def test_a_tournament_of_tikal_resumes_its_own_game(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["--games", "2", "--jobs", "1", "--seed", "3", "--out", str(out), "-q"]
    code, _, err = cli("tournament", "--game", "tikal", "greedy", "random", *args)
    assert code == 0, err
    plan = orjson.loads((out / "tournament.json").read_bytes())["plan"]
    assert plan["game"] == "tikal"
    records = sorted((out / "games").glob("*.jsonl"))
    assert len(records) == 2
    code, _, err = cli("replay", "--verify", str(records[0]))
    assert code == 0, err
    code, _, err = cli("tournament", "--game", "taj-mahal", "--out", str(out))
    assert code == 2 and "holds a tournament of 'tikal', not of 'tajmahal'" in err
    code, _, err = cli("tournament", "--out", str(out), "-q", "--games", "4")
    assert code == 0, err
    assert len(list((out / "games").glob("*.jsonl"))) == 4


def test_greedy_beats_random_through_the_referee() -> None:
    names = ["greedy", "random"]
    wins = 0
    for seed in (1, 2):
        setup = TIKAL.random_setup(2, seed)
        specs = [BotSpec.parse(n, list(TIKAL.builtin_players())) for n in names]
        result = run_match(TIKAL, setup, specs, MatchConfig(), seed=seed)
        wins += result.scores[0] > result.scores[1]
    assert wins == 2


def test_the_bots_dig_up_a_treasure_rather_than_waste_their_points() -> None:
    state = lay(acting(new_game(stacked()), ap=3), at(0, 2), "treasure", tokens=(4,))
    state = put(lay(state, BASE, "base", (1,) * 6), at(0, 2), 0, workers=1)
    # the rival holds both temples; seat 0 holds one treasure of each type, so
    # whatever lies face down makes a pair: 3 points instead of 1 (T34)
    state = put(put(state, TEMPLE_A, 1, workers=3), TEMPLE_B, 1, workers=3)
    mine = evolve(state.players[0], treasures=(1,) * 8)
    state = evolve(state, players=(mine, state.players[1]))
    legal = legal_actions(state)
    assert Dig(at(0, 2)) in legal and legal[-1] == EndTurn()
    rng = random.Random(0)
    assert legal[TIKAL.bots().greedy_index(state, legal, rng)] == Dig(at(0, 2))
    config = evolve(TikalBots.budget, iterations=30, seconds=None)
    assert legal[search_choice(TIKAL.bots(), view(state, 0), legal, rng, config)] == Dig(at(0, 2))


def test_built_in_players_answer_from_the_messages_alone() -> None:
    state = new_game(TIKAL.random_setup(3, 5))
    message = {
        "type": "act",
        "view": TIKAL.view_data(state, 0),
        "legal": [TIKAL.action_to_data(a) for a in legal_actions(state)],
    }
    reply = GreedyPlayer(TIKAL.bots(), 1).handle(message)
    assert reply is not None and 0 <= reply["choice"] < len(message["legal"])
    assert GAMES.get("tikal") is TIKAL


def test_a_faulted_seat_is_played_by_the_fallback_and_the_record_replays(
    tmp_path: Path,
) -> None:
    record = tmp_path / "fault.jsonl"
    crash = str(ROOT / "tests" / "faulty_bots" / "crash_midgame.py")
    code, out, err = cli(
        "match", "--game", "tikal", crash, "greedy", "--seed", "2", "--record", str(record),
        "--json",
    )  # fmt: skip
    assert code == 0, err
    result = orjson.loads(out)
    assert [(f["seat"], f["kind"], f["decision"]) for f in result["faults"]] == [(0, "crash", 5)]
    # the fallback ends each turn at once: seat 0 keeps what it had before the crash
    steps = [orjson.loads(x) for x in record.read_bytes().splitlines()[1:]]
    fallback = [s["action"] for s in steps if s.get("by") == "fallback"]
    assert fallback and all(a["type"] in ("end_turn", "place") for a in fallback)
    code, out, err = cli("replay", "--verify", str(record))
    assert code == 0 and "OK" in out, err
