"""The referee: plays one game between bots and survives anything they do.

:func:`run_match` starts the bots from :class:`BotSpec` values (a command line or
a built-in's name); :func:`play_match` plays over given connections (used by
tests with scripted fakes).  Both return a :class:`MatchResult` and never raise
because of a bot: a bot that faults is marked with the kind of fault, stopped,
and from then on its seat is played by the game's fallback policy, so the game
finishes and the other results stand.
"""

from __future__ import annotations

import contextlib
import datetime
import difflib
import hashlib
import os
import secrets
import shlex
import shutil
import sys
import time
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final

import orjson
from attrs import evolve, field, frozen

from ..kit.jsontext import ArrayTexts
from . import containment, protocol, sandbox
from .connection import Connection, InProcessConnection
from .game import AnyGame, illegal_reason
from .process import ProcessConnection
from .protocol import ACT, END, HELLO, ILLEGAL, TIMEOUT, BadReply, Outgoing
from .record import DEALT, FORMAT, FORMAT_VERSION, GIVEN, RecordWriter, dealt_data
from .signals import uninterruptible
from .text import printable, quote

DEFAULT_MOVE: Final = 1.0
DEFAULT_BANK: Final = 10.0
DEFAULT_HANDSHAKE: Final = 10.0
DEFAULT_GRACE: Final = 2.0
DEFAULT_MAX_LINE: Final = 1 << 20
DEFAULT_MAX_LOG: Final = 10 << 20
#: How long a faulted bot has to read the error message before it is killed.
_TELL_TIME: Final = 0.2


@frozen
class TimeControl:
    """Seconds per decision (``move``) and a ``bank`` that pays for overruns: a bot
    times out only when a decision takes longer than ``move`` plus what is left of
    its bank; each overrun is taken from the bank."""

    move: float = DEFAULT_MOVE
    bank: float = DEFAULT_BANK

    def to_data(self) -> dict[str, float]:
        return {"move": self.move, "bank": self.bank}


@frozen
class BotSpec:
    """A bot to start: a built-in player's ``name``, or a command line ``argv``."""

    text: str
    argv: tuple[str, ...] = ()
    builtin: str | None = None

    @classmethod
    def parse(cls, text: str, builtins: Sequence[str]) -> BotSpec:
        """A built-in name as is; otherwise a command line (split like a shell does).
        A command whose program ends in ``.py`` runs with this Python, ``.js`` with
        ``node``."""
        if text in builtins:
            return cls(text=text, builtin=text)
        argv = shlex.split(text)
        if not argv:
            raise ValueError("an empty bot command")
        if argv[0].endswith(".py"):
            argv = [sys.executable, *argv]
        elif argv[0].endswith((".js", ".mjs")):
            argv = ["node", *argv]
        return cls(text=text, argv=tuple(argv))

    @property
    def script(self) -> str | None:
        """The script a ``.py`` or ``.js`` bot runs (None for other commands)."""
        if self.builtin is None and len(self.argv) > 1 and self.argv[0] in (sys.executable, "node"):
            return self.argv[1]
        return None

    def problem(self, builtins: Sequence[str], cwd: Path | None = None) -> str | None:
        """Why this bot cannot start, as far as can be told without starting it (a
        misspelt built-in, a missing script or program), with a "did you mean"; None
        if it looks startable."""
        if self.builtin is not None:
            return None
        base = cwd or Path.cwd()
        script = self.script
        if script is not None:
            path = base / script
            if path.is_file():
                return None
            where = "" if self.text == script else f" (bot {self.text!r})"
            return f"no such file {script!r}{where}{_did_you_mean(script, builtins, base)}"
        program = self.argv[0]
        if "/" in program:
            path = base / program
            if path.is_file() and os.access(path, os.X_OK):
                return None
            why = "is not executable" if path.is_file() else "does not exist"
            where = "" if self.text == program else f" (bot {self.text!r})"
            return f"{program!r} {why}{where}{_did_you_mean(program, builtins, base)}"
        if shutil.which(program) is not None:
            return None
        if (base / program).is_file():  # a file here, named without a path
            runnable = os.access(base / program, os.X_OK)
            how = f"run it as ./{program}" if runnable else "it is not executable either"
            return (
                f"{self.text!r} is a file here but not a bot: a bot is a built-in one "
                f"({', '.join(builtins)}), a .py or .js script, or a program on the PATH "
                f"or given by its path ({how})"
            )
        return (
            f"{self.text!r} is neither a built-in bot ({', '.join(builtins)}) nor a program "
            f"on the PATH{_did_you_mean(program, builtins, base)}"
        )


