"""Plays correctly while flooding stderr: 1 MB before every answer."""

import sys

from common import run

CHUNK = (b"flood " * 20 + b"\n") * ((1 << 20) // 121)


def act(n: int, message: dict) -> bool:
    sys.stderr.buffer.write(CHUNK)
    sys.stderr.buffer.flush()
    return False


run("stderr_flood", act)
