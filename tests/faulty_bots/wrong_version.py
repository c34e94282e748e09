"""Speaks protocol version 99; logs what the referee tells it."""

from common import hello, run


def on_hello(message: dict) -> bool:
    hello("wrong_version", version=99)
    return True


run("wrong_version", on_hello=on_hello)
