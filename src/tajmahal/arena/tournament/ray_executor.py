"""The Ray executor: a tournament's games as Ray tasks, on a cluster of machines.

Each game is one Ray task (one CPU) that plays :func:`~.executor.play_task` in a
Ray worker process, on whichever node Ray picks.  The record and the bots' logs
are written to a temporary directory on that node and travel back with the
result through Ray's object store; this process writes the record into the
tournament directory (atomically, synced) before it yields the outcome.  So the
tournament directory needs to exist only here, nodes need no shared file system,
and the journal, resume and standings work exactly as with the local executor.

The tournament process does not join Ray itself: a driver process of its own
does (:mod:`.ray_driver`), spoken to over pipes.  When the cluster is lost (its
head, raylet or GCS killed) Ray ends the process that joined it; the driver's
end raises :class:`~.executor.ExecutorLost` here, and the tournament writes its
standings and stops, to be resumed with the same command.

What every node needs: this package installed (the same version), and the bot
programs.  Bot commands run in the task's working directory: Ray's
``runtime_env={"working_dir": DIR}`` ships DIR to every node and runs there
(``--ray-working-dir DIR``); without it, the directory the tournament was started
in, which must then exist on every node with the bots in it (the same checkout
at the same path, or a shared file system).

A game whose worker process or node is lost yields an error outcome (Ray does
not retry it behind the runner's back): the runner decides what a lost game
means.  A lost node is ``transient`` (played again); a crashed worker process is
not, since the game's bots, running as the same user, may have killed it (the
runner charges the game to them, see :mod:`.charges`); nor is a game that stops
making progress (its worker stopped, or hung: the driver kills it after
:func:`~.ray_driver.stall_limit` seconds without a decision).  Closing
:meth:`RayExecutor.run` cancels the games under way: the task gets
KeyboardInterrupt and the referee kills its bots.

``ray`` is imported only in the driver and the tasks (``pip install 'tajmahal[ray]'``).
"""

from __future__ import annotations

import base64
import contextlib
import os
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Final

import orjson
from attrs import Attribute, define, evolve, field

from ..text import printable
from .executor import ExecutorLost, GameOutcome, GameTask, load_game, play_task
from .journal import write_atomically
from .local import END, wait_or_kill

#: Seconds the driver has to start (join Ray), and to stop the games under way.
START_TIMEOUT: Final = 120.0
STOP_TIMEOUT: Final = 30.0
#: Seconds between two progress reports of a game to the driver.
_BEAT: Final = 1.0


