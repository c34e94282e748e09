"""Kills the process that runs its referee (its parent) with SIGKILL at its first
decision, when it sits at seat 0; at other seats it plays correctly.  A bot can
do that if it runs with the referee's rights; a tournament must lose only the
game whose worker died."""

import os
import signal

from common import run


def hello(message: dict) -> bool:
    global seat
    seat = message["seat"]
    return False


def act(n: int, message: dict) -> bool:
    if seat == 0:
        os.kill(os.getppid(), signal.SIGKILL)
        os._exit(0)
    return False


seat = -1
run("kill_referee", act, hello)
