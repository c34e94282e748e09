"""The sandbox: each bot's process tree in namespaces of its own (bubblewrap).

A sandboxed bot is started as ``bwrap OPTIONS -- PYTHON confine.py LIMITS --
BOT ARGV``: bubblewrap (Debian's ``bubblewrap`` package, which needs no
privilege: unprivileged user namespaces) puts it in its own

- *user* namespace, as user ``nobody`` (65534) with no capabilities, unable to
  make further user namespaces (``--disable-userns``);
- *network* namespace with nothing but a loopback of its own: no TCP, UDP,
  MPTCP, raw or packet socket reaches anything outside, nor another seat's bot;
- *IPC* namespace (System V shared memory, semaphores and message queues of its
  own) and *UTS* namespace;
- *PID* namespace with its own ``/proc``: the referee, the tournament worker,
  the other seats' bots and every other process of the machine are invisible
  and out of reach of signals and ``ptrace``; so are their command lines
  (the seed), environments, memory maps and file descriptors;
- *mount* namespace holding only: the system directories read-only (``/usr``,
  ``/bin``, ``/lib*``, ``/sbin`` and ``/etc``, with every file and directory of
  ``/etc`` that only its owner may read hidden: ``/etc/shadow``...), Python's
  installation and the directories it imports from, Node.js's, and the bot's
  own directory, read-only; a private ``/tmp`` (its ``HOME`` and ``TMPDIR``,
  :data:`TMP_SIZE` bytes at most, gone with it); a minimal ``/dev`` (``null``,
  ``zero``, ``random``, ``urandom``, a private ``pts``: no terminal of yours).
  The records, logs and tournament directory of the game are hidden even when
  they lie beneath a directory it may read;
- a seccomp filter (:mod:`~tajmahal.arena.syscalls`) that refuses the system
  calls reaching what every process of the machine shares (file locks, the
  page cache's state, file watches, the kernel log, keyrings, ``AF_VSOCK``),
  ``io_uring``, and calls no bot needs; and the machine-wide counters of
  ``/proc`` that a bot could move and another read (:data:`HIDDEN_COUNTERS`)
  are hidden;
- new session, so it has no controlling terminal; its environment holds only
  ``PATH``, ``HOME``, ``TMPDIR`` and the language (``LANG``, ``LC_ALL``);
- and it dies with its referee (``--die-with-parent``).

Inside, :mod:`~tajmahal.arena.confine` adds what the kernel offers: a Landlock
domain over the same directories (writes in ``/tmp`` only, no new files in
``/dev``), ``no_new_privs``, no core dumps and at most :data:`PROCESSES`
processes (``RLIMIT_NPROC``, counted in its own user namespace; the kernel does
not apply it to root's processes).  Outside, before ``bwrap``, a shell puts
the bot in its cgroup (:mod:`~tajmahal.arena.cgroups`: the ``--memory`` bound
for its whole tree and a CPU share) where the system allows one.

:func:`unavailable` says why the sandbox cannot be had here (no Linux, no
``bwrap``, no libseccomp, user namespaces refused).  Without the sandbox,
:func:`command` still starts a bot through the launcher where that adds
something: its cgroup, and (Landlock ABI 6, Linux 6.12+) signals kept to its
own process tree, so that it cannot kill or stop its referee, its tournament
worker, or another seat's bot.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from shutil import which
from typing import Final

from attrs import frozen

from . import cgroups, confine, syscalls

#: Bytes a sandboxed bot may keep in its ``/tmp`` (and as much in ``/dev/shm``).
TMP_SIZE: Final = 256 << 20
#: Processes a sandboxed bot may run at once (not enforced for root).
PROCESSES: Final = 256
#: The user a bot is in its sandbox.
NOBODY: Final = 65534
#: The directories of the system a sandboxed bot reads (each a directory, or on
#: a merged-/usr system a link into ``/usr``).
SYSTEM_DIRS: Final = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
#: Directories the sandbox makes its own: never bound from the system whole.
_OWN_DIRS: Final = ("/tmp", "/dev", "/proc")
#: The sandbox's option turning it off, for the messages that name it.
OFF: Final = "--no-sandbox"
_LAUNCHER: Final = os.path.abspath(confine.__file__)


def _linux() -> bool:
    return sys.platform.startswith("linux")


@functools.cache
def _bwrap() -> tuple[str, bool] | None:
    """The ``bwrap`` program, and whether it can forbid nested user namespaces
    (``--disable-userns``: bubblewrap 0.8); None if it is not installed."""
    path = which("bwrap")
    if path is None:
        return None
    try:
        usage = subprocess.run(
            [path, "--help"], capture_output=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return path, b"--disable-userns" in usage


@functools.cache
def unavailable() -> str | None:
    """Why bots cannot be sandboxed on this system (None: they can).  The first
    call starts ``true`` in the sandbox's namespaces to find out (a few ms)."""
    if not _linux():
        return "the sandbox needs Linux (namespaces)"
    found = _bwrap()
    if found is None:
        return (
            "the sandbox needs bubblewrap, which is not installed "
            "(Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"
        )
    bwrap, no_userns = found
    no_filter = syscalls.unavailable()
    if no_filter is not None:
        return no_filter
    rules = syscalls.descriptor()
    probe = [
        bwrap, *_namespace_options(no_userns), "--seccomp", str(rules), "--ro-bind", "/", "/",
        "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--", which("true") or "/bin/true",
    ]
    try:
        done = subprocess.run(
            probe, capture_output=True, timeout=30, check=False, stdin=subprocess.DEVNULL,
            pass_fds=(rules,),
        )
    except (OSError, subprocess.SubprocessError) as e:
        return f"the sandbox could not be started here: {e}"
    finally:
        os.close(rules)
    if done.returncode == 0:
        return None
    why = done.stderr.decode("utf-8", "replace").strip().splitlines()
    detail = why[-1] if why else f"exit status {done.returncode}"
    return (
        f"the sandbox could not be started here ({detail}): it needs unprivileged user "
        "namespaces, which this system refuses (sysctl kernel.unprivileged_userns_clone, "
        "user.max_user_namespaces, or an AppArmor restriction)"
    )


