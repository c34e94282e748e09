"""A control group for each bot: its whole memory bounded, and a CPU share.

A bot's process tree is put in a cgroup of its own (the launcher writes its
process id into the group before it becomes the bot, or ``bwrap``), so that

- ``--memory MB`` bounds the memory of the whole tree, whatever holds it:
  processes, ``memfd`` and shared memory, files in the sandbox's ``/tmp`` and
  ``/dev/shm`` (tmpfs), the page cache it brings in.  Over the bound, the
  kernel's out-of-memory killer kills a process of the bot (never another
  bot's, nor the referee); swap is not a way round it;
- the bot gets at most one CPU (a quota of 100 ms every 100 ms), and as much
  weight as any other bot's group however many threads it runs: a bot that
  spins on every core slows the others no more than one thinking bot does.

Both cgroup versions are handled: v2 (the unified hierarchy), where the
controllers ``memory`` and ``cpu`` must be delegated to the referee's group
(``root``, or ``systemd-run --user -p Delegate=yes``; a group holding only the
referee is split into a leaf for it and the bots' groups beside it), and v1,
one hierarchy per controller.  :func:`unavailable` says why no group can be
made here; then ``--memory`` is refused and bots get no CPU share.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from attrs import frozen

#: The CPU quota of a bot: this many microseconds in each period of as many (one CPU).
CPU_PERIOD: Final = 100_000
#: The controllers a bot's group needs.
CONTROLLERS: Final = ("memory", "cpu")
_PREFIX: Final = "tajmahal-"
_COUNTER = itertools.count()
#: Seconds to wait for the processes of a group to be gone before removing it.
_REMOVE_WAIT: Final = 2.0


@frozen
class Hierarchy:
    """Where a bot's group is made: a cgroup v2 directory holding both
    controllers (``version`` 2), or one directory per controller (v1)."""

    version: int
    parents: tuple[Path, ...]


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """The cgroup mounts: (root within the hierarchy, mount point, type, options)."""
    found: list[tuple[str, str, str, set[str]]] = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        fields = line.split()
        try:
            dash = fields.index("-")
        except ValueError:
            continue
        kind = fields[dash + 1]
        if kind in ("cgroup", "cgroup2"):
            options = set(fields[dash + 3].split(",")) | set(fields[5].split(","))
            found.append((fields[3], fields[4], kind, options))
    return found


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy: controller (or "" for v2) -> path."""
    groups: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return groups
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            groups[controller] = path
    return groups


def _inside(mount_root: str, mount_point: str, path: str) -> Path:
    """The directory of group ``path`` under a mount of the hierarchy's ``mount_root``."""
    relative = os.path.relpath(path, mount_root) if path.startswith(mount_root) else path
    return Path(mount_point) / relative.lstrip("/").removeprefix(".")


def _writable(directory: Path) -> bool:
    return os.access(directory, os.W_OK | os.X_OK)


def _v1() -> Hierarchy | None:
    groups = _own_groups()
    parents = []
    for controller in CONTROLLERS:
        mount = next(
            (m for m in _mounts() if m[2] == "cgroup" and controller in m[3]), None
        )
        if mount is None or controller not in groups:
            return None
        directory = _inside(mount[0], mount[1], groups[controller])
        if not directory.is_dir() or not _writable(directory):
            return None
        parents.append(directory)
    return Hierarchy(1, tuple(parents))


def _read_words(path: Path) -> set[str]:
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def _v2() -> Hierarchy | None:
    mount = next((m for m in _mounts() if m[2] == "cgroup2"), None)
    own = _own_groups().get("")
    if mount is None or own is None:
        return None
    directory = _inside(mount[0], mount[1], own)
    wanted = set(CONTROLLERS)
    # The nearest group, ours or above, that hands both controllers to its children.
    for group in (directory, *directory.parents):
        if not _beneath(group, Path(mount[1])):
            break
        if wanted <= _read_words(group / "cgroup.subtree_control") and _writable(group):
            return Hierarchy(2, (group,))
    # Our own group, delegated but not split yet: only we are in it.
    if not wanted <= _read_words(directory / "cgroup.controllers") or not _writable(directory):
        return None
    if _read_words(directory / "cgroup.procs") != {str(os.getpid())}:
        return None
    leaf = directory / f"{_PREFIX}referee-{os.getpid()}"
    try:
        leaf.mkdir(exist_ok=True)
        (leaf / "cgroup.procs").write_text(str(os.getpid()))
        (directory / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in wanted))
    except OSError:
        return None
    return Hierarchy(2, (directory,))


