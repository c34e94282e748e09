"""Two copies of this bot in one game try to talk through what the kernel shares
between sandboxes (the red team's round-4 channels), playing correctly
throughout, and write what happened as one JSON line on stderr (``probe: {...}``).

At its first decision each copy *sends*: it takes read locks (``fcntl`` POSIX
locks, open file description locks, ``flock``) on a file every sandbox binds
(this Python's executable: the same inode everywhere), on byte offsets that spell
its seat.  At its sixth it *listens* for the other seats' locks (``F_GETLK``,
``F_OFD_GETLK``, a non-blocking exclusive ``flock``) and reports the seats it
heard on each channel.  On the way it tries the other calls the sandbox's filter
refuses, each ``"done"`` or the name of its error: ``io_uring``, the page cache's
state (``cachestat``, ``mincore``, ``posix_fadvise``, ``preadv2`` with
``RWF_NOWAIT``, ``MADV_PAGEOUT``), file watches (``inotify``, ``F_NOTIFY``), a
lease, the kernel log, keyrings, an ``AF_VSOCK`` socket, ``perf_event_open``, the
machine-wide counters of ``/proc``, and ``fcntl`` with a lock command hidden in
the high bits of its argument.  ``argv[1]`` = ``x32``: it makes an x32 system call
at its first decision instead (the sandbox kills it).
"""

import contextlib
import ctypes
import errno
import json
import mmap
import os
import signal
import socket
import struct
import sys

LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
SHARED = os.path.realpath(sys.executable)
BASE = 1 << 20  # beyond anything the runtime itself locks
F_GETLK, F_SETLK, F_OFD_GETLK, F_OFD_SETLK = 5, 6, 36, 37
F_SETLEASE, F_NOTIFY = 1024, 1026
F_RDLCK, F_WRLCK, F_UNLCK = 0, 1, 2
LOCK_SH, LOCK_EX, LOCK_NB = 1, 2, 4
SYS = {  # x86_64 and aarch64 numbers of the calls Python does not wrap
    "x86_64": {"fcntl": 72, "flock": 73, "io_uring_setup": 425, "cachestat": 451,
               "mincore": 27, "keyctl": 250, "perf_event_open": 298, "syslog": 103,
               "inotify_init1": 294},
    "aarch64": {"fcntl": 25, "flock": 32, "io_uring_setup": 425, "cachestat": 451,
                "mincore": 232, "keyctl": 219, "perf_event_open": 241, "syslog": 116,
                "inotify_init1": 26},
}[os.uname().machine]
FLOCK = "hhqqi4x"  # struct flock: type, whence, start, len, pid (64-bit)


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def syscall(name: str, *args: object) -> int:
    result = LIBC.syscall(SYS[name], *args)
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    return result


def attempt(action) -> str:
    try:
        action()
    except OSError as e:
        return errno.errorcode.get(e.errno or 0, type(e).__name__)
    return "done"


def lock_bytes(fd: int, command: int, seat: int) -> None:
    for bit in range(8):
        if (0xA0 | seat) >> bit & 1:
            arg = struct.pack(FLOCK, F_RDLCK, 0, BASE + 64 * seat + bit, 1, 0)
            buffer = ctypes.create_string_buffer(arg)
            syscall("fcntl", fd, command, buffer)


def heard_locks(fd: int, command: int, seat: int) -> list[int]:
    """The seats whose spelled value this copy finds locked (``command``: a GETLK)."""
    heard = []
    for other in range(5):
        if other == seat:
            continue
        value = 0
        for bit in range(8):
            arg = struct.pack(FLOCK, F_WRLCK, 0, BASE + 64 * other + bit, 1, 0)
            buffer = ctypes.create_string_buffer(arg)
            syscall("fcntl", fd, command, buffer)
            if struct.unpack(FLOCK, buffer.raw[: struct.calcsize(FLOCK)])[0] != F_UNLCK:
                value |= 1 << bit
        if value == 0xA0 | other:
            heard.append(other)
    return heard


def flock_file(seat: int) -> str:
    """The file the copy at ``seat`` holds a shared ``flock`` on."""
    return os.path.realpath(os.__file__) if seat % 2 else SHARED


