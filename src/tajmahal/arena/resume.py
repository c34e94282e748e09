"""Going on with a game that was stopped before its end.

When a game of ``tajmahal play`` is interrupted (Ctrl-C, SIGTERM), the referee
writes the decisions so far as a record that ends with an ``interrupted`` line
(the ``keep`` of :class:`~tajmahal.arena.match.Match`), atomically, and never
over a finished record (:func:`kept_at`).  ``tajmahal play --resume RECORD``
replays it with every check of ``tajmahal replay``, its seal included
(:func:`read_interrupted`), and plays the same deal as a :class:`ResumedMatch`:
the record's decisions are made again as they were, without asking the seats
(the bots are told their events as before), its faults take effect again where
they happened, each seat's clock is as it was; then the game goes on, and its
record is the whole game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from .game import AnyGame
from .match import Match, _Seat
from .protocol import HELLO
from .record import INTERRUPTED, RecordError
from .replayer import Replay, replay
from .terms import Fault, TimeControl


class ResumeError(Exception):
    """A game that cannot go on from its record: not an interrupted game, or a
    seat that is not the one the record names."""


def interrupted_at(path: Path) -> int | None:
    """The decisions of the record at ``path`` if it is of a game stopped before its
    end (its last line an ``interrupted`` one); None for anything else."""
    try:
        last = orjson.loads(path.read_bytes().rstrip().rpartition(b"\n")[2])
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(last, dict) or last.get("type") != INTERRUPTED:
        return None
    decisions = last.get("decisions")
    return decisions if type(decisions) is int else None


def kept_at(record: Path | None, seed: int) -> Path:
    """Where an interrupted game's decisions go: its record's path, unless a
    finished game's record is there (then ``NAME.interrupted.jsonl`` beside it);
    without a record, ``runs/play-SEED.interrupted.jsonl``."""
    if record is None:
        return Path("runs") / f"play-{seed}.interrupted.jsonl"
    if not record.exists() or interrupted_at(record) is not None:
        return record
    name = record.name.removesuffix(".jsonl").removesuffix(".json")
    return record.with_name(f"{name}.interrupted.jsonl")


def whole_game_at(kept: Path) -> Path:
    """Where the whole game resumed from ``kept`` is recorded when no record is
    named: ``NAME.jsonl`` for ``NAME.interrupted.jsonl`` (unless a record is
    there already), else ``kept`` itself, replaced."""
    suffix = f".{INTERRUPTED}.jsonl"
    if not kept.name.endswith(suffix):
        return kept
    plain = kept.with_name(kept.name.removesuffix(suffix) + ".jsonl")
    return kept if plain.exists() else plain


def read_interrupted(game: AnyGame, path: Path) -> Replay:
    """The record of an interrupted game, replayed and checked (its seal too);
    :class:`ResumeError` if it is not one, or does not replay."""
    try:
        done = replay(game, path, interrupted=True)
    except RecordError as e:
        raise ResumeError(f"{path}: {e}") from None
    if not done.interrupted:
        raise ResumeError(f"{path}: a finished game (nothing to resume)")
    return done


def resumed_seats(record: Replay, human: str) -> list[tuple[str | None, str | None]]:
    """Each seat of the record's game as ``(bot, named)``: the bot as it was given
    (None for a person's seat, whose ``bot`` is ``human``), and the name the
    command line gave it (``NAME=BOT``; None if none)."""
    return [
        (None if p["bot"] == human else p["bot"], p.get("named"))
        for p in record.header["players"]
    ]


def resumed_times(record: Replay) -> tuple[TimeControl, ...]:
    """Each seat's time control, as the record's header says."""
    return tuple(TimeControl(move=t["move"], bank=t["bank"]) for t in record.header["time"])


def _at_hello(before: int, data: dict[str, Any]) -> bool:
    """A fault at the handshake (its line right after the header)."""
    return before == 0 and data["phase"] == HELLO and data["decision"] == 0


class ResumedMatch(Match):
    """The match of an interrupted game's record (given by :meth:`resuming`), from
    its start: the record's decisions again, then the game goes on (see the
    module's docstring)."""

    record: Replay

    def resuming(self, record: Replay) -> ResumedMatch:
        """This match, going on with ``record`` (of its game, setup and seats)."""
        self.record = record
        self.recording.replayed = len(record.steps)
        self.start -= float(record.result.get("duration", 0.0))  # its time goes on
        return self

    def handshake(self) -> None:
        """The hello of each seat, which must be the record's player; a seat that
        faulted at the record's hello is stopped again."""
        super().handshake()
        at_hello = {d["seat"]: d for before, d in self.record.fault_lines if _at_hello(before, d)}
        for seat, entry in zip(self.seats, self.record.header["players"], strict=True):
            if seat.seat in at_hello:
                self.stop_again(seat, at_hello[seat.seat], write=False)  # written with the header
            elif seat.fault is not None:
                raise ResumeError(
                    f"seat {seat.seat} ({entry['bot']}) did not start: {seat.fault.detail}"
                )
            elif (seat.name, seat.conn.label) != (entry["name"], entry["bot"]):
                raise ResumeError(
                    f"seat {seat.seat} is {seat.name} ({seat.conn.label}) now, "
                    f"{entry['name']} ({entry['bot']}) in the record"
                )

    def made_again(self, seat: _Seat, legal: Sequence[Any]) -> tuple[int, float, str] | None:
        steps = self.record.steps
        if self.decision > len(steps):
            return None
        for before, data in self.record.fault_lines:
            if before == self.decision - 1 and not _at_hello(before, data):
                self.stop_again(self.seats[data["seat"]], data, write=True)
        step = steps[self.decision - 1]
        if step.seat != seat.seat or not 0 <= step.choice < len(legal):
            raise ResumeError(f"decision {self.decision} does not replay as recorded")
        if step.by != "fallback":
            seat.used += step.time
            seat.max = max(seat.max, step.time)
            seat.bank -= max(0.0, step.time - seat.time.move)
        return step.choice, step.time, step.by

    def stop_again(self, seat: _Seat, data: dict[str, Any], write: bool) -> None:
        """A fault of the record: its seat stopped (the fallback plays it), its line
        written where it was."""
        seat.fault = Fault(**{k: v for k, v in data.items() if k != "type"})
        seat.live = False
        seat.conn.kill()
        if write:
            self.recording.fault({k: v for k, v in data.items() if k != "type"})
