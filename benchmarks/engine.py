"""In-process benchmarks of the rules engine (issue targets in docs/performance.md)."""

from __future__ import annotations

import json
import random
import statistics
import sys
import tracemalloc

from tajmahal import Setup, State, apply, is_over, legal_actions, new_game, view
from tajmahal.tajmahal.actions import Action
from tajmahal.tajmahal.adapter import TajMahal
from tajmahal.tajmahal.serialize import to_data

from .measure import Result, cpu_clock, median_seconds, spread, timed

PLAYOUT_TARGET = 50_000  # actions/s, 4 players, one core


def play_random(players: int, seed: int) -> int:
    """One random game: legal_actions + apply at every step; returns the actions."""
    state = new_game(Setup.random(players, seed))
    rng = random.Random(seed)
    actions = 0
    while not is_over(state):
        state = apply(state, rng.choice(legal_actions(state)))
        actions += 1
    return actions


def recorded_steps(players: int, games: int) -> list[tuple[State, Action]]:
    """Every (state, action) of ``games`` random games."""
    steps = []
    for seed in range(games):
        state = new_game(Setup.random(players, seed))
        rng = random.Random(seed)
        while not is_over(state):
            action = rng.choice(legal_actions(state))
            steps.append((state, action))
            state = apply(state, action)
    return steps


def playouts(games: int, repeats: int) -> list[Result]:
    results = []
    for players in (2, 3, 4, 5):
        actions = sum(play_random(players, seed) for seed in range(games))  # also warms up
        times = timed(
            lambda p=players: [play_random(p, s) for s in range(games)], repeats, cpu_clock
        )
        rates = [actions / t for t in times]
        target = PLAYOUT_TARGET if players == 4 else None
        results.append(
            Result(
                f"random playout, {players} players",
                statistics.median(rates),
                "actions/s",
                target,
                note=f"one core; {spread(rates, ',.0f')}",
            )
        )
        results.append(
            Result(
                f"random playout, {players} players", games / statistics.median(times), "games/s"
            )
        )
    return results


def apply_and_legal(games: int, repeats: int) -> list[Result]:
    steps = recorded_steps(4, games)
    n = len(steps)
    t_apply = median_seconds(lambda: [apply(s, a) for s, a in steps], repeats, cpu_clock)
    t_legal = median_seconds(lambda: [legal_actions(s) for s, _ in steps], repeats, cpu_clock)
    return [
        Result("apply alone (4 players)", t_apply / n * 1e6, "µs/call", higher_is_better=False),
        Result(
            "legal_actions alone (4 players)", t_legal / n * 1e6, "µs/call", higher_is_better=False
        ),
    ]


def views(games: int, repeats: int) -> list[Result]:
    states = [s for s, _ in recorded_steps(4, games)]
    n = len(states)
    t_view = median_seconds(lambda: [view(s, s.to_act) for s in states], repeats, cpu_clock)
    seen = [view(s, s.to_act) for s in states]
    t_json = median_seconds(lambda: [json.dumps(to_data(v)) for v in seen], repeats, cpu_clock)
    size = sum(len(json.dumps(to_data(v))) for v in seen) / n
    game = TajMahal()  # the referee's encoder: parts of earlier views reused by identity
    t_act = median_seconds(
        lambda: [game.view_json(s, s.to_act) for s in states], repeats, cpu_clock
    )
    act_size = sum(len(game.view_json(s, s.to_act)) for s in states) / n
    return [
        Result("view", t_view / n * 1e6, "µs/call", higher_is_better=False),
        Result(
            "view to JSON text, library",
            t_json / n * 1e6,
            "µs/call",
            higher_is_better=False,
            note=f"to_data + json.dumps; {size / 1000:.1f} kB with the board",
        ),
        Result(
            "view to JSON text, referee",
            t_act / n * 1e6,
            "µs/call",
            higher_is_better=False,
            note=f"the act message's view, successive states; {act_size / 1000:.1f} kB",
        ),
    ]


def _deep_size(obj: object, seen: set[int]) -> int:
    """Bytes of ``obj`` and everything it reaches that ``seen`` does not hold yet."""
    if id(obj) in seen or obj is None or isinstance(obj, bool):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, (tuple, list, set, frozenset)):
        size += sum(_deep_size(x, seen) for x in obj)
    elif isinstance(obj, dict):
        size += sum(_deep_size(k, seen) + _deep_size(v, seen) for k, v in obj.items())
    elif hasattr(obj, "__slots__"):
        for cls in type(obj).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(obj, slot):
                    size += _deep_size(getattr(obj, slot), seen)
    return size


def memory(chain: int) -> list[Result]:
    state = new_game(Setup.random(4, 0))
    shared = {id(state.setup)}  # the setup (and its board) is shared by every state
    for _ in range(40):
        state = apply(state, legal_actions(state)[0])
    single = _deep_size(state, set(shared))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept: list[State] = []
    seed = 0
    while len(kept) < chain:
        state = new_game(Setup.random(4, seed))
        rng = random.Random(seed)
        while not is_over(state) and len(kept) < chain:
            state = apply(state, rng.choice(legal_actions(state)))
            kept.append(state)
        seed += 1
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    per_state = (after - before) / len(kept)
    return [
        Result(
            "one state, alone",
            single,
            "bytes",
            higher_is_better=False,
            note="everything it holds except the shared setup and board",
        ),
        Result(
            f"chain of {len(kept):,} successive states",
            (after - before) / 1e6,
            "MB",
            higher_is_better=False,
            note=f"{per_state:.0f} bytes a state: unchanged parts are shared",
        ),
    ]


def run_all(quick: bool) -> list[Result]:
    games, repeats = (3, 3) if quick else (40, 7)
    out = playouts(games, repeats)
    out += apply_and_legal(2 if quick else 20, repeats)
    out += views(1 if quick else 10, repeats)
    out += memory(1_000 if quick else 10_000)
    return out