def scope_available() -> bool:
    """Whether bots outside the sandbox can be kept from signalling processes
    outside their own tree (Landlock ABI 6, Linux 6.12 or later)."""
    return confine.landlock_abi() >= confine.SCOPE_ABI


@frozen
class Launch:
    """How to start a bot: its command line, and the file descriptors it is handed
    (``fds``: the sandbox's seccomp filter, which ``bwrap`` reads at its start).
    Whoever starts it passes ``fds`` to it and closes them (:meth:`close`)."""

    argv: tuple[str, ...]
    fds: tuple[int, ...] = ()

    def close(self) -> None:
        """Close the descriptors (once the bot is started, or if it never is)."""
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def command(
    argv: Sequence[str],
    *,
    sandbox: bool,
    group: cgroups.Group | None = None,
    hide: Iterable[Path] = (),
    hide_files: Iterable[Path] = (),
    home: str | None = None,
) -> Launch:
    """How to start the bot ``argv`` in the sandbox (``sandbox``), or confined as
    far as can be without it, in its cgroup ``group`` (None: none); ``hide``:
    directories of the referee's (records, logs, a tournament) the bot must not
    see; ``hide_files``: files of the referee's (its key) it must not read,
    covered where they lie in a directory it reads (``/dev/null`` bound on them:
    the bot can neither open nor read them); ``home``: the bot's own folder (a
    ladder's copy of it), which it starts in and may read (else the folders of
    its program and script; it starts in this directory)."""
    if not sandbox:
        limits = [*cgroups.join_options(group), *(["--scope"] if scope_available() else [])]
        if not limits:
            return Launch(tuple(argv))
        return Launch((sys.executable, "-I", "-S", _LAUNCHER, *limits, "--", *argv))
    limits = []
    found = _bwrap()
    if found is None:
        raise OSError("bwrap is not installed")
    bwrap, no_userns = found
    argv = resolved(_absolute(argv, home))
    readable = readable_paths(argv, home)
    hide = list(hide)
    for folder in hide:
        seen = exposed(argv, folder, home)
        if seen is not None:
            raise ValueError(
                f"the sandbox of {argv[-1]!r} would let it read {folder} (through {seen})"
            )
    rules = syscalls.descriptor()
    options = [
        *_namespace_options(no_userns), "--hostname", "sandbox", "--seccomp", str(rules),
        *_system_options(),
        "--proc", "/proc", *_counters_hidden(), "--dev", "/dev",
        "--size", str(TMP_SIZE), "--perms", "1777", "--tmpfs", "/tmp",
        "--size", str(TMP_SIZE), "--tmpfs", "/dev/shm",
    ]
    for path in readable:  # after /tmp: a bot beneath /tmp is seen in its private one
        options += ["--ro-bind", path, path]
    masked = _masked(hide, readable)
    for directory in masked:
        options += ["--tmpfs", directory, "--remount-ro", directory]
    for path in _masked_files(hide_files, readable, masked):
        options += ["--ro-bind", "/dev/null", path]
    options += [
        "--chdir", _working_dir(readable, hide) if home is None else os.path.abspath(home),
        "--clearenv", *_environment_options(),
    ]
    limits += ["--processes", str(PROCESSES)]
    for directory in (*SYSTEM_DIRS, *readable, "/proc"):
        limits += ["--read", directory]
    limits += ["--write", "/tmp", "--write", "/dev/shm", "--devices", "/dev"]
    inside = (bwrap, *options, "--", sys.executable, "-I", "-S", _LAUNCHER, *limits, "--", *argv)
    if group is not None:  # a shell joins the group outside, then becomes bwrap
        return Launch((_SHELL, "-c", _JOIN, "tajmahal-join", *group.procs, "--", *inside),
                      (rules,))
    return Launch(inside, (rules,))


