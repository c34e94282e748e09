"""The search bot (tajmahal.tajmahal.heuristic): legal, deterministic for a seed, sensible."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings

from tajmahal import (
    BuildPalace,
    Setup,
    State,
    Withdraw,
    legal_actions,
    new_game,
    view,
)
from tajmahal.arena import BotSpec, MatchConfig, run_match
from tajmahal.kit.search import SearchConfig
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tajmahal.heuristic import evaluate, rollout
from tajmahal.tajmahal.testing import states

from tajmahal_scenario import Table, at_visit

FAST = SearchConfig(iterations=40)
BOTS = TAJMAHAL.bots()


def mcts_choice(seen: Any, rng: random.Random, config: SearchConfig) -> int:
    return BOTS.search(seen, seen.legal, rng, config)


@settings(max_examples=15, deadline=None)
@given(states((2, 3, 4, 5), max_actions=300))
def test_choice_is_a_legal_index(state: State) -> None:
    if state.to_act is None:
        return
    seen = view(state, state.to_act)
    assert 0 <= mcts_choice(seen, random.Random(0), FAST) < len(seen.legal)


def test_same_seed_same_choice_with_an_iteration_budget() -> None:
    state = new_game(Setup.random(4, 21))
    seen = view(state, state.to_act)
    picks = {mcts_choice(seen, random.Random(7), SearchConfig(iterations=60)) for _ in range(3)}
    assert len(picks) == 1


def test_rollout_ends_the_visit_and_evaluation_is_relative() -> None:
    state = new_game(Setup.random(3, 2))
    done = rollout(state, random.Random(1), 0.5)
    assert done.visit == 2
    assert rollout(done, random.Random(1), 0.5, visit=1) is done  # already past visit 1
    values = evaluate(done)
    # Each value is a seat's standing minus its best rival's: the leader is >= 0,
    # everyone else <= 0.
    assert max(values) >= 0 and sorted(values)[-2] <= 0


RED = [0, 2, 5, 14, 16, 20]
YELLOW = [23, 26, 29, 32, 37, 39]
GREEN = [44, 47, 50, 53, 58, 59]


def test_alone_with_nothing_more_to_win_it_withdraws_rather_than_spend_cards() -> None:
    hand = [0, 1, 2, 3, 4, 20]  # red el+el x2, el+vizier x3, vizier+mogul
    t = Table(new_game(Setup.stacked(3, [hand, YELLOW, GREEN], display=[85, 86, 87, 88, 89])))
    t.play(0, 20)  # vizier+mogul
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    # Seat 0 is alone.  After elephant+elephant he wins elephant, vizier and mogul;
    # his other cards show only elephants and viziers: playing them wins nothing more.
    t.play(0, 0)
    seen = view(t.state, 0)
    choice = seen.legal[mcts_choice(seen, random.Random(3), SearchConfig(iterations=150))]
    assert choice == Withdraw()


def test_builds_on_the_taj_mahal_when_it_can() -> None:
    t = Table(new_game(Setup.stacked(3, [RED, YELLOW, GREEN], display=[85, 86, 87, 88, 89])))
    t.state = at_visit(t.state, 12)  # Agra: city 28 holds the Taj Mahal tile (+4)
    t.play(0, 2)  # elephant+vizier
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    t.withdraw(0)
    seen = view(t.state, 0)
    assert BuildPalace(28) in legal_actions(t.state)
    choice = seen.legal[mcts_choice(seen, random.Random(4), SearchConfig(iterations=100))]
    assert choice == BuildPalace(28)


def test_builtin_mcts_and_the_subprocess_bot_play_a_whole_two_player_game() -> None:
    specs = [
        BotSpec.parse("mcts", list(TAJMAHAL.builtin_players())),
        BotSpec.parse("bots/mcts_bot.py --iterations 15", []),
    ]
    result = run_match(TAJMAHAL, TAJMAHAL.random_setup(2, 99), specs, MatchConfig(), seed=3)
    assert not result.faults
    assert result.decisions > 40