def _did_you_mean(text: str, builtins: Sequence[str], cwd: Path) -> str:
    """``; did you mean 'greedy'?`` for a near built-in name or a near file."""
    candidates = list(builtins)
    folder = (cwd / text).parent
    with contextlib.suppress(OSError):
        prefix = "" if "/" not in text else text.rsplit("/", 1)[0] + "/"
        candidates += [prefix + p.name for p in sorted(folder.iterdir())[:1000]]
    candidates = [c for c in candidates if c != text]
    close = difflib.get_close_matches(text, candidates, n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close else ""


@frozen
class Fault:
    """A seat's fault: its ``kind`` (:data:`~tajmahal.arena.protocol.FAULT_KINDS`),
    the ``phase`` (hello, act, end), the ``decision`` number (0 before the first),
    seconds since the match started, and a ``detail`` for people.  ``stderr`` is
    the last line the bot wrote to its log: in results and records, but not in the
    end message to the other bots.  ``signal``: a signal the bot did not raise and
    the referee did not send that stopped or killed it (``SIGSTOP``, ``SIGKILL``):
    another process did that to it."""

    seat: int
    kind: str
    phase: str
    decision: int
    at: float
    detail: str
    stderr: str = ""
    signal: str = ""

    def to_data(self, public: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "kind": self.kind,
            "phase": self.phase,
            "decision": self.decision,
            "at": round(self.at, 3),
            "detail": self.detail,
        }
        if self.signal:
            data["signal"] = self.signal
        if self.stderr and not public:
            data["stderr"] = self.stderr
        return data


@frozen
class SeatResult:
    seat: int
    name: str
    version: str
    bot: str
    score: int
    breakdown: dict[str, int]
    rank: int
    decisions: int
    time_used: float
    time_max: float
    fallback_decisions: int
    fault: Fault | None
    exit: str | None

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "version": self.version,
            "bot": self.bot,
            "score": self.score,
            "breakdown": self.breakdown,
            "rank": self.rank,
            "decisions": self.decisions,
            "fallback_decisions": self.fallback_decisions,
            "time_used": round(self.time_used, 4),
            "time_max": round(self.time_max, 4),
            "fault": self.fault.to_data() if self.fault else None,
            "exit": self.exit,
        }


@frozen
class MatchResult:
    game: str
    seed: int
    variant: str
    seats: tuple[SeatResult, ...]
    decisions: int
    duration: float
    record: str | None = None
    logs: tuple[str, ...] = ()

    @property
    def scores(self) -> list[int]:
        return [s.score for s in self.seats]

    @property
    def ranks(self) -> list[int]:
        return [s.rank for s in self.seats]

    @property
    def faults(self) -> list[Fault]:
        return [s.fault for s in self.seats if s.fault is not None]

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "variant": self.variant,
            "decisions": self.decisions,
            "duration": round(self.duration, 4),
            "scores": self.scores,
            "ranks": self.ranks,
            "faults": [f.to_data() for f in self.faults],
            "seats": [s.to_data() for s in self.seats],
            "record": self.record,
            "logs": list(self.logs),
        }


Trace = Callable[[int, str, bytes], None]
StepHook = Callable[[int, int, Any, Any, Sequence[Any], str], None]
FaultHook = Callable[[Fault], None]


