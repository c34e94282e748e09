"""The tournament's budget for the bots' logs: all their stderr, in all games.

Each seat's log of a game keeps at most ``--max-log`` bytes; without a bound on
the sum, bots that fill their logs in every game fill the disk (10 MiB a seat a
game: 81 MB for 8 games of the red team's).  :class:`LogBudget` hands each game,
as it is handed out, a share of what is left of ``--max-logs``, and counts what
the game's logs really took when it ends: the logs of a tournament never exceed
the budget, however many games run at once.  Once it is spent, games keep no
log, and the tournament says so.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Final

#: The bytes of bot logs a tournament keeps in all, unless told otherwise.
DEFAULT_MAX_LOGS: Final = 1 << 30
#: Room for the line the referee adds to a log it cut short (what it dropped).
NOTE_ROOM: Final = 200


class LogBudget:
    """``budget`` bytes for every log in ``log_dir`` (those already there count)."""

    def __init__(self, budget: int, log_dir: Path) -> None:
        self.budget = budget
        self.log_dir = log_dir
        self.used = sum(_size(p) for p in log_dir.glob("*.log")) if log_dir.is_dir() else 0
        #: The bytes handed to each game under way, by game number.
        self.allotted: dict[int, int] = {}
        #: The first game handed out with less than its full logs (None: none yet).
        self.short_from: int | None = None

    def left(self) -> int:
        return max(0, self.budget - self.used - sum(self.allotted.values()))

    def allot(self, number: int, seats: int, per_seat: int) -> int:
        """The bytes each seat of game ``number`` may log (``per_seat`` at most;
        the referee's note on what it dropped comes on top, and is counted)."""
        share = min(per_seat, max(0, self.left() // max(1, seats) - NOTE_ROOM))
        self.allotted[number] = (share + NOTE_ROOM) * seats if share else 0
        if share < per_seat and self.short_from is None:
            self.short_from = number
        return share

    def settle(self, number: int, stem: str, seats: int) -> None:
        """Game ``number`` ended: its logs (``STEM.seatS.log`` for each of its
        ``seats``) take what they take."""
        self.allotted.pop(number, None)
        self.used += sum(_size(self.log_dir / f"{stem}.seat{s}.log") for s in range(seats))

    def note(self) -> str | None:
        """What to tell about the budget, once it cut a game's logs short."""
        if self.short_from is None:
            return None
        return (
            f"the bots' logs reached the tournament's budget (--max-logs {self.budget} "
            f"bytes) at game {self.short_from}: later games keep less of their bots' "
            "stderr, or none"
        )


def _size(path: Path) -> int:
    with contextlib.suppress(OSError):
        return path.stat().st_size
    return 0
