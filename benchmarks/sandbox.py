"""What confining a bot costs at its start (issue 26): the wall time from starting
the Python example bot (``bots/random_bot.py``) to its answer to the hello, as
the referee starts it

- as is (no confinement: what ``match`` did before the launcher);
- through the launcher with Landlock's signal scoping (the default outside the
  sandbox on Linux 6.12+);
- in the sandbox (bubblewrap's namespaces, then the launcher).

Rounds interleave the three.  A decision costs the same in all three (the pipes
are the same): only the start differs.

``python -m benchmarks.sandbox [--quick]``; also part of ``python -m benchmarks``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from tajmahal.arena import sandbox

from .measure import Result, spread
from .report import module_main

BOT = [sys.executable, str(Path(__file__).resolve().parent.parent / "bots" / "random_bot.py")]
HELLO = b'{"type": "hello", "protocol_version": 1, "seat": 0, "players": 2, "seed": 1}\n'


def hello_time(argv: list[str]) -> float:
    """Wall seconds from starting ``argv`` to its answer to the hello (the CPU time
    of a sandboxed bot is not counted here: its processes are reaped in its own
    PID namespace)."""
    start = time.perf_counter()
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as bot:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write(HELLO)
        bot.stdin.flush()
        answer = bot.stdout.readline()
        took = time.perf_counter() - start
        bot.stdin.close()  # it ends at the end of its input
    if b'"hello"' not in answer:
        raise RuntimeError(f"{argv[0]} did not answer the hello: {answer!r}")
    return took


def modes() -> dict[str, list[str]]:
    found = {"as is": BOT}
    if sandbox.scope_available():
        found["launcher, Landlock scope"] = sandbox.command(BOT, sandbox=False, memory=None)
    if sandbox.unavailable() is None:
        found["sandbox"] = sandbox.command(BOT, sandbox=True, memory=None)
    return found


def run_all(quick: bool) -> list[Result]:
    commands = modes()
    rounds = 3 if quick else 20
    walls: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, argv in commands.items():
            walls[name].append(hello_time(argv) * 1e3)
    plain = statistics.median(walls["as is"])
    results = []
    for name, values in walls.items():
        median = statistics.median(values)
        extra = "" if name == "as is" else f"; +{median - plain:.0f} ms over as is"
        results.append(Result(f"bot start to hello, {name}", median, "ms",
                              higher_is_better=False, note=spread(values, ".0f") + extra))
    return results


if __name__ == "__main__":
    sys.exit(module_main("python -m benchmarks.sandbox", __doc__, run_all))
