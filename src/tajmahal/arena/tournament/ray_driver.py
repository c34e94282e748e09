"""The Ray driver: a process of its own that plays a tournament's games on Ray.

::

    python -m tajmahal.arena.tournament.ray_driver CONFIG_JSON

It is the only process of the tournament that joins Ray: when the cluster goes
away (its head node, the raylet or the GCS killed) Ray ends the process that
joined it, and the tournament, which only sees this one's pipes end, writes its
standings and stops, to be resumed (see :mod:`.ray_executor`).

It reads one message per line on stdin and writes one per line on stdout:

- first it writes ``{"type": "ready", "jobs": N}`` (the games it keeps under way),
  or ``{"type": "error", "error": TEXT}`` and exits;
- ``{"type": "task", "task": TASK}`` (:meth:`GameTask.to_data`) plays a game, as
  the Ray task :func:`.ray_executor.play_remote`; its end comes back as
  ``{"type": "done", "number": N, "reply": REPLY}`` (the outcome, and the record
  and logs in base64), or ``{"type": "done", "number": N, "outcome": OUTCOME}``
  when the task itself failed;
- ``{"type": "cancel"}`` stops the games under way (their bots killed, no record),
  then it writes ``{"type": "cancelled"}``;
- at the end of its input it cancels what is under way and exits.

A game that makes no progress (no decision) for longer than its bots may take
(:func:`stall_limit`: its worker was stopped, or hangs) is cancelled by force
(its Ray worker killed) and comes back as an error.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import os
import queue
import signal
import sys
import threading
import time
from typing import IO, Any, Final

import orjson

from .executor import GameOutcome, GameTask

#: Seconds, beyond its time limits, a game may go without a decision.
STALL_MARGIN: Final = 5.0
#: ... and more before its first one (the Ray worker is started, the bots too).
START_MARGIN: Final = 60.0
#: Seconds the games under way have to stop after a cancel before they are killed.
STOP_TIMEOUT: Final = 10.0
#: Seconds this driver waits for a lost cluster to come back before it ends.
RECONNECT: Final = "20"
_TICK: Final = 0.5


def stall_limit(task: GameTask) -> float:
    """The longest a game may go between two decisions: the hello, the longest
    decision (move and bank) and the goodbye, with a margin."""
    longest = max((t.move + t.bank for t in task.time), default=0.0)
    return task.handshake + longest + task.grace + STALL_MARGIN


def _write(out: IO[bytes], message: dict[str, Any]) -> None:
    out.write(orjson.dumps(message) + b"\n")
    out.flush()


def _reader(source: IO[bytes], inbox: queue.Queue[dict[str, Any] | None]) -> None:
    for line in source:
        if line.strip():
            inbox.put(orjson.loads(line))
    inbox.put(None)


def _encoded(reply: dict[str, Any]) -> dict[str, Any]:
    """A worker's reply with its bytes (the record, the logs) in base64."""
    out = {"outcome": reply["outcome"]}
    if "record" in reply:
        out["record"] = base64.b64encode(reply["record"]).decode("ascii")
        out["logs"] = {k: base64.b64encode(v).decode("ascii") for k, v in reply["logs"].items()}
    return out


