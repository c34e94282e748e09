"""The Ray executor: a tournament's games as Ray tasks, on a cluster of machines.

Each game is one Ray task (one CPU) that plays :func:`~.executor.play_task` in a
Ray worker process, on whichever node Ray picks.  The record and the bots' logs
are written to a temporary directory on that node and travel back with the
result through Ray's object store; this process writes the record into the
tournament directory (atomically, synced) before it yields the outcome.  So the
tournament directory needs to exist only here, nodes need no shared file system,
and the journal, resume and standings work exactly as with the local executor.

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
runner charges the game to them, see :mod:`.charges`).  Closing
:meth:`RayExecutor.run` cancels the games under way: the task gets
KeyboardInterrupt and the referee kills its bots.

``ray`` is imported only when the executor runs (``pip install 'tajmahal[ray]'``).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import Any, Final

from attrs import evolve

from .executor import GameOutcome, GameTask, load_game, play_task
from .journal import write_atomically

#: Seconds the games under way have to stop after a cancel before they are killed.
STOP_TIMEOUT: Final = 10.0
#: Seconds between two looks at the tasks under way when nothing has finished.
_WAIT: Final = 1.0


def play_remote(reference: str, task_data: dict[str, Any], cwd: str | None) -> dict[str, Any]:
    """Play one task in a Ray worker: the outcome, with the record and the logs'
    contents (the paths in the task are this machine's, not the node's)."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    task = GameTask.from_data(task_data)
    with tempfile.TemporaryDirectory(prefix="tajmahal-game-") as tmp:
        logs = Path(tmp) / "logs"
        logs.mkdir()
        here = evolve(task, record=str(Path(tmp) / Path(task.record).name), log_dir=str(logs))
        outcome = play_task(load_game(reference), here)
        reply: dict[str, Any] = {"outcome": outcome.to_data()}
        if outcome.result is not None:
            reply["record"] = Path(here.record).read_bytes()
            reply["logs"] = {Path(p).name: Path(p).read_bytes() for p in outcome.result["logs"]}
        return reply


def collect(task: GameTask, reply: dict[str, Any]) -> GameOutcome:
    """The outcome of ``task`` from a worker's ``reply``, once its record is on
    disk at the task's path and its logs in the task's log directory."""
    outcome = GameOutcome.from_data(reply["outcome"])
    if outcome.result is None:
        return outcome
    try:
        write_atomically(Path(task.record), reply["record"])
        paths = []
        for name, data in reply["logs"].items():
            path = Path(task.log_dir) / Path(name).name
            path.write_bytes(data)
            paths.append(str(path))
    except (OSError, KeyError, TypeError) as e:
        return GameOutcome(task.number, error=f"its record could not be written here: {e}")
    result = dict(outcome.result, record=task.record, logs=paths)
    return GameOutcome(task.number, result=result)


def _lost(error: BaseException) -> str:
    return f"the Ray task was lost during the game ({type(error).__name__}: {error})"


class RayExecutor:
    """Plays up to ``jobs`` games at once as Ray tasks (``jobs`` None: as many as
    the cluster has CPUs).  ``address``: the cluster to join (as for
    ``ray.init``; None starts a local Ray, or joins the one ``RAY_ADDRESS`` names);
    ``working_dir``: a directory shipped to every node, where the bots run.

    Ray is started (or joined) on the first :meth:`run` and left running for the
    next; :meth:`close` disconnects (and stops a local Ray started here)."""

    def __init__(
        self,
        reference: str,
        jobs: int | None = None,
        address: str | None = None,
        working_dir: Path | None = None,
    ) -> None:
        if jobs is not None and jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.reference = reference
        self.jobs = jobs
        self.address = address
        self.working_dir = working_dir
        self._started = False

    def connect(self) -> int:
        """Start or join Ray; the number of games to keep under way."""
        import logging

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        import ray

        if not ray.is_initialized():
            runtime_env = None
            if self.working_dir is not None:
                runtime_env = {"working_dir": str(self.working_dir)}
            ray.init(
                address=self.address,
                num_cpus=self.jobs if self.address is None else None,
                runtime_env=runtime_env,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
                configure_logging=False,
            )
            self._started = True
        if self.jobs is not None:
            return self.jobs
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        return max(1, int(resources.get("CPU", 1)))

    def close(self) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def run(self, tasks: Iterable[GameTask]) -> Generator[GameOutcome, None, None]:
        jobs = self.connect()
        import ray

        remote = ray.remote(num_cpus=1, max_retries=0)(play_remote)
        cwd = None if self.working_dir is not None else os.getcwd()
        pending: dict[Any, GameTask] = {}
        try:
            yield from self._run(iter(tasks), jobs, remote, cwd, pending)
        finally:
            _cancel(pending)

    def _run(
        self,
        tasks: Iterator[GameTask],
        jobs: int,
        remote: Any,
        cwd: str | None,
        pending: dict[Any, GameTask],
    ) -> Iterator[GameOutcome]:
        import ray

        more = True
        while True:
            while more and len(pending) < jobs:
                task = next(tasks, None)
                if task is None:
                    more = False
                    break
                pending[remote.remote(self.reference, task.to_data(), cwd)] = task
            if not pending:
                return
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=_WAIT)
            for ref in ready:
                task = pending.pop(ref)
                try:
                    reply = ray.get(ref)
                except ray.exceptions.RayError as e:
                    # The game's own worker process died: its bots may have killed it
                    # (they run as the same user); a node or object lost is Ray's doing.
                    crashed = isinstance(e, ray.exceptions.WorkerCrashedError)
                    yield GameOutcome(task.number, error=_lost(e), transient=not crashed)
                    continue
                yield collect(task, reply)


def _cancel(pending: dict[Any, GameTask]) -> None:
    """Stop the games under way: KeyboardInterrupt in each task (the referee kills
    the bots and drops the record); tasks still running after
    :data:`STOP_TIMEOUT` are killed with their worker."""
    if not pending:
        return
    import ray

    from ..signals import uninterruptible

    with uninterruptible():
        refs = list(pending)
        for ref in refs:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=False)
        deadline = time.monotonic() + STOP_TIMEOUT
        left = refs
        while left and time.monotonic() < deadline:
            _, left = ray.wait(left, num_returns=len(left), timeout=0.2)
        for ref in left:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        pending.clear()
