"""Bot folders: checked, content-hashed, and kept as immutable versions.

A bot version is a folder and the command that starts the bot in it.  Before
anything of it runs, a folder (given as a directory, or uploaded as a tar or
zip archive) is checked:

- at most :data:`MAX_FILES` entries and :data:`MAX_BYTES` bytes in all (an
  archive: at most :data:`MAX_ARCHIVE` bytes itself, and it is unpacked with
  every byte counted, so a zip bomb stops at the limit);
- only files, folders and links that stay inside the folder (no absolute
  path, no ``..``, no link out of it, no device or pipe);
- a manifest, :data:`BOT_MANIFEST` (``{"command": "python3 main.py"}``), or
  a command given, whose program or script is in the folder or on the PATH.

The version's digest is the SHA-256 of its command and of every entry (path,
kind, whether executable, content or link target), so the same folder and
command always give the same digest.  Stored, it is copied to
``versions/DIGEST/`` and made read-only.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import stat
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO, Final

import orjson

from ..referee import BotSpec
from ..text import printable
from .database import LadderError

BOT_MANIFEST: Final = "bot.json"
MAX_ARCHIVE: Final = 64 << 20
MAX_BYTES: Final = 256 << 20
MAX_FILES: Final = 10_000
_CHUNK: Final = 1 << 16
_MANIFEST_FIELDS: Final = {"command", "description"}
_MAX_MANIFEST: Final = 64 << 10
#: What a command's second word names when it is the script a program runs.
_SCRIPTS: Final = (".py", ".js", ".mjs", ".jar", ".sh", ".rb", ".pl", ".lua", ".class")


class FolderError(LadderError):
    """A bot folder or archive that is refused (the message says why)."""


def read_manifest(folder: Path) -> str:
    """The command :data:`BOT_MANIFEST` names in ``folder``."""
    path = folder / BOT_MANIFEST
    if not path.is_file() or path.is_symlink():
        raise FolderError(
            f"no {BOT_MANIFEST} in the bot's folder: it names the command that starts the "
            'bot, e.g. {"command": "python3 main.py"}'
        )
    try:
        if path.stat().st_size > _MAX_MANIFEST:
            raise ValueError("too long")
        data = orjson.loads(path.read_bytes())
    except (OSError, ValueError) as e:
        raise FolderError(f"{BOT_MANIFEST}: not a JSON object ({e})") from None
    if not isinstance(data, dict):
        raise FolderError(f"{BOT_MANIFEST}: not a JSON object")
    unknown = sorted(set(data) - _MANIFEST_FIELDS)
    if unknown:
        raise FolderError(f"{BOT_MANIFEST}: unknown field {printable(unknown[0], limit=40)!r} "
                          f"(it has {', '.join(sorted(_MANIFEST_FIELDS))})")
    command = data.get("command")
    if not isinstance(command, str) or not command.strip():
        raise FolderError(f'{BOT_MANIFEST}: "command" must name the command that starts the bot')
    return command


def check_command(folder: Path, command: str) -> None:
    """A :class:`FolderError` unless ``command`` can start a bot in ``folder``: its
    program or ``.py``/``.js`` script a file there (or a program on the PATH)."""
    shown = printable(command, limit=120)
    try:
        spec = BotSpec.parse(command, [])
    except ValueError as e:
        raise FolderError(f"the command {shown!r}: {e}") from None
    for arg in spec.argv[:2]:
        if not os.path.isabs(arg) and os.sep in arg and ".." in PurePosixPath(arg).parts:
            raise FolderError(f"the command {shown!r} names a file outside the bot's folder")
    problem = spec.problem([], cwd=folder)
    script = spec.argv[1] if len(spec.argv) > 1 else ""
    named = script.endswith(_SCRIPTS) or "/" in script  # python3 main.py: main.py is there
    if problem is None and named and not (folder / script).is_file():
        problem = f"no such file {script!r}"
    if problem is not None:
        raise FolderError(f"the command {shown!r} cannot start the bot: {printable(problem)}")


def entries(folder: Path) -> list[tuple[str, Path]]:
    """The folder's entries (relative POSIX path, path), sorted, checked against
    the limits and the rules of the module's text."""
    found: list[tuple[str, Path]] = []
    total = 0
    root = folder.resolve()
    for directory, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(dirs) + sorted(files):
            path = Path(directory) / name
            relative = path.relative_to(folder).as_posix()
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                target = (path.parent / os.readlink(path)).resolve()
                if os.path.isabs(os.readlink(path)) or not _inside(target, root):
                    raise FolderError(f"{printable(relative)}: a link out of the bot's folder")
                if name in dirs:
                    dirs.remove(name)  # not followed: kept as a link
            elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise FolderError(f"{printable(relative)}: neither a file nor a folder")
            else:
                total += path.lstat().st_size if stat.S_ISREG(mode) else 0
            found.append((relative, path))
            if len(found) > MAX_FILES or total > MAX_BYTES:
                raise FolderError(
                    f"the bot's folder is too large (more than {MAX_FILES} entries or "
                    f"{MAX_BYTES >> 20} MiB)"
                )
    return found


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def digest(folder: Path, command: str) -> str:
    """The version's content digest (see the module's text)."""
    h = hashlib.sha256(b"tajmahal-ladder-version\0" + command.encode() + b"\0")
    for relative, path in entries(folder):
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            h.update(b"l\0" + relative.encode() + b"\0" + os.readlink(path).encode() + b"\0")
        elif stat.S_ISDIR(mode):
            h.update(b"d\0" + relative.encode() + b"\0")
        else:
            kind = b"x" if mode & 0o111 else b"f"
            content = hashlib.sha256()
            with path.open("rb") as f:
                while chunk := f.read(_CHUNK):
                    content.update(chunk)
            h.update(kind + b"\0" + relative.encode() + b"\0" + content.digest())
    return h.hexdigest()


