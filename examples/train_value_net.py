"""Train a small neural value net by self-play and watch it beat random players.

    python examples/train_value_net.py --plot curve.png --save runs/value-net.npz

The agent looks one decision ahead: it deals the cards it cannot see at random
(:func:`tajmahal.determinize`), applies each legal action with the engine, encodes
each result as the seat sees it (:func:`tajmahal.tajmahal.encoding.observation`) and plays
the action whose result a neural net values most.  The net (scikit-learn's
``MLPRegressor``, one hidden layer) learns from its own games: after each batch of
self-play games (all seats the agent, exploring with probability ``epsilon``), every
seat's positions are labelled with the seat's final margin — its score minus the
mean of the other seats', in tens of points — and the net takes a few passes over
them (Monte Carlo value learning on afterstates).

After each batch the agent plays games against three seats that choose uniformly at
random among the legal actions (as the built-in ``random`` bot does), its seat
rotating, and the win share is the learning curve (a first place shared by m seats
counts 1/m; 0.25 is a fair share).  Point 0 is the untrained agent, which explores
with probability 1: a random player.  The built-in ``greedy`` bot, in the same
games, is the reference line.  CPU only, one thread; the same seed gives the same
run.  ``--save`` writes the trained net for examples/value_net_bot.py, a bot that
plays with it in ``tajmahal match`` and ``tajmahal tournament``.  Needs the ``rl``
extra.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPRegressor
from threadpoolctl import threadpool_limits

from tajmahal import Setup, State, apply, legal_actions, new_game, ranks, scores, view
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tajmahal.encoding import observation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from value_net_bot import ValueNet, lookahead, margins  # the bot beside this file


class Agent:
    """One-decision lookahead on a learned value of the seat's observation."""

    def __init__(self, seed: int, hidden: int) -> None:
        self.net = MLPRegressor(
            hidden_layer_sizes=(hidden,),
            learning_rate_init=1e-3,
            alpha=1e-4,
            random_state=seed,
        )
        self.trained = False
        self.weights: ValueNet | None = None  # the net's weights, for a fast forward pass

    def choose(self, state: State, rng: random.Random, epsilon: float) -> int:
        """The index into ``legal_actions(state)`` to play for ``state.to_act``,
        from what that seat can see."""
        seat = state.to_act
        assert seat is not None
        legal = legal_actions(state)
        if len(legal) == 1:
            return 0
        if not self.trained or rng.random() < epsilon:
            return rng.randrange(len(legal))
        if self.weights is None:
            self.weights = ValueNet.from_mlp(self.net)
        return lookahead(self.weights, view(state, seat), legal, rng)  # never peeks

    def learn(self, x: np.ndarray, y: np.ndarray, epochs: int, rng: random.Random) -> None:
        order = list(range(len(x)))
        for _ in range(epochs):
            rng.shuffle(order)
            for start in range(0, len(order), 256):
                batch = order[start : start + 256]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    self.net.partial_fit(x[batch], y[batch])
        self.trained = True
        self.weights = None


def self_play(
    agent: Agent, players: int, seed: int, rng: random.Random, epsilon: float, keep: float
) -> tuple[list[np.ndarray], list[float]]:
    """One game with the agent in every seat: the positions after its decisions
    (a share ``keep`` of them), each labelled with the deciding seat's final margin."""
    state = new_game(Setup.random(players, seed))
    seen: list[tuple[int, np.ndarray]] = []
    while state.to_act is not None:
        seat = state.to_act
        legal = legal_actions(state)
        state = apply(state, legal[agent.choose(state, rng, epsilon)])
        if len(legal) > 1 and rng.random() < keep:
            seen.append((seat, observation(state, seat)))
    final = margins(scores(state))
    return [x for _, x in seen], [final[seat] for seat, _ in seen]


Pick = Callable[[State, random.Random], int]


def against_random(pick: Pick, players: int, games: int, seed: int) -> dict[str, float]:
    """``pick`` (an index into the legal actions) in one seat, rotating, and uniform
    random players in the others."""
    rng = random.Random(seed)
    share = margin = 0.0
    for game in range(games):
        me = game % players
        state = new_game(Setup.random(players, seed * 1_000_003 + game))
        while state.to_act is not None:
            legal = legal_actions(state)
            action = legal[pick(state, rng)] if state.to_act == me else rng.choice(legal)
            state = apply(state, action)
        places = ranks(scores(state))
        if places[me] == 1:
            share += 1 / places.count(1)
        margin += margins(scores(state))[me]
    return {"win_share": share / games, "margin": 10 * margin / games}


def greedy(state: State, rng: random.Random) -> int:
    """The built-in ``greedy`` bot's choice (a reference line on the plot)."""
    assert state.to_act is not None
    seen = view(state, state.to_act)
    return TAJMAHAL.bots().greedy(seen, seen.legal, rng)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--games", type=int, default=40, help="self-play games an iteration")
    parser.add_argument("--eval-games", type=int, default=100, help="games against random")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--keep", type=float, default=0.5, help="share of positions kept")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="", help="write the learning curve to this PNG")
    parser.add_argument("--save", default="", help="write the trained net to this .npz file")
    args = parser.parse_args(argv)
    # Small matrices: one BLAS thread is faster, and the machine may be shared.
    with threadpool_limits(limits=1):
        return train(args)


def train(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    agent = Agent(args.seed, args.hidden)
    start = time.perf_counter()

    def pick(state: State, rng: random.Random) -> int:
        return agent.choose(state, rng, epsilon=0.0 if agent.trained else 1.0)

    reference = against_random(greedy, args.players, args.eval_games, args.seed)
    print(f"built-in greedy: win share {reference['win_share']:.2f}")
    curve = [{"games": 0, **against_random(pick, args.players, args.eval_games, args.seed)}]
    print(f"untrained (random): win share {curve[0]['win_share']:.2f}")
    played = 0
    for iteration in range(1, args.iterations + 1):
        xs: list[np.ndarray] = []
        ys: list[float] = []
        for _ in range(args.games):
            x, y = self_play(agent, args.players, rng.getrandbits(32), rng, args.epsilon, args.keep)
            xs += x
            ys += y
        played += args.games
        agent.learn(np.stack(xs), np.array(ys), args.epochs, rng)
        point = against_random(pick, args.players, args.eval_games, args.seed + iteration)
        curve.append({"games": played, **point})
        print(
            f"iteration {iteration}: {played} self-play games, {len(xs)} positions; "
            f"against random: win share {point['win_share']:.2f}, "
            f"margin {point['margin']:+.1f} points ({time.perf_counter() - start:.0f} s)"
        )
    if args.plot:
        plot(curve, reference, args, args.plot)
    if args.save:
        ValueNet.from_mlp(agent.net).save(args.save)
        print(f"saved the net to {args.save}")
    return {"curve": curve, "greedy": reference, "seconds": time.perf_counter() - start}


def plot(
    curve: list[dict[str, float]],
    reference: dict[str, float],
    args: argparse.Namespace,
    path: str,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [p["games"] for p in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.plot(games, [p["win_share"] for p in curve], marker="o", label="value-net agent")
    ax.axhline(reference["win_share"], color="tab:orange", linestyle=":", label="built-in greedy")
    ax.axhline(1 / args.players, color="grey", linestyle="--", label="fair share (random)")
    ax.set_xlabel("self-play games")
    ax.set_ylabel(f"win share against {args.players - 1} random")
    ax.set_ylim(0, 1)
    ax.set_title(f"{args.eval_games} games a point, {args.players} players, seed {args.seed}")
    ax.legend(loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    main()
