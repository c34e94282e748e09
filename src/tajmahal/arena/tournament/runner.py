"""Runs a tournament: the schedule through an executor into the journal.

:func:`run_tournament` plays every game of the plan that the journal does not
have yet, journals each one as it ends, keeps the standings, and writes the
summary files (also when it is interrupted, for the games finished so far).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

import orjson
from attrs import evolve, frozen

from ..game import AnyGame
from ..referee import record_stem
from ..signals import interrupts_deferred
from .charges import audit, check_result, lost_games, lost_result, suspects
from .executor import Executor, ExecutorLost, GameOutcome, GameTask
from .journal import GAMES, LOGS, Finished, TournamentDir, record_name
from .logbudget import LogBudget
from .plan import Plan
from .schedule import Slot
from .sequential import SequentialTest
from .sprt import SprtStatus
from .standings import Standings, games_csv, standings_csv

#: How many times a game that could not be played is tried again in the same run.
RETRIES = 2
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

    def tested(self, status: SprtStatus) -> None:
        """Where the plan's sequential test stands, before each :meth:`finished`."""


@frozen
class Report:
    """How a run went: games ``played`` in this run out of the plan's, those that
    ``failed`` (number, error), whether it was ``interrupted``, the seconds it took,
    the final standings, the summary files written, where the plan's
    sequential test stands (``sprt``, None without one), and why the executor
    could play no more (``lost``: the run stopped there, to be resumed), and what
    to tell about the logs' budget (``logs``: None unless it cut logs short)."""

    plan: Plan
    finished: int
    played: int
    failed: tuple[tuple[int, str], ...]
    interrupted: bool
    seconds: float
    standings: Standings
    files: tuple[Path, ...]
    sprt: SprtStatus | None = None
    lost: str | None = None
    logs: str | None = None

    @property
    def complete(self) -> bool:
        """Every game played, or the sequential test decided."""
        decided = self.sprt is not None and self.sprt.verdict is not None
        return decided or self.finished == self.plan.games


def task_for(plan: Plan, slot: Slot, store: TournamentDir) -> GameTask:
    """The task of ``slot``: each seat's bot and time control follow its entrant."""
    return GameTask(
        number=slot.number,
        seed=slot.seed,
        bots=tuple(plan.entrants[e].bot for e in slot.seating),
        names=tuple(plan.entrants[e].name for e in slot.seating),
        time=tuple(plan.time[e] for e in slot.seating),
        variant=plan.variant,
        handshake=plan.handshake,
        grace=plan.grace,
        max_line=plan.max_line,
        max_log=plan.max_log,
        batch_events=plan.batch_events,
        sandbox=plan.sandbox,
        memory=plan.memory,
        record=f"{store.resolved}/{GAMES}/{record_name(slot.number)}",
        log_dir=f"{store.resolved}/{LOGS}",
        seat_key=store.seat_key(slot.number).hex(),
        setup_seed=store.setup_seed(slot.seed),
        hide=() if store.setups == store.root else (str(store.setups.resolve()),),
    )


