"""The local executor: games in parallel worker processes on this machine.

Each worker is a fresh Python process running :mod:`.worker` in its own process
group (a Ctrl-C on the terminal reaches only the tournament, which then stops the
workers in order).  A worker plays one game at a time; the executor gives it the
next task when it reports the last one.  A worker that dies (killed, out of
memory, a crash of the interpreter) spoils only the game it was playing: that
game's outcome is an error, and a new worker takes its place.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import IO, Final

import orjson

from .. import containment
from ..process import describe_status
from ..signals import uninterruptible
from ..text import printable
from .executor import GameOutcome, GameTask

#: What ``next(tasks, END)`` gives at the end of the tasks (None is "none yet").
END: Final = GameTask(0, 0, (), (), None, 0.0, 0.0, 0, 0, False, "", "")
#: Seconds the workers have to stop their games and exit before they are killed.
STOP_TIMEOUT = 10.0
#: Seconds between two looks at the busy workers (for one stopped by a signal).
_WATCH = 1.0
_CHUNK = 1 << 16


def wait_or_kill(proc: subprocess.Popen[bytes], timeout: float) -> int:
    """The exit status of ``proc``, killed if it has not exited within ``timeout`` s."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class _Worker:
    """One worker process and the task it is playing."""

    def __init__(self, reference: str, stderr: IO[bytes] | None) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tajmahal.arena.tournament.worker",
                reference,
                "--parent",
                str(os.getpid()),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr if stderr is not None else subprocess.DEVNULL,
            bufsize=0,
            close_fds=True,
            process_group=0,
        )
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        self.buffer = bytearray()
        self.task: GameTask | None = None
        #: Why its game was lost, when the executor killed it for that.
        self.lost: str | None = None

    def give(self, task: GameTask) -> bool:
        """Send ``task``; False if the worker is gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(orjson.dumps(task.to_data()) + b"\n")
        except OSError:
            return False
        self.task = task
        return True

    def read(self) -> tuple[list[GameOutcome], bool]:
        """The outcomes that arrived, and whether the worker has closed its output.

        A line that is not the outcome of the worker's game (garbage, another
        game's number, an outcome while idle, a result before the game's record
        exists) was not written by the worker: a bot got at its pipe.  The worker
        is then killed, and its game is lost (an error outcome; the runner
        charges it)."""
        try:
            chunk = os.read(self.fd, _CHUNK)
        except BlockingIOError:
            return [], False
        except OSError:
            chunk = b""
        if not chunk:
            return [], True
        self.buffer += chunk
        outcomes = []
        while (end := self.buffer.find(b"\n")) >= 0:
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            problem = None
            try:
                outcome = GameOutcome.from_data(orjson.loads(line))
            except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
                shown = printable(line.decode("utf-8", "replace"), limit=80)
                problem = f"its worker wrote a line that is not an outcome: {shown}"
            else:
                if self.task is None or outcome.number != self.task.number:
                    playing = "no game" if self.task is None else f"game {self.task.number}"
                    problem = (
                        f"its worker, playing {playing}, wrote an outcome for game "
                        f"{outcome.number}"
                    )
                elif outcome.transient:
                    problem = "its worker wrote an outcome only an executor writes"
                elif outcome.result is not None and not os.path.exists(self.task.record):
                    # The worker writes its outcome after the record, and its bots are
                    # dead by then: this line came from a bot of the game under way.
                    problem = "its worker's pipe had a result before the game's record was written"
            if problem is not None:
                self.proc.kill()  # it is not to be trusted with another game
                if self.task is not None:
                    outcomes.append(GameOutcome(self.task.number, error=problem))
                    self.task = None
                self.buffer.clear()
                return outcomes, True
            outcomes.append(outcome)
            self.task = None
        return outcomes, False

    def stopped(self) -> bool:
        """Whether the worker is stopped (SIGSTOP: by a bot of its game, which runs
        as the same user; it would wait forever)."""
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_bytes()
        except OSError:
            return False
        return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] in (b"T", b"t")

    def death(self) -> str:
        """Why the worker ended (it has closed its output)."""
        status = wait_or_kill(self.proc, STOP_TIMEOUT)
        return f"the worker process ended ({describe_status(status)}) during the game"

    def stop(self, busy: bool) -> None:
        """Close its input (an idle worker then exits); interrupt a game under way."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        if busy and self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.send_signal(signal.SIGTERM)

    def reap(self, deadline: float) -> None:
        wait_or_kill(self.proc, max(0.0, deadline - time.monotonic()))
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class LocalExecutor:
    """Plays up to ``jobs`` games at once, each in a worker process that imports
    the game by ``reference`` (``module:attribute``, see
    :func:`~.executor.game_reference`).  The workers' stderr goes to ``stderr``
    (a file, appended to), else nowhere."""

    def __init__(self, reference: str, jobs: int, stderr: Path | None = None) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.reference = reference
        self.jobs = jobs
        self.stderr = stderr

    def run(self, tasks: Iterable[GameTask | None]) -> Generator[GameOutcome, None, None]:
        log = self.stderr.open("ab") if self.stderr is not None else None
        workers: list[_Worker] = []
        try:
            yield from self._run(iter(tasks), workers, log)
        finally:
            _stop(workers)
            if log is not None:
                log.close()

    def _run(
        self, tasks: Iterator[GameTask | None], workers: list[_Worker], log: IO[bytes] | None
    ) -> Iterator[GameOutcome]:
        selector = selectors.DefaultSelector()
        idle: list[_Worker] = []
        more = True
        watch = time.monotonic() + _WATCH

        def refill() -> None:
            nonlocal more
            while more and (idle or len(workers) < self.jobs):
                task = next(tasks, END)
                if task is END:
                    more = False
                    break
                if task is None:  # none yet: asked again at the next event
                    break
                self._assign(task, idle, workers, selector, log)

        try:
            while True:
                refill()
                if not any(w.task is not None for w in workers):
                    return
                events = selector.select(_WATCH)
                if time.monotonic() >= watch:  # a worker stopped by a signal never reports
                    watch = time.monotonic() + _WATCH
                    for busy in workers:
                        if busy.task is not None and busy.stopped():
                            busy.proc.kill()
                            busy.lost = "the worker process was stopped (SIGSTOP) during the game"
                for key, _ in events:
                    worker: _Worker = key.data
                    outcomes, closed = worker.read()
                    if outcomes and worker.task is None and worker not in idle:
                        idle.append(worker)
                        # Its next game first: the caller's work on the outcome (its
                        # record replayed, the journal synced) must not leave it idle.
                        refill()
                    yield from outcomes
                    if closed:
                        selector.unregister(worker.fd)
                        workers.remove(worker)
                        if worker in idle:
                            idle.remove(worker)
                        why = worker.lost or worker.death()
                        worker.reap(time.monotonic())
                        # Its bots, orphaned, were handed to this process: kill them.
                        containment.sweep(keep={w.proc.pid for w in workers})
                        if worker.task is not None:
                            yield GameOutcome(worker.task.number, error=why)
        finally:
            selector.close()

    def _assign(
        self,
        task: GameTask,
        idle: list[_Worker],
        workers: list[_Worker],
        selector: selectors.BaseSelector,
        log: IO[bytes] | None,
    ) -> None:
        """Give ``task`` to an idle worker, or to a new one."""
        while idle:
            worker = idle.pop()
            if worker.give(task):
                return
        worker = _Worker(self.reference, log)
        os.set_blocking(worker.fd, False)
        workers.append(worker)
        selector.register(worker.fd, selectors.EVENT_READ, worker)
        if not worker.give(task):  # it died at once: its closed output reports the task
            worker.task = task


def _stop(workers: list[_Worker]) -> None:
    """Stop every worker: idle ones exit at the end of their input, busy ones stop
    their game on SIGTERM; any left after :data:`STOP_TIMEOUT` are killed."""
    with uninterruptible():  # a second Ctrl-C must not cut the stopping short
        for worker in workers:
            worker.stop(busy=worker.task is not None)
        deadline = time.monotonic() + STOP_TIMEOUT
        for worker in workers:
            worker.reap(deadline)
        workers.clear()
