"""Crashes before answering the hello."""

import sys

print("crash_at_start: giving up before the hello", file=sys.stderr)
sys.exit(3)
