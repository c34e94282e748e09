#!/usr/bin/env python3
"""The search bot as a subprocess: determinized Monte Carlo tree search.

Run it in a match:

    tajmahal match "bots/mcts_bot.py --iterations 300" greedy greedy greedy

Options: ``--iterations N`` (default 300; a fixed count makes the bot's play a
function of its seed), ``--seconds S`` (a wall-clock cap per decision; with both,
whichever ends first).  The seed comes from the referee's hello.

Like ``greedy_bot.py`` it needs the tajmahal package and rebuilds the seat's
:class:`tajmahal.PlayerView` from each act message; the thinking is
``TAJMAHAL.bots().search`` (the kit's search,
:mod:`tajmahal.kit.search`, with Taj Mahal's evaluation and rollout policy).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import orjson

from tajmahal import PublicSetup
from tajmahal.kit.search import SearchConfig
from tajmahal.tajmahal.adapter import TAJMAHAL, view_from_data
from tajmahal.tajmahal.serialize import from_data

PROTOCOL_VERSION = 1
NAME = "mcts_bot.py"


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(orjson.dumps(message) + b"\n")
    sys.stdout.buffer.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args()
    config = SearchConfig(iterations=args.iterations, seconds=args.seconds)
    bots = TAJMAHAL.bots()  # Taj Mahal's judgement, as the built-in mcts player's
    rng = random.Random()
    setup: PublicSetup | None = None
    for line in sys.stdin.buffer:
        message = orjson.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng.seed(message["seed"])
            setup = from_data(message["setup"], PublicSetup)
            send({"type": "hello", "name": NAME, "version": "1.0",
                  "protocol_version": PROTOCOL_VERSION})
        elif kind == "act":
            assert setup is not None, "an act before the hello"
            view = view_from_data(setup, message["view"], message["legal"])
            send({"type": "action", "choice": bots.search(view, view.legal, rng, config)})
        elif kind == "error":
            print(f"the referee says: {message['message']}", file=sys.stderr)


if __name__ == "__main__":
    main()