@frozen
class MatchConfig:
    """How a match is run.  ``time`` gives one :class:`TimeControl` per seat (or
    one for all).  ``record``: the JSON Lines record to write; ``log_dir``: where
    bot stderr logs go (default: beside the record, else they are dropped).
    ``batch_events`` (the default): hand a bot its events together with its next
    request (or the end), in one write, instead of at once: the bot reads the same
    lines in the same order, but is woken once per own decision, not once per
    decision of any seat (much faster on few cores; a bot that thinks while others
    decide learns their moves at its next turn, with the full view anyway).
    ``watch`` (the default): watch a bot that answers within 150 µs for its next
    answer before sleeping, when there is more than one CPU (see
    :mod:`~tajmahal.arena.process`); tournaments turn it off, as their games
    keep every CPU busy.
    ``trace(seat, "to"|"from", line)`` sees every protocol line; ``on_step(decision,
    seat, state_before, action, events, by)`` and ``on_fault(fault)`` are for
    progress output.  ``sandbox`` and ``memory`` (MB) confine the bot processes
    (see :mod:`~tajmahal.arena.sandbox`)."""

    time: TimeControl | tuple[TimeControl, ...] = TimeControl()
    handshake: float = DEFAULT_HANDSHAKE
    grace: float = DEFAULT_GRACE
    max_line: int = DEFAULT_MAX_LINE
    max_log: int = DEFAULT_MAX_LOG
    record: Path | None = None
    log_dir: Path | None = None
    trace: Trace | None = field(default=None, eq=False)
    on_step: StepHook | None = field(default=None, eq=False)
    on_fault: FaultHook | None = field(default=None, eq=False)
    batch_events: bool = True
    watch: bool = True
    sandbox: bool = False
    memory: int | None = None

    def seat_time(self, seat: int) -> TimeControl:
        if isinstance(self.time, TimeControl):
            return self.time
        return self.time[seat]


def log_paths(config: MatchConfig, players: int) -> list[Path | None]:
    """Where each seat's stderr log goes: ``NAME.seatN.log`` beside the record."""
    if config.log_dir is not None:
        stem = record_stem(config.record) if config.record else "match"
        return [config.log_dir / f"{stem}.seat{s}.log" for s in range(players)]
    if config.record is not None:
        stem = record_stem(config.record)
        return [config.record.parent / f"{stem}.seat{s}.log" for s in range(players)]
    return [None] * players


