"""A match's record as the referee plays it, line by line in :mod:`.record`'s format.

:class:`Recording` writes the header once the seats have said hello (the faults
of the handshake right after it), an action line per decision (held until the
next bot has its request, and written while it thinks), a line per fault, and the
result.  For a match stopped before its end (Ctrl-C, SIGTERM) it writes the
decisions so far and an ``interrupted`` line instead, where
:mod:`~tajmahal.arena.resume` goes on.  Nothing is on disk before
:meth:`Recording.commit` (see :class:`~tajmahal.arena.record.RecordWriter`).
"""

from __future__ import annotations

import contextlib
import datetime
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import record, seal
from .game import AnyGame
from .terms import Fault, SeatResult


class Recording:
    """The record of one match of ``game`` on ``setup``: nothing is written
    unless :meth:`open` gave it a path."""

    def __init__(self, game: AnyGame, setup: Any) -> None:
        self.game = game
        self.setup = setup
        self.writer: record.RecordWriter | None = None
        self.header_written = False
        #: The last step, until :meth:`log_step` records it.
        self.last_step: tuple[Any, ...] | None = None
        self.logged = 0  # action lines written
        #: Decisions written before those the match makes (a resumed game's).
        self.replayed = 0

    def open(self, path: Path) -> None:
        """Record the match for ``path``, sealed under this machine's key."""
        self.writer = record.RecordWriter(path, seal.load_key(create=True))

    def header(
        self,
        seed: int,
        setup_seed: int,
        players: list[dict[str, Any]],
        handshake: float,
        times: list[dict[str, Any]],
        faults: Sequence[Fault],
    ) -> None:
        """The header line (``players``: each seat's entry, ``times``: its time
        control), then a line for each fault of the handshake."""
        if self.writer is None:
            return
        from ..version import __version__

        dealt = self.dealt_from_seed(setup_seed)
        self.writer.write(
            {
                "type": "header",
                "format": record.FORMAT,
                "format_version": record.FORMAT_VERSION,
                "game": self.game.name,
                "referee": f"tajmahal {__version__}",
                "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "seed": seed,
                **({record.SETUP_SEED: setup_seed} if dealt else {}),
                "deal": record.DEALT if dealt else record.GIVEN,
                "variant": self.game.variant(self.setup),
                "players": players,
                "time": times,
                "handshake": handshake,
                "setup": self.game.setup_to_data(self.setup),
            }
        )
        self.header_written = True
        for fault in faults:  # faults at the handshake come right after the header
            self.writer.write({"type": "fault", **fault.to_data()})

    def dealt_from_seed(self, setup_seed: int) -> bool:
        """Whether the setup is the one ``setup_seed`` deals (then a replay can
        check the record's setup against it)."""
        game = self.game
        players, variant = game.players(self.setup), game.variant(self.setup)
        with contextlib.suppress(ValueError):
            if game.random_setup(players, setup_seed, variant) == self.setup:
                return True  # (setups that compare by value: no need to encode them)
        dealt = record.dealt_data(game, players, setup_seed, variant)
        return dealt is not None and dealt == record.json_data(game.setup_to_data(self.setup))

    def step(
        self, decision: int, seat: int, action: Any, by: str, index: int, elapsed: float,
        after: Any,
    ) -> None:
        """A decision made: its line waits for :meth:`log_step`."""
        if self.writer is not None:
            self.last_step = (decision, seat, action, by, index, elapsed, after)

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
        self.logged += 1
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

    def fault(self, data: dict[str, Any]) -> None:
        """A fault line (``data``: the fault's), after the last step's."""
        self.log_step()
        if self.writer is not None and self.header_written:
            self.writer.write({"type": "fault", **data})

    def result(
        self,
        outcome: dict[str, Any],
        decisions: int,
        duration: float,
        seats: Sequence[SeatResult],
    ) -> None:
        """The result line, last (sealed): ``outcome`` holds the scores, ranks,
        breakdown and the faults (as the record tells them)."""
        if self.writer is None:
            return
        self.writer.write_last(
            {
                "type": "result",
                **outcome,
                "decisions": decisions,
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

    def commit(self) -> None:
        """Put the record on disk (see :meth:`~tajmahal.arena.record.RecordWriter.commit`)."""
        assert self.writer is not None
        self.writer.commit()

    def discard(self) -> None:
        if self.writer is not None:
            self.writer.discard()

    def keep_interrupted(self, keep: Path | None, start: float) -> None:
        """Write the decisions so far to ``keep``, atomically, as a record that
        ends with an ``interrupted`` line (``start``: when the match started, on
        :func:`time.perf_counter`); nothing if no decision was made beyond those
        of the record it resumed (that record stays as it is)."""
        writer = self.writer
        if writer is None or keep is None or not self.header_written:
            return
        with contextlib.suppress(Exception):
            self.log_step()
        if self.logged <= self.replayed or writer.lines is None:
            return
        writer.write_last(
            {
                "type": record.INTERRUPTED,
                "decisions": self.logged,
                "duration": round(time.perf_counter() - start, 4),
            }
        )
        writer.path = keep
        writer.commit()
