"""Attack 8 and protocol details: argv[1] says what it does.

- ``bom``: every line it writes starts with a UTF-8 byte order mark (Windows
  runtimes write one); it must play without a fault.
- ``huge_choice``: answers its 2nd act with ``"choice": 10**23`` (an integer JSON
  decoding turns into a float).
- ``no_version``: a hello without ``version``.
- ``second_answer``: answers its 2nd act (or the act argv[2] numbers) twice,
  both lines in one write (so the referee has both at once and cannot take the
  second for a later answer).
"""

import json
import sys

from arena_bot import run, send, write

mode = sys.argv[1]
twice_at = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def act(n: int, message: dict) -> bool:
    if mode == "bom":
        write(b"\xef\xbb\xbf" + json.dumps({"type": "action", "choice": 0}).encode() + b"\r\n")
        return True
    if mode == "second_answer" and n == twice_at:
        write(b'{"type": "action", "choice": 0}\n{"type": "action", "choice": 0}\n')
        return True
    if mode == "huge_choice" and n == 2:
        write(b'{"type": "action", "choice": 100000000000000000000000}\n')
        return True
    return False


def on_hello(message: dict) -> bool:
    if mode == "bom":
        reply = {"type": "hello", "name": "bom", "version": "1", "protocol_version": 1}
        write(b"\xef\xbb\xbf" + json.dumps(reply).encode() + b"\r\n")
        return True
    if mode == "no_version":
        send({"type": "hello", "name": "no_version", "protocol_version": 1})
        return True
    return False


run(mode, act, on_hello)
