"""Shared by the hostile bots: the protocol loop of tests/faulty_bots/common.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faulty_bots"))

from common import hello, run, send, write

__all__ = ["hello", "run", "send", "write"]
