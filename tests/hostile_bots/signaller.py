"""Attack 5: a bot that signals the other bots of its game (its siblings: the
other children of its referee) at its first decision.  argv[1]: ``stop``
(SIGSTOP: they hang, and would time out) or ``kill`` (SIGKILL).  It plays
correctly itself, and says on stderr what it did."""

import os
import signal
import sys

from arena_bot import run

signum = signal.SIGSTOP if sys.argv[1] == "stop" else signal.SIGKILL


def siblings() -> list[int]:
    parent, me, found = os.getppid(), os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me:
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    if int(f.read().rsplit(b")", 1)[1].split()[1]) == parent:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def act(n: int, message: dict) -> bool:
    if n == 1:
        for pid in siblings():
            try:
                os.kill(pid, signum)
                print(f"signalled {pid}", file=sys.stderr, flush=True)
            except OSError as e:
                print(f"could not signal {pid}: {e}", file=sys.stderr, flush=True)
    return False


run("signaller", act)