class Probe:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.report: dict = {}
        self.kept: list[int] = []

    def open_shared(self) -> int:
        fd = os.open(SHARED, os.O_RDONLY)
        self.kept.append(fd)
        return fd

    def speak(self) -> None:
        r = self.report
        r["posix_lock"] = attempt(lambda: lock_bytes(self.open_shared(), F_SETLK, self.seat))
        r["ofd_lock"] = attempt(lambda: lock_bytes(self.open_shared(), F_OFD_SETLK, self.seat))
        path = flock_file(self.seat)
        r["flock"] = attempt(lambda: syscall("flock", self.open_shared_path(path), LOCK_SH))
        r["high_bits_lock"] = attempt(lambda: syscall(
            "fcntl", self.open_shared(), (1 << 32) | F_SETLK,
            ctypes.create_string_buffer(struct.pack(FLOCK, F_RDLCK, 0, BASE - 1, 1, 0))))
        r["lease"] = attempt(lambda: syscall("fcntl", self.open_shared(), F_SETLEASE, F_RDLCK))
        r["dnotify"] = attempt(lambda: syscall(
            "fcntl", os.open(os.path.dirname(SHARED), os.O_RDONLY), F_NOTIFY, 1))
        r["inotify"] = attempt(lambda: syscall("inotify_init1", 0))
        r["io_uring"] = attempt(lambda: syscall(
            "io_uring_setup", 4, ctypes.create_string_buffer(120)))
        r["cachestat"] = attempt(lambda: syscall(
            "cachestat", self.open_shared(), ctypes.create_string_buffer(16),
            ctypes.create_string_buffer(40), 0))
        r["mincore"] = attempt(self.mincore)
        r["fadvise"] = attempt(lambda: os.posix_fadvise(
            self.open_shared(), 0, 4096, os.POSIX_FADV_DONTNEED))
        r["nowait_read"] = attempt(lambda: os.preadv(
            self.open_shared(), [bytearray(4096)], 0, os.RWF_NOWAIT))
        r["pageout"] = attempt(self.pageout)
        r["syslog"] = attempt(lambda: syscall("syslog", 3, ctypes.create_string_buffer(4096), 4096))
        r["keyctl"] = attempt(lambda: syscall("keyctl", 0, -3, 0))  # KEYCTL_GET_KEYRING_ID user
        r["perf"] = attempt(lambda: syscall(
            "perf_event_open", ctypes.create_string_buffer(128), 0, -1, -1, 0))
        r["vsock"] = attempt(lambda: socket.socket(40, socket.SOCK_STREAM).close())
        r["file_nr"] = attempt(lambda: self.counter("/proc/sys/fs/file-nr"))
        r["proc_locks"] = attempt(lambda: self.counter("/proc/locks"))

    def open_shared_path(self, path: str) -> int:
        fd = os.open(path, os.O_RDONLY)
        self.kept.append(fd)
        return fd

    def mincore(self) -> None:
        """The call on an anonymous page of its own: the call itself is what is tried."""
        page = mmap.mmap(-1, 4096)
        buffer = (ctypes.c_char * 4096).from_buffer(page)
        try:
            syscall("mincore", ctypes.c_void_p(ctypes.addressof(buffer)), 4096,
                    ctypes.create_string_buffer(1))
        finally:
            del buffer
            page.close()

    def pageout(self) -> None:
        with open(SHARED, "rb") as f, mmap.mmap(f.fileno(), 4096, prot=mmap.PROT_READ) as view:
            view.madvise(21)  # MADV_PAGEOUT

    def counter(self, path: str) -> None:
        with open(path, "rb") as f:
            if not f.read():
                raise OSError(errno.ENODATA, f"{path} is empty")

    def listen(self) -> None:
        r = self.report
        fd = os.open(SHARED, os.O_RDONLY)
        r["heard_posix"] = self.heard(lambda: heard_locks(fd, F_GETLK, self.seat))
        r["heard_ofd"] = self.heard(lambda: heard_locks(fd, F_OFD_GETLK, self.seat))
        other = os.open(flock_file(self.seat + 1), os.O_RDONLY)

        def flock_held() -> bool:
            """Whether another copy holds its lock on the file this one does not lock."""
            try:
                syscall("flock", other, LOCK_EX | LOCK_NB)
            except OSError as e:
                if e.errno == errno.EWOULDBLOCK:
                    return True
                raise
            syscall("flock", other, 8)  # LOCK_UN
            return False

        r["heard_flock"] = self.heard(flock_held)

    @staticmethod
    def heard(action) -> object:
        try:
            return action()
        except OSError as e:
            return errno.errorcode.get(e.errno or 0, type(e).__name__)


def main() -> None:
    signal.signal(signal.SIGIO, signal.SIG_IGN)  # what a directory watch (F_NOTIFY) sends
    x32 = sys.argv[1:] == ["x32"]
    probe: Probe | None = None
    asked = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            probe = Probe(message["seat"])
            send({"type": "hello", "name": "channel_probe", "version": "1",
                  "protocol_version": 1})
        elif message["type"] == "act":
            asked += 1
            assert probe is not None
            if asked == 1 and x32:
                print(f"x32 getpid: {LIBC.syscall(0x40000000 | 39)}", file=sys.stderr)
            elif asked == 1:
                probe.speak()
            elif asked == 6:
                probe.listen()
                print("probe: " + json.dumps(probe.report), file=sys.stderr, flush=True)
            send({"type": "action", "choice": 0})
    with contextlib.suppress(Exception):
        for fd in probe.kept if probe else []:
            os.close(fd)


if __name__ == "__main__":
    main()
