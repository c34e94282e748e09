"""A bot run as a subprocess, spoken to over pipes (POSIX).

Robustness rules, each for a way a bot can misbehave:

- The bot runs in its own session and process group, so a Ctrl-C on the terminal
  reaches only the referee, and :meth:`ProcessConnection.kill` can end the bot
  *and every child it started* with one ``killpg``.  The leader is not reaped
  before that ``killpg``, so its group id cannot have been reused.
- stdin and stdout are non-blocking.  Messages to a bot that does not read are
  queued, never waited for; lines from the bot are split by a
  :class:`~tajmahal.arena.connection.LineReader` that holds at most
  ``max_line`` bytes, so a bot cannot make the referee's memory grow.
- stderr is drained by one thread per bot into its log file, capped at
  ``max_log`` bytes (the rest is counted and dropped): a flood never blocks the bot
  (:class:`~tajmahal.arena.botlog.StderrLog`).
- Waiting uses one ``poll`` set per bot over stdout, stdin (for room while
  output is queued, and always for errors: a bot that closes its stdin is seen
  at once, even while the referee waits for its answer) and a pidfd (Linux), so
  a crash is seen at once even if a child of the bot still holds stdout open.  No
  sleeps, no thread per message; before each request one ``poll`` with no
  timeout checks for unasked output, a closed stdin or an exit.
- A bot that answered its last request within :data:`WATCH` seconds is watched
  that long (``poll`` with no timeout, yielding the CPU between calls) before the
  referee sleeps in ``poll``: a sleeping referee's CPU goes idle, and on a virtual
  machine waking it again costs more than the referee's own work for a decision
  (``docs/performance.md``).  Slow bots are never watched, and no bot is where
  watching would take a CPU from a bot: with one CPU to run on, or when asked not
  to (``watch=False``: tournaments, which play a game per CPU).  Faults are seen
  the same way while watching.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from . import cgroups, containment
from .botlog import CHUNK, StderrLog
from .connection import Connection, LineReader, Received
from .protocol import CLOSED, CRASH, OVERSIZED, PROTOCOL_FAULT, TIMEOUT, Outgoing, quote_bytes

#: Seconds a fast bot's answer is watched for before the referee sleeps (see above).
WATCH: Final = 150e-6
#: How long to wait, after a bot's stdout closed, to tell a crash from a closed stdout.
_EXIT_WAIT = 0.5


def _cpus() -> int:
    """How many CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _read_chunk(fd: int) -> bytes | None:
    """What the non-blocking pipe ``fd`` holds now, up to a chunk: None if nothing
    yet, ``b""`` at its end (or when it cannot be read any more)."""
    try:
        return os.read(fd, CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _search_path(env: dict[str, str] | None) -> str:
    """Where a program named without a directory is looked for."""
    return (env if env is not None else os.environ).get("PATH", os.defpath)


def describe_status(returncode: int) -> str:
    """``exit 3`` or ``signal SIGSEGV`` for a :attr:`subprocess.Popen.returncode`."""
    if returncode >= 0:
        return f"exit {returncode}"
    try:
        return f"signal {signal.Signals(-returncode).name}"
    except ValueError:
        return f"signal {-returncode}"


class ProcessConnection(Connection):
    """A bot started from ``argv``; its stderr goes to ``log_path`` (None: dropped)."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        label: str | None = None,
        log_path: Path | None = None,
        max_line: int = 1 << 20,
        max_log: int = 10 << 20,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        watch: bool = True,
        signal_exit: bool = False,
        program: str | None = None,
        pass_fds: Sequence[int] = (),
        group: cgroups.Group | None = None,
    ) -> None:
        self.argv = list(argv)
        #: Descriptors handed to the bot's command at its start (then closed here):
        #: the sandbox's seccomp filter, which ``bwrap`` reads.
        self.pass_fds = tuple(pass_fds)
        #: The bot's cgroup (its memory bound and CPU share): removed once it is gone.
        self.group = group
        #: The bot's own program when ``argv`` starts it through another (a launcher).
        self.program = program
        #: The bot runs under a program (the sandbox's) that reports its death by
        #: signal N as exit status 128 + N.
        self.signal_exit = signal_exit
        self.label = label or " ".join(self.argv)
        self.log_path = log_path
        self.max_line = max_line
        self.max_log = max_log
        self.cwd = cwd
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.stdin_fd = -1
        self.stdout_fd = -1
        self.reader = LineReader(max_line)
        self.out = bytearray()
        self.writing = False  # waiting for stdin to take more of self.out
        self.sent_at = time.perf_counter()
        self.eof = False
        self.input_closed = False
        self.killed_input = False  # True when the referee itself closed stdin
        self.exited = False
        self.pidfd: int | None = None
        self.poller: select.poll | None = None
        self.stderr: StderrLog | None = None
        self.fault: tuple[str, str] | None = None
        #: Whether to watch for the next answer before sleeping: the last came fast.
        self.watch = False
        #: Whether fast answers may be watched for (see the module's notes): asked
        #: for, and more than one CPU to run on (taken when started).
        self.may_watch = watch

    # -- life cycle

    def start(self) -> str | None:
        program = self.program
        if program is not None and shutil.which(program, path=_search_path(self.env)) is None:
            self._close_passed()
            self.exit_status = "not started"
            return f"could not start {program!r}: no such program, or not executable"
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
                close_fds=True,
                pass_fds=self.pass_fds,
                cwd=self.cwd,
                env=self.env,
            )
        except OSError as e:
            self.exit_status = "not started"
            return f"could not start {self.argv[0]!r}: {e.strerror or e}"
        finally:
            self._close_passed()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        assert self.proc.stderr is not None
        containment.started(self.proc.pid)
        self.may_watch = self.may_watch and _cpus() > 1
        self.sent_at = time.perf_counter()
        self.stderr = StderrLog(self.proc.stderr, self.log_path, self.max_log)
        self.stdin_fd, self.stdout_fd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.stdin_fd, False)
        os.set_blocking(self.stdout_fd, False)
        self.poller = select.poll()
        self.poller.register(self.stdout_fd, select.POLLIN)
        # No events asked for stdin until output is queued: poll still reports an
        # error on it as soon as the bot closes its end.
        self.poller.register(self.stdin_fd, 0)
        if hasattr(os, "pidfd_open"):
            try:
                self.pidfd = os.pidfd_open(self.proc.pid)
            except OSError:
                self.pidfd = None
            else:
                self.poller.register(self.pidfd, select.POLLIN)
        return None

    def _close_passed(self) -> None:
        """Close the descriptors handed to the bot (it has its own copies)."""
        for fd in self.pass_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.pass_fds = ()

    def _has_exited(self) -> bool:
        """Whether the leader exited, without reaping it (so its group id stays ours)."""
        if self.exited or self.proc is None:
            return True
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            info = None
            self.exited = True
        if info is not None:
            self.exited = True
        return self.exited

    def _poll(self, timeout: float, discard: bool = False) -> None:
        """Wait at most ``timeout`` seconds for the bot's pipes or its exit, and take
        what is ready: its output (read, or dropped unread when ``discard``), room for
        queued input, a closed stdin, its exit."""
        assert self.poller is not None
        for fd, events in self.poller.poll(timeout * 1000.0):
            if fd == self.stdout_fd:
                if discard:
                    self._discard_output()
                else:
                    self._read()
            elif fd == self.stdin_fd:
                if events & select.POLLOUT:
                    self._flush()
                if events & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                    self._drop_input()  # the bot closed its stdin, or died
            elif fd == self.pidfd:
                self.poller.unregister(fd)
                self.exited = True
                if not discard:
                    self._after_exit()

    def _after_exit(self) -> None:
        """The process exited: what it wrote is all there is (a child of it may
        still hold stdout open, so do not wait for the end of the pipe)."""
        self._read()
        if not self.reader.lines and self.fault is None:
            self.eof = True

    # -- output to the bot

    def send(self, message: Outgoing, request: bool = False, hold: bool = False) -> None:
        if self.input_closed or self.proc is None:
            return
        if hold:
            self.out += message.line  # goes out with the next message that is not held
            return
        if request:
            self.sent_at = time.perf_counter()
        if self.out:
            self.out += message.line
            self._flush()
            return
        line = message.line
        try:
            written = os.write(self.stdin_fd, line)  # one write for the whole message
        except BlockingIOError:
            written = 0
        except OSError:  # EPIPE: the bot closed its stdin or died; seen when we read
            self._drop_input()
            return
        if written < len(line):
            self.out += line[written:]
            self._want_write(True)

    def _flush(self) -> None:
        if not self.out or self.input_closed or self.proc is None:
            return
        try:
            written = os.write(self.stdin_fd, self.out)
        except BlockingIOError:
            self._want_write(True)
            return
        except OSError:
            self._drop_input()
            return
        del self.out[:written]
        self._want_write(bool(self.out))

    def _want_write(self, on: bool) -> None:
        if on != self.writing and not self.input_closed and self.poller is not None:
            self.poller.modify(self.stdin_fd, select.POLLOUT if on else 0)
            self.writing = on

    def _drop_input(self) -> None:
        if self.input_closed:
            return
        self.out.clear()
        self.input_closed = True
        if self.poller is not None:
            with contextlib.suppress(KeyError):
                self.poller.unregister(self.stdin_fd)
        if self.proc is not None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    # -- input from the bot

    def _read(self) -> None:
        """Read what stdout has now (non-blocking)."""
        while not self.eof and self.fault is None:
            data = _read_chunk(self.stdout_fd)
            if data is None:
                return
            if not data:
                self._end_of_output()
                return
            problem = self.reader.feed(data)
            if problem is not None:
                self.fault = (OVERSIZED, problem)
                return
            if self.reader.lines:
                return

    def _end_of_output(self) -> None:
        self.eof = True
        if self.poller is not None:
            with contextlib.suppress(KeyError):
                self.poller.unregister(self.stdout_fd)

    def receive(self, timeout: float) -> Received:
        if self.proc is None:
            return Received(0.0, fault=(CRASH, "was never started"))
        deadline = self.sent_at + timeout
        while True:
            if self.fault is not None:
                return Received(time.perf_counter() - self.sent_at, fault=self.fault)
            line = self.reader.pop()
            if line is not None:
                elapsed = time.perf_counter() - self.sent_at
                self.watch = elapsed < WATCH and self.may_watch
                return Received(elapsed, line=line)
            if self.eof:
                self.fault = self._eof_fault()
                continue
            if self.input_closed and not self.killed_input:
                # Our writes failed (EPIPE) or poll saw it: it exited, or closed its stdin.
                self._read()
                if not self.reader.lines and self.fault is None:
                    self.fault = self._eof_fault("closed its stdin but is still running")
                continue
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                self.fault = self._timeout_fault(timeout)
                continue
            if self.pidfd is None and not self.exited:
                remaining = min(remaining, 0.05)  # no pidfd: look at the process now and then
            if self.watch and self._watch(min(remaining, WATCH)):
                continue
            self._poll(remaining)
            if self.pidfd is None and not self.exited and self._has_exited():
                self._after_exit()

    def _watch(self, seconds: float) -> bool:
        """Poll without sleeping for at most ``seconds``, yielding the CPU between
        polls; True as soon as anything happened (a line, a fault, an end)."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            os.sched_yield()
            self._poll(0.0)
            if self.reader.lines or self.fault or self.eof or self.exited or self.input_closed:
                return True
        self.watch = False  # not fast this time: sleep from now on until it is again
        return False

    def _timeout_fault(self, timeout: float) -> tuple[str, str]:
        """No answer in time: a plain timeout, or a bot that another process stopped."""
        assert self.proc is not None
        stopped = containment.stop_signal(self.proc.pid)
        if stopped is None:
            return (TIMEOUT, f"no answer within {timeout:.3f} s")
        self.signal = stopped
        return (
            TIMEOUT,
            f"stopped by {stopped}, a signal the referee did not send (another process "
            f"stopped it): no answer within {timeout:.3f} s",
        )

    def _eof_fault(self, closed: str = "closed its stdout but is still running") -> tuple[str, str]:
        """stdout (or stdin) is closed: did the process exit (crash) or just close it?"""
        deadline = time.monotonic() + _EXIT_WAIT
        while not self._has_exited() and time.monotonic() < deadline:
            if self.pidfd is not None:
                ready = select.poll()
                ready.register(self.pidfd, select.POLLIN)
                ready.poll(max(0.0, deadline - time.monotonic()) * 1000.0)
            else:
                time.sleep(0.01)
        if not self._has_exited():
            return (CLOSED, closed)
        assert self.proc is not None
        status = self._peek_status()
        name = status.removeprefix("signal ") if status.startswith("signal ") else ""
        if name == "SIGKILL" and self.group is not None and self.group.oom_killed():
            return (CRASH, "killed by the out-of-memory killer: it went over its memory "
                    "bound (--memory, for all its processes)")
        if name and name not in containment.SELF_INFLICTED:
            self.signal = name
            return (
                CRASH,
                f"killed by {name}, a signal it did not raise and the referee did not send "
                "(another process, or the system's out-of-memory killer)",
            )
        return (CRASH, f"exited ({status})" if status else "exited")

    def _peek_status(self) -> str:
        """The exit status of the (unreaped) leader."""
        assert self.proc is not None
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return ""
        if info is None:
            return ""
        if info.si_code == os.CLD_EXITED:
            return self._unwrap(f"exit {info.si_status}")
        return f"signal {containment.signal_name(info.si_status)}"

    def _unwrap(self, status: str) -> str:
        """``signal SIGSEGV`` for ``exit 139`` when the bot runs under a program
        that reports a death by signal so (see :attr:`signal_exit`)."""
        if self.signal_exit and status.startswith("exit "):
            code = int(status.removeprefix("exit "))
            if 128 < code < 128 + 65:
                return f"signal {containment.signal_name(code - 128)}"
        return status

    def unexpected(self) -> tuple[str, str] | None:
        if self.proc is None:
            return (CRASH, "was never started")
        if self.fault is None and not self.eof:
            self._poll(0.0)  # one system call: anything written, closed or exited?
        if self.fault is not None:
            return self.fault
        if self.reader.pending:
            line = self.reader.pop() or bytes(self.reader.buffer)
            return (PROTOCOL_FAULT, f"wrote without being asked: {quote_bytes(line)}")
        if self.eof or self.exited or (self.pidfd is None and self._has_exited()):
            return self._eof_fault()
        return None

    # -- the end

    def close_input(self, deadline: float) -> None:
        if self.proc is None or self.input_closed:
            return
        self._flush()  # held messages too
        while self.out and not self.input_closed and not self.exited:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            self._poll(remaining, discard=True)
        self.killed_input = True
        self._drop_input()

    def _discard_output(self) -> None:
        """After the game, a bot's output is no longer read: drop it unread."""
        if _read_chunk(self.stdout_fd) == b"":
            self._end_of_output()

    def wait_exit(self, deadline: float) -> bool:
        if self.proc is None:
            return True
        while not self._has_exited():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if self.pidfd is None:
                remaining = min(remaining, 0.02)
            self._poll(remaining, discard=True)
        return True

    def log_tail(self) -> str:
        return self.stderr.last_line() if self.stderr is not None else ""

    def kill(self) -> None:
        self._close_passed()  # never started
        proc = self.proc
        if proc is None and self.group is not None:  # never started either
            self.group.remove()
            self.group = None
        if proc is None or proc.returncode is not None:
            return
        exited = self._has_exited()
        # Its whole tree, stopped then killed, whatever group or session a child
        # moved to; then its group (where /proc cannot be read).
        containment.kill_tree(proc.pid, include_root=True)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):  # a process stuck in the kernel
            proc.wait(timeout=5)
        if proc.returncode is not None:
            containment.ended(proc.pid)
            status = self._unwrap(describe_status(proc.returncode))
            self.exit_status = status if exited else "killed"
        self.input_closed = True
        self.poller = None  # before the pipes close: their numbers may be reused
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if self.pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self.pidfd)
            self.pidfd = None
        if self.stderr is not None:
            self.stderr.stop(1.0)
        if self.group is not None and proc.returncode is not None:
            self.group.remove()
            self.group = None
