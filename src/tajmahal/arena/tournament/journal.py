"""A tournament's output directory, and the journal that makes resuming exact.

::

    DIR/tournament.json    the manifest: the plan (bots, seed, deals, time controls...)
    DIR/journal.jsonl      one line per finished game, appended and fsynced
    DIR/games/NNNNNN.jsonl each finished game's record
    DIR/logs/NNNNNN.seatS.log  the bots' stderr (empty logs are removed)
    DIR/errors.log         games that could not be played (they are retried on resume)
    DIR/.key               the secret that seals the journal's lines (readable by you only)

A game counts as finished exactly when its journal line is on disk.  The record
is renamed into place (and the directory synced) before that line is written, so
a journaled game always has its record; a game that was under way when the
tournament stopped has no journal line and is simply played again.  A line cut
short by a crash ends the journal; it is dropped on the next start.  A line that
repeats an earlier one exactly is dropped too (and noted in ``errors.log``); two
different lines for one game stop the resume: which one is true cannot be told.

Each line is *sealed*: it holds the SHA-256 of its game's record and an HMAC of
the whole line under the directory's key, which only the tournament process
writes (sandboxed bots do not see the directory at all).  On resume a line whose
seal or record does not match is not believed as it stands (:attr:`TournamentDir.
unsealed`): the runner replays its record (:func:`~.charges.audit`), and a game
that does not replay to its line is taken out of the journal and played again.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import orjson
from attrs import asdict, evolve, field, frozen
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..terms import setup_seed
from .data import CONVERTER, Data
from .plan import Plan
from .schedule import Slot

T = TypeVar("T")

FORMAT: Final = "arena-tournament"
FORMAT_VERSION: Final = 1
MANIFEST: Final = "tournament.json"
JOURNAL: Final = "journal.jsonl"
GAMES: Final = "games"
LOGS: Final = "logs"
ERRORS: Final = "errors.log"
KEY: Final = ".key"
_LOCK: Final = ".lock"


class TournamentError(Exception):
    """An output directory that cannot be used as asked (the message says why)."""


@frozen
class Finished(Data):
    """A finished game as the journal keeps it: its slot in the schedule, the path
    of its record (relative to the directory) and the referee's result."""

    number: int
    deal: int
    rotation: int
    seed: int
    seating: tuple[int, ...]
    record: str
    result: dict[str, Any]
    #: The line's seal and the record's SHA-256 it vouches for, as read back.
    seal: str | None = field(default=None, eq=False, repr=False)
    sealed_digest: str | None = field(default=None, eq=False, repr=False)

    @property
    def slot(self) -> Slot:
        return Slot(self.number, self.deal, self.rotation, self.seed, self.seating)


#: A journal line: the seal and the record's digest are written beside the fields.
CONVERTER.register_unstructure_hook(
    Finished,
    make_dict_unstructure_fn(
        Finished,
        CONVERTER,
        seal=override(omit=True),
        sealed_digest=override(omit=True),
        result=override(unstruct_hook=lambda result: result),  # JSON data as it is
    ),
)
CONVERTER.register_structure_hook(
    Finished,
    make_dict_structure_fn(Finished, CONVERTER, sealed_digest=override(rename="record_sha256")),
)


def stored_plan(root: Path) -> Plan | None:
    """The plan of the tournament in ``root``, or None if there is none."""

    def plan(manifest: dict[str, Any]) -> Plan:
        if manifest.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"format version {manifest.get('format_version')} is not supported")
        return Plan.from_data(manifest["plan"])

    return read_manifest(root / MANIFEST, FORMAT, "tournament", plan)


