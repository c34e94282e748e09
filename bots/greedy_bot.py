#!/usr/bin/env python3
"""A bot built on the tajmahal library: the greedy heuristic, as a subprocess.

Run it in a match:   tajmahal match bots/greedy_bot.py random random random

It needs the tajmahal package (``pip install -e .`` in this repository; ``tajmahal
match`` runs *.py bots with its own Python, so this works from the project's
virtualenv).  It shows how a Python bot can turn protocol messages back into the
library's typed values and think with the engine:

- the hello's ``setup`` is the static public part of the game
  (:class:`tajmahal.PublicSetup`: board, province and bonus tiles);
- each act's ``view`` and ``legal`` rebuild the seat's :class:`tajmahal.PlayerView`
  with :func:`tajmahal.tajmahal.adapter.view_from_data`;
- ``TAJMAHAL.bots().greedy`` (the built-in greedy player's) looks one decision ahead with
  :func:`tajmahal.apply` on a state guessed from that view only (the other hands
  and the deck are dealt at random from the unseen cards: a bot never sees them).

To write your own, copy this file and replace ``choose``.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import orjson

from tajmahal import PlayerView, PublicSetup
from tajmahal.tajmahal.adapter import TAJMAHAL, view_from_data
from tajmahal.tajmahal.serialize import from_data

PROTOCOL_VERSION = 1
NAME = "greedy_bot.py"
#: Taj Mahal's judgement, as the built-in greedy player uses it.
BOTS = TAJMAHAL.bots()


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(orjson.dumps(message) + b"\n")
    sys.stdout.buffer.flush()


def choose(view: PlayerView, rng: random.Random) -> int:
    """The index into ``view.legal`` to play."""
    return BOTS.greedy(view, view.legal, rng)


def main() -> None:
    rng = random.Random()
    setup: PublicSetup | None = None
    seat = 0
    for line in sys.stdin.buffer:
        message = orjson.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng.seed(message["seed"])
            seat = message["seat"]
            setup = from_data(message["setup"], PublicSetup)
            send({"type": "hello", "name": NAME, "version": "1.0",
                  "protocol_version": PROTOCOL_VERSION})
        elif kind == "act":
            assert setup is not None, "an act before the hello"
            view = view_from_data(setup, message["view"], message["legal"])
            send({"type": "action", "choice": choose(view, rng)})
        elif kind == "end":
            print(f"game over: I scored {message['scores'][seat]}, rank {message['ranks'][seat]}",
                  file=sys.stderr)
        elif kind == "error":
            print(f"the referee says: {message['message']}", file=sys.stderr)


if __name__ == "__main__":
    main()
