"""Answers the hello, then closes its stdin and keeps running: at once, or with
argv[1] "after_act" once it has read its first act (so the referee is waiting
for its answer when it happens)."""

import os
import sys
import time

from common import hello

sys.stdin.readline()
hello("close_stdin")
if sys.argv[1:] == ["after_act"]:
    while not sys.stdin.readline().startswith('{"type":"act"'):
        pass
os.close(0)
time.sleep(3600)
