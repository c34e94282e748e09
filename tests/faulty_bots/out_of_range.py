"""Answers an act with an index past the end of the legal actions."""

from common import run, send


def act(n: int, message: dict) -> bool:
    send({"type": "action", "choice": len(message["legal"]) + 1000})
    return True


run("out_of_range", act)
