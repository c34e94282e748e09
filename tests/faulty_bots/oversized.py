"""Answers an act with 50 MB and no newline (written from one 1 MB buffer)."""

import time

from common import run, write

CHUNK = b"x" * (1 << 20)


def act(n: int, message: dict) -> bool:
    try:
        for _ in range(50):
            write(CHUNK)
    except BrokenPipeError:
        pass
    time.sleep(3600)
    return True


run("oversized", act)
