"""Runs a tournament: the schedule through an executor into the journal.

:func:`run_tournament` plays every game of the plan that the journal does not
have yet, journals each one as it ends, keeps the standings, and writes the
summary files (also when it is interrupted, for the games finished so far).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import orjson
from attrs import frozen

from .executor import Executor, GameTask
from .journal import Finished, TournamentDir
from .plan import Plan
from .schedule import Slot
from .standings import Standings, games_csv, standings_csv

STANDINGS_JSON = "standings.json"
STANDINGS_CSV = "standings.csv"
GAMES_CSV = "games.csv"


class Listener(Protocol):
    """Follows a tournament (for progress displays)."""

    def started(self, plan: Plan, standings: Standings, resumed: int) -> None:
        """Before the first game; ``resumed`` games were already in the journal."""

    def finished(self, game: Finished, standings: Standings) -> None:
        """A game was journaled (``standings`` include it)."""

    def failed(self, number: int, error: str) -> None:
        """Game ``number`` could not be played (it is retried on resume)."""


@frozen
class Report:
    """How a run went: games ``played`` in this run out of the plan's, those that
    ``failed`` (number, error), whether it was ``interrupted``, the seconds it took,
    the final standings and the summary files written."""

    plan: Plan
    finished: int
    played: int
    failed: tuple[tuple[int, str], ...]
    interrupted: bool
    seconds: float
    standings: Standings
    files: tuple[Path, ...]

    @property
    def complete(self) -> bool:
        return self.finished == self.plan.games


def task_for(plan: Plan, slot: Slot, store: TournamentDir) -> GameTask:
    """The task of ``slot``: each seat's bot and time control follow its entrant."""
    return GameTask(
        number=slot.number,
        seed=slot.seed,
        bots=tuple(plan.entrants[e].bot for e in slot.seating),
        time=tuple(plan.time[e] for e in slot.seating),
        variant=plan.variant,
        handshake=plan.handshake,
        grace=plan.grace,
        max_line=plan.max_line,
        max_log=plan.max_log,
        batch_events=plan.batch_events,
        record=str(store.record_path(slot.number).resolve()),
        log_dir=str(store.log_dir.resolve()),
    )


def run_tournament(
    store: TournamentDir, executor: Executor, listener: Listener | None = None
) -> Report:
    """Play the games of ``store.plan`` that are not in its journal yet."""
    plan = store.plan
    standings = Standings(plan.entrants)
    for game in store.finished:
        standings.add(game)
    done = {game.number for game in store.finished}
    todo = {s.number: s for s in plan.slots() if s.number not in done}
    tasks = (task_for(plan, s, store) for s in todo.values())
    failed: list[tuple[int, str]] = []
    played = 0
    interrupted = False
    start = time.monotonic()
    try:
        if listener is not None:
            listener.started(plan, standings, len(done))
        with contextlib.closing(executor.run(tasks)) as outcomes:
            for outcome in outcomes:
                with _interrupts_deferred():  # journal and standings stay in step
                    if outcome.result is None:
                        error = outcome.error or "no result"
                        failed.append((outcome.number, error))
                        store.log_error(outcome.number, error)
                        if listener is not None:
                            listener.failed(outcome.number, error)
                        continue
                    game = store.append(todo[outcome.number], outcome.result)
                    standings.add(game)
                    played += 1
                if listener is not None:
                    listener.finished(game, standings)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.monotonic() - start
    store.remove_partial_records()  # left by workers that were killed
    try:
        with _interrupts_deferred():  # a Ctrl-C now is held until the files are written
            files = write_summary(store, standings, interrupted)
    except KeyboardInterrupt:
        interrupted = True
    return Report(
        plan=plan,
        finished=len(standings.games),
        played=played,
        failed=tuple(failed),
        interrupted=interrupted,
        seconds=seconds,
        standings=standings,
        files=files,
    )


def summary_data(store: TournamentDir, standings: Standings, interrupted: bool) -> dict[str, Any]:
    plan = store.plan
    return {
        "tournament": plan.to_data(),
        "finished": len(standings.games),
        "complete": len(standings.games) == plan.games,
        "interrupted": interrupted,
        **standings.to_data(),
    }


def write_summary(
    store: TournamentDir, standings: Standings, interrupted: bool = False
) -> tuple[Path, ...]:
    """``standings.json``, ``standings.csv`` and ``games.csv`` at the top of the
    directory, for the games finished so far."""
    data = summary_data(store, standings, interrupted)
    return (
        store.write(STANDINGS_JSON, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"),
        store.write(STANDINGS_CSV, standings_csv(standings.table()).encode()),
        store.write(GAMES_CSV, games_csv(standings.games, store.plan.entrants).encode()),
    )


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM during the block, then raise KeyboardInterrupt if one
    came (main thread only; elsewhere the block runs as is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        caught.append(signum)

    previous = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if caught:
        raise KeyboardInterrupt
