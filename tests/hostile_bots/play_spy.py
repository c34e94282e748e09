"""A bot at a browser game (``tajmahal play``) that goes for the person's hand:
at its hello it asks the game's server for the state (argv[1]: its port), looks
for the deal's seed in every process it can see (argv[2]: the seed written
backwards, so that this command line does not show it), and starts a child that
leaves its session (argv[3]: a marker on its command line); it writes what it
found as one line on stderr (``spy: {...}``), then plays correctly.  Standard
library only (it runs sandboxed)."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

PORT, SECRET, MARKER = int(sys.argv[1]), sys.argv[2][::-1].encode(), sys.argv[3]


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def ask_server() -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/state", timeout=2) as r:
            return f"read {len(r.read())} bytes"
    except urllib.error.HTTPError as e:
        return f"HTTP {e.code}"
    except OSError as e:
        return type(e).__name__


def seen_secret() -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        for part in ("cmdline", "environ") if pid.isdigit() else ():
            try:
                with open(f"/proc/{pid}/{part}", "rb") as f:
                    if SECRET in f.read():
                        found.append(f"{pid}: {part}")
            except OSError:
                pass
    return found


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", MARKER],
                         start_new_session=True, stderr=subprocess.DEVNULL)
        report = {"server": ask_server(), "secret_seen": seen_secret()}
        print("spy: " + json.dumps(report), file=sys.stderr, flush=True)
        send({"type": "hello", "name": "spy", "version": "0", "protocol_version": 1})
    elif message["type"] == "act":
        send({"type": "action", "choice": 0})
