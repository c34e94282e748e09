"""Plays correctly, then ignores the end message and the end of its input."""

import signal
import time

from common import run

signal.signal(signal.SIGTERM, signal.SIG_IGN)
run("ignore_end")
time.sleep(3600)
