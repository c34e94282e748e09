"""Java through the arena, end to end: `tajmahal match --game java` with subprocess
bots, records that `replay --verify` accepts, tournaments, and the built-in bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import orjson
from attrs import evolve
from java_scenario import acting, at, fresh, palace, put, tiles
from referee_support import BOTS, cli

from tajmahal.arena.referee import BotSpec, MatchConfig, run_match
from tajmahal.games import GAMES
from tajmahal.java import (
    Action,
    EndTurn,
    Move,
    Select,
    State,
    TakeCard,
    apply,
    legal_actions,
    new_game,
)
from tajmahal.java.adapter import JAVA
from tajmahal.java.bots import (
    GreedyPlayer,
    SearchConfig,
    greedy_choice,
    mcts_choice,
    rollout_value,
    worth,
)
from tajmahal.java.events import CardTaken
from tajmahal.java.views import view


def test_java_is_registered() -> None:
    assert GAMES.get("java") is JAVA and GAMES.by_id("java") is JAVA


def test_a_match_of_subprocess_bots_leaves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "java.jsonl"
    code, out, err = cli(
        "match", "--game", "java", str(BOTS / "random_bot.py"), "greedy", "random",
        "--seed", "4", "--record", str(record), "--json",
    )  # fmt: skip
    assert code == 0, err
    result = orjson.loads(out)
    assert result["faults"] == [] and len(result["scores"]) == 3
    header = orjson.loads(record.read_bytes().splitlines()[0])
    assert header["game"] == "java" and header["variant"] == "official"
    code, out, err = cli("replay", "--verify", str(record))
    assert code == 0 and f"final scores {result['scores']}" in out, err
    code, out, err = cli("replay", str(record))
    assert code == 0 and "final scoring" in out and "game over" in out, err


def test_variants_and_player_counts_are_checked() -> None:
    code, _, err = cli("match", "--game", "java", "--variant", "dummy", "random", "random")
    assert code == 2 and "unknown variant 'dummy'" in err
    code, _, err = cli("match", "--game", "java", *["random"] * 5)
    assert code == 2 and "Java is for 2-4 players" in err
    code, _, err = cli(
        "match", "--game", "java", "--variant", "anytime", "random", "random", "-q", "--seed", "2"
    )
    assert code == 0, err


def test_a_tournament_of_java_plays_and_replays(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["--games", "2", "--jobs", "1", "--seed", "3", "--out", str(out), "-q"]
    code, _, err = cli("tournament", "--game", "java", "greedy", "random", *args)
    assert code == 0, err
    plan = orjson.loads((out / "tournament.json").read_bytes())["plan"]
    assert plan["game"] == "java"
    records = sorted((out / "games").glob("*.jsonl"))
    assert len(records) == 2
    code, _, err = cli("replay", "--verify", str(records[0]))
    assert code == 0, err


def test_greedy_beats_random_through_the_referee() -> None:
    wins = 0
    for seed in (1, 2):
        setup = JAVA.random_setup(2, seed)
        specs = [BotSpec.parse(n, list(JAVA.builtin_players())) for n in ("greedy", "random")]
        result = run_match(JAVA, setup, specs, MatchConfig(), seed=seed)
        wins += result.scores[0] > result.scores[1]
    assert wins == 2


def _decide(state: State, choose: Callable[[State, list[Action]], int]) -> State:
    """``state`` after the decisions ``choose`` makes until its action is complete."""
    while True:
        legal = legal_actions(state)
        state = apply(state, legal[choose(state, legal)])
        if state.pending is None:
            return state


def test_the_bots_build_the_palace_they_may_build() -> None:
    # seat 0 alone on level 2 in a village of 4: a palace of 4 is worth 2 now
    state = tiles(fresh(), "village", at(5, 3), at(5, 4), at(5, 5), at(5, 6))
    state = tiles(state, "village", at(5, 3), level=2)
    state = acting(put(state, at(5, 3)), ap=2, land=True, acted=True)
    rng = random.Random(0)
    config = SearchConfig(iterations=20, seconds=None)
    for after in (
        _decide(state, lambda s, legal: greedy_choice(s, legal, rng)),
        _decide(state, lambda s, legal: mcts_choice(view(s, 0), legal, rng, config)),
    ):
        assert sorted(after.palace)[-1] == 4 and after.players[0].palaces == 2


def _alone_in_a_city(ap: int, cards: int) -> State:
    """Seat 0's only figure in a city of 2 (red palace of 6 on (5, 6), so no
    festival, J71) ringed by rice; no land tile left to lay (J33) and none owed
    (J20: it lies), no water; every walk leaves the city (J48: the palace's
    space is not free)."""
    state = tiles(fresh(), "village", at(5, 5), at(5, 6))
    state = tiles(state, "rice", at(5, 4), at(4, 5), at(4, 6), at(6, 5), at(6, 6))
    state = put(palace(state, at(5, 6), 6), at(5, 5))
    players = tuple(evolve(p, twos=0, rice=0, villages=0) for p in state.players)
    state = evolve(state, players=players, threes=0, water_left=0, red=(at(5, 6),))
    return acting(state, ap=ap, land=True, acted=True, cards=cards)


def test_a_rollout_is_worth_at_least_ending_the_turn_at_once() -> None:
    # 1 AP and both cards taken (J61): walk out of the city (J48) or end the turn.
    state = _alone_in_a_city(ap=1, cards=2)
    assert legal_actions(state) == [Move(), EndTurn()]
    stop = worth(apply(state, EndTurn()), 0)
    # the city's first place (J80) is lost by any walk out of it
    walking = apply(apply(state, Move()), Select(at(5, 5)))
    walks = [apply(walking, target) for target in legal_actions(walking)]
    assert walks and all(worth(after, 0) < stop - 3 for after in walks)
    config = SearchConfig()
    # the seat may stop at once (J18), so no random walk counts against the line
    for seed in range(20):
        assert rollout_value(state, 0, random.Random(seed), config) == stop


def test_mcts_takes_the_card_its_ap_buy_rather_than_ending_the_turn() -> None:
    # 2 AP, one card may still be taken (J61): taking it gains a card and then
    # the turn can end; a rollout that walks out of the city afterwards must not
    # make ending the turn now look better.
    state = _alone_in_a_city(ap=2, cards=1)
    legal = legal_actions(state)
    assert TakeCard(True) in legal and EndTurn() in legal
    rng = random.Random(0)
    assert isinstance(legal[greedy_choice(state, legal, rng)], TakeCard)
    config = SearchConfig(iterations=30, seconds=None)
    for seed in range(5):
        choice = mcts_choice(view(state, 0), legal, random.Random(seed), config)
        assert isinstance(legal[choice], TakeCard)


def test_a_drawn_card_is_seen_by_its_taker_only() -> None:
    event = CardTaken(0, False, 12, 7)
    assert JAVA.event_data(event, 0)["card"] == 12
    assert JAVA.event_data(event, 1)["card"] is None
    assert JAVA.event_data(event, None)["card"] is None and not JAVA.is_public(event)
    shown = CardTaken(0, True, 6, 7)
    assert JAVA.event_data(shown, 1)["card"] == 6 and JAVA.is_public(shown)


def test_built_in_players_answer_from_the_messages_alone() -> None:
    state = new_game(JAVA.random_setup(3, 5))
    state = palace(state, at(0, 0), 0)
    message = {
        "type": "act",
        "view": JAVA.view_data(state, 0),
        "legal": [JAVA.action_to_data(a) for a in legal_actions(state)],
    }
    reply = GreedyPlayer(1).handle(message)
    assert reply is not None and 0 <= reply["choice"] < len(message["legal"])


def test_a_java_record_becomes_an_html_viewer(tmp_path: Path) -> None:
    record = tmp_path / "j.jsonl"
    code, _, err = cli("match", "--game", "java", "greedy", "random", "-q", "--seed", "3",
                       "--record", str(record))  # fmt: skip
    assert code == 0, err
    code, _, err = cli("replay", str(record), "--html", str(tmp_path / "j.html"))
    assert code == 0, err
    assert (tmp_path / "j.html").read_text().startswith("<!DOCTYPE html>")
