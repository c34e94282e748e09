"""The referee over subprocess pipes, against a raw pipe baseline (issue 6, item 4).

Every round plays one 4-player game between four ``first_bot.py`` subprocesses
(each answers every ``act`` with choice 0) under the default match settings, and
with the *same act lines* that game sent (those of its seed, taken beforehand):

- the **raw pipe baseline**: a minimal loop writes each line to one child (the same
  ``first_bot.py``) with one ``os.write`` and reads its whole answer line with
  ``os.read``, one line at a time;
- the same lines sent by the same minimal loop to **four children in turn**, each
  line to the child of the seat it went to in the game: what the bots' turn-taking
  alone costs, without any referee (no target; it shows what bounds the ratio);
- the **referee alone**, with four instant in-process bots: its CPU time per
  decision without pipes (engine, encoding, bookkeeping).

Every round then measures the referee and the one-child baseline again with the
whole benchmark -- this process and every child it starts -- confined to **one
CPU**.  On a virtual machine, a process woken on another virtual CPU than the one
that woke it waits for that CPU to be woken (a trip through the hypervisor),
several times the cost of the referee's work; where the scheduler puts five
processes on two CPUs changes from run to run.  On one CPU both sides pay the same
wake-ups, so the ratio measures what the referee adds.

Decisions/s of the referee count the game loop only (first to last decision; bot
start-up and the handshake are in the wall time instead), as the baselines count
only their loops (their children are started before the clock).  The measurements
of a round run one after the other, in reverse order every other round, because
pipe latency on a shared machine drifts; the figures are the medians over the
rounds, with min-max in the notes.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tajmahal.arena import BotSpec, MatchConfig, play_match, run_match
from tajmahal.arena.connection import Connection, Received
from tajmahal.arena.protocol import Outgoing
from tajmahal.arena.registry import GAMES

from .measure import Result, spread

#: The game refereed: the default one (the figures of docs/performance.md).
GAME = GAMES.get()

BOT: str = str(Path(__file__).resolve().parent / "first_bot.py")
PLAYERS = 4
RATIO_TARGET = 0.67  # referee decisions/s over raw pipe decisions/s (overhead <= 1.5x)
GAME_TARGET = 0.25  # seconds, median 4-player game with trivial bots


def acts_of(seed: int) -> list[tuple[int, bytes]]:
    """(seat, line) of every ``act`` the referee sends in the game of ``seed``."""
    acts: list[tuple[int, bytes]] = []

    def trace(seat: int, direction: str, line: bytes) -> None:
        if direction == "to" and line.startswith(b'{"type":"act"'):
            acts.append((seat, line))

    result = run_match(
        GAME, GAME.random_setup(PLAYERS, seed), _specs(), MatchConfig(trace=trace), seed
    )
    assert not result.faults, result.faults
    return acts


def _specs() -> list[BotSpec]:
    return [BotSpec.parse(BOT, []) for _ in range(PLAYERS)]


def referee_game(seed: int) -> tuple[float, float, int]:
    """One game: wall time (start of the bots to their exit), decisions/s in the
    game loop, decisions."""
    steps: list[float] = []

    def on_step(*_: object) -> None:
        steps.append(time.perf_counter())

    config = MatchConfig(on_step=on_step)
    setup = GAME.random_setup(PLAYERS, seed)
    start = time.perf_counter()
    result = run_match(GAME, setup, _specs(), config, seed)
    wall = time.perf_counter() - start
    assert not result.faults, result.faults
    return wall, (len(steps) - 1) / (steps[-1] - steps[0]), result.decisions


def referee_share(seed: int) -> float:
    """Median microseconds from a bot's answer to the next request over pipes (wall
    time, seen through the trace): the referee's own work on the critical path."""
    gaps: list[float] = []
    answered: list[float] = []

    def trace(seat: int, direction: str, line: bytes) -> None:
        now = time.perf_counter()
        if direction == "from":
            answered[:] = [now] if line.startswith(b'{"type":"action"') else []
        elif answered and line.startswith(b'{"type":"act"'):
            gaps.append(now - answered.pop())

    setup = GAME.random_setup(PLAYERS, seed)
    result = run_match(GAME, setup, _specs(), MatchConfig(trace=trace), seed)
    assert not result.faults, result.faults
    return statistics.median(gaps) * 1e6


def _child() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, BOT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )


def raw_pipe(acts: list[tuple[int, bytes]], children: int = 1) -> float:
    """Decisions/s of a minimal loop sending ``acts`` to ``children`` children (1: all
    to one; else each to the child of its seat), one line at a time."""
    procs = [_child() for _ in range(children)]
    fds = [(p.stdin.fileno(), p.stdout.fileno()) for p in procs]  # type: ignore[union-attr]
    plan = [(fds[seat % children], line) for seat, line in acts]
    write, read = os.write, os.read
    start = time.perf_counter()
    for (w, r), line in plan:
        write(w, line)  # a few kB: one write into an empty pipe
        answer = read(r, 65536)
        while not answer.endswith(b"\n"):
            answer += read(r, 65536)
    elapsed = time.perf_counter() - start
    for p in procs:
        p.stdin.close()  # type: ignore[union-attr]
        p.wait()
        p.stdout.close()  # type: ignore[union-attr]
    return len(plan) / elapsed


class _InstantBot(Connection):
    """A bot inside the referee that answers at once, without decoding anything:
    what is left is the referee's own work (engine, encoding, bookkeeping)."""

    label = "instant"

    def __init__(self) -> None:
        self.reply = b""

    def start(self) -> str | None:
        return None

    def send(self, message: Outgoing, request: bool = False, hold: bool = False) -> None:
        if request:
            self.reply = HELLO if message.line.startswith(b'{"type":"hello"') else CHOICE

    def receive(self, timeout: float) -> Received:
        return Received(0.0, line=self.reply)

    def kill(self) -> None:
        self.exit_status = "done"


