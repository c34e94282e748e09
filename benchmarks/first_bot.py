"""The trivial bot of the referee benchmark, and the child of its raw pipe baseline.

It reads whole lines, answers each ``act`` with choice 0 and the ``hello`` with its
own hello, and ignores everything else, without decoding anything (the referee
writes ``"type"`` first).  Both the referee's four bots and the baseline's child run
this same file, so the two measurements differ only in what drives the pipes.
"""

import os
import sys

HELLO = b'{"type":"hello","name":"first_bot","version":"1","protocol_version":1}\n'
CHOICE = b'{"type":"action","choice":0}\n'


def main() -> None:
    write = os.write
    for line in sys.stdin.buffer:
        if line.startswith(b'{"type":"act"'):
            write(1, CHOICE)
        elif line.startswith(b'{"type":"hello"'):
            write(1, HELLO)


main()
