"""One seat as a single-agent Gymnasium environment (tajmahal.gym): Gymnasium's own
check_env on every game, the registered ids and the vector API, the opponents
(built-in bots, referee players, policies, snapshots), masks as sb3-contrib reads
them, rewards, and a short MaskablePPO run (slow)."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tajmahal.gym as tg
from tajmahal.arena.player import Player
from tajmahal.arena.registry import GAMES
from tajmahal.kit.encoding import ActionIndexError, encoding_of

CASES = [pytest.param(game, n, id=f"{game}-{n}") for game, n in tg.ENV_IDS]


def first_legal(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def play_out(env: gymnasium.Env[Any, Any], seed: int) -> tuple[float, dict[str, Any], int]:
    """A whole episode of uniformly random legal actions: the rewards' sum, the
    last info, the learner's decisions."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, decisions, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        decisions += 1
    return total, info, decisions


@pytest.mark.parametrize(("game", "players"), CASES[::3])
def test_gymnasium_check_env_passes(game: str, players: int) -> None:
    # check_env samples actions without the mask: an illegal one ends the episode.
    env = tg.SeatEnv(game, players, illegal="lose")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    assert not caught


def test_every_game_and_player_count_is_registered() -> None:
    for (game, players), name in tg.ENV_IDS.items():
        assert name == tg.env_id(game, players)
        spec = gymnasium.spec(name)
        assert spec.kwargs == {"game": game, "num_players": players}
    # the shipped games at the player counts of their rules, named by their titles
    shipped = {("tajmahal", n) for n in range(2, 6)} | {
        (game, n) for game in ("tikal", "java") for n in range(2, 5)
    }
    assert shipped <= set(tg.ENV_IDS)
    assert tg.ENV_IDS["tajmahal", 5] == "tajmahal/TajMahal-5p-v0"
    env = gymnasium.make("tajmahal/Tikal-3p-v0", seat=2, variant="auction")
    obs, _ = env.reset(seed=4)
    inner = env.unwrapped
    assert isinstance(inner, tg.SeatEnv) and inner.seat == 2 and inner.variant == "auction"
    assert obs.shape == (encoding_of("tikal").layout(3).size,)
    assert inner.rules.to_act(inner.state) == 2  # the other seats played up to it
    assert np.array_equal(obs, inner.encoding.observation(inner.state, 2))


def test_the_vector_api_steps_several_games() -> None:
    envs = gymnasium.make_vec("tajmahal/TajMahal-3p-v0", num_envs=3, vectorization_mode="sync")
    obs, infos = envs.reset(seed=7)
    assert obs.shape == (3, encoding_of("tajmahal").layout(3).size)
    masks = infos["action_mask"]
    assert masks.shape == (3, 1623) and (masks.sum(axis=1) > 0).all()
    for _ in range(40):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        obs, _, terminated, _, infos = envs.step(actions)
        masks = infos["action_mask"]
        # A game that ended restarts at the next step (Gymnasium's autoreset).
        assert ((masks.sum(axis=1) > 0) | terminated).all()
    envs.close()


@pytest.mark.parametrize(("game", "players"), CASES[1::3])
def test_an_episode_pays_the_outcome_and_masks_the_legal_actions(game: str, players: int) -> None:
    env = tg.SeatEnv(game, players, seat=None)
    total, info, decisions = play_out(env, seed=players)
    state = env.state
    outcome = env.encoding.outcome(state)[env.seat]
    assert total == pytest.approx(outcome) and decisions > 0
    assert info["score"] == env.rules.scores(state)[env.seat]
    assert info["rank"] == env.rules.ranks(state)[env.seat]
    assert not env.action_masks().any() and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)


def test_action_masks_are_what_maskable_ppo_reads() -> None:
    env = tg.SeatEnv("tikal", 2)
    _, info = env.reset(seed=3)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
    legal = env.rules.legal_actions(env.state)
    assert sorted(np.flatnonzero(mask)) == sorted(env.encoding.actions.indices(legal))
    assert np.array_equal(mask, info["action_mask"].astype(bool))


