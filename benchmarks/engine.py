"""In-process benchmarks of every game's rules engine (docs/performance.md).

For each game of :data:`~benchmarks.games.ENGINES`, the same rows:

- random playouts for each player count: ``legal_actions`` + ``apply`` with a
  ``random.Random`` choosing, actions and games per CPU second;
- ``apply`` alone and ``legal_actions`` alone over the recorded positions of random
  4-player games (µs a call), and the mean number of legal actions;
- the ``act`` message over the same positions: the view as the referee encodes it
  (the adapter's ``view_json``, µs a call), against the plain form it must equal
  byte for byte (``orjson.dumps(view_data(...))``: the converter's data of the
  view, nothing kept), and the largest whole ``act`` line
  (target: at most 32 KB, so that a bot with a fixed line buffer works);
- memory: one state alone, and a chain of successive states (shared parts counted
  once).
"""

from __future__ import annotations

import random
import statistics
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from tajmahal.arena import protocol

from .games import ENGINES, Engine, Loaded, load, play_random, positions
from .measure import Result, cpu_clock, median_seconds, spread, timed

#: The longest ``act`` line a bot may have to read (bytes, newline included).
ACT_LINE_LIMIT = 32 * 1024


def calibrated_seeds(
    g: Loaded,
    players: int,
    seconds: float,
    play: Callable[[Loaded, int, int], object] = play_random,
) -> list[int]:
    """The first seeds whose random games (played by ``play``) take at least
    ``seconds`` of CPU together (also the warm-up): a workload of about that size
    for any game's speed."""
    seeds: list[int] = []
    start = cpu_clock()
    while cpu_clock() - start < seconds or not seeds:
        play(g, players, len(seeds))
        seeds.append(len(seeds))
    return seeds


def playouts(g: Loaded, seconds: float, repeats: int) -> list[Result]:
    results = []
    for players in g.players:
        seeds = calibrated_seeds(g, players, seconds)
        actions = sum(play_random(g, players, s) for s in seeds)
        times = timed(
            lambda p=players, ss=seeds: [play_random(g, p, s) for s in ss], repeats, cpu_clock
        )
        rates = [actions / t for t in times]
        name = f"{g.title} random playout, {players} players"
        target = g.engine.playout if players == g.seats() else None
        note = f"one core; {len(seeds)} games; {spread(rates, ',.0f')}"
        results.append(Result(name, statistics.median(rates), "actions/s", target, note=note))
        results.append(Result(name, len(seeds) / statistics.median(times), "games/s"))
    return results


def act_line(g: Loaded, state: Any, legal: list[Any]) -> bytes:
    """The ``act`` line the referee sends for ``state`` (its protocol's own builder)."""
    seat = g.game.to_act(state)
    assert seat is not None
    legal_json = orjson.dumps([g.game.action_to_data(a) for a in legal])
    return protocol.act_outgoing(1, g.game.view_json(state, seat), legal_json, 1.0, 10.0).line


def steps(g: Loaded, games: int, repeats: int) -> list[Result]:
    players = g.seats()
    pairs = [(state, action) for _, state, action in positions(g, players, games)]
    states = [s for s, _ in pairs]
    n = len(pairs)
    apply, legal_actions, view_json, to_act = (
        g.apply,
        g.legal_actions,
        g.game.view_json,
        g.game.to_act,
    )
    t_apply = median_seconds(lambda: [apply(s, a) for s, a in pairs], repeats, cpu_clock)
    t_legal = median_seconds(lambda: [legal_actions(s) for s in states], repeats, cpu_clock)
    t_view = median_seconds(lambda: [view_json(s, to_act(s)) for s in states], repeats, cpu_clock)
    view_data = g.game.view_data
    t_plain = median_seconds(
        lambda: [orjson.dumps(view_data(s, to_act(s))) for s in states], repeats, cpu_clock
    )
    sizes = [len(view_json(s, to_act(s))) for s in states]
    counts = [len(legal_actions(s)) for s in states]
    longest = max((act_line(g, s, legal_actions(s)) for s in states), key=len)
    title = g.title
    where = f"{n:,} positions of {games} random {players}-player games"
    return [
        Result(
            f"{title} apply alone ({players} players)",
            t_apply / n * 1e6,
            "µs/call",
            higher_is_better=False,
            note=where,
        ),
        Result(
            f"{title} legal_actions alone ({players} players)",
            t_legal / n * 1e6,
            "µs/call",
            higher_is_better=False,
            note=f"{statistics.mean(counts):.1f} legal actions on average, {max(counts)} at most",
        ),
        Result(
            f"{title} act view to JSON text",
            t_view / n * 1e6,
            "µs/call",
            higher_is_better=False,
            note=f"the adapter's view_json; {statistics.mean(sizes) / 1000:.1f} kB on average; "
            f"{t_plain / t_view:.1f}x faster than the plain form",
        ),
        Result(
            f"{title} act view to JSON text, plain form",
            t_plain / n * 1e6,
            "µs/call",
            higher_is_better=False,
            note="orjson.dumps(view_data(...)): the converter's data of the view, nothing kept",
        ),
        Result(
            f"{title} largest act line",
            len(longest),
            "bytes",
            ACT_LINE_LIMIT,
            higher_is_better=False,
            note=f"view and legal actions; over {where}",
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


def memory(g: Loaded, chain: int) -> list[Result]:
    setup = g.game.random_setup(g.seats(), 0)
    state = g.new_game(setup)
    for _ in range(40):
        if g.is_over(state):
            break
        state = g.apply(state, g.legal_actions(state)[0])
    single = _deep_size(state, {id(setup)})  # the setup is shared by a game's states
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept: list[Any] = []
    seed = 0
    while len(kept) < chain:
        state = g.new_game(g.game.random_setup(g.seats(), seed))
        rng = random.Random(seed)
        while not g.is_over(state) and len(kept) < chain:
            state = g.apply(state, rng.choice(g.legal_actions(state)))
            kept.append(state)
        seed += 1
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return [
        Result(
            f"{g.title} one state, alone",
            single,
            "bytes",
            higher_is_better=False,
            note="everything it holds except the shared setup",
        ),
        Result(
            f"{g.title} chain of {len(kept):,} successive states",
            (after - before) / 1e6,
            "MB",
            higher_is_better=False,
            note=f"{(after - before) / len(kept):.0f} bytes a state: unchanged parts are shared",
        ),
    ]


def run_game(g: Loaded, quick: bool) -> list[Result]:
    seconds, repeats = (0.05, 3) if quick else (0.5, 7)
    out = playouts(g, seconds, repeats)
    out += steps(g, 1 if quick else 10, repeats)
    out += memory(g, 300 if quick else 5_000)
    return out


def run_all(quick: bool, engines: Sequence[Engine] = ENGINES) -> list[Result]:
    return [r for engine in engines for r in run_game(load(engine), quick)]
