"""How fast the referee runs games over subprocess pipes (not a test: it measures).

    .venv/bin/python bench/referee_speed.py [GAMES]

1. GAMES 4-player matches between four bench/first_bot.py subprocesses (each
   answers choice 0): median wall time per game, and decisions per second.
2. A raw pipe baseline: the act lines of one such game, sent by a minimal loop to
   one child that answers each line with choice 0, one line at a time.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from tajmahal.adapter import TAJMAHAL
from tajmahal.arena import BotSpec, MatchConfig, run_match

HERE = Path(__file__).resolve().parent
BOT = str(HERE / "first_bot.py")
CHILD = (
    "import sys\n"
    "out = sys.stdout.buffer\n"
    "for line in sys.stdin.buffer:\n"
    "    out.write(b'{\"type\":\"action\",\"choice\":0}\\n')\n"
    "    out.flush()\n"
)


def referee(games: int) -> tuple[list[float], list[float], list[bytes]]:
    times, rates = [], []
    acts: list[bytes] = []

    def trace(seat: int, direction: str, line: bytes) -> None:
        if direction == "to" and line.startswith(b'{"type":"act"'):
            acts.append(line)

    for game in range(games):
        specs = [BotSpec.parse(BOT, []) for _ in range(4)]
        config = MatchConfig(trace=trace if game == 0 else None)
        start = time.perf_counter()
        result = run_match(TAJMAHAL, TAJMAHAL.random_setup(4, game), specs, config, seed=game)
        times.append(time.perf_counter() - start)
        assert not result.faults, result.faults
        rates.append(result.decisions / result.duration)
    return times, rates, acts


def in_game_rate(games: int, batch: bool = False) -> float:
    """Decisions per second inside the game loop only (bots already started)."""
    total = 0.0
    decisions = 0
    for game in range(games):
        specs = [BotSpec.parse(BOT, []) for _ in range(4)]
        steps: list[float] = []

        def on_step(*_: object, steps: list[float] = steps) -> None:
            steps.append(time.perf_counter())

        result = run_match(
            TAJMAHAL,
            TAJMAHAL.random_setup(4, game),
            specs,
            MatchConfig(on_step=on_step, batch_events=batch),
        )
        total += steps[-1] - steps[0]
        decisions += result.decisions - 1
    return decisions / total


def baseline(acts: list[bytes], rounds: int) -> float:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert child.stdin is not None and child.stdout is not None
    write, read = child.stdin.write, child.stdout.readline
    start = time.perf_counter()
    for _ in range(rounds):
        for line in acts:
            write(line)
            read()
    elapsed = time.perf_counter() - start
    child.stdin.close()
    child.wait()
    return rounds * len(acts) / elapsed


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    times, rates, acts = referee(games)
    # Pipe latency on a shared machine drifts: interleave the measurements.
    inner, batched, base = [], [], []
    for _ in range(5):
        inner.append(in_game_rate(2))
        batched.append(in_game_rate(2, batch=True))
        base.append(baseline(acts, 3))
    ratios = [i / b for i, b in zip(inner, base, strict=True)]
    ratios_batched = [i / b for i, b in zip(batched, base, strict=True)]
    median = statistics.median
    print(f"{games} games, 4 x bench/first_bot.py over pipes")
    print(f"  median wall time per game (start to exit): {median(times):.3f} s")
    print(f"  decisions/s over whole games:   {median(rates):8.0f}")
    print("  medians of 5 interleaved rounds:")
    print(f"  decisions/s in the game loop:   {median(inner):8.0f}")
    print(f"  ... with --batch-events:        {median(batched):8.0f}")
    print(f"  raw pipe baseline decisions/s:  {median(base):8.0f}  (same act lines, minimal loop)")
    print(
        f"  ratio (game loop / baseline):   {median(ratios):8.2f}  "
        f"({median(ratios_batched):.2f} batched)"
    )


if __name__ == "__main__":
    main()
