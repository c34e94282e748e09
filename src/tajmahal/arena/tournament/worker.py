"""A worker process: plays the games it is sent, one at a time.

::

    python -m tajmahal.arena.tournament.worker MODULE:GAME [--parent PID]

It reads one task per line on stdin (:meth:`GameTask.to_data` as JSON) and
writes one outcome per line on stdout (:meth:`GameOutcome.to_data`), and exits
at the end of its input.  Anything else written to stdout (say, by a built-in
bot) goes to stderr instead.  On SIGTERM or SIGINT it stops the game under way
(its bots are killed, its record discarded) and exits with status 130.  With
``--parent PID`` it gets SIGTERM when that process dies (Linux), so that killing
a tournament outright leaves no worker or bot behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Sequence
from typing import IO, Any, Final

import orjson

from ..containment import make_undumpable
from .executor import GameTask, load_game, play_task

_PR_SET_PDEATHSIG: Final = 1


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _die_with(parent: int) -> None:
    """Ask the kernel for SIGTERM when ``parent`` dies; exit if it already has."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        raise KeyboardInterrupt


def _protocol_channel() -> IO[bytes]:
    """The real stdout, for outcomes only; file descriptor 1 becomes stderr."""
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    return channel


def serve(reference: str, tasks: IO[bytes], outcomes: IO[bytes]) -> None:
    """Play each task read from ``tasks``; write its outcome to ``outcomes``."""
    game = load_game(reference)
    for line in tasks:
        if not line.strip():
            continue
        task = GameTask.from_data(orjson.loads(line))
        outcome = play_task(game, task)
        outcomes.write(orjson.dumps(outcome.to_data()) + b"\n")
        outcomes.flush()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    make_undumpable()  # its memory holds the deals: closed to the bots (same user)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _interrupt)
    try:
        if len(args) == 3 and args[1] == "--parent":
            _die_with(int(args[2]))
        elif len(args) != 1:
            print(
                "usage: python -m tajmahal.arena.tournament.worker MODULE:GAME [--parent PID]",
                file=sys.stderr,
            )
            return 2
        serve(args[0], sys.stdin.buffer, _protocol_channel())
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the tournament is gone
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
