"""Plays correctly, but takes SECONDS (argv[1]) for each decision."""

import sys
import time

from common import run

delay = float(sys.argv[1])


def act(n: int, message: dict) -> bool:
    print(f"decision {n}", file=sys.stderr, flush=True)  # its log shows the game is on
    time.sleep(delay)
    return False


run("slow", act)
