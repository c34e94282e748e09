"""Answers the hello, then closes its stdout and keeps running."""

import os
import time

from common import run


def act(n: int, message: dict) -> bool:
    os.close(1)
    time.sleep(3600)
    return True


run("close_stdout", act)
