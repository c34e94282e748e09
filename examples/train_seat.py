"""Train one seat of a game with sb3-contrib's MaskablePPO against random players,
then measure it: the recipe of docs/research.md, "Training one seat".

    python examples/train_seat.py --game tajmahal --steps 40000 --seed 1

The learner plays ``tajmahal.gym.SeatEnv``: a seat drawn at random each game, the
other seats played by the built-in ``random`` bot, the reward the change of its
score lead after each decision (``reward="margin"``) and its zero-sum outcome at
the end; several environments run side by side (Stable-Baselines3's vector
environment), the masks of legal actions from ``SeatEnv.action_masks``.  Before
and after training the policy (its most likely legal action) plays ``--games``
games against random players (seats rotating, the seeds fixed): the win share
(a first place shared by k seats counts 1/k) and the mean score lead.

Needs the ``train`` extra (Stable-Baselines3, sb3-contrib; a CPU build of torch
installed first: docs/research.md says how).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from tajmahal.extras import require

require("train", "examples/train_seat.py", ("gymnasium", "stable_baselines3", "sb3_contrib"))

import torch  # noqa: E402 - after the check that names the missing extra
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

from tajmahal.gym import SeatEnv  # noqa: E402


def evaluate(
    model: Any, game: str, players: int, games: int, seed: int, sample: bool = False
) -> tuple[float, float]:
    """Win share and mean score lead of ``model`` (None: uniform random) over
    ``games`` games against random players, its seat rotating; ``sample``: the
    policy's actions drawn from it, not its most likely ones."""
    env = SeatEnv(game, players, seat=None)
    wins = leads = 0.0
    rng = np.random.default_rng(seed)
    for k in range(games):
        obs, info = env.reset(seed=seed + k, options={"seat": k % players})
        done = False
        while not done:
            mask = info["action_mask"].astype(bool)
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=not sample)
            obs, _, done, _, info = env.step(int(action))
        scores = env.rules.scores(env.state)
        best = max(scores)
        mine = scores[env.seat]
        wins += (mine == best) / scores.count(best)
        leads += mine - (sum(scores) - mine) / (players - 1)
    return wins / games, leads / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tajmahal", help="tajmahal, tikal or java")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40_000, help="the learner's decisions")
    parser.add_argument("--envs", type=int, default=4, help="environments side by side")
    parser.add_argument("--games", type=int, default=100, help="evaluation games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="save the trained model here (.zip)")
    parser.add_argument(
        "--sample",
        action="store_true",
        help="evaluate the policy as trained (sampling), not its most likely action",
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small nets: one thread is faster than several

    def make() -> SeatEnv:
        return SeatEnv(args.game, args.players, seat=None, reward="margin")

    before = evaluate(None, args.game, args.players, args.games, 10_000)
    print(f"untrained (random): win share {before[0]:.2f}, lead {before[1]:+.1f} points")
    envs = make_vec_env(make, n_envs=args.envs, seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.process_time()
    model.learn(total_timesteps=args.steps)
    seconds = time.process_time() - start
    after = evaluate(model, args.game, args.players, args.games, 10_000, args.sample)
    print(f"trained {args.steps} steps in {seconds:.1f} s of CPU")
    print(f"trained: win share {after[0]:.2f}, lead {after[1]:+.1f} points")
    if args.save:
        model.save(args.save)
    return {"before": before[0], "after": after[0], "lead": after[1], "seconds": seconds}


if __name__ == "__main__":
    main(sys.argv[1:])