_SHELL: Final = which("sh") or "/bin/sh"
#: Join the cgroups whose ``cgroup.procs`` files come before ``--``, then become
#: the command after it (a shell starts in a millisecond, Python in tens).
_JOIN: Final = (
    'for f do [ "$f" = -- ] && break; echo $$ 2>/dev/null >"$f" || '
    '{ echo "tajmahal sandbox: cannot join the cgroup $f" >&2; exit 126; }; shift; done; '
    'shift; exec "$@"'
)


#: Machine-wide counters in ``/proc`` that a bot could move and another read
#: exactly (open files, inodes, dentries, file locks): hidden in the sandbox.
#: (Coarser ones, such as free memory and the load, stay: see docs/cli.md.)
HIDDEN_COUNTERS: Final = (
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/fs/aio-nr",
    "/proc/locks",
)


def _counters_hidden() -> list[str]:
    """Options that cover :data:`HIDDEN_COUNTERS` with an empty file."""
    options: list[str] = []
    for path in HIDDEN_COUNTERS:
        if os.path.exists(path):
            options += ["--ro-bind", "/dev/null", path]
    return options


def _namespace_options(no_userns: bool) -> list[str]:
    """A new namespace of every kind, as ``nobody`` with no capability (nor any
    way to a new user namespace), in a session of its own, dying with its parent."""
    return [
        "--unshare-all", "--unshare-user", *(["--disable-userns"] if no_userns else []),
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--uid", str(NOBODY), "--gid", str(NOBODY),
    ]


def _absolute(argv: Sequence[str], home: str | None = None) -> list[str]:
    """``argv`` with its program and script (the first two arguments) made
    absolute paths when they name files relative to this directory (or to
    ``home``): the bot may start in another working directory (see
    :func:`_working_dir`)."""
    out = list(argv)
    base = os.path.abspath(home or os.curdir)
    for index, arg in enumerate(out[:2]):
        path = os.path.join(base, arg)
        if os.sep in arg and not os.path.isabs(arg) and os.path.exists(path):
            out[index] = path
    return out


