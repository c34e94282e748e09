"""Java's built-in bots (tajmahal.java.bots on the kit's frames) and the
rule-of-thumb bot of bots/java_bot.py: they play legally from the messages alone,
and make the choices a position calls for."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from attrs import evolve
from java_scenario import acting, at, fresh, palace, put, tiles
from referee_support import BOTS as BOT_DIR
from referee_support import cli

from tajmahal.arena.referee import BotSpec, run_match
from tajmahal.arena.terms import MatchConfig
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
from tajmahal.java.heuristic import evaluate, worth
from tajmahal.java.views import view
from tajmahal.kit.bots import GreedyPlayer
from tajmahal.kit.search import SearchConfig, search_choice

BOTS = JAVA.bots()


def _turn(state: State, choose: Callable[[State, list[Action]], int]) -> State:
    """``state`` after the decisions ``choose`` makes until the seat's turn ends."""
    seat = state.to_act
    while state.to_act == seat:
        legal = legal_actions(state)
        state = apply(state, legal[choose(state, legal)])
    return state


def _search(config: SearchConfig, seed: int = 0) -> Callable[[State, list[Action]], int]:
    rng = random.Random(seed)
    return lambda s, legal: search_choice(BOTS, view(s, 0), legal, rng, config)


def test_the_bots_build_the_palace_they_may_build() -> None:
    # seat 0 alone on level 2 in a village of 4 (J52): a palace of 4 (J54) is
    # worth 2 points at once (J57); nothing else its 2 AP buy comes close, so its
    # turn builds it (first or after taking a card: either order is as good)
    state = tiles(fresh(), "village", at(5, 3), at(5, 4), at(5, 5), at(5, 6))
    state = tiles(state, "village", at(5, 3), level=2)
    state = acting(put(state, at(5, 3)), ap=2, land=True, acted=True)
    rng = random.Random(0)
    for after in (
        _turn(state, lambda s, legal: BOTS.greedy_index(s, legal, rng)),
        _turn(state, _search(SearchConfig(iterations=60))),
    ):
        assert max(after.palace) == 4 and after.players[0].palaces == 2


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


def test_a_playout_is_worth_at_least_ending_the_turn_at_once() -> None:
    # 1 AP and both cards taken (J61): walk out of the city (J48) or end the turn.
    state = _alone_in_a_city(ap=1, cards=2)
    assert legal_actions(state) == [Move(), EndTurn()]
    stop = evaluate(apply(state, EndTurn()))
    # the city's first place (J80: its value 6, times 0.6 now) is lost by any walk
    walking = apply(apply(state, Move()), Select(at(5, 5)))
    walks = [apply(walking, target) for target in legal_actions(walking)]
    assert walks and all(worth(after, 0) < stop[0] - 3 for after in walks)
    # the seat may stop at once (J18), so no random walk counts against the line
    for seed in range(20):
        assert BOTS.playout(state, state, random.Random(seed), None) == stop


def test_the_bots_take_the_card_their_ap_buy_rather_than_ending_the_turn() -> None:
    # 2 AP, one card may still be taken (J61): it gains a card, and then the turn
    # can end; a playout walking out of the city afterwards must not make ending
    # the turn now look better
    state = _alone_in_a_city(ap=2, cards=1)
    legal = legal_actions(state)
    assert TakeCard(True) in legal and EndTurn() in legal
    assert isinstance(legal[BOTS.greedy_index(state, legal, random.Random(0))], TakeCard)
    for seed in range(5):
        choice = search_choice(
            BOTS, view(state, 0), legal, random.Random(seed), SearchConfig(iterations=40)
        )
        assert isinstance(legal[choice], TakeCard)


def test_built_in_players_answer_from_the_messages_alone() -> None:
    state = new_game(JAVA.random_setup(3, 5))
    player = GreedyPlayer(JAVA.bots(), 1)  # the game reads the messages
    player.handle({"type": "hello", "setup": JAVA.public_setup(state.setup)})
    message = {
        "type": "act",
        "view": JAVA.view_data(state, 0),
        "legal": [JAVA.action_to_data(a) for a in legal_actions(state)],
    }
    reply = player.handle(message)
    assert reply is not None and 0 <= reply["choice"] < len(message["legal"])


@pytest.mark.slow
@pytest.mark.once
def test_greedy_beats_random_through_the_referee() -> None:
    wins = 0
    for seed in (1, 2):
        setup = JAVA.random_setup(2, seed)
        specs = [BotSpec.parse(n, list(JAVA.builtin_players())) for n in ("greedy", "random")]
        result = run_match(JAVA, setup, specs, MatchConfig(), seed=seed)
        wins += result.scores[0] > result.scores[1]
    assert wins == 2


def test_the_rule_of_thumb_bot_plays_whole_games_legally() -> None:
    code, out, err = cli(
        "match", "--game", "java", str(BOT_DIR / "java_bot.py"), "random", "--seed", "3", "-q",
    )  # fmt: skip
    assert code == 0, err
    assert "fault" not in out + err
