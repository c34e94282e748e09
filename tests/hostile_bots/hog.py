"""A bot that holds argv[1] megabytes at its first decision (a leak, or a bid to
starve the machine), then plays on.  argv[2] says where: ``heap`` (the default,
its own memory), ``memfd`` (a memory file, written, never mapped: no address
space), ``shm`` (a file in /dev/shm), or ``child`` (a child process holds it)."""

import json
import os
import subprocess
import sys

held = []
acts = 0
size = int(sys.argv[1]) << 20
where = sys.argv[2] if len(sys.argv) > 2 else "heap"


def hold() -> None:
    chunk = b"\1" * (1 << 20)
    if where == "heap":
        held.append(bytearray(b"\1") * size)
    elif where == "memfd":
        fd = os.memfd_create("hog")
        for _ in range(size >> 20):
            os.write(fd, chunk)
        held.append(fd)
    elif where == "shm":
        with open(f"/dev/shm/hog-{os.getpid()}", "wb") as f:
            for _ in range(size >> 20):
                f.write(chunk)
    elif where == "child":
        code = f"x = bytearray(b'\\1') * {size}; import time; time.sleep(3600)"
        held.append(subprocess.Popen([sys.executable, "-c", code]))


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "hog", "version": "0",
                          "protocol_version": 1}), flush=True)
    elif message["type"] == "act":
        acts += 1
        if acts == 1:
            hold()
        print(json.dumps({"type": "action", "choice": 0}), flush=True)
