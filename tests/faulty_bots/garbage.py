"""Answers an act with a line that is not JSON (argv[1]: "text" or "binary")."""

import sys

from common import run, write

line = b"\xff\xfe\x00 not utf-8\n" if sys.argv[1:] == ["binary"] else b"this is not JSON\n"


def act(n: int, message: dict) -> bool:
    write(line)
    return True


run("garbage", act)
