"""Game records: JSON Lines written atomically, and read back.

A record has a ``header`` line (format version, the full setup, the players, the
time limits), one ``action`` line per decision, ``fault`` lines where a seat
faulted, and a final ``result`` line; or, for a game stopped before its end, an
``interrupted`` line (the decisions so far: ``tajmahal play --resume`` goes on
with it).  See ``docs/cli.md`` for an example.  :mod:`.replayer` replays a record
and checks every line of it against the game.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Generator
from pathlib import Path
from typing import Any, Final

import orjson

from . import seal
from .game import AnyGame

FORMAT: Final = "arena-record"
FORMAT_VERSION: Final = 1
#: The last line of the record of a game stopped before its end.
INTERRUPTED: Final = "interrupted"


class RecordWriter:
    """Collects a record's lines and writes them only in :meth:`commit`: to a
    temporary file beside ``path``, synced, then renamed to ``path``.

    An interrupted match never leaves a truncated file under the final name, and
    nothing is on disk while the game runs: the header holds the deck, which a bot
    able to read the output directory must not see mid-game.  With a ``key``, the
    last line (:meth:`write_last`) holds the record's seal (see :mod:`.seal`).
    """

    def __init__(self, path: Path, key: bytes | None = None) -> None:
        self.path = path
        self.lines: list[bytes] | None = []
        self.sealer = seal.Sealer(key) if key is not None else None

    def write(self, data: dict[str, Any]) -> None:
        assert self.lines is not None, "the record is already committed or discarded"
        if self.sealer is not None:
            self.sealer.add(data)
        self.lines.append(orjson.dumps(data) + b"\n")

    def write_last(self, data: dict[str, Any]) -> None:
        """The last line, with the seal of the record if there is a key."""
        assert self.lines is not None, "the record is already committed or discarded"
        if self.sealer is not None:
            data = self.sealer.sealed(data)
        self.lines.append(orjson.dumps(data) + b"\n")

    def commit(self) -> None:
        assert self.lines is not None, "the record is already committed or discarded"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.parent / f".{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}.part"
        # Readable by its owner only: the header holds the deck, and a record of one
        # seating of a deal tells the cards of its other seatings.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.writelines(self.lines)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        self.lines = None

    def discard(self) -> None:
        self.lines = None


class RecordError(Exception):
    """A record that cannot be read, or that does not replay to what it says."""

    def __init__(self, message: str, line: int | None = None, decision: int | None = None):
        where = []
        if line is not None:
            where.append(f"line {line}")
        if decision is not None:
            where.append(f"decision {decision}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.line = line
        self.decision = decision


#: How a record says where its setup came from (the header's ``deal``).
DEALT: Final = "seed"  # drawn from the header's setup seed (else its seed) by the game
GIVEN: Final = "given"  # given to the referee (a stacked deck, a scenario)

#: The header's seed the setup is drawn from (:func:`~tajmahal.arena.referee.deal`).
SETUP_SEED: Final = "setup_seed"


def dealt_from(header: dict[str, Any]) -> str:
    """What a record's setup is drawn from, in words: ``seed 1``, or ``setup seed
    N (seed 1 under the referee's key)``; a record without a setup seed: its seed."""
    seed = header["seed"]
    drawn = header.get(SETUP_SEED, seed)
    if drawn == seed:
        return f"seed {seed}"
    return f"setup seed {drawn} (seed {seed} under the referee's key)"


def read_lines(path: Path) -> Generator[tuple[int, dict[str, Any]], None, None]:
    try:
        handle = path.open("rb")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    with handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                data = orjson.loads(raw)
            except orjson.JSONDecodeError as e:
                raise RecordError(f"not JSON ({e})", line=number) from None
            if not isinstance(data, dict) or "type" not in data:
                raise RecordError('not a record line (a JSON object with a "type")', line=number)
            yield number, data


def record_ends(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The header and result lines of the record at ``path``, read as they are
    (nothing replayed); a :class:`RecordError` when it has not both."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    data = data.strip()
    try:  # the first line and the last (a record's lines are JSON: no newline inside)
        header = orjson.loads(data[: data.find(b"\n")])
        result = orjson.loads(data[data.rfind(b"\n") + 1 :])
    except orjson.JSONDecodeError as e:
        raise RecordError(f"not JSON ({e})") from None
    for line, kind in ((header, "header"), (result, "result")):
        if not isinstance(line, dict) or line.get("type") != kind:
            raise RecordError(f"no {kind} line where a record has it")
    return header, result



def read_game_id(path: Path) -> str:
    """The id of the game (:attr:`Game.name <tajmahal.arena.game.Game.name>`) that the
    record at ``path`` is of, from its header; raises :class:`RecordError`."""
    lines = read_lines(path)
    try:
        first = next(lines, None)
    finally:
        lines.close()
    if first is None:
        raise RecordError("the record is empty")
    number, header = first
    if header.get("type") != "header" or header.get("format") != FORMAT:
        raise RecordError(f"the first line must be the header of an {FORMAT} file", line=number)
    game = header.get("game")
    if not isinstance(game, str):
        raise RecordError('the header names no "game"', line=number)
    return game


def dealt_data(game: AnyGame, players: int, seed: int, variant: str | None) -> Any:
    """The setup ``seed`` deals, as JSON data (None if the game cannot deal it)."""
    try:
        return json_data(game.setup_to_data(game.random_setup(players, seed, variant)))
    except ValueError:
        return None


def json_data(data: Any) -> Any:
    """``data`` as it reads back from JSON (tuples become lists ...)."""
    return orjson.loads(orjson.dumps(data))
