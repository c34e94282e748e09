"""A match's terms and its results: the time control, the referee's settings
(:class:`MatchConfig`), the faults and each seat's and the whole match's results.

What the referee (:mod:`tajmahal.arena.referee`) and its loop
(:mod:`tajmahal.arena.match`) share, so that neither imports the other's
internals.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import field, frozen

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
    (:func:`~tajmahal.arena.referee.told_seed`; a tournament's comes from its
    directory's key, so a game played again tells the same seeds); None: a fresh
    random one per match.  The seeds told are in the record's header, the key is
    not.
    ``names``: each seat's name as given (``NAME=BOT``); a seat without one (None,
    or past the end) is named by its bot's hello.  Alike names are told apart
    (``random#1``, ``random#2``: :func:`~tajmahal.arena.names.unique_names`)."""

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
    names: tuple[str | None, ...] = ()

    def seat_time(self, seat: int) -> TimeControl:
        if isinstance(self.time, TimeControl):
            return self.time
        return self.time[seat]


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


def reproducible() -> bool:
    """Whether :data:`REPRODUCIBLE_SEEDS` asks for runs that are the same
    everywhere (setups dealt from the seed typed, the bots told its hashes)."""
    return os.environ.get(REPRODUCIBLE_SEEDS, "") not in ("", "0")


def told_seeds(key: bytes | None, seed: int, seats: int) -> list[int]:
    """The seed told to the bot of each seat of a match of ``seed``: under the
    secret ``key`` (None: a fresh one), or as :data:`REPRODUCIBLE_SEEDS` says."""
    if reproducible():
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


def setup_seed(key: bytes, seed: int) -> int:
    """The seed a game's setup (the deal, and every later draw of the game, which
    follows from it) is drawn from when the operator's seed is ``seed``: an
    HMAC of the seed under the referee's secret ``key``, 63 bits.  A bot that
    knows the library deals the setups of small seeds (``--seed 1``) in no time;
    without the key it cannot tell which one it plays, whatever seed was typed.
    The setup seed is in the record's header (``setup_seed``), so a replay deals
    the same setup without the key."""
    digest = hmac.new(key, f"tajmahal setup seed {seed}".encode(), "sha256").digest()
    return int.from_bytes(digest[:8], "big") >> 1
