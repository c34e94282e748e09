#!/usr/bin/env python3
"""A Pig bot over the protocol (protocol/README.md), standard library only: it rolls
until the turn is worth 20, then holds.

    tajmahal match --game pig examples/pig/hold_at_20.py greedy
"""

import json
import sys

HOLD_AT = 20


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "name": "hold_at_20", "version": "1.0", "protocol_version": 1})
        elif message["type"] == "act":
            kinds = [action["type"] for action in message["legal"]]  # "roll", "hold"
            hold = "hold" in kinds and message["view"]["turn"] >= HOLD_AT
            send({"type": "action", "choice": kinds.index("hold" if hold else "roll")})


if __name__ == "__main__":
    main()
