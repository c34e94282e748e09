"""Answers its first act twice: the second line comes unasked."""

from common import run, send


def act(n: int, message: dict) -> bool:
    send({"type": "action", "choice": 0})
    if n == 1:
        send({"type": "action", "choice": 0})
    return True


run("unasked", act)
