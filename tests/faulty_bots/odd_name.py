"""Plays correctly under a name full of markup: argv[1]."""

import sys

from common import run, send


def on_hello(message: dict) -> bool:
    send({"type": "hello", "name": sys.argv[1], "version": "[i]0[/]", "protocol_version": 1})
    return True


run("odd_name", on_hello=on_hello)
