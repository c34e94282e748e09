"""Shared by the deliberately broken bots: a correct protocol loop with hooks."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


def send(message: Any) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def write(raw: bytes) -> None:
    sys.stdout.buffer.write(raw)
    sys.stdout.buffer.flush()


def hello(name: str, version: int = 1) -> None:
    send({"type": "hello", "name": name, "version": "0", "protocol_version": version})


def run(
    name: str,
    on_act: Callable[[int, dict[str, Any]], bool] | None = None,
    on_hello: Callable[[dict[str, Any]], bool] | None = None,
) -> None:
    """Play correctly (choice 0), except where a hook returns True (it answered)."""
    acts = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if on_hello is None or not on_hello(message):
                hello(name)
        elif kind == "act":
            acts += 1
            if on_act is None or not on_act(acts, message):
                send({"type": "action", "choice": 0})
        elif kind == "error":
            print(f"told: {message['fault']}: {message['message']}", file=sys.stderr, flush=True)
