"""Helpers for the tournament tests: plans, synthetic results, process trees."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee_support import pids_with

from tajmahal.arena.terms import TimeControl
from tajmahal.arena.tournament.journal import Finished
from tajmahal.arena.tournament.plan import Plan
from tajmahal.arena.tournament.schedule import parse_entrants, slot


def make_plan(bots: Sequence[str] = ("a=random", "b=random"), deals: int = 3, seed: int = 7,
              **changes: Any) -> Plan:
    entrants = tuple(parse_entrants(bots))
    fields: dict[str, Any] = {
        "game": "tajmahal",
        "entrants": entrants,
        "seed": seed,
        "deals": deals,
        "variant": None,
        "time": tuple(TimeControl() for _ in entrants),
        "handshake": 10.0,
        "grace": 2.0,
        "max_line": 1 << 20,
        "max_log": 10 << 20,
        "batch_events": False,
    }
    fields.update(changes)
    return Plan(**fields)


def result(scores: Sequence[int], ranks: Sequence[int],
           faults: Sequence[tuple[int, str]] = ()) -> dict[str, Any]:
    """A referee result with the fields the tournament reads (by seat)."""
    return {
        "game": "tajmahal",
        "scores": list(scores),
        "ranks": list(ranks),
        "faults": [{"seat": seat, "kind": kind} for seat, kind in faults],
        "seats": [
            {"seat": s, "decisions": 10, "fallback_decisions": 0, "time_used": 0.5}
            for s in range(len(scores))
        ],
        "record": None,
        "logs": [],
    }


# Two entrants A (0) and B (1), three deals, two rotations each.  Rotation 0 seats
# A at seat 0; rotation 1 seats B at seat 0.  Per entrant (A, B):
#   deal 0: rotation 0 scores 50, 40 (A wins); rotation 1 45, 45 (a tie)
#   deal 1: rotation 0 30, 60 (B wins);        rotation 1 55, 35 (A wins; B times out)
#   deal 2: rotation 0 70, 20 (A wins);        rotation 1 65, 25 (A wins)
BY_ENTRANT = [
    ((50, 40), (1, 2)), ((45, 45), (1, 1)),
    ((30, 60), (2, 1)), ((55, 35), (1, 2)),
    ((70, 20), (1, 2)), ((65, 25), (1, 2)),
]


def hand_games() -> list[Finished]:
    plan = make_plan(deals=3)
    games = []
    for number, (scores, ranks) in enumerate(BY_ENTRANT):
        s = slot(plan.seed, 2, number)
        by_seat = [(scores[e], ranks[e]) for e in s.seating]
        faults = [(s.seating.index(1), "timeout")] if number == 3 else []
        data = result([x[0] for x in by_seat], [x[1] for x in by_seat], faults)
        games.append(Finished(s.number, s.deal, s.rotation, s.seed, s.seating, "r", data))
    return games


def descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, start time) of every living descendant of ``pid``."""
    parents: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] == "Z":
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
        starts[int(entry)] = fields[19]
    found: list[tuple[int, str]] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append((child, starts[child]))
            todo.append(child)
    return found


def still_running(processes: Sequence[tuple[int, str]]) -> list[int]:
    """Those of ``processes`` (pid, start time) that run still (not zombies)."""
    alive = []
    for pid, start in processes:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and fields[19] == start:
            alive.append(pid)
    return alive


def signal_worker(parent: int, marker: str, signum: int, done: list[int]) -> None:
    """Signal, from outside, the worker (a child of ``parent``) of the first bot
    found running with ``marker`` on its command line (then add its pid to ``done``)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not done:
        for pid in pids_with(marker):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            worker = int(stat.rsplit(")", 1)[1].split()[1])
            while worker > 1:  # up from the bot (through the sandbox) to the worker
                stat = Path(f"/proc/{worker}/stat").read_text()
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                if ppid == parent:
                    break
                worker = ppid
            if worker > 1:
                time.sleep(0.3)
                os.kill(worker, signum)
                done.append(worker)
                return
        time.sleep(0.05)


def tournament_with_a_worker_signalled(
    args: Sequence[str], marker: str, signum: int
) -> tuple[int, bytes, bytes, list[int]]:
    """Run ``tajmahal ARGS`` (a tournament) in a process of its own and signal, from
    outside, the worker of the first bot seen with ``marker``: its exit status,
    stdout, stderr, and the worker signalled (if one was)."""
    code = [sys.executable, "-c", "from tajmahal.cli import main; main()"]
    with subprocess.Popen([*code, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as run:
        done: list[int] = []
        watcher = threading.Thread(target=signal_worker, args=(run.pid, marker, signum, done))
        watcher.start()
        stdout, stderr = run.communicate(timeout=120)
        watcher.join()
    return run.returncode, stdout, stderr, done
