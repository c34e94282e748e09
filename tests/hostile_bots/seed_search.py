"""The red team's attack on small seeds: a Taj Mahal bot that knows the library
deals the setups of every seed from 0 to 10^5 itself and looks for the one it
plays, by the public setup its hello shows (the province tiles come from the
same random numbers as the deck, right after it).  Found, it knows every hand
and the whole deck order.

    seed_search.py [--upto N] [--tournament]

``--tournament``: the bot is the first BOT of two in a tournament, and the
seeds tried are those a tournament of each seed from 0 to N gives the first game
of its first deal (:func:`~tajmahal.arena.tournament.schedule.deal_seed` with
duplicate deals, :func:`~tajmahal.arena.tournament.schedule.fresh_seed` with
fresh cards); it searches in that game only (at seat 0), and says
``{"skipped": true}`` in the others.

It answers its hello at once, then searches (no clock runs until it is asked
to act), writes what it found as one line on stderr, ``seed_search: {...}``
(``found``: the seed, or null; ``deck``: the deck it dealt), then plays choice 0.
Standard library and the tajmahal package only (it runs sandboxed).
"""

import argparse
import json
import random
import sys
import time

from tajmahal.arena.tournament.schedule import deal_seed, fresh_seed
from tajmahal.tajmahal.cards import REGULAR_CARDS
from tajmahal.tajmahal.setups import Setup


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def candidates(upto: int, tournament: bool) -> "list[int]":
    if not tournament:
        return list(range(upto + 1))
    found = []
    for seed in range(upto + 1):
        found += [deal_seed(seed, 0), fresh_seed(seed, 0, 0)]
    return found


def search(hello: dict, upto: int, tournament: bool) -> dict:
    """The seed whose setup has the province tiles of the hello's, or None."""
    setup = hello["setup"]
    final = setup["board"]["provinces"].index(setup["board"]["final_province"])
    tiles = [t for p, t in enumerate(setup["province_tiles"]) if p != final]
    if tournament and hello["seat"] != 0:
        return {"skipped": True}
    rng = random.Random()
    start = time.monotonic()
    tried = candidates(upto, tournament)
    for seed in tried:
        rng.seed(seed)
        deck = list(REGULAR_CARDS)
        rng.shuffle(deck)
        numbers = list(range(1, 12))
        rng.shuffle(numbers)
        if numbers != tiles:
            continue
        dealt = Setup.random(hello["players"], seed)  # the library's own deal
        if dealt.start_player == setup["start_player"]:
            return {"found": seed, "deck": list(dealt.deck), "tried": len(tried)}
    return {"found": None, "tried": len(tried), "seconds": round(time.monotonic() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--upto", type=int, default=10**5)
    parser.add_argument("--tournament", action="store_true")
    args = parser.parse_args()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "name": "seed_search", "version": "0", "protocol_version": 1})
            report = search(message, args.upto, args.tournament)
            print("seed_search: " + json.dumps(report), file=sys.stderr, flush=True)
        elif message["type"] == "act":
            send({"type": "action", "choice": 0})


main()
