"""Answers an act with JSON of the wrong shape; argv[1] says which."""

import sys

from common import run, send

SHAPES = {
    "array": [0],
    "no_type": {"choice": 0},
    "wrong_type": {"type": "move", "choice": 0},
    "string_choice": {"type": "action", "choice": "0"},
    "both": {"type": "action", "choice": 0, "action": {"type": "withdraw"}},
    "neither": {"type": "action"},
    "unknown_field": {"type": "action", "choice": 0, "why": "because"},
}
shape = SHAPES[sys.argv[1]]


def act(n: int, message: dict) -> bool:
    send(shape)
    return True


run("wrong_shape", act)