def play_remote(
    reference: str, task_data: dict[str, Any], cwd: str | None, board: Any = None
) -> dict[str, Any]:
    """Play one task in a Ray worker: the outcome, with the record and the logs'
    contents (the paths in the task are this machine's, not the node's).  Each
    decision is reported to the driver's ``board`` (at most once a second)."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    task = GameTask.from_data(task_data)
    on_step = None if board is None else _beats(board, task.number)
    with tempfile.TemporaryDirectory(prefix="tajmahal-game-") as tmp:
        logs = Path(tmp) / "logs"
        logs.mkdir()
        here = evolve(task, record=str(Path(tmp) / Path(task.record).name), log_dir=str(logs))
        outcome = play_task(load_game(reference), here, on_step=on_step)
        reply: dict[str, Any] = {"outcome": outcome.to_data()}
        if outcome.result is not None:
            reply["record"] = Path(here.record).read_bytes()
            reply["logs"] = {Path(p).name: Path(p).read_bytes() for p in outcome.result["logs"]}
        return reply


def _beats(board: Any, number: int) -> Callable[..., None]:
    last = time.monotonic()
    board.beat.remote(number)

    def beat(*_: Any) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= _BEAT:
            last = now
            board.beat.remote(number)

    return beat


def collect(task: GameTask, reply: dict[str, Any]) -> GameOutcome:
    """The outcome of ``task`` from a driver's ``reply`` (bytes in base64), once its
    record is on disk at the task's path and its logs in the task's log directory."""
    outcome = GameOutcome.from_data(reply["outcome"])
    if outcome.result is None:
        return outcome
    try:
        write_atomically(Path(task.record), base64.b64decode(reply["record"]))
        paths = []
        for name, data in reply["logs"].items():
            path = Path(task.log_dir) / Path(name).name
            path.write_bytes(base64.b64decode(data))
            paths.append(str(path))
    except (OSError, KeyError, TypeError, ValueError) as e:
        return GameOutcome(task.number, error=f"its record could not be written here: {e}")
    result = dict(outcome.result, record=task.record, logs=paths)
    return GameOutcome(task.number, result=result)


class _Driver:
    """The driver process and its pipes."""

    def __init__(self, config: dict[str, Any], log: Path | None) -> None:
        err = log.open("ab") if log is not None else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tajmahal.arena.tournament.ray_driver",
                 orjson.dumps(config).decode()],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                bufsize=0, close_fds=True, process_group=0,
            )
        finally:
            if not isinstance(err, int):
                err.close()
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        os.set_blocking(self.stdout.fileno(), False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.stdout, selectors.EVENT_READ)
        self.buffer = bytearray()
        ready = self.receive(START_TIMEOUT)
        if ready is None or ready.get("type") != "ready":
            why = "it did not start" if ready is None else ready.get("error", "no answer")
            self.stop()
            raise ExecutorLost(f"could not join Ray: {printable(str(why), limit=300)}")
        self.jobs = int(ready["jobs"])

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.stdin.write(orjson.dumps(message) + b"\n")
        except OSError:
            raise ExecutorLost(self.death()) from None

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message, None if none came within ``timeout``; raises
        :class:`ExecutorLost` when the driver is gone."""
        deadline = time.monotonic() + timeout
        while (end := self.buffer.find(b"\n")) < 0:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                return None
            try:
                chunk = os.read(self.stdout.fileno(), 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                raise ExecutorLost(self.death())
            self.buffer += chunk
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        message: dict[str, Any] = orjson.loads(line)
        return message

    def death(self) -> str:
        status = wait_or_kill(self.proc, STOP_TIMEOUT)
        return (f"the Ray driver ended (status {status}): the cluster was lost, or could "
                "not be reached")

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.stdin.close()
        wait_or_kill(self.proc, STOP_TIMEOUT)
        self.selector.close()
        self.stdout.close()


@define(eq=False)
class RayExecutor:
    """Plays up to ``jobs`` games at once as Ray tasks (``jobs`` None: as many as
    the cluster has CPUs).  ``address``: the cluster to join (as for
    ``ray.init``; None starts a local Ray, or joins the one ``RAY_ADDRESS`` names);
    ``working_dir``: a directory shipped to every node, where the bots run;
    ``log``: where the driver's messages go (appended).

    The driver is started on the first :meth:`run` and kept for the next;
    :meth:`close` stops it (and a local Ray it started)."""

    reference: str
    jobs: int | None = field(default=None)
    address: str | None = None
    working_dir: Path | None = None
    log: Path | None = None
    _driver: _Driver | None = field(default=None, init=False, repr=False)

    @jobs.validator
    def _check_jobs(self, _: Attribute[int | None], jobs: int | None) -> None:
        if jobs is not None and jobs < 1:
            raise ValueError("jobs must be at least 1")

    def driver(self) -> _Driver:
        if self._driver is None:
            self._driver = _Driver(
                {
                    "reference": self.reference,
                    "jobs": self.jobs,
                    "address": self.address,
                    "working_dir": None if self.working_dir is None else str(self.working_dir),
                    "cwd": None if self.working_dir is not None else os.getcwd(),
                },
                self.log,
            )
        return self._driver

    def close(self) -> None:
        if self._driver is not None:
            self._driver.stop()
            self._driver = None

    def run(self, tasks: Iterable[GameTask | None]) -> Generator[GameOutcome, None, None]:
        try:
            driver = self.driver()
        except ExecutorLost:
            self._driver = None
            raise
        pending: dict[int, GameTask] = {}
        try:
            yield from self._run(driver, iter(tasks), pending)
        except ExecutorLost:
            self.close_quietly()
            raise
        finally:
            if pending and self._driver is not None:
                self._cancel(self._driver)

    def close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
        self._driver = None

    def _run(
        self, driver: _Driver, tasks: Iterator[GameTask | None], pending: dict[int, GameTask]
    ) -> Iterator[GameOutcome]:
        more = True
        while True:
            while more and len(pending) < driver.jobs:
                task = next(tasks, END)
                if task is END:
                    more = False
                    break
                if task is None:  # none yet: asked again at the next message
                    break
                driver.send({"type": "task", "task": task.to_data()})
                pending[task.number] = task
            if not pending:
                return
            message = driver.receive(1.0)
            if message is None or message.get("type") != "done":
                continue
            task = pending.pop(int(message["number"]), None)
            if task is None:  # a game cancelled before (its end crossed the cancel)
                continue
            if "reply" in message:
                yield collect(task, message["reply"])
            else:
                yield GameOutcome.from_data(message["outcome"])

    def _cancel(self, driver: _Driver) -> None:
        """Stop the games under way (the driver cancels their tasks)."""
        from ..signals import uninterruptible

        with uninterruptible():
            try:
                driver.send({"type": "cancel"})
                deadline = time.monotonic() + STOP_TIMEOUT
                while time.monotonic() < deadline:
                    message = driver.receive(deadline - time.monotonic())
                    if message is None or message.get("type") == "cancelled":
                        break
            except ExecutorLost:
                self.close_quietly()
