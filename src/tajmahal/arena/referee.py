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
import difflib
import hashlib
import hmac
import os
import secrets
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import evolve, field, frozen

from . import cgroups, containment, sandbox
from .connection import Connection, InProcessConnection
from .game import AnyGame
from .process import ProcessConnection
from .signals import uninterruptible

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
    progress output.  ``sandbox`` confines the bot processes (see
    :mod:`~tajmahal.arena.sandbox`), ``memory`` bounds (in MB) the memory of each
    bot's whole process tree (its cgroup: :mod:`~tajmahal.arena.cgroups`);
    ``hide``: directories sandboxed bots must not see, besides the record's and
    the logs' (a tournament's).
    ``seat_key``: the secret the seeds told to the bots are made with
    (:func:`told_seed`; a tournament's comes from its directory's key, so a game
    played again tells the same seeds); None: a fresh random one per match.  The
    seeds told are in the record's header, the key is not."""

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
    hide: tuple[Path, ...] = ()
    seat_key: bytes | None = field(default=None, repr=False)

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


def hidden_dirs(config: MatchConfig) -> list[Path]:
    """The directories of the referee's output, which sandboxed bots must not see."""
    dirs = list(config.hide)
    if config.record is not None:
        dirs.append(config.record.parent)
    if config.log_dir is not None:
        dirs.append(config.log_dir)
    return dirs


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
            group = bot_group(config.memory)
            try:
                launch = sandbox.command(
                    spec.argv, sandbox=config.sandbox, group=group, hide=hidden_dirs(config)
                )
            except BaseException:
                if group is not None:
                    group.remove()
                raise
            argv = launch.argv
            out.append(
                ProcessConnection(
                    argv,
                    pass_fds=launch.fds,
                    group=group,
                    label=spec.text,
                    log_path=logs[seat],
                    max_line=config.max_line,
                    max_log=config.max_log,
                    watch=config.watch,
                    signal_exit=config.sandbox,
                    program=spec.argv[0] if argv[0] != spec.argv[0] else None,
                )
            )
    return out


def bot_group(memory: int | None) -> cgroups.Group | None:
    """A cgroup for a bot program: at most ``memory`` MB for its whole tree (None:
    no bound) and one CPU, where the system allows cgroups (none otherwise).
    Raises ValueError for a ``memory`` bound that cannot be had (rather than
    leave the bot unbounded)."""
    group = cgroups.create(memory)
    if group is None and memory is not None:
        raise ValueError(f"--memory needs a cgroup for each bot: {cgroups.unavailable()}")
    return group


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the built-in player of ``seat`` (it runs inside the referee,
    where nothing sees it): a hash of the match seed, so that built-in players
    play the same way in every run of a seed."""
    digest = hashlib.sha256(f"tajmahal seat seed {seed} {seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


#: Set (to anything but "" or "0"), the seeds told to the bots are the hashes of
#: the match seed they were before (:func:`seat_seed`): runs of one seed are then
#: the same, bot programs' play included, as the docs' figures need; but a bot
#: can work a small match seed back from its own.  Never for a competitive run.
REPRODUCIBLE_SEEDS: Final = "TAJMAHAL_REPRODUCIBLE_SEEDS"


def told_seeds(key: bytes | None, seed: int, seats: int) -> list[int]:
    """The seed told to the bot of each seat of a match of ``seed``: under the
    secret ``key`` (None: a fresh one), or as :data:`REPRODUCIBLE_SEEDS` says."""
    if os.environ.get(REPRODUCIBLE_SEEDS, "") not in ("", "0"):
        return [seat_seed(seed, seat) for seat in range(seats)]
    key = key if key is not None else secrets.token_bytes(32)
    return [told_seed(key, seat) for seat in range(seats)]


def told_seed(key: bytes, seat: int) -> int:
    """The seed the hello hands the bot of ``seat`` (for its own randomness): an
    HMAC of the seat under the match's secret ``key`` (:attr:`MatchConfig.seat_key`),
    so it says nothing about the match seed, whatever seed was typed (a bot that
    worked a small seed back from its own could deal the deck)."""
    digest = hmac.new(key, f"tajmahal seat seed {seat}".encode(), "sha256").digest()
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
        from .match import Match  # the loop imports this module's types

        match = Match(game, setup, connect(game, batch, config, seed), config, seed)
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


def play_match(
    game: AnyGame,
    setup: Any,
    connections: Sequence[Connection],
    config: MatchConfig = MatchConfig(),
    seed: int = 0,
) -> MatchResult:
    """Play one game over ``connections`` (one per seat); see :func:`run_match`."""
    from .match import Match  # the loop imports this module's types

    return Match(game, setup, connections, config, seed).run()
