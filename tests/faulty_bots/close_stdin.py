"""Answers the hello, then closes its stdin and keeps running."""

import os
import sys
import time

from common import hello

sys.stdin.readline()
hello("close_stdin")
os.close(0)
time.sleep(3600)