def store(folder: Path, command: str, versions: Path) -> str:
    """Copy ``folder`` into ``versions/DIGEST`` (unless it is there already), read-only;
    its digest."""
    check_command(folder, command)
    name = digest(folder, command)
    target = versions / name
    if target.exists():
        return name
    tmp = Path(tempfile.mkdtemp(prefix=".new-", dir=versions))
    try:
        copy = tmp / "bot"
        shutil.copytree(folder, copy, symlinks=True)
        if digest(copy, command) != name:  # changed while it was copied
            raise FolderError("the bot's folder changed while it was copied: try again")
        _read_only(copy)
        os.replace(copy, target)
    except OSError as e:
        if not target.exists():
            raise LadderError(f"cannot store the bot's folder: {e.strerror or e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return name


def _read_only(folder: Path) -> None:
    """Files and folders readable by all (the sandbox's user too), writable by none."""
    for directory, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            path = Path(directory) / name
            if not path.is_symlink():
                path.chmod(0o555 if path.stat().st_mode & 0o111 else 0o444)
        for name in dirs:
            path = Path(directory) / name
            if not path.is_symlink():
                path.chmod(0o555)
    folder.chmod(0o555)


# -- archives


def unpack(data: bytes, into: Path) -> Path:
    """Unpack the tar or zip archive ``data`` into the empty folder ``into``; the
    bot's folder (``into``, or its one top folder when the manifest is there)."""
    if len(data) > MAX_ARCHIVE:
        raise FolderError(f"the archive is larger than {MAX_ARCHIVE >> 20} MiB")
    if zipfile.is_zipfile(io.BytesIO(data)):
        _unzip(data, into)
    else:
        _untar(data, into)
    top = [p for p in into.iterdir()]
    if not (into / BOT_MANIFEST).exists() and len(top) == 1 and top[0].is_dir():
        return top[0]
    return into


def _member_path(name: str) -> PurePosixPath:
    """An archive member's path, refused if it leaves the folder."""
    shown = printable(name, limit=120)
    if "\0" in name or "\\" in name:
        raise FolderError(f"{shown!r}: not a path an archive may hold")
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts:
        raise FolderError(f"{shown!r}: a path out of the bot's folder")
    return path


def _link_inside(member: PurePosixPath, target: str) -> bool:
    if not target or target.startswith("/"):
        return False
    depth = 0
    for part in (*member.parent.parts, *PurePosixPath(target).parts):
        depth = depth - 1 if part == ".." else depth if part == "." else depth + 1
        if depth < 0:
            return False
    return True


class _Budget:
    """Counts entries and bytes unpacked against the limits."""

    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def entry(self) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise FolderError(f"the archive holds more than {MAX_FILES} entries")

    def copy(self, source: IO[bytes], target: Path, executable: bool) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("xb") as out:
            while chunk := source.read(_CHUNK):
                self.bytes += len(chunk)
                if self.bytes > MAX_BYTES:
                    raise FolderError(f"the archive unpacks to more than {MAX_BYTES >> 20} MiB")
                out.write(chunk)
        target.chmod(0o755 if executable else 0o644)


def _untar(data: bytes, into: Path) -> None:
    budget = _Budget()
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
            for member in _tar_members(archive):
                budget.entry()
                path = _member_path(member.name)
                target = into.joinpath(*path.parts)
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                elif member.issym():
                    if not _link_inside(path, member.linkname):
                        raise FolderError(f"{printable(member.name)!r}: a link out of the folder")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.symlink_to(member.linkname)
                elif member.isfile() or member.islnk():
                    source = archive.extractfile(member)
                    if source is None:
                        raise FolderError(f"{printable(member.name)!r}: cannot be read")
                    budget.copy(source, target, bool(member.mode & 0o111))
                else:
                    raise FolderError(
                        f"{printable(member.name)!r}: neither a file, a folder nor a link")
    except (tarfile.TarError, EOFError, OSError, ValueError) as e:
        if isinstance(e, FileExistsError):
            raise FolderError(f"the archive holds {printable(str(e.filename))} twice") from None
        raise FolderError(f"not a tar or zip archive that can be read ({e})") from None


def _tar_members(archive: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    """The members, a hard link checked to point at an earlier member inside."""
    for member in archive:
        if member.islnk():
            _member_path(member.linkname)
        yield member


def _unzip(data: bytes, into: Path) -> None:
    budget = _Budget()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_FILES:
                raise FolderError(f"the archive holds more than {MAX_FILES} entries")
            if sum(i.file_size for i in infos) > MAX_BYTES:
                raise FolderError(f"the archive unpacks to more than {MAX_BYTES >> 20} MiB")
            for info in infos:
                budget.entry()
                path = _member_path(info.filename)
                target = into.joinpath(*path.parts)
                mode = info.external_attr >> 16
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                elif stat.S_ISLNK(mode):
                    link = archive.read(info)[:4096].decode("utf-8", "replace")
                    if not _link_inside(path, link):
                        raise FolderError(f"{printable(info.filename)!r}: a link out of the folder")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.symlink_to(link)
                elif stat.S_IFMT(mode) in (0, stat.S_IFREG):  # no type: a file (writestr)
                    with archive.open(info) as source:
                        budget.copy(source, target, bool(mode & 0o111))
                else:
                    raise FolderError(
                        f"{printable(info.filename)!r}: neither a file, a folder nor a link")
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
        if isinstance(e, FileExistsError):
            raise FolderError(f"the archive holds {printable(str(e.filename))} twice") from None
        raise FolderError(f"not a zip archive that can be read ({e})") from None
