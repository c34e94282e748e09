"""The cheapest correct bot, for measuring the referee: answers every act with
choice 0 without decoding it (the referee writes "type" first)."""

import sys

HELLO = b'{"type":"hello","name":"first_bot","version":"1","protocol_version":1}\n'
CHOICE = b'{"type":"action","choice":0}\n'


def main() -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if line.startswith(b'{"type":"act"'):
            out.write(CHOICE)
        elif line.startswith(b'{"type":"hello"'):
            out.write(HELLO)
        else:
            continue
        out.flush()


main()
