"""Attacks 2 and 3: a bot that spoils its game whenever it is losing.

It plays at random (from the seed of its hello, so that the same game plays the
same way), and from its 15th decision on, when its score is below another
player's, does what argv[1] says to the referee that runs it (its parent, a
tournament worker):

- ``honest``: nothing (the twin that shows what the bot would have won);
- ``kill``: SIGKILL (the game's worker dies);
- ``stop``: SIGSTOP (the game's worker hangs);
- ``forge``: writes a result that has it winning into each pipe its referee
  writes to (through /proc: the way into the worker's pipe to the tournament,
  when it is readable), naming the game by its log file, then kills the referee.

It writes ``spoiled`` on stderr before it acts (tests read its logs).  It needs
no other file (it runs under --sandbox too).
"""

import json
import os
import random
import signal
import sys
import time


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def hello(name: str) -> None:
    send({"type": "hello", "name": name, "version": "0", "protocol_version": 1})

MODE = sys.argv[1]
FROM_DECISION = 15


def total(player: dict) -> int:
    return sum(player["score"].values())


def losing(view: dict) -> bool:
    mine = total(view["players"][view["seat"]])
    return any(total(p) > mine for p in view["players"])


def game_number(referee: int) -> int | None:
    """The game's number, from the name of a log file its referee has open."""
    try:
        for fd in os.listdir(f"/proc/{referee}/fd"):
            target = os.readlink(f"/proc/{referee}/fd/{fd}")
            name = os.path.basename(target)
            if name.endswith(".log") and ".seat" in name:
                return int(name.split(".")[0])
    except OSError:
        pass
    return None


def forge(referee: int, players: int, me: int) -> None:
    number = game_number(referee)
    if number is None:
        return
    ranks = [1 if seat == me else 2 for seat in range(players)]
    fake = {
        "number": number,
        "error": None,
        "result": {
            "scores": [100 if seat == me else 0 for seat in range(players)],
            "ranks": ranks,
            "faults": [],
            "seats": [
                {"seat": s, "decisions": 1, "fallback_decisions": 0, "time_used": 0.0}
                for s in range(players)
            ],
            "record": None,
            "logs": [],
        },
    }
    line = (json.dumps(fake) + "\n").encode()
    for fd in os.listdir(f"/proc/{referee}/fd"):
        try:
            if not os.readlink(f"/proc/{referee}/fd/{fd}").startswith("pipe:"):
                continue
            out = os.open(f"/proc/{referee}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            os.write(out, line)
        except OSError:
            pass
        finally:
            os.close(out)


def spoil(view: dict) -> None:
    referee = os.getppid()
    print("spoiled", file=sys.stderr, flush=True)
    if MODE == "forge":
        forge(referee, len(view["players"]), view["seat"])
    os.kill(referee, signal.SIGSTOP if MODE == "stop" else signal.SIGKILL)
    time.sleep(30)  # the tournament kills what is left of the game


def main() -> None:
    rng = random.Random(0)
    acts = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng = random.Random(message["seed"])
            hello(f"sore-loser-{MODE}")
        elif kind == "act":
            acts += 1
            if MODE != "honest" and acts >= FROM_DECISION and losing(message["view"]):
                spoil(message["view"])
            send({"type": "action", "choice": rng.randrange(len(message["legal"]))})


main()
