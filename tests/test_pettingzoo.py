"""The PettingZoo environment: PettingZoo's own API and seed tests, and the game it plays."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from tajmahal import BuildPalace, Play, Setup, TakeCard, Withdraw, apply, new_game, scores
from tajmahal.pettingzoo import (
    SEAT_COLORS,
    TajMahalEnv,
    city_pixel,
    env,
    parallel_env,
    render_image,
)
from tajmahal.tajmahal.encoding import (
    ActionIndexError,
    action_from_index,
    action_index,
    observation,
    outcome,
)

# PettingZoo warns about any dict observation outside its own list of classic games.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pettingzoo_api_test_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test_passes(players: int) -> None:
    seed_test(lambda: env(players), num_cycles=200)


def test_parallel_api_and_seed_tests_pass() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel_env(3), num_cycles=1000)
    assert not caught
    # (PettingZoo's parallel_seed_test samples actions without the mask: every
    # other one is illegal here, so it cannot apply.)


@pytest.mark.parametrize("players", [2, 5])
def test_a_game_through_the_environment_is_the_engines_game(players: int) -> None:
    setup = Setup.random(players, seed=11)
    game = TajMahalEnv(players)
    game.reset(options={"setup": setup})
    start = game.game
    assert start is not None
    for seat, agent in enumerate(game.possible_agents):
        obs = game.observe(agent)
        assert np.array_equal(obs["observation"], observation(start, seat))
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].any() == (seat == start.to_act)
    rewards: dict[str, float] = {}
    infos = {}
    actions = []
    rng = random.Random(5)
    for agent in game.agent_iter():
        obs, reward, terminated, _, info = game.last()
        if terminated:
            rewards[agent], infos[agent] = reward, info
            game.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        actions.append(action)
        game.step(action)
    assert game.agents == []
    state = new_game(setup)
    for action in actions:
        state = apply(state, action_from_index(action, state))
    totals = scores(state)
    assert [infos[a]["score"] for a in game.possible_agents] == list(totals)
    assert [rewards[a] for a in game.possible_agents] == pytest.approx(list(outcome(state)))
    assert sum(rewards.values()) == pytest.approx(0.0)
    winner = max(range(players), key=totals.__getitem__)
    assert infos[f"player_{winner}"]["rank"] == 1


def test_reset_with_a_seed_repeats_the_deal_and_without_one_deals_anew() -> None:
    game = TajMahalEnv(4)
    game.reset(seed=3)
    first = game.game
    game.reset()
    second = game.game
    game.reset(seed=3)
    assert game.game == first
    assert second != first


def test_bad_uses_are_refused_with_clear_errors() -> None:
    with pytest.raises(ValueError, match="2-5 players"):
        TajMahalEnv(6)
    with pytest.raises(ValueError, match="render_mode"):
        TajMahalEnv(3, render_mode="human")
    game = TajMahalEnv(3)
    with pytest.raises(RuntimeError, match="reset"):
        game.observe("player_0")
    game.reset(seed=1)
    with pytest.raises(ActionIndexError, match="not legal"):
        game.step(action_index(TakeCard(0)))
    with pytest.raises(ValueError, match="not None"):
        game.step(None)
    with pytest.raises(ValueError, match="Setup for 3 players"):
        game.reset(options={"setup": Setup.random(4, seed=1)})
    wrapped = env(3)
    with pytest.raises(AttributeError, match="before reset"):
        _ = wrapped.agent_selection


def kabul_scenario() -> tuple[Setup, list[int]]:
    """The game of docs/api.md: seat 0 wins one character and builds in Kabul (city 0)."""
    setup = Setup.stacked(
        3,
        [[0, 2, 5, 14, 16, 20], [23, 26, 29, 32, 37, 39], [44, 47, 50, 53, 58, 59]],
        display=[85, 86, 87, 88, 89],
        deck=[90, 91],
        start_player=0,
    )
    moves = [Play(2), Play(23), Play(44), Play(0), Withdraw(), TakeCard(85), TakeCard(86)]
    moves += [Withdraw(), TakeCard(87), TakeCard(88), Withdraw()]
    return setup, [action_index(a) for a in moves]


def test_render_modes() -> None:
    setup, moves = kabul_scenario()
    text_game = TajMahalEnv(3, render_mode="ansi")
    text_game.reset(options={"setup": setup})
    text = text_game.render()
    assert isinstance(text, str)
    assert "visit 1 of 12 in Kabul" in text and "seat 0 to act" in text
    assert "hand: red elephant+elephant, red elephant+vizier" in text

    game = TajMahalEnv(3, render_mode="rgb_array")
    game.reset(options={"setup": setup})
    for move in moves:
        game.step(move)
    before = game.render()
    assert isinstance(before, np.ndarray)
    assert before.shape == (480, 720, 3) and before.dtype == np.uint8
    row, col = city_pixel(game.game, 0)  # type: ignore[arg-type]
    assert tuple(before[row, col]) != SEAT_COLORS[0]
    game.step(action_index(BuildPalace(0)))
    after = game.render()
    assert isinstance(after, np.ndarray)
    assert tuple(after[row, col]) == SEAT_COLORS[0]  # seat 0's palace in Kabul
    assert np.array_equal(after, render_image(game.game))  # type: ignore[arg-type]

    quiet = TajMahalEnv(3)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None