def read_manifest(
    path: Path, kind: str, what: str, read: Callable[[dict[str, Any]], T]
) -> T | None:
    """``read(manifest)``, the manifest at ``path`` being of format ``kind``; None if
    there is none.  A manifest that cannot be read (or that ``read`` refuses with a
    ValueError, KeyError or TypeError) is a TournamentError: this ``what`` cannot
    be resumed."""
    if not path.exists():
        return None
    try:
        manifest = orjson.loads(path.read_bytes())
        if manifest.get("format") != kind:
            raise ValueError(f"its format is {manifest.get('format')!r}, not {kind!r}")
        return read(manifest)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise TournamentError(f"{path}: cannot resume this {what}: {e}") from None


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new
    file, never a mix."""
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    with tmp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    sync_directory(path.parent)


def sync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def record_name(number: int) -> str:
    """``000017.jsonl``: six digits at least, so that records sort by number."""
    return f"{number:06d}.jsonl"


class GameFiles:
    """The files of played games in a directory ``root`` (a tournament's, a
    ladder's): each game's record in ``games/``, the bots' logs in ``logs/``."""

    __slots__ = ()
    root: Path

    @property
    def games_dir(self) -> Path:
        return self.root / GAMES

    @property
    def log_dir(self) -> Path:
        return self.root / LOGS

    def record_path(self, number: int) -> Path:
        return self.games_dir / record_name(number)


class TournamentDir(GameFiles):
    """An open output directory, locked against a second tournament in it.

    Use :meth:`open`; then :attr:`plan` is the plan in force (the stored one, with
    the deals given if they grew) and :attr:`finished` the games in the journal."""

    def __init__(
        self,
        root: Path,
        plan: Plan,
        finished: list[Finished],
        lock: int,
        key: bytes,
        setups: Path | None = None,
    ) -> None:
        self.root = root
        #: The directory's real path (the paths in tasks and in the journal's lines).
        self.resolved = root.resolve()
        self.plan = plan
        self.finished = finished
        self._lock = lock
        self._key = key
        #: The directory whose key the setups are drawn under (see :meth:`open`).
        self.setups = root if setups is None else setups
        self._setup_key = hmac.new(
            key if setups is None else _key(setups), b"setup seeds", "sha256"
        ).digest()
        #: Journaled games whose line's seal or record does not match (see the module's
        #: text): counted only once :func:`~.charges.audit` has replayed their records.
        self.unsealed: list[Finished] = []
        #: Journal lines left out on opening: they repeated an earlier one exactly.
        self.repeated: list[Repeated] = []
        self._journal = os.open(root / JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)

    @classmethod
    def open(cls, root: Path, plan: Plan, setups: Path | None = None) -> TournamentDir:
        """Start the tournament of ``plan`` in ``root``, or resume the one there.
        The games' setups are drawn under the key of ``setups`` (a directory
        holding ``root``: a gauntlet's, so that every match-up has the same
        cards), by default ``root``'s own.

        Raises :class:`TournamentError` if ``root`` is in use, holds something
        else, or holds a tournament with another plan (or more deals), or cannot
        be created or written (a missing parent, no permission, a full disk)."""
        try:
            return cls._open(root, plan, setups)
        except OSError as e:
            raise TournamentError(
                f"{root}: cannot write the tournament there ({e.strerror or e})"
            ) from None

    @classmethod
    def _open(cls, root: Path, plan: Plan, setups: Path | None) -> TournamentDir:
        root.mkdir(parents=True, exist_ok=True)
        lock = _lock(root)
        try:
            stored = stored_plan(root)
            if stored is None:
                if (root / KEY).exists():  # brought from another: checked before anything is made
                    _checked_key(root / KEY)
                _create(root, plan)
                finished: list[Finished] = []
                repeated: list[Repeated] = []
            else:
                plan = _reconcile(root, stored, plan)
                finished, repeated = read_journal(root / JOURNAL, plan, repair=True)
                remove_partial_records(root / GAMES)
            key = _key(root)
            store = cls(root, plan, finished, lock, key, setups)
        except BaseException:
            os.close(lock)
            raise
        store.repeated = repeated
        for line in repeated:
            store.log_error(line.number, line.text())
        store.unsealed = [e for e in finished if not store.sealed(e)]
        store.finished = [e for e in finished if e not in store.unsealed]
        return store

    def seat_key(self, number: int) -> bytes:
        """The secret the seeds told to the bots of game ``number`` are made with
        (:attr:`~tajmahal.arena.referee.MatchConfig.seat_key`): derived from the
        directory's key, so a game played again (on resume) tells the same seeds,
        and no bot can work them out."""
        return hmac.new(self._key, f"seat seeds of game {number}".encode(), "sha256").digest()

    def setup_seed(self, seed: int) -> int:
        """The seed the setup of a game of ``seed`` is drawn from: under the key of
        :attr:`setups` where the plan is :attr:`~.plan.Plan.keyed` (the
        default), so that no bot can work it out from a small tournament seed,
        and the same on every resume; else ``seed`` itself."""
        return setup_seed(self._setup_key, seed) if self.plan.keyed else seed

    def append(self, slot: Slot, result: dict[str, Any]) -> Finished:
        """Journal ``slot`` as finished with ``result``; on disk when this returns."""
        result = dict(result)
        if result.get("record"):
            result["record"] = self._relative(result["record"])
        result["logs"] = [self._relative(p) for p in result.get("logs", [])]
        record = "" if result.get("lost") else f"{GAMES}/{record_name(slot.number)}"
        entry = Finished(**asdict(slot, recurse=False), record=record, result=result)
        line = memoryview(orjson.dumps(self._sealed_data(entry)) + b"\n")
        while line:
            written = os.write(self._journal, line)
            line = line[written:]
        os.fdatasync(self._journal)  # its data and length: all a reader needs
        self.finished.append(entry)
        return entry

    def _sealed_data(self, entry: Finished) -> dict[str, Any]:
        data = entry.to_data()
        data["record_sha256"] = _digest(self.root / entry.record) if entry.record else None
        data["seal"] = _seal(self._key, data)
        return data

    def sealed(self, entry: Finished) -> bool:
        """Whether ``entry`` is as this tournament journaled it, with its record
        as it was then."""
        data = entry.to_data()
        data["record_sha256"] = entry.sealed_digest
        if entry.seal is None or not hmac.compare_digest(entry.seal, _seal(self._key, data)):
            return False
        now = _digest(self.root / entry.record) if entry.record else None
        return now == entry.sealed_digest

    def vouch(self, entry: Finished) -> None:
        """Count an unsealed entry after all (its record replayed to it)."""
        self.unsealed.remove(entry)
        self.finished.append(entry)

    def settle(self, doubted: dict[int, str]) -> None:
        """Take the unsealed entries of ``doubted`` (number: why) out of the journal,
        to be played again (each is noted in errors.log), and seal the others."""
        for number, why in sorted(doubted.items()):
            self.log_error(number, f"its journal line is not believed: {why}; played again")
        self.unsealed = [e for e in self.unsealed if e.number not in doubted]
        kept = [orjson.dumps(self._sealed_data(e)) + b"\n" for e in self.finished]
        kept += [orjson.dumps(e.to_data()) + b"\n" for e in self.unsealed]
        os.close(self._journal)
        write_atomically(self.root / JOURNAL, b"".join(kept))
        self._journal = os.open(self.root / JOURNAL, os.O_WRONLY | os.O_APPEND)

    def log_error(self, number: int, text: str) -> None:
        """Note in errors.log that game ``number`` could not be played."""
        stamp = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        with (self.root / ERRORS).open("a", encoding="utf-8") as f:
            f.write(f"{stamp} game {number}: {text}\n")

    def write(self, name: str, data: bytes) -> Path:
        """Write a summary file at the top of the directory (atomically)."""
        path = self.root / name
        write_atomically(path, data)
        return path

    def remove_partial_records(self) -> None:
        """Remove what killed workers left behind (call when no worker runs)."""
        remove_partial_records(self.games_dir)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._journal)
        with contextlib.suppress(OSError):
            os.close(self._lock)

    def _relative(self, path: str) -> str:
        inside = f"{self.resolved}{os.sep}"
        if path.startswith(inside):  # as the tasks give it
            return Path(path[len(inside) :]).as_posix()
        try:
            return Path(path).resolve().relative_to(self.resolved).as_posix()
        except ValueError:
            return path