class Driver:
    """The games under way on Ray, and their progress."""

    def __init__(self, config: dict[str, Any], out: IO[bytes]) -> None:
        import ray

        from .ray_executor import play_remote

        self.ray = ray
        self.reference: str = config["reference"]
        self.cwd: str | None = config.get("cwd")
        self.out = out
        self.remote = ray.remote(num_cpus=1, max_retries=0)(play_remote)
        self.board: Any = ray.remote(num_cpus=0)(Board).remote()
        self.pending: dict[Any, GameTask] = {}
        self.stalled: dict[int, float] = {}
        self.waiting: list[GameTask] = []

    def submit(self, task: GameTask) -> None:
        self.board.start.remote(task.number, stall_limit(task), START_MARGIN)
        self.pending[self.remote.remote(self.reference, task.to_data(), self.cwd,
                                        self.board)] = task

    def step(self, jobs: int) -> None:
        """Start what there is room for, report what ended, stop what stalled."""
        while self.waiting and len(self.pending) < jobs:
            self.submit(self.waiting.pop(0))
        if not self.pending:
            time.sleep(_TICK)
            return
        ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=_TICK)
        if ready:  # and every other one that is done by now
            ready, _ = self.ray.wait(list(self.pending), num_returns=len(self.pending),
                                     timeout=0)
        for ref in ready:
            self.report(ref, self.pending.pop(ref))
        for number in self.ray.get(self.board.stale.remote()):
            for ref, task in self.pending.items():
                if task.number == number and number not in self.stalled:
                    self.stalled[number] = stall_limit(task)
                    with contextlib.suppress(Exception):
                        self.ray.cancel(ref, force=True)

    def report(self, ref: Any, task: GameTask) -> None:
        self.board.end.remote(task.number)
        ray = self.ray
        try:
            reply = ray.get(ref)
        except ray.exceptions.RayError as e:
            limit = self.stalled.pop(task.number, None)
            if limit is not None:
                error = (f"the game made no progress for {limit:.0f} s (its Ray worker was "
                         "stopped, or hung): it was killed")
                outcome = GameOutcome(task.number, error=error)
            else:
                # The game's own worker process died: its bots may have killed it (they
                # run as the same user); a node or object lost is Ray's doing.
                crashed = isinstance(e, ray.exceptions.WorkerCrashedError)
                error = f"the Ray task was lost during the game ({type(e).__name__}: {e})"
                outcome = GameOutcome(task.number, error=error, transient=not crashed)
            _write(self.out, {"type": "done", "number": task.number,
                              "outcome": outcome.to_data()})
            return
        _write(self.out, {"type": "done", "number": task.number, "reply": _encoded(reply)})

    def cancel(self) -> None:
        """Stop the games under way: KeyboardInterrupt in each task (the referee
        kills the bots and drops the record); those still running after
        :data:`STOP_TIMEOUT` are killed with their worker."""
        ray = self.ray
        refs = list(self.pending)
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
        for task in self.pending.values():
            self.board.end.remote(task.number)
        self.pending.clear()
        self.waiting.clear()
        self.stalled.clear()


class Board:
    """A Ray actor: when each game under way last made progress (by its clock)."""

    def __init__(self) -> None:
        self.limits: dict[int, float] = {}
        self.since: dict[int, float] = {}

    def start(self, number: int, limit: float, extra: float) -> None:
        self.limits[number] = limit
        # Until the game's first report (which may come before this call), more time.
        self.since.setdefault(number, time.monotonic() + extra)

    def beat(self, number: int) -> None:
        self.since[number] = time.monotonic()

    def end(self, number: int) -> None:
        self.limits.pop(number, None)
        self.since.pop(number, None)

    def stale(self) -> list[int]:
        now = time.monotonic()
        return [n for n, limit in self.limits.items() if now - self.since[n] > limit]


def _connect(config: dict[str, Any]) -> int:
    """Join Ray (or start it); the number of games to keep under way."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_gcs_rpc_server_reconnect_timeout_s", RECONNECT)
    import ray

    runtime_env = None
    if config.get("working_dir") is not None:
        runtime_env = {"working_dir": config["working_dir"]}
    ray.init(
        address=config.get("address"),
        num_cpus=config.get("jobs") if config.get("address") is None else None,
        runtime_env=runtime_env,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.WARNING,
        configure_logging=False,
    )
    if config.get("jobs") is not None:
        return int(config["jobs"])
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))


def serve(config: dict[str, Any], source: IO[bytes], out: IO[bytes]) -> None:
    try:
        jobs = _connect(config)
    except Exception as e:
        _write(out, {"type": "error", "error": f"{type(e).__name__}: {e}"})
        return
    _write(out, {"type": "ready", "jobs": jobs})
    driver = Driver(config, out)
    inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
    threading.Thread(target=_reader, args=(source, inbox), daemon=True).start()
    try:
        while True:
            with contextlib.suppress(queue.Empty):
                while True:
                    message = inbox.get_nowait()
                    if message is None:
                        return
                    if message["type"] == "task":
                        driver.waiting.append(GameTask.from_data(message["task"]))
                    elif message["type"] == "cancel":
                        driver.cancel()
                        _write(out, {"type": "cancelled"})
            driver.step(jobs)
    finally:
        driver.cancel()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the tournament stops it, in order
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to stderr
    try:
        serve(orjson.loads(args[0]), sys.stdin.buffer, out)
    except BrokenPipeError:  # the tournament is gone
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
