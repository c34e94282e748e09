"""The referee's seal on a record: what it wrote, line by line, under a key only
its user can read.

A record is a text file: replaying it proves that its actions, scores and
result follow from its setup, but not who played (names, commands), under what
time limits, or with which faults, which no replay can recompute.  So the
referee seals each record it writes: the result line ends with ``"seal":
{"key": ID, "lines": MACS}``, where MACS holds, for each line of the record in
order (the result line without its seal), the first 8 bytes of the
HMAC-SHA256 of its position and its JSON (keys sorted) under the referee's key,
and ID names that key (a hash of it, never the key).

The key is made on first use, 32 random bytes readable by you only, in
``$XDG_DATA_HOME/tajmahal/referee.key`` (``~/.local/share/...``), or the file
``TAJMAHAL_REFEREE_KEY`` names (a server, a test).  ``replay --verify`` checks
the seal where that key is (the machine and user that played the game): a line
changed, added, moved or taken out since is named.  A record sealed under
another key cannot be checked here, and a record with its seal taken out proves
only what its replay does; the verdict says which.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import orjson

#: The environment variable naming the key file (else the default below).
KEY_VARIABLE: Final = "TAJMAHAL_REFEREE_KEY"
KEY_FILE: Final = "referee.key"
#: The bytes of each line's MAC kept in the seal.
MAC_BYTES: Final = 8
SEAL: Final = "seal"

#: What :func:`check` found (see :class:`Sealed`).
HERE: Final = "here"  # sealed under this machine's key, and intact
ELSEWHERE: Final = "elsewhere"  # sealed under another key: not checked
UNSEALED: Final = "unsealed"  # no seal


def key_path() -> Path:
    """Where the referee's key is (or will be made)."""
    named = os.environ.get(KEY_VARIABLE)
    if named:
        return Path(named)
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(data) / "tajmahal" / KEY_FILE


def load_key(create: bool = False) -> bytes | None:
    """The referee's key; made first if ``create`` (None where it cannot be read
    or made: records are then written without a seal)."""
    path = key_path()
    with contextlib.suppress(OSError):
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    if not create:
        return None
    try:
        return _make_key(path)
    except OSError:
        return None


def _make_key(path: Path) -> bytes:
    """Make the key at ``path`` whole or not at all (several workers may race:
    the first link wins, the others read it)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path.read_bytes()


def key_id(key: bytes) -> str:
    """A name for ``key`` that tells nothing of it."""
    return hashlib.sha256(b"tajmahal referee key\0" + key).hexdigest()[:16]


def line_mac(key: bytes, position: int, data: Any) -> bytes:
    """The MAC of the record's line at ``position`` (0: the header) holding ``data``."""
    body = b"%d\n" % position + orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return hmac.new(key, body, "sha256").digest()[:MAC_BYTES]


class Sealer:
    """The MACs of a record's lines as the referee writes them (under ``key``)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.macs: list[bytes] = []

    def add(self, data: Any) -> None:
        self.macs.append(line_mac(self.key, len(self.macs), data))

    def sealed(self, last: dict[str, Any]) -> dict[str, Any]:
        """The last line ``last`` with the seal of the whole record in it."""
        self.add(last)
        return {**last, SEAL: {"key": key_id(self.key), "lines": b"".join(self.macs).hex()}}


class SealError(Exception):
    """A seal that does not hold: ``position`` is the first line it disowns (None:
    the seal itself is malformed, or the record has lines it does not cover)."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


def check(lines: Sequence[Any], key: bytes | None) -> str:
    """Whether the record of ``lines`` (parsed, in order, the last the result line
    with its seal) is as the referee sealed it: :data:`HERE`, :data:`ELSEWHERE`
    or :data:`UNSEALED`; raises :class:`SealError` where it is not."""
    last = lines[-1] if lines else None
    if not isinstance(last, dict) or SEAL not in last:
        return UNSEALED
    seal = last[SEAL]
    if (
        not isinstance(seal, dict)
        or set(seal) != {"key", "lines"}
        or not isinstance(seal["key"], str)
        or not isinstance(seal["lines"], str)
    ):
        raise SealError('"seal" must be {"key": ID, "lines": MACS}')
    try:
        macs = bytes.fromhex(seal["lines"])
    except ValueError:
        raise SealError('"seal": its "lines" are not hexadecimal') from None
    if key is None or not hmac.compare_digest(seal["key"], key_id(key)):
        return ELSEWHERE
    count = len(macs) // MAC_BYTES
    if len(macs) % MAC_BYTES:
        raise SealError('"seal": its "lines" are cut short')
    unsealed_last = {k: v for k, v in last.items() if k != SEAL}
    datas = [*lines[:-1], unsealed_last]
    for position, data in enumerate(datas):
        if position >= count:
            raise SealError(
                f"the seal covers {count} lines, the record has {len(datas)}", position
            )
        given = macs[position * MAC_BYTES : (position + 1) * MAC_BYTES]
        if not hmac.compare_digest(given, line_mac(key, position, data)):
            raise SealError("not as the referee wrote it (the seal does not match)", position)
    if count != len(datas):
        raise SealError(f"the seal covers {count} lines, the record has {len(datas)}")
    return HERE