#: Programs that are interpreters the sandbox asks where they live (python,
#: python3.12, pypy3; node), and what it asks them: their real executable, then
#: the directories they read (installation and import path), as JSON.
_PYTHON: Final = re.compile(r"(python|pypy)[0-9.]*")
_NODE: Final = frozenset({"node", "nodejs"})
_ASK_PYTHON: Final = (
    "import json, os, sys; print(json.dumps([os.path.realpath(sys.executable), sys.prefix, "
    "sys.base_prefix, sys.exec_prefix, *[p for p in sys.path if os.path.isabs(p)]]))"
)
_ASK_NODE: Final = (
    "const fs = require('fs'), path = require('path'); "
    "const real = fs.realpathSync(process.execPath); "
    "console.log(JSON.stringify([real, path.dirname(path.dirname(real))]))"
)


def resolved(argv: Sequence[str]) -> list[str]:
    """``argv`` with an interpreter that lives outside the system's folders (a
    version manager's shim: pyenv, asdf, mise; conda's or nvm's binary) given by
    its real path, as it answers from outside the sandbox (:func:`interpreter`):
    a shim runs its manager from a home folder the sandbox hides."""
    found = interpreter(argv[0]) if argv else None
    return [found[0], *argv[1:]] if found is not None else list(argv)


@functools.cache
def interpreter(program: str) -> tuple[str, tuple[str, ...]] | None:
    """The real executable of the interpreter ``program`` (python*, pypy*, node;
    a name on the PATH or a path) and the directories it reads, when it lies
    outside the system's folders; asked of the interpreter itself, in the
    environment a sandboxed bot gets, from this folder (where a shim reads its
    ``.python-version``).  None for another program, one in the system's
    folders or this Python, or one that does not answer."""
    name = os.path.basename(program)
    if _PYTHON.fullmatch(name):
        ask = ["-I", "-c", _ASK_PYTHON]
    elif name in _NODE:
        ask = ["-e", _ASK_NODE]
    else:
        return None
    where = program if os.sep in program else which(program)
    if where is None or _in_system(os.path.realpath(where)):
        return None
    if os.path.realpath(where) == os.path.realpath(sys.executable):
        return None  # this Python: readable already
    try:
        done = subprocess.run(
            [where, *ask], capture_output=True, timeout=30, env=_environment(),
            stdin=subprocess.DEVNULL, check=False,
        )
        answer = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if done.returncode != 0 or not isinstance(answer, list) or not answer:
        return None
    if not all(isinstance(a, str) and os.path.isabs(a) for a in answer):
        return None
    real = answer[0]
    dirs = tuple(d for d in answer[1:] if os.path.isdir(d) and not _holds_a_home(d))
    return (real, dirs) if os.path.isfile(real) else None


def _in_system(path: str) -> bool:
    """Whether ``path`` lies in a system directory the sandbox shows."""
    return any(
        _beneath(path, os.path.realpath(d)) for d in SYSTEM_DIRS if os.path.isdir(d)
    )


def _holds_a_home(directory: str) -> bool:
    """Whether ``directory`` is a home folder or holds one (``/``, ``/home``):
    never bound whole for an interpreter."""
    homes = {os.path.expanduser("~"), os.environ.get("HOME", "/")}
    real = os.path.realpath(directory)
    return any(_beneath(os.path.realpath(h), real) for h in homes if h)


