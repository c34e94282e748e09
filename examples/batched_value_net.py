"""Self-play at scale with the batched engine, a small value net trained on it, and
the net as a bot.

    python examples/batched_value_net.py --games 2048 --save runs/batched-net.npz
    tajmahal tournament "value-net=examples/value_net_bot.py runs/batched-net.npz" \\
        greedy random random --games 40 --seed 1 --out runs/batched-net

The batched engine (``tajmahal.batched``, JAX) plays ``--games`` games of uniformly
random self-play at once, every game a lane of one compiled ``lax.scan``.  After
each decision the position is encoded as the seat that just acted sees it (the kit
encoding's observation: an afterstate); of every 8 steps of a game one such position
is kept, labelled with that seat's final margin (its score minus the mean of the other
seats', in tens of points).  A small neural net (equinox: one hidden layer of 64
ReLU units; optax's Adam) learns to predict the margin from the observation.

The trained net is saved in the format of ``examples/value_net_bot.py`` (numpy
arrays, ReLU hidden layers, one linear output), the bot of examples/train_value_net.py:
at each decision it deals the cards its seat cannot see at random, applies each legal
action with the rules engine and plays the one whose afterstate the net values most.
So it plays under the referee like any bot (``tajmahal match``, ``tajmahal
tournament``).  Needs the ``jax`` extra (jax, equinox, optax).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

import tajmahal.batched as batched

sys.path.insert(0, str(Path(__file__).resolve().parent))
from value_net_bot import ValueNet, margins  # the bot beside this file

#: Steps of every game compiled into one call, of which one position is kept.
CHUNK = 8


def self_play(players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``games`` random games at once, to the end; returns afterstates (one row each:
    of every ``CHUNK`` steps of a game, one at random) and their labels, the acting
    seat's final margin / 10."""
    env = batched.make(num_players=players)

    def one(carry: Any, key: Any) -> Any:
        state, seen, owner, t, pick = carry
        choose, draw = jax.random.split(key)
        seat = state.current_player
        action = batched.random_action(choose, state.legal_action_mask)
        after = env.step(state, action, draw)
        keep = (t == pick) & ~state.terminated
        seen = jnp.where(keep, env.observe(after, jnp.maximum(seat, 0)), seen)
        owner = jnp.where(keep, seat, owner)
        return after, seen, owner, t + 1, pick

    @jax.jit
    def chunk(state: Any, key: Any) -> tuple[Any, Any, Any]:
        keys = jax.random.split(key, games + 1)
        pick = jax.random.randint(keys[0], (games,), 0, CHUNK)
        seen = jnp.zeros((games, *env.observation_shape), jnp.float32)
        start = (state, seen, jnp.full(games, -1, jnp.int32), jnp.zeros(games, jnp.int32), pick)

        def body(carry: Any, key: Any) -> tuple[Any, None]:
            return jax.vmap(one)(carry, jax.random.split(key, games)), None

        (state, seen, owner, _, _), _ = jax.lax.scan(body, start, jax.random.split(keys[1], CHUNK))
        return state, seen, owner

    key = jax.random.key(seed)
    key, deal = jax.random.split(key)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(deal, games))
    rows, owners = [], []
    while not bool(state.terminated.all()):
        key, run = jax.random.split(key)
        state, seen, owner = chunk(state, run)
        lanes = np.flatnonzero(np.asarray(owner) >= 0)
        rows.append(np.asarray(seen)[lanes])
        owners.append(np.stack([lanes, np.asarray(owner)[lanes]], axis=1))
    totals = np.asarray(state.score).sum(axis=2)  # [game, seat]
    labels = np.array([margins(game.tolist()) for game in totals], np.float32)
    owner = np.concatenate(owners)
    return np.concatenate(rows), labels[owner[:, 0], owner[:, 1]]


class Net(eqx.Module):
    """A multilayer perceptron: ReLU hidden layers, one linear output."""

    layers: list[eqx.nn.Linear]

    def __init__(self, inputs: int, hidden: int, key: Any) -> None:
        first, last = jax.random.split(key)
        self.layers = [eqx.nn.Linear(inputs, hidden, key=first), eqx.nn.Linear(hidden, 1, key=last)]

    def __call__(self, x: Any) -> Any:
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x)[0]

    def weights(self) -> ValueNet:
        """The net in examples/value_net_bot.py's format (weights as inputs x outputs)."""
        return ValueNet(
            [np.asarray(layer.weight).T for layer in self.layers],
            [np.asarray(layer.bias) for layer in self.layers],
        )


def train(
    x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int
) -> tuple[Net, list[tuple[float, float]]]:
    """Fit the net to ``(x, y)`` (a tenth held out); each epoch's training and
    held-out mean squared error."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    cut = len(x) // 10
    test, fit = order[:cut], order[cut:]
    net = Net(x.shape[1], hidden, jax.random.key(seed))
    optimizer = optax.adam(1e-3)
    state = optimizer.init(eqx.filter(net, eqx.is_array))

    def loss(net: Net, xb: Any, yb: Any) -> Any:
        return jnp.mean((jax.vmap(net)(xb) - yb) ** 2)

    @eqx.filter_jit
    def update(net: Net, state: Any, xb: Any, yb: Any) -> tuple[Net, Any, Any]:
        value, grads = eqx.filter_value_and_grad(loss)(net, xb, yb)
        updates, state = optimizer.update(grads, state, net)
        return eqx.apply_updates(net, updates), state, value

    held_out = eqx.filter_jit(loss)
    curve = []
    batch = min(256, len(fit))
    for _ in range(epochs):
        rng.shuffle(fit)
        losses = []
        for start in range(0, len(fit) - batch + 1, batch):
            part = fit[start : start + batch]
            net, state, value = update(net, state, x[part], y[part])
            losses.append(float(value))
        curve.append((float(np.mean(losses)), float(held_out(net, x[test], y[test]))))
    return net, curve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    parser.add_argument("--games", type=int, default=2048, help="games of self-play, at once")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", metavar="NET.npz", help="write the net for value_net_bot.py")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    x, y = self_play(args.players, args.games, args.seed)
    print(
        f"self-play: {args.games} games of {args.players} players on {jax.devices()[0].platform}, "
        f"{len(x)} positions kept ({time.perf_counter() - start:.0f} s)"
    )
    print(f"labels: mean margin {y.mean():+.2f}, spread {y.std():.2f} (tens of points)")
    net, curve = train(x, y, args.hidden, args.epochs, args.seed)
    for epoch, (fit, test) in enumerate(curve, 1):
        print(f"epoch {epoch}: training error {fit:.3f}, held-out error {test:.3f}")
    print(f"held-out error of always guessing the mean: {float(np.var(y)):.3f}")
    if args.save:
        net.weights().save(args.save)
        print(f"saved the net to {args.save} ({time.perf_counter() - start:.0f} s in all)")


if __name__ == "__main__":
    main()
