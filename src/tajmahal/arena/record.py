"""Game records: JSON Lines written atomically, and their replay.

A record has a ``header`` line (format version, the full setup, the players, the
time limits), one ``action`` line per decision, ``fault`` lines where a seat
faulted, and a final ``result`` line.  See ``docs/cli.md`` for an example.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import orjson
from attrs import frozen

from .game import AnyGame

FORMAT: Final = "arena-record"
FORMAT_VERSION: Final = 1


class RecordWriter:
    """Collects a record's lines and writes them only in :meth:`commit`: to a
    temporary file beside ``path``, synced, then renamed to ``path``.

    An interrupted match never leaves a truncated file under the final name, and
    nothing is on disk while the game runs: the header holds the deck, which a bot
    able to read the output directory must not see mid-game.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[bytes] | None = []

    def write(self, data: dict[str, Any]) -> None:
        assert self.lines is not None, "the record is already committed or discarded"
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


@frozen
class ReplayedStep:
    """One decision of a replayed game: who did what, and the text of what followed."""

    decision: int
    seat: int
    by: str
    action_text: str
    lines: tuple[str, ...]
    fault: dict[str, Any] | None


@frozen
class Replay:
    header: dict[str, Any]
    result: dict[str, Any]
    steps: tuple[ReplayedStep, ...]
    names: tuple[str, ...]


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


def _field(data: dict[str, Any], key: str, line: int) -> Any:
    if key not in data:
        raise RecordError(f'missing "{key}" in a {data.get("type")} line', line=line)
    return data[key]


def _header(lines: Iterator[tuple[int, dict[str, Any]]]) -> tuple[int, dict[str, Any]]:
    """The header line of a record (its number and data), checked for format."""
    first = next(lines, None)
    if first is None:
        raise RecordError("the record is empty")
    number, header = first
    if header.get("type") != "header":
        raise RecordError("the first line must be the header", line=number)
    if header.get("format") != FORMAT:
        raise RecordError(f"not an {FORMAT} file (format {header.get('format')!r})", line=number)
    if header.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            f"record format version {header.get('format_version')!r}; this tajmahal reads "
            f"version {FORMAT_VERSION}",
            line=number,
        )
    return number, header


def read_game_id(path: Path) -> str:
    """The id of the game (:attr:`Game.name <tajmahal.arena.game.Game.name>`) that the
    record at ``path`` is of; raises :class:`RecordError`."""
    lines = read_lines(path)
    try:
        number, header = _header(lines)
    finally:
        lines.close()
    game = header.get("game")
    if not isinstance(game, str):
        raise RecordError('the header names no "game"', line=number)
    return game


def replay(game: AnyGame, path: Path, describe: bool = True) -> Replay:
    """Re-apply every action of the record at ``path`` and check each step against
    it; raises :class:`RecordError` at the first difference."""
    lines = read_lines(path)
    number, header = _header(lines)
    if header.get("game") != game.name:
        raise RecordError(f"a record of {header.get('game')!r}, not {game.name!r}", line=number)
    try:
        setup = game.setup_from_data(_field(header, "setup", number))
    except ValueError as e:
        raise RecordError(f"bad setup: {e}", line=number) from None
    players = header.get("players") or []
    names = tuple(
        str(p.get("name", f"seat {i}")) if isinstance(p, dict) else f"seat {i}"
        for i, p in enumerate(players)
    )
    if len(names) != game.players(setup):
        raise RecordError(
            f"{len(names)} players listed for a {game.players(setup)}-player setup", line=number
        )
    state = game.new_game(setup)
    steps: list[ReplayedStep] = []
    faults: dict[int, dict[str, Any]] = {}
    decision = 0
    result: dict[str, Any] | None = None
    for number, data in lines:
        kind = data["type"]
        if result is not None:
            raise RecordError(f"a {kind} line after the result", line=number)
        if kind == "fault":
            faults[decision + 1] = data
            continue
        if kind == "result":
            result = data
            _check_result(game, state, data, number, decision)
            continue
        if kind != "action":
            raise RecordError(f"unknown line type {kind!r}", line=number)
        decision += 1
        if _field(data, "decision", number) != decision:
            raise RecordError(
                f"decisions out of order: expected {decision}, got {data['decision']!r}",
                line=number,
                decision=decision,
            )
        seat = game.to_act(state)
        if seat is None:
            raise RecordError("an action after the end of the game", number, decision)
        if _field(data, "seat", number) != seat:
            raise RecordError(
                f"the record says seat {data['seat']!r} acted, but seat {seat} is to act",
                number,
                decision,
            )
        try:
            action = game.action_from_data(_field(data, "action", number))
        except ValueError as e:
            raise RecordError(f"bad action: {e}", number, decision) from None
        legal = list(game.legal_actions(state))
        if action not in legal:
            raise RecordError(
                f"{game.describe_action(state, action)} is not legal here", number, decision
            )
        if "choice" in data and data["choice"] != legal.index(action):
            raise RecordError(
                f"choice {data['choice']!r} does not match the action (index "
                f"{legal.index(action)})",
                number,
                decision,
            )
        text = game.describe_action(state, action)
        state, events = game.step(state, action)
        if "scores" in data and list(data["scores"]) != game.scores(state):
            raise RecordError(
                f"scores after the step are {game.scores(state)}, the record says {data['scores']}",
                number,
                decision,
            )
        steps.append(
            ReplayedStep(
                decision=decision,
                seat=seat,
                by=str(data.get("by", "bot")),
                action_text=text,
                lines=tuple(game.describe_events(state, events, names)) if describe else (),
                fault=faults.pop(decision, None),
            )
        )
    if result is None:
        raise RecordError("no result line: the record is incomplete")
    return Replay(header=header, result=result, steps=tuple(steps), names=names)


def _check_result(
    game: AnyGame, state: Any, data: dict[str, Any], line: int, decisions: int
) -> None:
    if game.to_act(state) is not None:
        raise RecordError(
            f"the result comes after {decisions} decisions, but the game is not over",
            line=line,
        )
    for key, actual in (
        ("scores", game.scores(state)),
        ("ranks", game.ranks(state)),
        ("breakdown", game.breakdown(state)),
    ):
        recorded = _field(data, key, line)
        if recorded != actual:
            raise RecordError(
                f"final {key} replay as {actual}, but the record says {recorded}", line=line
            )


def write_lines(path: Path, lines: Sequence[dict[str, Any]]) -> None:
    """Write a whole record atomically (for tools and tests)."""
    writer = RecordWriter(path)
    try:
        for line in lines:
            writer.write(line)
        writer.commit()
    finally:
        writer.discard()
