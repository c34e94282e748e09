"""Attack 1: a reply whose field argv[1] is JSON nested argv[2] levels deep (1000 by
default), written at its first act (``choice``, ``type``, ``action``) or in its
hello (``name``, ``version``, ``protocol_version``, ``type_hello``).  Describing
such a value with ``repr`` raised RecursionError and crashed the referee."""

import sys

from arena_bot import run, write

field = sys.argv[1]
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
deep = b"[" * depth + b"]" * depth


def line(**fields: bytes) -> bytes:
    return b"{" + b",".join(b'"%s":%s' % (k.encode(), v) for k, v in fields.items()) + b"}\n"


def act(n: int, message: dict) -> bool:
    if field == "choice":
        write(line(type=b'"action"', choice=deep))
    elif field == "type":
        write(line(type=deep, choice=b"0"))
    elif field == "action":
        write(line(type=b'"action"', action=b'{"type":' + deep + b"}"))
    else:
        return False
    return True


def on_hello(message: dict) -> bool:
    fields = {"type": b'"hello"', "name": b'"deep"', "version": b'"1"', "protocol_version": b"1"}
    key = {"type_hello": "type", "name": "name", "version": "version"}.get(field, field)
    if field not in ("type_hello", "name", "version", "protocol_version"):
        return False
    fields[key] = deep
    write(line(**fields))
    return True


run("deep", act, on_hello)
