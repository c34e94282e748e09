"""Answers an act with an action object that is not legal; argv[1] says which."""

import sys

from common import run, send

ACTIONS = {
    "not_in_hand": {"type": "play", "card": 99, "extra": 98},
    "unknown": {"type": "fly", "to": "the moon"},
    "wrong_phase": {"type": "take_card", "card": 0},
}
action = ACTIONS[sys.argv[1]]


def act(n: int, message: dict) -> bool:
    if n == 3:
        send({"type": "action", "action": action})
        return True
    send({"type": "action", "action": message["legal"][-1]})  # the action object form
    return True


run("illegal", act)
