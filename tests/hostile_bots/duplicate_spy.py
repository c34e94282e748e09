"""The search bot (bots/mcts_bot.py) plus a channel between the seatings of a
duplicate deal: at its first decision it writes its initial hand into a notes
folder, under the public setup of the game (the same in every seating of a deal)
and its seat; at every decision it looks there for the hands that the *other*
seats had in another seating of the same cards, and searches as if it saw them
(each card still unseen is known to be in that seat's hand).

    duplicate_spy.py NOTES [--iterations N] [--honest]

``NOTES`` is a folder every copy can write (the channel: a stand-in for any
channel a sandbox leaves, such as the page cache's timing).  ``--honest`` plays
the same search and neither reads nor writes notes (the twin to measure
against): what the spy reads is what *it* saw in another seating of the deal.
``benchmarks/duplicate_deals.py`` measures what the notes are worth.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import orjson
from attrs import evolve

from tajmahal import PublicSetup
from tajmahal.kit.search import SearchConfig
from tajmahal.tajmahal.adapter import TAJMAHAL, view_from_data
from tajmahal.tajmahal.hidden import unseen_cards
from tajmahal.tajmahal.serialize import from_data

#: Taj Mahal's judgement, as the built-in mcts player's.
BOTS = TAJMAHAL.bots()


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(orjson.dumps(message) + b"\n")
    sys.stdout.buffer.flush()


#: The seats whose hand the notes told (said once on stderr, for the benchmark).
told_of = [False] * 5


def told(view: Any, notes: Path, deal: str) -> Any:
    """``view`` with the other seats' hands from the notes shown as revealed."""
    unseen = set(unseen_cards(view))
    players = list(view.players)
    for seat, player in enumerate(players):
        if seat == view.seat:
            continue
        try:
            hand = json.loads((notes / f"{deal}.{seat}").read_text())
        except (OSError, ValueError):
            continue
        already = set(player.revealed) | {
            c for c in player.special_cards if c not in player.played}
        room = max(0, player.hand_size - len(already))
        known = [c for c in hand if c in unseen and c not in already][:room]
        players[seat] = evolve(player, revealed=tuple(sorted({*player.revealed, *known})))
        if not told_of[seat]:
            print(f"spy: read the hand of seat {seat} from the notes", file=sys.stderr,
                  flush=True)
            told_of[seat] = True
    return evolve(view, players=tuple(players))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("notes", type=Path)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--honest", action="store_true")
    args = parser.parse_args()
    config = SearchConfig(iterations=args.iterations)
    rng = random.Random()
    setup: PublicSetup | None = None
    deal = ""
    wrote = False
    for line in sys.stdin.buffer:
        message = orjson.loads(line)
        if message["type"] == "hello":
            rng.seed(message["seed"])
            setup = from_data(message["setup"], PublicSetup)
            deal = hashlib.sha256(orjson.dumps(message["setup"])).hexdigest()[:16]
            send({"type": "hello", "name": "duplicate_spy", "version": "1",
                  "protocol_version": 1})
        elif message["type"] == "act":
            assert setup is not None
            view = view_from_data(setup, message["view"], message["legal"])
            if not wrote and not args.honest:  # the twin tells nothing
                args.notes.mkdir(parents=True, exist_ok=True)
                part = args.notes / f".{deal}.{view.seat}.{os.getpid()}"
                part.write_text(json.dumps(list(view.hand)))
                part.rename(args.notes / f"{deal}.{view.seat}")
                wrote = True
            if not args.honest:
                view = told(view, args.notes, deal)
            send({"type": "action", "choice": BOTS.search(view, view.legal, rng, config)})


if __name__ == "__main__":
    main()
