"""Watching a fast bot for its next answer before sleeping (arena/process.py).

After an answer within ``WATCH`` seconds the referee polls without sleeping for up
to ``WATCH`` before it sleeps in ``poll``; these tests drive a
:class:`ProcessConnection` by hand with small bots and check that watching
changes nothing a bot can notice: answers, faults and timeouts are the same.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tajmahal.arena import process
from tajmahal.arena.process import WATCH, ProcessConnection
from tajmahal.arena.protocol import CRASH, TIMEOUT, Outgoing

MANY_CPUS = process._cpus() > 1

#: Answers each line at once with its line number, but as told by the line: "exit"
#: exits with status 3, "slow" answers after 0.3 s, "mute" never answers.
BOT = """
import os, sys, time
for n, line in enumerate(sys.stdin.buffer):
    if line.startswith(b"exit"):
        sys.exit(3)
    if line.startswith(b"slow"):
        time.sleep(0.3)
    if line.startswith(b"mute"):
        continue
    os.write(1, b'{"n":%d}\\n' % n)
"""


@contextmanager
def bot(watch: bool = True) -> Iterator[ProcessConnection]:
    conn = ProcessConnection([sys.executable, "-c", BOT], watch=watch)
    assert conn.start() is None
    try:
        yield conn
    finally:
        conn.kill()


def ask(conn: ProcessConnection, line: bytes, timeout: float = 5.0) -> tuple[bytes | None, object]:
    line, fault, _ = timed_ask(conn, line, timeout)
    return line, fault


def timed_ask(
    conn: ProcessConnection, line: bytes, timeout: float = 5.0
) -> tuple[bytes | None, object, float]:
    conn.send(Outgoing(line + b"\n"), request=True)
    got = conn.receive(timeout)
    return got.line, got.fault, got.elapsed


def warm(conn: ProcessConnection) -> None:
    """Requests until one is answered within WATCH (the first ones pay for start-up)."""
    for _ in range(200):
        line, fault = ask(conn, b"go")
        assert fault is None and line is not None
        if conn.watch or not MANY_CPUS:
            return
    pytest.skip("no answer came within the watch window on this machine")


def test_a_fast_answer_makes_the_referee_watch_for_the_next_when_it_has_cpus() -> None:
    with bot() as conn:
        warm(conn)
        assert conn.watch is MANY_CPUS
        numbers = []
        for _ in range(20):  # the answers are the bot's, in order, watched or not
            line, fault, elapsed = timed_ask(conn, b"go")
            assert fault is None and line is not None
            numbers.append(int(line[5:-1]))
            assert conn.watch is (elapsed < WATCH and MANY_CPUS)  # the last answer decides
        assert numbers == list(range(numbers[0], numbers[0] + 20))


def test_a_slow_answer_is_still_received_and_ends_the_watching() -> None:
    with bot() as conn:
        warm(conn)
        start = time.perf_counter()
        line, fault = ask(conn, b"slow")
        assert fault is None and line is not None and line.startswith(b'{"n":')
        assert time.perf_counter() - start >= 0.3
        assert not conn.watch  # 0.3 s is not fast: the next wait sleeps at once


def test_a_bot_that_exits_while_watched_is_a_crash() -> None:
    with bot() as conn:
        warm(conn)
        line, fault = ask(conn, b"exit")
        assert line is None
        assert fault is not None and fault[0] == CRASH and "exit 3" in fault[1]


def test_a_bot_that_goes_mute_while_watched_times_out_on_time() -> None:
    with bot() as conn:
        warm(conn)
        start = time.perf_counter()
        line, fault = ask(conn, b"mute", timeout=0.2)
        waited = time.perf_counter() - start
        # The bot never answers: coming back at all is the timeout, and not early.
        assert line is None and fault is not None and fault[0] == TIMEOUT
        assert waited >= 0.2


def test_without_watch_the_referee_never_watches() -> None:
    with bot(watch=False) as conn:
        for _ in range(20):
            line, fault = ask(conn, b"go")
            assert fault is None and line is not None
            assert not conn.watch


def test_the_watch_window_is_short() -> None:
    assert 0 < WATCH <= 0.001  # CPU spent per decision at most, only for fast bots


def test_tournament_games_never_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament plays a game per CPU: a watching referee would take a CPU from
    another game's bot."""
    from tajmahal.arena.terms import TimeControl
    from tajmahal.arena.tournament import executor
    from tajmahal.tajmahal.adapter import TAJMAHAL

    configs = []

    def run_match(
        game: object, setup: object, specs: object, config: object, seed: int, drawn: int
    ) -> None:
        configs.append(config)
        raise RuntimeError("not played")

    monkeypatch.setattr(executor, "run_match", run_match)
    task = executor.GameTask(
        number=0, seed=1, bots=("random",) * 3, time=(TimeControl(),) * 3, variant=None,
        handshake=10.0, grace=1.0, max_line=1 << 20, max_log=1 << 20, batch_events=True,
        record="r.jsonl", log_dir="logs",
    )  # fmt: skip
    outcome = executor.play_task(TAJMAHAL, task)
    assert outcome.error is not None and "not played" in outcome.error
    assert [c.watch for c in configs] == [False]