def test_the_margin_reward_adds_up_to_the_final_lead() -> None:
    env = tg.SeatEnv("tajmahal", 3, seat=1, reward="margin")
    total, _, _ = play_out(env, seed=5)
    scores = env.rules.scores(env.state)
    lead = scores[1] - (scores[0] + scores[2]) / 2
    outcome = env.encoding.outcome(env.state)[1]
    assert total == pytest.approx(lead / tg.MARGIN_SCALE + outcome)


class Counting(Player):
    """A referee player that takes the last legal action and counts its messages."""

    name = "counting"

    def __init__(self) -> None:
        self.hellos: list[dict[str, Any]] = []
        self.acts = 0

    def on_hello(self, message: dict[str, Any]) -> None:
        self.hellos.append(message)

    def choose(self, message: dict[str, Any]) -> int:
        self.acts += 1
        assert message["view"]["seat"] == self.hellos[-1]["seat"]
        return len(message["legal"]) - 1


def test_opponents_are_bots_by_name_players_and_policies() -> None:
    player = Counting()
    calls: list[int] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(int(mask.sum()))
        return int(np.flatnonzero(mask)[0])

    env = tg.SeatEnv("tajmahal", 4, seat=0, opponents=[None, "greedy", player, policy])
    play_out(env, seed=2)
    assert player.hellos[-1]["seat"] == 2 and player.hellos[-1]["game"] == "tajmahal"
    assert player.acts > 0 and calls and all(c > 0 for c in calls)
    with pytest.raises(ValueError, match="no built-in bot 'wizard'"):
        tg.SeatEnv("tajmahal", 2, opponents="wizard")
    with pytest.raises(ValueError, match="one for every other seat"):
        tg.SeatEnv("tajmahal", 3, opponents=["random", "random"])

    def cheat(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = tg.SeatEnv("tajmahal", 2, seat=0, opponents=cheat)
    with pytest.raises(ActionIndexError, match="chose .* not legal"):
        play_out(env, seed=1)


def test_illegal_actions_raise_or_lose() -> None:
    env = tg.SeatEnv("tajmahal", 3)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ActionIndexError, match="not legal"):
        env.step(illegal)
    losing = tg.SeatEnv("tajmahal", 3, illegal="lose")
    losing.reset(seed=1)
    _, reward, terminated, _, info = losing.step(illegal)
    assert terminated and reward == -0.5 and info["illegal"] == illegal
    with pytest.raises(ValueError, match="seat must be"):
        tg.SeatEnv("tajmahal", 3, seat=3)
    with pytest.raises(ValueError, match="reward must be"):
        tg.SeatEnv("tajmahal", 3, reward="points")


def test_a_given_setup_and_seat_and_rendering() -> None:
    rules = GAMES.get("tajmahal")
    setup = rules.random_setup(3, 9)
    env = tg.SeatEnv("tajmahal", 3, render_mode="ansi")
    env.reset(options={"setup": setup, "seat": 1})
    assert env.setup == setup and env.seat == 1
    text = env.render()
    assert isinstance(text, str) and "seat 1" in text
    image = tg.SeatEnv("tajmahal", 3, render_mode="rgb_array")
    image.reset(seed=1)
    picture = image.render()
    assert isinstance(picture, np.ndarray) and picture.shape == (480, 720, 3)


@pytest.mark.slow
def test_maskable_ppo_trains_and_its_snapshot_plays_as_an_opponent() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env(lambda: tg.SeatEnv("tajmahal", 2, seat=None, reward="margin"), n_envs=2)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", envs, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(total_timesteps=256)
    frozen = tg.snapshot(model)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=128)  # training goes on: the snapshot stays as it was
    env = tg.SeatEnv("tajmahal", 2, opponents=frozen)
    total, info, decisions = play_out(env, seed=3)
    assert decisions > 0 and abs(total) <= 1
    obs, info = env.reset(seed=4)
    assert frozen(obs, info["action_mask"]) in set(np.flatnonzero(info["action_mask"]))
    after = [p.detach().numpy() for p in model.policy.parameters()]
    assert any(not np.array_equal(a, b.numpy()) for a, b in zip(after, before, strict=True))
