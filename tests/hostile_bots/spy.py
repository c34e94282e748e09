"""Attack 5: a bot that looks where it must not and says, on stderr, what it found.

It reads the command line and environment of every ancestor (for a seed), the
referee's memory (``/proc/PPID/mem``, where the deck is), and tries to write
into the referee's stdout (``/proc/PPID/fd/1``).  argv[1] names a file that
holds the seed to look for (given on its own command line, it would be in the
referee's, as part of the bot's).  Each finding is a line
``spy: WHAT: seen|denied|absent``.
"""

import os
import sys

from arena_bot import run

with open(sys.argv[1], "rb") as f:
    seed = f.read().strip()


def report(what: str, result: str) -> None:
    print(f"spy: {what}: {result}", file=sys.stderr, flush=True)


def ancestors() -> list[int]:
    found, pid = [], os.getppid()
    while pid > 1 and len(found) < 6:
        found.append(pid)
        with open(f"/proc/{pid}/stat", "rb") as f:
            pid = int(f.read().rsplit(b")", 1)[1].split()[1])
    return found


def look() -> None:
    seen = {"cmdline": "absent", "environ": "absent"}
    for pid in ancestors():
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as f:
                    if seed in f.read():
                        seen[part] = "seen"
            except OSError:
                if seen[part] == "absent":
                    seen[part] = "denied"
    for part, result in seen.items():
        report(f"seed in an ancestor's {part}", result)
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/maps") as maps:
            start = int(maps.readline().split("-")[0], 16)
        with open(f"/proc/{parent}/mem", "rb") as mem:
            mem.seek(start)
            mem.read(16)
        report("referee memory", "seen")
    except OSError:
        report("referee memory", "denied")
    try:
        with open(f"/proc/{parent}/fd/1", "wb") as out:
            out.write(b"")
        report("referee stdout", "seen")
    except OSError:
        report("referee stdout", "denied")


look()
run("spy")
