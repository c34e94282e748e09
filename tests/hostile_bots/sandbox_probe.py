"""What a sandboxed bot can reach: at its first decision it tries each way out
below, at its sixth it looks for what the other probes of its game sent it, and
it writes what happened as one JSON line on stderr (``probe: {...}``), playing
correctly throughout.  Each attempt is ``"done"`` or the name of the error.

argv[1] is a JSON object of what the test set up outside the sandbox:
``dir`` (where the records go: to list, and to plant a file in), ``tcp``
and ``udp`` (ports listening on 127.0.0.1), ``unix`` (a Unix socket's path),
``abstract`` (an abstract Unix socket's name), ``shm`` (a System V shared
memory key), ``pty`` (a terminal's path), ``pid`` (a process of the test's, an
ancestor of the referee) and ``secret`` (the deal's seed written backwards, so
that this command line does not show it: to look for in every process it can
see).  Probes of one game also try to reach each other: over UDP
port ``udp + 1 + seat``, abstract socket ``abstract-seat``, shared memory key
``shm + 1 + seat``.  Needs nothing but the standard library (it runs sandboxed).
"""

import contextlib
import ctypes
import json
import os
import signal
import socket
import sys

CONFIG = json.loads(sys.argv[1])
LIBC = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000
IPPROTO_MPTCP = 262


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def attempt(action) -> str:
    try:
        action()
    except OSError as e:
        return type(e).__name__
    return "done"


def connect(family: int, kind: int, address, protocol: int = 0) -> None:
    with socket.socket(family, kind, protocol) as s:
        s.settimeout(1)
        s.connect(address)
        s.sendall(b"hello from the sandbox\n")


def shm_get(key: int) -> None:
    if LIBC.shmget(key, 0, 0) < 0:
        raise OSError(ctypes.get_errno(), "shmget")


def write_into(path: str) -> None:
    with open(path, "w") as f:
        f.write("planted")


def read(path: str) -> None:
    with open(path, "rb") as f:
        if not f.read(1):  # nothing seen
            raise OSError(f"{path} is empty")


def listing(path: str) -> None:
    if not os.listdir(path):
        raise OSError(f"{path} is empty")


def others() -> list[str]:
    """The command lines of the processes it sees that are not its own sandbox's
    (bwrap, the launcher, itself)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    line = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            program = os.path.basename(line.split(" ", 1)[0])
            if line and program != "bwrap" and "sandbox_probe.py" not in line:
                found.append(line[:100])
    return found


def seen_secret() -> list[str]:
    """The processes (pid: what) whose command line or environment shows the seed."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            for part in ("cmdline", "environ"):
                try:
                    with open(f"/proc/{pid}/{part}", "rb") as f:
                        if CONFIG["secret"][::-1].encode() in f.read():
                            found.append(f"{pid}: {part}")
                except OSError:
                    pass
    return found


def probe() -> dict:
    pid = CONFIG["pid"]
    return {
        "tcp": attempt(lambda: connect(socket.AF_INET, socket.SOCK_STREAM,
                                       ("127.0.0.1", CONFIG["tcp"]))),
        "mptcp": attempt(lambda: connect(socket.AF_INET, socket.SOCK_STREAM,
                                         ("127.0.0.1", CONFIG["tcp"]), IPPROTO_MPTCP)),
        "udp": attempt(lambda: connect(socket.AF_INET, socket.SOCK_DGRAM,
                                       ("127.0.0.1", CONFIG["udp"]))),
        "raw": attempt(lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW,
                                             socket.IPPROTO_ICMP).close()),
        "packet": attempt(lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()),
        "unix": attempt(lambda: connect(socket.AF_UNIX, socket.SOCK_STREAM, CONFIG["unix"])),
        "abstract": attempt(lambda: connect(socket.AF_UNIX, socket.SOCK_STREAM,
                                            "\0" + CONFIG["abstract"])),
        "shm": attempt(lambda: shm_get(CONFIG["shm"])),
        "shadow": attempt(lambda: read("/etc/shadow")),
        "pty": attempt(lambda: write_into(CONFIG["pty"])),
        "tty": attempt(lambda: write_into("/dev/tty")),
        "signal": attempt(lambda: os.kill(pid, signal.SIGCONT)),
        **{f"ancestor_{part}": attempt(lambda part=part: read(f"/proc/{pid}/{part}"))
           for part in ("cmdline", "environ", "maps")},
        "ancestor_fd": attempt(lambda: listing(f"/proc/{pid}/fd")),
        "list_records": attempt(lambda: listing(CONFIG["dir"])),
        "write_outside": attempt(lambda: write_into(os.path.join(CONFIG["dir"], "planted"))),
        "write_home": attempt(lambda: write_into(os.path.join(os.environ["HOME"], "notes"))),
        "secret_seen": seen_secret(),
        "others": others(),
        "env": sorted(os.environ),
    }


class Colluder:
    """Listens where the other probes of the game send, and sends to them."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat, self.players = seat, players
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", CONFIG["udp"] + 1 + seat))
        self.udp.setblocking(False)
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.unix.bind(f"\0{CONFIG['abstract']}-{seat}")
        self.unix.setblocking(False)
        LIBC.shmget(CONFIG["shm"] + 1 + seat, 4096, IPC_CREAT | 0o666)

    def send(self) -> None:
        for other in range(self.players):
            if other != self.seat:
                note = f"seat {self.seat} says hi".encode()
                for sock, where in ((self.udp, ("127.0.0.1", CONFIG["udp"] + 1 + other)),
                                    (self.unix, f"\0{CONFIG['abstract']}-{other}")):
                    with contextlib.suppress(OSError):
                        sock.sendto(note, where)

    def heard(self) -> list[str]:
        found = []
        for sock in (self.udp, self.unix):
            try:
                while True:
                    found.append(sock.recv(100).decode())
            except OSError:
                pass
        for other in range(self.players):
            if other != self.seat and LIBC.shmget(CONFIG["shm"] + 1 + other, 0, 0) >= 0:
                found.append(f"shared memory of seat {other}")
        return found


report: dict = {}
colluder = None
acts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        colluder = Colluder(message["seat"], message["players"])
        send({"type": "hello", "name": "probe", "version": "0", "protocol_version": 1})
    elif message["type"] == "act":
        acts += 1
        if acts == 1:
            report = probe()
            colluder.send()
        elif acts == 6:
            report["heard"] = colluder.heard()
            print("probe: " + json.dumps(report), file=sys.stderr, flush=True)
        send({"type": "action", "choice": 0})