def record_stem(record: Path) -> str:
    """A record's name without ``.jsonl`` (or ``.json``): ``game.v1`` for
    ``game.v1.jsonl``, so that records ``game.v1`` and ``game.v2`` keep apart logs."""
    name = record.name
    for suffix in (".jsonl", ".json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name or "record"


def connect(
    game: AnyGame, specs: Sequence[BotSpec], config: MatchConfig, seed: int
) -> list[Connection]:
    """A connection per spec (nothing is started yet)."""
    logs = log_paths(config, len(specs))
    for path in logs:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    builtins = game.builtin_players()
    out: list[Connection] = []
    for seat, spec in enumerate(specs):
        if spec.builtin is not None:
            player = builtins[spec.builtin](seat_seed(seed, seat))
            out.append(InProcessConnection(player, spec.text, logs[seat]))
        else:
            argv, env, home = list(spec.argv), None, None
            if config.sandbox:
                home = sandbox.private_dir()
                env = sandbox.environment(home)
            if config.sandbox or config.memory is not None:
                argv = sandbox.command(spec.argv, config.sandbox, config.memory, home)
            out.append(
                ProcessConnection(
                    argv,
                    label=spec.text,
                    log_path=logs[seat],
                    max_line=config.max_line,
                    max_log=config.max_log,
                    env=env,
                    private_dir=home,
                    watch=config.watch,
                )
            )
    return out


def _unreadable(error: Exception) -> str:
    """The detail of a fault for a line the referee could not read (an exception
    while decoding, checking or describing it)."""
    return f"the referee could not read the answer ({type(error).__name__})"


def _trace_line(message: Any) -> bytes:
    """An in-process bot's message as a trace line (bounded, never raising)."""
    try:
        return orjson.dumps(message)
    except Exception:
        return orjson.dumps({"unencodable": quote(message, 200)})


def seat_seed(seed: int, seat: int) -> int:
    """The seed handed to the bot of ``seat`` (for its own randomness).

    A one-way hash of the match seed: the match seed deals the cards, so a bot
    that could work it back from its own seed could read the deck."""
    digest = hashlib.sha256(f"tajmahal seat seed {seed} {seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def run_match(
    game: AnyGame,
    setup: Any,
    specs: Sequence[BotSpec],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
) -> MatchResult:
    """Play one game of ``setup`` between the bots of ``specs`` (one per seat)."""
    connections = connect(game, specs, config, seed)
    result = play_match(game, setup, connections, config, seed=seed)
    logs = tuple(str(p) for p in log_paths(config, len(specs)) if p is not None)
    return evolve(result, logs=logs)


def preflight(
    game: AnyGame, specs: Sequence[BotSpec], config: MatchConfig = MatchConfig()
) -> list[Fault]:
    """Start every bot of ``specs`` as the seats of a throwaway game (a setup from a
    fresh seed, not one that will be played; several games for more bots than
    seats, a built-in bot filling a game short of players), exchange the hello, and
    stop them: the faults of the bots that did not start or answer, ``seat`` being
    the index in ``specs`` (none: all is well).  Only the handshake limits of
    ``config`` apply; nothing is recorded."""
    config = evolve(config, record=None, log_dir=None, trace=None, on_step=None, on_fault=None)
    filler = BotSpec.parse(min(game.builtin_players()), list(game.builtin_players()))
    faults: list[Fault] = []
    for start in range(0, len(specs), game.max_players):  # as many games as it takes
        batch = list(specs[start : start + game.max_players])
        batch += [filler] * (game.min_players - len(batch))
        seed = secrets.randbits(63)
        setup = game.random_setup(len(batch), seed)
        match = _Match(game, setup, connect(game, batch, config, seed), config, seed)
        with containment.guarded():
            try:
                match.handshake()
            finally:
                with uninterruptible():
                    for seat in match.seats:
                        with contextlib.suppress(Exception):
                            seat.conn.kill()
        faults += [evolve(s.fault, seat=start + s.seat) for s in match.seats if s.fault]
    return faults


#: How many actions' JSON texts a game's :class:`~tajmahal.kit.jsontext.ArrayTexts` keeps.
_ACTION_TEXTS_LIMIT: Final = 100_000


_ACTION_TEXTS: weakref.WeakKeyDictionary[Any, ArrayTexts] = weakref.WeakKeyDictionary()


def _action_texts(game: AnyGame) -> ArrayTexts:
    """The JSON texts of ``game``'s actions, kept for all its matches (a new cache
    per match for a game object that cannot be a weak key)."""
    try:
        texts = _ACTION_TEXTS.get(game)
        if texts is None:
            texts = _ACTION_TEXTS[game] = ArrayTexts(_ACTION_TEXTS_LIMIT)
    except TypeError:
        return ArrayTexts(_ACTION_TEXTS_LIMIT)
    return texts


class _Seat:
    """The referee's bookkeeping for one seat."""

    def __init__(self, seat: int, conn: Connection, time: TimeControl) -> None:
        self.seat = seat
        self.conn = conn
        self.time = time
        self.bank = time.bank
        self.name = conn.label
        self.version = ""
        self.live = True
        self.fault: Fault | None = None
        self.decisions = 0
        self.fallbacks = 0
        self.used = 0.0
        self.max = 0.0
        #: The decision the bot was last asked about (0: the hello).
        self.asked = 0


def play_match(
    game: AnyGame,
    setup: Any,
    connections: Sequence[Connection],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
) -> MatchResult:
    """Play one game over ``connections`` (one per seat); see :func:`run_match`."""
    return _Match(game, setup, connections, config, seed).run()


class _Match:
    def __init__(
        self,
        game: AnyGame,
        setup: Any,
        connections: Sequence[Connection],
        config: MatchConfig,
        seed: int,
    ) -> None:
        players = game.players(setup)
        if len(connections) != players:
            raise ValueError(f"{len(connections)} bots for a {players}-player game")
        self.game = game
        self.setup = setup
        self.config = config
        self.seed = seed
        self.seats = [_Seat(s, c, config.seat_time(s)) for s, c in enumerate(connections)]
        #: The seats sent events: the bots that read them (every pipe; not an
        #: in-process player that ignores them, so nothing is encoded for it),
        #: every seat when the trace shows every message.
        self.audience = [s for s in self.seats if config.trace or s.conn.reads_events]
        self.trace = config.trace
        self.start = time.perf_counter()
        self.decision = 0
        self.writer: RecordWriter | None = None
        self.header_written = False
        self.action_texts = _action_texts(game)
        #: The last step, until :meth:`log_step` records it.
        self.last_step: tuple[Any, ...] | None = None

    def run(self) -> MatchResult:
        with containment.guarded():  # whatever the bots start stays in reach
            return self._run()

    def _run(self) -> MatchResult:
        committed = False
        try:
            if self.config.record is not None:
                self.writer = RecordWriter(self.config.record)
            self.handshake()
            self.write_header()
            state = self.play()
            result = self.finish(state)
            if self.writer is not None:
                self.writer.commit()
                committed = True
            return result
        finally:
            with uninterruptible():  # a second Ctrl-C must not leave bots behind
                for seat in self.seats:
                    with contextlib.suppress(Exception):
                        seat.conn.kill()
                if self.writer is not None and not committed:
                    self.writer.discard()

    # -- messages

    def send(
        self, seat: _Seat, message: Outgoing, request: bool = False, hold: bool = False
    ) -> None:
        if self.trace is not None:
            self.trace(seat.seat, "to", message.line)
        seat.conn.send(message, request, hold)

    def receive(self, seat: _Seat, timeout: float) -> tuple[protocol.Message, float, bytes | None]:
        """The next message from ``seat``, the seconds it took and the raw line (if
        it came as one); raises :class:`BadReply` on any fault."""
        got = seat.conn.receive(timeout)
        if got.fault is not None:
            raise BadReply(*got.fault)
        if got.line is not None:
            if self.trace is not None:
                self.trace(seat.seat, "from", got.line)
            return protocol.decode_line(got.line), got.elapsed, got.line
        message = got.message
        if not isinstance(message, dict):  # an in-process bot's answer, not a message
            raise BadReply(protocol.PROTOCOL_FAULT, f"answered {quote(message)}, not a message")
        if self.trace is not None:
            self.trace(seat.seat, "from", _trace_line(message))
        return message, got.elapsed, None

    def fault(
        self, seat: _Seat, kind: str, phase: str, detail: str, decision: int | None = None
    ) -> None:
        """Mark ``seat`` as faulted, tell it why, stop it.  ``decision``: the one the
        fault belongs to (default: the decision under way)."""
        at = time.perf_counter() - self.start
        self.log_step()  # the last step's record line comes first
        seat.live = False
        with contextlib.suppress(Exception):
            self.send(seat, Outgoing.of(protocol.error(kind, detail)))
            deadline = time.monotonic() + _TELL_TIME
            seat.conn.close_input(deadline)
            seat.conn.wait_exit(deadline)  # a moment to read why, then it is stopped
        seat.conn.kill()
        fault = Fault(
            seat=seat.seat,
            kind=kind,
            phase=phase,
            decision=self.decision if decision is None else decision,
            at=at,
            detail=printable(detail, limit=2000),
            stderr=printable(seat.conn.log_tail(), limit=200),
            signal=seat.conn.signal or "",
        )
        seat.fault = fault
        if self.writer is not None and self.header_written:
            self.writer.write({"type": "fault", **fault.to_data()})
        if self.config.on_fault is not None:
            self.config.on_fault(fault)

    # -- phases

    def handshake(self) -> None:
        game, setup = self.game, self.setup
        players = game.players(setup)
        public = game.public_setup(setup)
        for seat in self.seats:
            problem = seat.conn.start()
            if problem is not None:
                self.fault(seat, protocol.CRASH, HELLO, problem)
        for seat in self.seats:
            if not seat.live:
                continue
            time_data = {"handshake": self.config.handshake, **seat.time.to_data()}
            message = protocol.hello(
                game=game.name,
                seat=seat.seat,
                players=players,
                variant=game.variant(setup),
                time=time_data,
                seed=seat_seed(self.seed, seat.seat),
                setup=public,
            )
            self.send(seat, Outgoing.of(message), request=True)
        for seat in self.seats:  # each has the handshake time from its own hello
            if not seat.live:
                continue
            try:
                reply, _, _ = self.receive(seat, self.config.handshake)
                info = protocol.check_hello_reply(reply)
            except BadReply as e:
                self.fault(seat, e.kind, HELLO, e.detail)
                continue
            except Exception as e:  # whatever the line held, it is the bot's fault
                self.fault(seat, protocol.PROTOCOL_FAULT, HELLO, _unreadable(e))
                continue
            seat.name, seat.version = info.name, info.version

    def write_header(self) -> None:
        if self.writer is None:
            return
        from .. import __version__

        self.writer.write(
            {
                "type": "header",
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "game": self.game.name,
                "referee": f"tajmahal {__version__}",
                "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "seed": self.seed,
                "deal": DEALT if self.dealt_from_seed() else GIVEN,
                "variant": self.game.variant(self.setup),
                "players": [
                    {"seat": s.seat, "name": s.name, "version": s.version, "bot": s.conn.label}
                    for s in self.seats
                ],
                "time": [s.time.to_data() for s in self.seats],
                "handshake": self.config.handshake,
                "setup": self.game.setup_to_data(self.setup),
            }
        )
        self.header_written = True
        for seat in self.seats:  # faults at the handshake come right after the header
            if seat.fault is not None:
                self.writer.write({"type": "fault", **seat.fault.to_data()})

    def dealt_from_seed(self) -> bool:
        """Whether the setup is the one the match seed deals (then a replay can
        check the record's setup against its seed)."""
        game = self.game
        players, variant = game.players(self.setup), game.variant(self.setup)
        with contextlib.suppress(ValueError):
            if game.random_setup(players, self.seed, variant) == self.setup:
                return True  # (setups that compare by value: no need to encode them)
        dealt = dealt_data(game, players, self.seed, variant)
        return dealt is not None and dealt == orjson.loads(
            orjson.dumps(game.setup_to_data(self.setup))
        )

    def play(self) -> Any:
        game = self.game
        state = game.new_game(self.setup)
        while (seat_no := game.to_act(state)) is not None:
            self.decision += 1
            seat = self.seats[seat_no]
            legal = game.legal_actions(state)
            index: int | None = None
            elapsed = 0.0
            if seat.live:
                index, elapsed = self.ask(seat, state, legal)
            by = "bot"
            if index is None:
                index = game.fallback(state, legal)
                by = "fallback"
                seat.fallbacks += 1
            seat.decisions += 1
            action = legal[index]
            self.log_step()  # if the bot was not asked (else done while it thought)
            before = state
            state, events = game.step(state, action)
            if self.writer is not None:
                self.last_step = (self.decision, seat_no, action, by, index, elapsed, state)
            if self.config.on_step is not None:
                self.config.on_step(self.decision, seat_no, before, action, events, by)
            self.broadcast(events)
        self.log_step()
        return state

    def log_step(self) -> None:
        """The record line of the last step: written once the next bot has its
        request, while it thinks (and before any fault line, so in game order).
        The progress hook is not deferred: it is the caller's code, and time spent
        after a request counts against the bot."""
        if self.last_step is None:
            return
        decision, seat, action, by, index, elapsed, after = self.last_step
        self.last_step = None
        assert self.writer is not None
        game = self.game
        self.writer.write(
            {
                "type": "action",
                "decision": decision,
                "seat": seat,
                "action": game.action_to_data(action),
                "choice": index,
                "by": by,
                "time": round(elapsed, 6),
                "scores": game.scores(after),
            }
        )

    def ask(self, seat: _Seat, state: Any, legal: Sequence[Any]) -> tuple[int | None, float]:
        """The index the bot of ``seat`` chooses, or None after a fault."""
        game = self.game
        problem = seat.conn.unexpected()
        if problem is not None:
            kind, detail = problem
            if kind == protocol.PROTOCOL_FAULT:  # a line after its answer: a second answer
                self.second_answer(seat, detail)
            else:
                self.fault(seat, kind, ACT, detail)
            return None, 0.0
        limit = seat.time.move + seat.bank
        if seat.conn.reads_view:
            message: Outgoing = protocol.act_outgoing(
                self.decision,
                game.view_json(state, seat.seat),
                self.legal_json(legal),
                seat.time.move,
                seat.bank,
            )
        else:  # the view is encoded only if the trace shows the line
            message = protocol.ActOutgoing(
                self.decision,
                partial(game.view_json, state, seat.seat),
                self.legal_json(legal),
                seat.time.move,
                seat.bank,
            )
        self.send(seat, message, request=True)
        seat.asked = self.decision
        self.log_step()
        try:
            reply, elapsed, line = self.receive(seat, limit)
            if elapsed > limit:  # a line that arrived complete but late
                raise BadReply(TIMEOUT, f"answered after {elapsed:.3f} s, allowed {limit:.3f} s")
            choice = protocol.read_action_reply(reply, len(legal), line)
            if not isinstance(choice, int):
                choice = self.match_action(choice, state, legal)
        except Exception as error:  # whatever the line held, it is the bot's fault
            e = (
                error
                if isinstance(error, BadReply)
                else BadReply(protocol.PROTOCOL_FAULT, _unreadable(error))
            )
            detail = e.detail
            if e.kind == TIMEOUT:
                detail = (
                    f"{detail} ({seat.time.move:g} s per decision + {seat.bank:.3f} s left "
                    "in the bank)"
                )
            self.fault(seat, e.kind, ACT, detail)
            return None, 0.0
        seat.used += elapsed
        seat.max = max(seat.max, elapsed)
        seat.bank -= max(0.0, elapsed - seat.time.move)
        return choice, elapsed

    def second_answer(self, seat: _Seat, detail: str) -> None:
        """Fault ``seat`` for a line written after its answer, against the decision
        (or the hello) that answer was for."""
        phase = ACT if seat.asked else HELLO
        what = f"decision {seat.asked}" if seat.asked else "the hello"
        self.fault(
            seat, protocol.PROTOCOL_FAULT, phase, f"after its answer to {what}: {detail}",
            seat.asked,
        )

    def legal_json(self, legal: Sequence[Any]) -> bytes:
        """The JSON array of the ``legal`` actions, joined from each action's text."""
        return self.action_texts.array(self.game.action_to_data, legal)

    def match_action(self, data: Any, state: Any, legal: Sequence[Any]) -> int:
        """The index among ``legal`` of the action ``data`` a bot sent in ``state``;
        raises an ``illegal`` :class:`BadReply` naming the rule it breaks, if the
        game can tell (:func:`~tajmahal.arena.game.illegal_reason`)."""
        try:
            action = self.game.action_from_data(data)
        except Exception as e:  # ValueError, or anything hostile data makes a game raise
            raise BadReply(ILLEGAL, f"not an action: {printable(str(e), limit=200)}") from None
        for i, candidate in enumerate(legal):
            if candidate == action:
                return i
        detail = f"{quote(data, 100)} is not a legal action now"
        reason = illegal_reason(self.game, state, action)
        raise BadReply(ILLEGAL, detail if reason is None else f"{detail}: {reason}")

    def broadcast(self, events: Sequence[Any]) -> None:
        if not events or not self.audience:
            return
        game = self.game
        public = [game.event_json(e, None) for e in events]
        secret = [i for i, e in enumerate(events) if not game.is_public(e)]
        hold = self.config.batch_events
        shared = protocol.events_outgoing(self.decision, public)
        for seat in self.audience:
            if not seat.live:
                continue
            message = shared
            if secret:
                mine = list(public)
                for i in secret:
                    mine[i] = game.event_json(events[i], seat.seat)
                if mine != public:
                    message = protocol.events_outgoing(self.decision, mine)
            if self.trace is None:  # send() without the trace: four times a decision
                seat.conn.send(message, False, hold)
            else:
                self.send(seat, message, hold=hold)

    def finish(self, state: Any) -> MatchResult:
        game = self.game
        for seat in self.seats:  # a second answer to a bot's last decision
            problem = seat.conn.unexpected() if seat.live else None
            if problem is not None and problem[0] == protocol.PROTOCOL_FAULT:
                self.second_answer(seat, problem[1])
        scores, ranks, breakdown = game.scores(state), game.ranks(state), game.breakdown(state)
        summary = {
            "scores": scores,
            "ranks": ranks,
            "breakdown": breakdown,
            "faults": [s.fault.to_data(public=True) for s in self.seats if s.fault is not None],
        }
        end = Outgoing.of(protocol.end(summary))
        live = [s for s in self.seats if s.live]
        for seat in live:
            self.send(seat, end)
        deadline = time.monotonic() + self.config.grace
        for seat in live:
            seat.conn.close_input(deadline)
        for seat in live:
            if not seat.conn.wait_exit(deadline):
                seat.fault = Fault(
                    seat=seat.seat,
                    kind=TIMEOUT,
                    phase=END,
                    decision=self.decision,
                    at=time.perf_counter() - self.start,
                    detail=f"still running {self.config.grace:g} s after the end message; "
                    "killed (the result stands)",
                )
                if self.config.on_fault is not None:
                    self.config.on_fault(seat.fault)
        for seat in self.seats:
            seat.conn.kill()
        duration = time.perf_counter() - self.start
        faults = [s.fault.to_data() for s in self.seats if s.fault is not None]
        seats = tuple(
            SeatResult(
                seat=s.seat,
                name=s.name,
                version=s.version,
                bot=s.conn.label,
                score=scores[s.seat],
                breakdown=breakdown[s.seat],
                rank=ranks[s.seat],
                decisions=s.decisions,
                time_used=s.used,
                time_max=s.max,
                fallback_decisions=s.fallbacks,
                fault=s.fault,
                exit=s.conn.exit_status,
            )
            for s in self.seats
        )
        if self.writer is not None:
            self.writer.write(
                {
                    "type": "result",
                    "scores": scores,
                    "ranks": ranks,
                    "breakdown": breakdown,
                    "faults": faults,
                    "decisions": self.decision,
                    "duration": round(duration, 4),
                    "players": [
                        {
                            "seat": s.seat,
                            "decisions": s.decisions,
                            "fallback_decisions": s.fallback_decisions,
                            "time_used": round(s.time_used, 4),
                            "exit": s.exit,
                        }
                        for s in seats
                    ],
                }
            )
        return MatchResult(
            game=game.name,
            seed=self.seed,
            variant=game.variant(self.setup),
            seats=seats,
            decisions=self.decision,
            duration=duration,
            record=str(self.config.record) if self.config.record else None,
        )
