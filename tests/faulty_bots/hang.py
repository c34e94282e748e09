"""Answers the hello, then never answers an act (sleeps instead)."""

import time

from common import run


def act(n: int, message: dict) -> bool:
    time.sleep(3600)
    return True


run("hang", act)
