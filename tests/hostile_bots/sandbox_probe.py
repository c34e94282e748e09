"""What a bot under --sandbox can reach: at its first decision it tries each way
out below and writes what happened as one JSON line on stderr (``probe: {...}``),
then plays on correctly.  argv[1]: a directory of the referee's to look into (where
the records go).  Needs no other file (it runs sandboxed)."""

import json
import os
import signal
import socket
import sys

SECRET_DIR = sys.argv[1]


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def attempt(action) -> str:
    try:
        action()
    except OSError as e:
        return type(e).__name__
    return "done"


def write_home() -> None:
    with open(os.path.join(os.environ["HOME"], "notes.txt"), "w") as f:
        f.write("mine")


def write_outside() -> None:
    with open(os.path.join(SECRET_DIR, "planted.txt"), "w") as f:
        f.write("planted")


def probe() -> dict:
    referee = os.getppid()
    return {
        "signal_referee": attempt(lambda: os.kill(referee, signal.SIGCONT)),
        "referee_memory": attempt(lambda: open(f"/proc/{referee}/mem", "rb").close()),
        "referee_fd": attempt(lambda: os.readlink(f"/proc/{referee}/fd/0")),
        "referee_cwd": attempt(lambda: os.readlink(f"/proc/{referee}/cwd")),
        "list_records": attempt(lambda: os.listdir(SECRET_DIR)),
        "write_outside": attempt(write_outside),
        "write_home": attempt(write_home),
        "tcp": attempt(lambda: socket.create_connection(("127.0.0.1", 9), timeout=1).close()),
        "env": sorted(os.environ),
    }


acts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "hello", "name": "probe", "version": "0", "protocol_version": 1})
    elif message["type"] == "act":
        acts += 1
        if acts == 1:
            print("probe: " + json.dumps(probe()), file=sys.stderr, flush=True)
        send({"type": "action", "choice": 0})