def run_tournament(
    store: TournamentDir,
    executor: Executor,
    listener: Listener | None = None,
    retries: int = RETRIES,
    game: AnyGame | None = None,
) -> Report:
    """Play the games of ``store.plan`` that are not in its journal yet (or, when
    the plan has a sequential test, until the test is decided).

    With the ``game``, a journaled game whose line is not sealed counts only if
    its record replays to it (:func:`~.charges.audit`; else it is played again), a
    result counts only if the game's record replays to it
    (:func:`~.charges.check_result`), and a game that could not be finished is
    *lost*: charged to the seats played by separate programs, which could have
    caused it (:mod:`.charges`), at once, or, if the executor says the loss was
    its own (a machine lost: ``outcome.transient``), after ``retries`` more tries.
    A game that no bot could have spoiled (only built-in bots, or no ``game``
    given) is played again, after the others, up to ``retries`` more times in
    this run; then it is reported as failed (and tried again on the next run)."""
    plan = store.plan
    if game is not None:
        audit(game, store)  # journaled games count only as the tournament wrote them
    builtins = set(game.builtin_players()) if game is not None else None
    tries: dict[int, int] = {}
    standings = Standings(plan.entrants, plan.duplicate)
    test = sequential_test(plan)
    for entry in sorted(store.finished, key=lambda g: g.number):
        standings.add(entry)
        if test is not None:
            test.add(entry)
    done = {entry.number for entry in store.finished}
    under_way: set[int] = set()  # handed to the executor, no outcome yet
    errors: dict[int, str] = {}  # the games of this round that could not be played

    logs = LogBudget(plan.max_logs, store.log_dir)

    def tasks(numbers: Iterable[int]) -> Iterator[GameTask]:
        for number in numbers:
            if test is not None and test.decided:
                return
            if number not in done:
                under_way.add(number)
                share = logs.allot(number, plan.seats, plan.max_log)
                yield evolve(task_for(plan, plan.slot(number), store), max_log=share)

    played = 0
    interrupted = False
    lost: str | None = None
    start = time.monotonic()
    todo: Iterable[int] = (s.number for s in plan.slots())
    try:
        if listener is not None:
            listener.started(plan, standings, len(done))
        for _ in range(1 + max(0, retries)):
            errors.clear()
            with contextlib.closing(executor.run(tasks(todo))) as outcomes:
                for outcome in outcomes:
                    if outcome.number not in under_way:  # never counted twice
                        store.log_error(outcome.number, "an outcome for a game not under way")
                        continue
                    under_way.discard(outcome.number)
                    logs.settle(
                        outcome.number, record_stem(store.record_path(outcome.number)), plan.seats
                    )
                    slot = plan.slot(outcome.number)
                    tries[slot.number] = tries.get(slot.number, 0) + 1
                    with interrupts_deferred():  # journal and standings stay in step
                        result = outcome.result
                        error = _disbelief(game, builtins, store, slot, outcome)
                        if error is not None:
                            store.log_error(outcome.number, error)
                            charged = () if builtins is None else suspects(plan, slot, builtins)
                            if not charged or (
                                outcome.transient and tries[slot.number] <= retries
                            ):
                                errors[outcome.number] = error
                                if listener is not None:
                                    listener.failed(outcome.number, error)
                                continue
                            result = lost_result(plan.seats, charged, error)
                        assert result is not None
                        finished = store.append(slot, result)
                        done.add(finished.number)
                        standings.add(finished)
                        if test is not None:
                            test.add(finished)
                        played += 1
                    if listener is not None:
                        if test is not None:
                            listener.tested(test.status())
                        listener.finished(finished, standings)
                    if test is not None and test.decided:
                        break  # closing the executor stops the games under way
            if not errors or (test is not None and test.decided):
                break
            todo = sorted(errors)  # played again, in order
    except KeyboardInterrupt:
        interrupted = True
    except ExecutorLost as e:  # the games under way are played again on resume
        interrupted, lost = True, str(e)
        for number in sorted(under_way):
            store.log_error(number, f"the executor was lost during the game: {lost}")
    failed = [(n, e) for n, e in sorted(errors.items()) if n not in done]
    seconds = time.monotonic() - start
    store.remove_partial_records()  # left by workers that were killed
    sprt = None if test is None else test.status()
    try:
        with interrupts_deferred():  # a Ctrl-C now is held until the files are written
            files = write_summary(store, standings, interrupted, sprt)
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
        sprt=sprt,
        lost=lost,
        logs=logs.note(),
    )


def _disbelief(
    game: AnyGame | None,
    builtins: set[str] | None,
    store: TournamentDir,
    slot: Slot,
    outcome: GameOutcome,
) -> str | None:
    """Why ``outcome`` does not finish its game: its error, or why its result is
    not believed (with the ``game``, its record must say the same; it is replayed
    when a bot of the game could have reached the worker and its pipe: a program
    outside the sandbox; a built-in or sandboxed bot cannot, and the replay would
    cost this process more than the game cost its worker)."""
    if outcome.result is None:
        return outcome.error or "no result"
    if game is None or builtins is None:
        return None
    replayed = bool(suspects(store.plan, slot, builtins))
    problem = check_result(game, store, slot, outcome.result, replayed)
    return None if problem is None else f"its result is not believed: {problem}"


def sequential_test(plan: Plan) -> SequentialTest | None:
    """The plan's sequential test, if it has one."""
    return None if plan.sprt is None else SequentialTest(plan.sprt, plan.per_deal)


def summary_data(
    store: TournamentDir,
    standings: Standings,
    interrupted: bool,
    sprt: SprtStatus | None = None,
) -> dict[str, Any]:
    plan = store.plan
    data = {
        "tournament": plan.to_data(),
        "finished": len(standings.games),
        "complete": len(standings.games) == plan.games
        or (sprt is not None and sprt.verdict is not None),
        "interrupted": interrupted,
        **standings.to_data(),
        "lost_games": lost_games(standings.games, [e.name for e in plan.entrants]),
    }
    if sprt is not None:
        data["sprt"] = sprt.to_data()
    return data


def write_summary(
    store: TournamentDir,
    standings: Standings,
    interrupted: bool = False,
    sprt: SprtStatus | None = None,
) -> tuple[Path, ...]:
    """``standings.json``, ``standings.csv`` and ``games.csv`` at the top of the
    directory, for the games finished so far (and the sequential test's status)."""
    data = summary_data(store, standings, interrupted, sprt)
    return (
        store.write(STANDINGS_JSON, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"),
        store.write(STANDINGS_CSV, standings_csv(standings.table()).encode()),
        store.write(GAMES_CSV, games_csv(standings.games, store.plan.entrants).encode()),
    )
