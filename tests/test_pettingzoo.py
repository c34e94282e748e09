"""The PettingZoo environments (tajmahal.pettingzoo): the game each plays, for every
game at every player count, and Taj Mahal's render modes and errors.  PettingZoo's
own API and seed tests run in the suite every game passes (tajmahal.suite)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tajmahal import BuildPalace, Play, Setup, TakeCard, Withdraw
from tajmahal.arena.registry import GAMES
from tajmahal.pettingzoo import GameEnv, env, parallel_env
from tajmahal.tajmahal.encoding import ActionIndexError, action_index
from tajmahal.tajmahal.raster import SEAT_COLORS, city_pixel, render_image


def _cases() -> list[Any]:
    """Every installed game with an encoding at every player count, and each other
    variant at its fewest players."""
    out = []
    for name in GAMES.names():
        game = GAMES.get(name)
        encoding = game.encoding()
        if encoding is None:
            continue
        counts = range(game.min_players, game.max_players + 1)
        out += [pytest.param(name, n, None, id=f"{name}-{n}") for n in counts]
        out += [
            pytest.param(name, game.min_players, v, id=f"{name}-{game.min_players}-{v}")
            for v in encoding.variants[1:]
        ]
    return out


#: (PettingZoo's own API, seed and parallel API tests run in the suite every game
#: passes: tajmahal.suite.)
CASES = _cases()
ENCODED = sorted({p.values[0] for p in CASES})


@pytest.mark.parametrize("game", ENCODED)
def test_reset_names_the_agent_to_act(game: str) -> None:
    rules = GAMES.get(game)
    players = min(max(3, rules.min_players), rules.max_players)
    parallel = parallel_env(game, players)
    observations, infos = parallel.reset(seed=1)
    first = parallel.unwrapped.agent_selection
    assert first == f"player_{rules.to_act(parallel.unwrapped.game)}"
    assert {info["active_agent"] for info in infos.values()} == {first}
    assert sorted(observations) == [f"player_{s}" for s in range(players)]
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) if a == first else 0
               for a, o in observations.items()}
    _, _, _, _, infos = parallel.step(actions)
    assert {info["active_agent"] for info in infos.values()} == {
        parallel.unwrapped.agent_selection
    }


@pytest.mark.parametrize(("game", "players", "variant"), CASES[::3])
def test_a_game_through_the_environment_is_the_engines_game(
    game: str, players: int, variant: str | None
) -> None:
    rules = GAMES.get(game)
    encoding = rules.encoding()  # type: ignore[attr-defined]
    setup = rules.random_setup(players, 11, variant)
    environment = GameEnv(game, players, variant=variant)
    environment.reset(options={"setup": setup})
    start = environment.game
    assert environment.state_space.shape == (players, encoding.layout(players).size)
    assert np.array_equal(environment.state(), np.stack(
        [encoding.observation(start, seat) for seat in range(players)]))
    for seat, agent in enumerate(environment.possible_agents):
        obs = environment.observe(agent)
        assert np.array_equal(obs["observation"], encoding.observation(start, seat))
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].any() == (seat == rules.to_act(start))
    rewards: dict[str, float] = {}
    infos: dict[str, dict[str, Any]] = {}
    actions = []
    rng = random.Random(5)
    for agent in environment.agent_iter():
        obs, reward, terminated, _, info = environment.last()
        if terminated:
            rewards[agent], infos[agent] = reward, info
            environment.step(None)
            continue
        assert agent == f"player_{rules.to_act(environment.game)}"
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        actions.append(action)
        environment.step(action)
    assert environment.agents == []
    state = rules.new_game(setup)
    for action in actions:
        state, _ = rules.step(state, encoding.action(action, state))
    totals = rules.scores(state)
    assert [infos[a]["score"] for a in environment.possible_agents] == list(totals)
    assert [rewards[a] for a in environment.possible_agents] == pytest.approx(
        list(encoding.outcome(state))
    )
    assert sum(rewards.values()) == pytest.approx(0.0)
    # the game's ranks (1 is best), whichever way its scores count
    assert [infos[a]["rank"] for a in environment.possible_agents] == rules.ranks(state)


def test_tikal_renders_as_text_and_has_no_image() -> None:
    game = GameEnv("tikal", 2, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert isinstance(text, str) and "seat 0" in text and "seat 1" in text
    assert game.metadata["render_modes"] == ["ansi"] and game.metadata["name"] == "tikal_v0"
    with pytest.raises(ValueError, match="render_mode"):
        GameEnv("tikal", 2, render_mode="rgb_array")
    with pytest.raises(ValueError, match="2-4 players"):
        GameEnv("tikal", 5)
    with pytest.raises(ValueError, match="unknown variant"):
        GameEnv("tikal", 2, variant="dummy")
    with pytest.raises(TypeError, match="game's name"):
        env(3)  # type: ignore[arg-type]


def test_reset_with_a_seed_repeats_the_deal_and_without_one_deals_anew() -> None:
    game = GameEnv("tajmahal", 4)
    game.reset(seed=3)
    first = game.game
    game.reset()
    second = game.game
    game.reset(seed=3)
    assert game.game == first
    assert second != first


def test_bad_uses_are_refused_with_clear_errors() -> None:
    with pytest.raises(ValueError, match="2-5 players"):
        GameEnv("tajmahal", 6)
    with pytest.raises(ValueError, match="render_mode"):
        GameEnv("tajmahal", 3, render_mode="human")
    game = GameEnv("tajmahal", 3)
    with pytest.raises(RuntimeError, match="reset"):
        game.observe("player_0")
    game.reset(seed=1)
    with pytest.raises(ActionIndexError, match="not legal"):
        game.step(action_index(TakeCard(0)))
    with pytest.raises(ValueError, match="not None"):
        game.step(None)
    with pytest.raises(ValueError, match="Taj Mahal setup for 3 players"):
        game.reset(options={"setup": Setup.random(4, seed=1)})
    wrapped = env("tajmahal", 3)
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
    text_game = GameEnv("tajmahal", 3, render_mode="ansi")
    text_game.reset(options={"setup": setup})
    text = text_game.render()
    assert isinstance(text, str)
    assert "Visit 1 of 12 in Kabul: seat 0 to act (play)" in text
    # Every hand is shown: seat 0's red 0 and 2 are elephant+elephant and +vizier.
    hands = [line.split("hand:")[1].split() for line in text.splitlines() if "hand:" in line]
    assert [len(h) for h in hands] == [6, 6, 6] and hands[0][:2] == ["EE", "EV"]

    game = GameEnv("tajmahal", 3, render_mode="rgb_array")
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

    quiet = GameEnv("tajmahal", 3)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None