def readable_paths(argv: Sequence[str], home: str | None = None) -> list[str]:
    """The directories, besides the system's, a sandboxed bot may read: Python's
    (its installation, this package's, the import path's) and Node's, and those
    of the bot's program and script (the first arguments that name files; the
    files alone when they lie directly in ``/``, ``/tmp`` or another directory
    the sandbox makes its own), and the bot's ``home``; for an interpreter from
    outside the system's folders (:func:`interpreter`), its installation and
    import path (never a home folder whole)."""
    dirs = [sys.prefix, sys.base_prefix, sys.exec_prefix]
    if home is not None:
        dirs.append(os.path.abspath(home))
    dirs.append(str(Path(os.path.realpath(sys.executable)).parent.parent))
    dirs.append(str(Path(_LAUNCHER).parents[2]))  # the directory holding this package
    here = os.getcwd()  # on the import path of `python -m` (a tournament worker)
    dirs += [p for p in sys.path if p and os.path.isabs(p) and p != here and os.path.isdir(p)]
    found = interpreter(argv[0]) if argv else None
    if found is not None:
        dirs += found[1]
    node = which("node")
    if node is not None:
        dirs.append(str(Path(os.path.realpath(node)).parent.parent))
    files = []
    for arg in argv[:2]:
        program = arg if os.sep in arg else which(arg)
        if program and os.path.isfile(program):
            for path in {os.path.realpath(program), os.path.abspath(program)}:
                parent = os.path.dirname(path)
                if any(_beneath(own, parent) for own in _OWN_DIRS):  # "/", "/tmp"...
                    files.append(path)
                else:
                    dirs.append(parent)
    system = tuple(d for d in SYSTEM_DIRS if not os.path.islink(d))
    kept = {d for d in map(os.path.normpath, dirs) if os.path.isdir(d)}
    kept -= {d for d in kept if any(_beneath(own, d) for own in _OWN_DIRS)}
    kept |= set(files)
    # A path beneath another one is bound with it; the system's are bound anyway.
    return sorted(
        d for d in kept if not any(_beneath(d, other) for other in (*kept - {d}, *system))
    )


#: An absolute path in a script's text (a shim's ``exec "/root/.pyenv/libexec/pyenv"``).
_PATH_IN_TEXT: Final = re.compile(r"/[\w.+@-]+(?:/[\w.+@-]+)+")


def hidden_need(argv: Sequence[str], home: str | None = None) -> str | None:
    """Why the bot ``argv`` cannot run in the sandbox although it runs outside:
    its program is a script (a version manager's shim, say) whose interpreter, or
    a program it runs by its path, lies where the sandbox hides it (a home
    folder); the message names it and how to get past it.  None when nothing
    such is seen (an interpreter is resolved instead: :func:`resolved`); ``home``:
    the folder the bot runs in, as for :func:`command`."""
    argv = resolved(_absolute(argv, home))
    if not argv:
        return None
    program = argv[0]
    where = program if os.sep in program else which(program)
    if where is None or not os.path.isfile(where):
        return None
    try:
        with open(where, "rb") as f:
            head = f.read(8192)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    text = head.decode("latin-1")
    words = text[2:].splitlines()[0].split()
    needed = words[:1]
    if words and os.path.basename(words[0]) == "env":
        named = [w for w in words[1:] if not w.startswith("-")]
        found = which(named[0]) if named else None
        needed = [found] if found else []
    needed += _PATH_IN_TEXT.findall(text)
    readable = [*(d for d in SYSTEM_DIRS if os.path.isdir(d)), *readable_paths(argv, home)]
    for need in needed:
        if not (os.path.isfile(need) and os.access(need, os.X_OK)):
            continue
        if any(_beneath(os.path.realpath(need), os.path.realpath(d)) for d in readable):
            continue
        folder = os.path.dirname(where)
        manager = os.path.basename(os.path.dirname(folder)).lstrip(".")  # ~/.pyenv/shims
        how = (
            f" (a version manager's shim: `{manager} which {os.path.basename(where)}` "
            "prints it)" if os.path.basename(folder) == "shims" and manager else ""
        )
        what = f"{where} is a script" if os.sep in program else f"{program!r} is {where}, a script"
        return (
            f"{what} that runs {need}, which the sandbox "
            "hides (it shows the system's folders, Python's and Node's, and the bot's "
            f"own, never your home folder): give the program by its real path{how}, "
            f"or play with {OFF}"
        )
    return None