def _beneath(path: Path, top: Path) -> bool:
    return path == top or top in path.parents


@functools.cache
def hierarchy() -> Hierarchy | None:
    """Where bots' groups are made here (None: nowhere).  v2 is preferred."""
    if not os.path.isdir("/sys/fs/cgroup"):
        return None
    found = _v2() or _v1()
    if found is not None:
        _sweep(found)
    return found


@functools.cache
def unavailable() -> str | None:
    """Why bots cannot get a cgroup of their own here (None: they can)."""
    if not os.path.isdir("/proc/self"):
        return "cgroups need Linux"
    if hierarchy() is not None:
        return None
    return (
        "no cgroup with the memory and cpu controllers can be made for the bots here "
        "(cgroup v2: run as root, or in a delegated group: systemd-run --user --scope -p "
        "Delegate=yes tajmahal ...; cgroup v1: the controllers' groups must be writable)"
    )


@frozen
class Group:
    """A bot's group: one directory (v2) or one per controller (v1)."""

    version: int
    directories: tuple[Path, ...]

    @property
    def procs(self) -> tuple[str, ...]:
        """The files the launcher writes its process id into."""
        return tuple(str(d / "cgroup.procs") for d in self.directories)

    def oom_killed(self) -> bool:
        """Whether the out-of-memory killer killed a process of the group."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        for directory in self.directories:
            for line in _lines(directory / name):
                key, _, value = line.partition(" ")
                if key == "oom_kill" and value.strip() not in ("", "0"):
                    return True
        return False

    def remove(self) -> None:
        """Remove the group once its processes are gone (they were killed)."""
        deadline = time.monotonic() + _REMOVE_WAIT
        for directory in self.directories:
            while True:
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # EBUSY: a process still exiting
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except OSError:
        return []


def create(memory: int | None) -> Group | None:
    """A new group for one bot: at most ``memory`` MB (None: no bound) and one
    CPU.  None where no group can be made (see :func:`unavailable`)."""
    found = hierarchy()
    if found is None:
        return None
    name = f"{_PREFIX}{os.getpid()}-{next(_COUNTER)}-{secrets.token_hex(3)}"
    made: list[Path] = []
    try:
        for parent in found.parents:
            directory = parent / name
            directory.mkdir()
            made.append(directory)
            if found.version == 2:
                _limit_v2(directory, memory)
            elif (directory / "memory.limit_in_bytes").exists():
                _limit_v1_memory(directory, memory)
            else:
                _limit_v1_cpu(directory)
    except OSError:
        Group(found.version, tuple(made)).remove()
        return None
    return Group(found.version, tuple(made))


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _limit_v2(directory: Path, memory: int | None) -> None:
    if memory is not None:
        _write(directory / "memory.max", str(memory << 20))
        if (directory / "memory.swap.max").exists():
            _write(directory / "memory.swap.max", "0")
    _write(directory / "cpu.max", f"{CPU_PERIOD} {CPU_PERIOD}")


def _limit_v1_memory(directory: Path, memory: int | None) -> None:
    if memory is None:
        return
    _write(directory / "memory.limit_in_bytes", str(memory << 20))
    if (directory / "memory.memsw.limit_in_bytes").exists():  # swap accounting on
        _write(directory / "memory.memsw.limit_in_bytes", str(memory << 20))


def _limit_v1_cpu(directory: Path) -> None:
    _write(directory / "cpu.cfs_period_us", str(CPU_PERIOD))
    _write(directory / "cpu.cfs_quota_us", str(CPU_PERIOD))


def _sweep(found: Hierarchy) -> None:
    """Remove the empty groups left by referees that died (best effort)."""
    for parent in found.parents:
        with contextlib.suppress(OSError):
            for entry in parent.iterdir():
                owner = entry.name.removeprefix(_PREFIX).split("-", 1)[0]
                if entry.name.startswith(_PREFIX) and owner.isdigit() and not _alive(
                    int(owner)
                ):
                    with contextlib.suppress(OSError):
                        entry.rmdir()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def join_options(group: Group | None) -> Sequence[str]:
    """The launcher's options that put it (and so the bot) in ``group``."""
    options: list[str] = []
    for path in group.procs if group is not None else ():
        options += ["--cgroup", path]
    return options
