#!/usr/bin/env python3
"""A Taj Mahal bot that plays with a value net trained by examples/train_value_net.py.

    python examples/train_value_net.py --save runs/value-net.npz
    tajmahal tournament "examples/value_net_bot.py runs/value-net.npz" greedy random random

It speaks the bot protocol on stdin/stdout like any bot (protocol/README.md).  At
each decision it deals the cards its seat cannot see at random (the seat's view
decides the guess, never the real deck), applies each legal action with the
engine, encodes every result as its seat sees it
(:func:`tajmahal.tajmahal.encoding.observation`) and plays the action whose result
the net values most: one decision of lookahead.  The net is a plain multilayer
perceptron (ReLU hidden layers, one linear output) saved as numpy arrays, so
playing needs numpy but not scikit-learn.  The seed comes from the referee's hello.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from tajmahal import apply
from tajmahal.kit.bots import ViewPlayer
from tajmahal.tajmahal.actions import Action
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tajmahal.encoding import observation
from tajmahal.tajmahal.views import PlayerView

#: Taj Mahal's bots, with the game that reads the protocol's messages back.
BOTS = TAJMAHAL.bots()

PROTOCOL_VERSION = 1
NAME = "value_net_bot.py"


class ValueNet:
    """A multilayer perceptron's weights: ``predict`` is its forward pass."""

    def __init__(self, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> None:
        self.weights = [np.asarray(w) for w in weights]
        self.biases = [np.asarray(b) for b in biases]

    @classmethod
    def from_mlp(cls, mlp: Any) -> ValueNet:
        """The weights of a trained scikit-learn ``MLPRegressor`` (ReLU, one output)."""
        return cls(mlp.coefs_, mlp.intercepts_)

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        with np.load(path) as data:
            layers = int(data["layers"])
            return cls(
                [data[f"w{i}"] for i in range(layers)], [data[f"b{i}"] for i in range(layers)]
            )

    def save(self, path: str | Path) -> None:
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b for i, b in enumerate(self.biases)}
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as out:  # np.savez would add ".npz" to another suffix
            np.savez(out, layers=np.array(len(self.weights)), **arrays)

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[0])

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The value of each row of ``x``."""
        h = np.asarray(x, dtype=self.weights[0].dtype)
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, 0.0)
        return (h @ self.weights[-1] + self.biases[-1]).ravel()


def margins(totals: Sequence[int]) -> list[float]:
    """What the net predicts, by seat: its final score minus the mean of the others',
    in tens of points (the label of examples/train_value_net.py and
    examples/batched_value_net.py)."""
    n = len(totals)
    return [(t - (sum(totals) - t) / (n - 1)) / 10 for t in totals]


def lookahead(net: ValueNet, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> int:
    """The index into ``legal`` whose result ``net`` values most, on one guess of the
    cards ``view``'s seat cannot see."""
    seat = view.seat
    assert seat is not None
    guess = BOTS.determinize(view, rng)
    after = np.stack([observation(apply(guess, a), seat) for a in legal])
    if after.shape[1] != net.inputs:
        raise ValueError(
            f"the net reads observations of {net.inputs} numbers; this game's have "
            f"{after.shape[1]} (a net is trained for one number of players)"
        )
    return int(np.argmax(net.predict(after)))


class ValueNetPlayer(ViewPlayer):
    """The bot as an in-process player (it rebuilds its view from the messages)."""

    name = NAME
    version = "1.0"

    def __init__(self, net: ValueNet, seed: int = 0) -> None:
        super().__init__(BOTS, seed)
        self.net = net

    def pick(self, view: PlayerView, legal: Sequence[Action]) -> int:
        return lookahead(self.net, view, legal, self.rng)


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(orjson.dumps(message) + b"\n")
    sys.stdout.buffer.flush()


def main(argv: Sequence[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 1:
        sys.exit("usage: value_net_bot.py NET.npz  (made by examples/train_value_net.py --save)")
    player = ValueNetPlayer(ValueNet.load(args[0]))
    for line in sys.stdin.buffer:
        message = orjson.loads(line)
        kind = message["type"]
        if kind == "hello":
            player.rng.seed(message["seed"])
            player.on_hello(message)
            send({"type": "hello", "name": NAME, "version": "1.0",
                  "protocol_version": PROTOCOL_VERSION})  # fmt: skip
        elif kind == "act":
            send({"type": "action", "choice": player.choose(message)})
        elif kind == "error":
            print(f"the referee says: {message['message']}", file=sys.stderr)


if __name__ == "__main__":
    main()