HELLO = b'{"type":"hello","name":"instant","version":"1","protocol_version":1}'
CHOICE = b'{"type":"action","choice":0}'


def referee_alone(seeds: range) -> float:
    """CPU seconds per decision of the referee with instant in-process bots."""
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        bots = [_InstantBot() for _ in range(PLAYERS)]
        setup = GAME.random_setup(PLAYERS, seed)
        decisions += play_match(GAME, setup, bots, MatchConfig(), seed).decisions
    return (time.process_time() - start) / decisions


@contextmanager
def one_cpu() -> Iterator[bool]:
    """Confine this process, and the children it starts meanwhile (they inherit it),
    to one CPU of those it may use; False where the platform cannot."""
    if not hasattr(os, "sched_setaffinity"):
        yield False
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield True
    finally:
        os.sched_setaffinity(0, allowed)


def run_all(quick: bool) -> list[Result]:
    seeds = range(1 if quick else 5)
    rounds = 3 if quick else 20
    acts = {seed: acts_of(seed) for seed in seeds}  # also warms everything up
    walls, rates, bases, turns, ratios, turn_ratios, alone = [], [], [], [], [], [], []
    pinned_rates, pinned_bases, pinned_ratios = [], [], []
    shares, pinned_shares = [], []
    for i in range(rounds):
        seed = seeds[i % len(seeds)]
        # Each measurement in turn, the order reversed every other round (drift).
        steps = ["referee", "base", "turns", "alone"]
        for step in steps if i % 2 == 0 else steps[::-1]:
            if step == "referee":
                wall, rate, _ = referee_game(seed)
            elif step == "base":
                base = raw_pipe(acts[seed])
            elif step == "turns":
                turns.append(raw_pipe(acts[seed], PLAYERS))
            else:
                alone.append(referee_alone(range(seed, seed + 1)) * 1e6)
        walls.append(wall)
        rates.append(rate)
        bases.append(base)
        ratios.append(rate / base)
        turn_ratios.append(rate / turns[-1])
        shares.append(referee_share(seed))
        with one_cpu() as pinned:
            if pinned:  # the two again, on one CPU, in the round's order
                if i % 2 == 0:
                    rate1 = referee_game(seed)[1]
                    base1 = raw_pipe(acts[seed])
                else:
                    base1 = raw_pipe(acts[seed])
                    rate1 = referee_game(seed)[1]
                pinned_rates.append(rate1)
                pinned_bases.append(base1)
                pinned_ratios.append(rate1 / base1)
                pinned_shares.append(referee_share(seed))
    median = statistics.median
    rows = [
        Result(
            "referee alone, instant in-process bots",
            median(alone),
            "µs/decision",
            higher_is_better=False,
            note=f"CPU time: engine, encoding, bookkeeping; {spread(alone, '.0f')}",
        ),
        Result(
            "referee over pipes, 4 trivial bots",
            median(rates),
            "decisions/s",
            note=f"game loop; {spread(rates, ',.0f')}",
        ),
        Result(
            "referee's work a decision over pipes",
            median(shares),
            "µs",
            higher_is_better=False,
            note=f"wall, answer to next request (trace); {spread(shares, '.0f')}",
        ),
        Result(
            "raw pipe baseline, 1 child",
            median(bases),
            "decisions/s",
            note=f"same act lines; {spread(bases, ',.0f')}",
        ),
        Result(
            "raw pipe, 4 children in turn",
            median(turns),
            "decisions/s",
            note=f"same lines, seat by seat; {spread(turns, ',.0f')}",
        ),
        Result(
            "referee / raw pipe baseline",
            median(ratios),
            "ratio",
            RATIO_TARGET,
            note=f"median of per-round ratios; {spread(ratios, '.2f')}",
        ),
        Result(
            "referee / 4 children in turn",
            median(turn_ratios),
            "ratio",
            note=f"what the referee adds to the turn-taking; {spread(turn_ratios, '.2f')}",
        ),
        Result(
            "4-player game over pipes, wall time",
            median(walls),
            "s",
            GAME_TARGET,
            higher_is_better=False,
            note=f"start to exit of the bots; {spread(walls, '.3f')}",
        ),
    ]
    if pinned_ratios:
        rows += [
            Result(
                "referee over pipes, all on one CPU",
                median(pinned_rates),
                "decisions/s",
                note=f"the same game, bots and referee on one CPU; {spread(pinned_rates, ',.0f')}",
            ),
            Result(
                "raw pipe baseline, all on one CPU",
                median(pinned_bases),
                "decisions/s",
                note=f"its child on the same CPU; {spread(pinned_bases, ',.0f')}",
            ),
            Result(
                "referee / raw pipe baseline, one CPU",
                median(pinned_ratios),
                "ratio",
                RATIO_TARGET,
                note=f"the same wake-ups on both sides; {spread(pinned_ratios, '.2f')}",
            ),
            Result(
                "referee's work a decision, one CPU",
                median(pinned_shares),
                "µs",
                higher_is_better=False,
                note=f"the same, all on one CPU; {spread(pinned_shares, '.0f')}",
            ),
        ]
    return rows


if __name__ == "__main__":
    import argparse

    from rich.console import Console

    from .report import table

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.referee", description="Only the referee rows of the benchmarks."
    )
    parser.add_argument("--quick", action="store_true", help="a few seconds, for smoke tests")
    Console(width=130).print(table(run_all(parser.parse_args().quick)))