def _beneath(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _system_options() -> list[str]:
    """The system directories, read-only (a merged-/usr system's links as
    links), with what only its owner may read in ``/etc`` hidden."""
    options: list[str] = []
    for directory in SYSTEM_DIRS:
        if os.path.islink(directory):
            options += ["--symlink", os.readlink(directory), directory]
        elif os.path.isdir(directory):
            options += ["--ro-bind", directory, directory]
    for path in _private_in("/etc"):
        if os.path.isdir(path):
            options += ["--tmpfs", path, "--remount-ro", path]
        else:
            options += ["--ro-bind", "/dev/null", path]
    return options


@functools.cache
def _private_in(top: str) -> tuple[str, ...]:
    """The files and directories beneath ``top`` that other users may not read
    (``/etc/shadow``, ``/etc/ssl/private``): as root, a sandboxed bot is their
    owner."""
    found = []
    for root, dirs, files in os.walk(top):
        for name in list(dirs):
            path = os.path.join(root, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode) and mode & 0o005 != 0o005:
                found.append(path)
                dirs.remove(name)
        for name in files:
            path = os.path.join(root, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISREG(mode) and not mode & 0o004:
                found.append(path)
    return tuple(found)


def exposed(argv: Sequence[str], directory: Path, home: str | None = None) -> str | None:
    """The directory the sandbox of the bot ``argv`` would let it read that makes
    ``directory`` (of the referee's: records, logs, a tournament) readable too:
    ``directory`` is that directory itself or holds it (then it cannot be hidden),
    or lies in a system directory; None if it is out of the bot's sight or
    hidden (beneath a directory it reads, see :func:`_masked`)."""
    path = os.path.abspath(directory)
    for system in SYSTEM_DIRS:
        if not os.path.islink(system) and _beneath(path, system):
            return system
    readable = readable_paths(_absolute(argv, home), home)
    if not any(_beneath(path, d) for d in readable):
        return None  # not in the sandbox at all
    for d in readable:
        if _beneath(d, path):  # the same directory, or one it holds: not to be hidden
            return d
    return None


def _masked(hide: Iterable[Path], readable: Sequence[str]) -> list[str]:
    """The directories of ``hide`` to cover with an empty one: those beneath a
    readable directory (elsewhere they are not in the sandbox at all), unless
    one holds a readable directory (the bot's own, which it must see)."""
    masked = []
    for path in hide:
        directory = os.path.abspath(path)
        inside = any(_beneath(directory, d) and directory != d for d in readable)
        holds = any(_beneath(d, directory) for d in readable)
        if inside and not holds:
            masked.append(directory)
    # One beneath another is hidden with it.
    return sorted(
        d for d in set(masked) if not any(_beneath(d, o) and d != o for o in masked)
    )


def _masked_files(
    files: Iterable[Path], readable: Sequence[str], masked: Sequence[str]
) -> list[str]:
    """The files of ``files`` to cover with an empty one: those that are there
    and lie beneath a readable directory, but not in a hidden one."""
    found = []
    for path in files:
        for name in sorted({os.path.abspath(path), os.path.realpath(path)}):
            if (
                os.path.isfile(name)
                and any(_beneath(name, d) and name != d for d in readable)
                and not any(_beneath(name, d) for d in masked)
            ):
                found.append(name)
    return found


def _working_dir(readable: Sequence[str], hide: Iterable[Path]) -> str:
    """The bot starts in this directory where the sandbox has it (beneath a
    readable directory, or on the way to one), else in ``/tmp``."""
    here = os.getcwd()
    seen = any(_beneath(here, d) or _beneath(d, here) for d in readable)
    hidden = any(_beneath(here, os.path.abspath(h)) for h in hide)
    return here if seen and not hidden else "/tmp"


def _environment() -> dict[str, str]:
    """A sandboxed bot's environment: nothing of the referee's but the path and
    the language."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": "/tmp", "TMPDIR": "/tmp"}
    for key in ("LANG", "LC_ALL"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def _environment_options() -> list[str]:
    options = []
    for key, value in _environment().items():
        options += ["--setenv", key, value]
    return options
