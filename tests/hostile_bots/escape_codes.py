"""Attack 7: terminal escape codes.  argv[1]: ``version`` (a hello whose version
holds escapes and a NUL) or ``stderr`` (plays, writes escape codes as its last
stderr line, then crashes at its 3rd decision, so the fault report quotes them)."""

import sys

from arena_bot import run, send

EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x00\x9b1m\u202eevil"


def on_hello(message: dict) -> bool:
    if sys.argv[1] != "version":
        return False
    send({"type": "hello", "name": "escapes", "version": EVIL, "protocol_version": 1})
    return True


def act(n: int, message: dict) -> bool:
    if n == 3:
        print(EVIL, file=sys.stderr, flush=True)
        sys.exit(3)
    return False


run("escapes", act, on_hello)
