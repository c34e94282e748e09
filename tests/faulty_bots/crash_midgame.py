"""Plays four decisions correctly, then crashes with an exception."""

from common import run


def act(n: int, message: dict) -> bool:
    if n == 5:
        raise RuntimeError("deliberate crash at my 5th decision")
    return False


run("crash_midgame", act)