def _seal(key: bytes, data: dict[str, Any]) -> str:
    """The HMAC-SHA256 of a journal line's ``data`` (without its seal)."""
    body = {k: v for k, v in data.items() if k != "seal"}
    return hmac.new(key, orjson.dumps(body, option=orjson.OPT_SORT_KEYS), "sha256").hexdigest()


def _digest(path: Path) -> str | None:
    """The SHA-256 of the file at ``path`` (None: there is none)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _key(root: Path) -> bytes:
    """The directory's key (sealing the journal, drawing the setups and the seeds
    told to bots), made on first use, whole or not at all (readable by its owner
    only)."""
    path = root / KEY
    with contextlib.suppress(FileNotFoundError):
        return _checked_key(path)
    tmp = root / f"{KEY}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            os.write(fd, secrets.token_bytes(32))
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileExistsError):  # another made it first: that one
            os.link(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return _checked_key(path)


def _checked_key(path: Path) -> bytes:
    key = path.read_bytes()
    if len(key) < 32:  # the setups' secrecy rests on it
        raise TournamentError(f"{path}: not a tournament's key (32 bytes or more)")
    return key


def _lock(root: Path) -> int:
    fd = os.open(root / _LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise TournamentError(f"{root}: another tournament is running there") from None
    return fd


def _create(root: Path, plan: Plan) -> None:
    """A new tournament in ``root``, empty but for a key brought from another
    (its games are then dealt the same cards)."""
    others = sorted(p.name for p in root.iterdir() if p.name not in (_LOCK, KEY))
    if others:
        raise TournamentError(
            f"{root}: not empty ({', '.join(others[:3])}{', ...' if len(others) > 3 else ''}) "
            "and holds no tournament: give a new or empty directory"
        )
    from ...version import __version__

    (root / GAMES).mkdir()
    (root / LOGS).mkdir()
    (root / JOURNAL).touch()
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "referee": f"tajmahal {__version__}",
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "plan": plan.to_data(),
    }
    write_atomically(root / MANIFEST, orjson.dumps(manifest, option=orjson.OPT_INDENT_2))


def _reconcile(root: Path, stored: Plan, given: Plan) -> Plan:
    """The plan to resume with: the stored one, with more deals if ``given`` has
    more; a TournamentError if anything else differs."""
    given = evolve(given, keyed=stored.keyed)  # its setups are drawn as they were
    differences = stored.differences(given)
    if differences:
        listed = "".join(f"\n  {d}" for d in differences)
        raise TournamentError(
            f"{root} holds a tournament with other options:{listed}\n"
            "Give the same options to resume it, or another directory for a new one."
        )
    if given.deals < stored.deals:
        raise TournamentError(
            f"{root} holds a tournament of {stored.games} games ({stored.deals} deals); "
            f"it cannot shrink to {given.games}"
        )
    if given.deals > stored.deals:
        path = root / MANIFEST
        manifest = orjson.loads(path.read_bytes())
        manifest["plan"] = given.to_data()
        write_atomically(path, orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return given


@frozen
class Repeated:
    """A journal line that repeats an earlier one exactly (a write retried after
    a crash, a journal joined from a copy): the earlier one is kept."""

    number: int
    line: int
    first: int

    def text(self) -> str:
        return f"its journal line {self.line} repeats line {self.first} exactly: one is kept"


def read_journal(
    path: Path, plan: Plan, repair: bool = False
) -> tuple[list[Finished], list[Repeated]]:
    """The finished games in the journal at ``path``, each checked against the
    schedule of ``plan``, and the lines left out as repeating an earlier one.
    A last line cut short by a crash is ignored, and so is a line identical to
    an earlier one (both are cut off the file if ``repair``); any other bad
    line, or two different lines for one game, is a TournamentError."""
    data = path.read_bytes() if path.exists() else b""
    lines = data.split(b"\n")
    kept = len(data)
    if lines[-1]:  # no newline at the end: a write that did not complete
        kept -= len(lines[-1])
    lines.pop()
    finished = []
    repeated: list[Repeated] = []
    seen: dict[int, tuple[int, Any]] = {}  # game number: its line's number and data
    whole: list[bytes] = []
    for index, line in enumerate(lines, 1):
        try:
            raw = orjson.loads(line)
            entry = Finished.from_data(raw)
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            if index == len(lines) and kept == len(data):  # a whole last line, garbled
                kept -= len(line) + 1
                break
            raise TournamentError(f"{path}, line {index}: not a journal entry ({e})") from None
        if entry.number in seen and seen[entry.number][1] == raw:
            repeated.append(Repeated(entry.number, index, seen[entry.number][0]))
            continue
        _check_entry(path, index, entry, plan, seen)
        seen[entry.number] = (index, raw)
        finished.append(entry)
        whole.append(line + b"\n")
    if repair and repeated:
        write_atomically(path, b"".join(whole))
    elif repair and kept < len(data):
        with path.open("r+b") as f:
            f.truncate(kept)
            os.fsync(f.fileno())
    return finished, repeated


def _check_entry(
    path: Path, index: int, entry: Finished, plan: Plan, seen: dict[int, tuple[int, Any]]
) -> None:
    where = f"{path}, line {index}"
    if not 0 <= entry.number < plan.games:
        raise TournamentError(f"{where}: game {entry.number} is not in the schedule")
    if entry.number in seen:
        raise TournamentError(
            f"{where}: game {entry.number} is in the journal twice, differently (line "
            f"{seen[entry.number][0]} says otherwise): which one the tournament wrote "
            "cannot be told; remove the wrong line, or resume in a new directory"
        )
    expected = plan.slot(entry.number)
    if entry.slot != expected:
        raise TournamentError(
            f"{where}: game {entry.number} does not match the schedule of this tournament"
        )


def remove_partial_records(games: Path) -> None:
    """Remove the temporary records of games that were under way when the
    tournament (or their worker) was killed."""
    for part in games.glob(".*.part"):
        with contextlib.suppress(OSError):
            part.unlink()
