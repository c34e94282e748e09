#!/usr/bin/env python3
"""The shortest correct bot: plays a random legal action.  Standard library only.

Run it in a match:   tajmahal match bots/random_bot.py random random random

The protocol (protocol/README.md) in four lines: the referee writes one JSON object
per line on our stdin; we answer "hello" with our name and protocol version, and
"act" with the index of one of the actions listed under "legal".  Everything else
("events", "end", "error") needs no answer.  Anything we print to stderr goes to
our log file; stdout is for protocol lines only.
"""

import json
import random
import sys

PROTOCOL_VERSION = 1


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # the referee waits for the whole line


def main():
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            rng.seed(message["seed"])  # reproducible: the referee hands out a seed
            send({"type": "hello", "name": "random_bot.py", "version": "1.0",
                  "protocol_version": PROTOCOL_VERSION})
        elif message["type"] == "act":
            send({"type": "action", "choice": rng.randrange(len(message["legal"]))})
        elif message["type"] == "error":
            print(f"the referee says: {message['message']}", file=sys.stderr)
    # stdin closed after the "end" message: just exit


if __name__ == "__main__":
    main()
