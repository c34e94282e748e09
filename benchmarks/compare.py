"""Side by side, interleaved: every game's compiled and pure-Python engine,
python-chess and OpenSpiel (issues 15 and 25).

``python -m benchmarks.compare [--quick] [--rounds N]`` (also part of
``python -m benchmarks``).  Every round starts one worker process per contestant,
in an order rotated from round to round, and each worker times a fixed workload
on its own CPU clock after a warm-up:

- ``<game>`` for each installed game (:data:`~benchmarks.games.ENGINES`): random
  4-player playouts (or the nearest count the game allows) (``legal_actions`` + ``apply``, a
  ``random.Random`` choosing), with whichever engine the install runs (compiled);
  the warm-up also fixes the workload: the seeds of the games that took half a
  second of CPU (a tenth with ``--quick``);
- ``<game>-pure``: the same with ``TAJMAHAL_PURE=1``;
- ``chess``: python-chess random playouts (``board.legal_moves`` + ``push``), if
  installed (``pip install -e '.[bench]'``);
- ``hearts-python``: OpenSpiel's C++ hearts stepped from Python the same way
  (``legal_actions`` + ``apply_action``, chance outcomes sampled), if installed
  (``pip install -e '.[rl]'``); decisions only are counted, as for the others;
- ``hearts-native``: whole hearts games played inside OpenSpiel by its C++
  uniform random bots (``pyspiel.evaluate_bots``), decisions per second;
- ``<game>-mcts`` and ``<game>-mcts-pure``: iterations per second of a game's
  built-in search (the kit's, with the game's ``bots()``; fixed positions and
  iterations) on each engine, for the games whose bots are on the kit's frames.

``--game NAME`` (repeatable) runs only the contestants of the games named, and
python-chess; the OpenSpiel contestants run in the comparison of every game.

The ratios are taken within each round (workers of one round run back to back,
so a slow minute slows them all) and their medians reported: each game against
python-chess (its target: the game's ``speed_targets``) and against its own pure
engine; OpenSpiel's hearts against the default game's engine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tajmahal.kit.adapter import Adapter

from .games import ENGINES, PLAYERS, Engine, engine_named, load, play_random, selected
from .measure import Result, spread

ROOT = Path(__file__).resolve().parent.parent
PURE = "-pure"
SEARCH = "-mcts"


# --------------------------------------------------------------------------- workloads


def _playouts(name: str, scale: int) -> tuple[Callable[[], int], str]:
    """A game's random playouts: the seeds of the games that fill ``scale`` tenths
    of a second of CPU (played once here, which is also the warm-up)."""
    import tajmahal

    g = load(engine_named(name))
    seeds: list[int] = []
    start = time.process_time()
    while time.process_time() - start < scale / 10 or not seeds:
        play_random(g, g.seats(), len(seeds))
        seeds.append(len(seeds))

    def run() -> int:
        return sum(play_random(g, g.seats(), seed) for seed in seeds)

    return run, _label(tajmahal.COMPILED)


def _label(compiled: bool) -> str:
    return "compiled" if compiled else "pure Python"


def _search(name: str, scale: int) -> tuple[Callable[[], int], str]:
    """A game's built-in search (the kit's, with the game's ``bots()``) from four
    positions of random 4-player games, each read from its ``act`` message as the
    built-in player reads it: iterations per second."""
    import tajmahal
    from tajmahal.kit.search import SearchConfig, search_choice

    g = load(engine_named(name))
    game = g.game
    assert isinstance(game, Adapter)
    bots = game.bots()
    assert bots is not None
    searches = []  # (view, legal) of four seats (outside the clock)
    for seed in range(4):
        setup = game.random_setup(g.seats(), seed)
        known = bots.read_setup(game.public_setup(setup))
        state = g.new_game(setup)
        rng = random.Random(seed)
        steps = 0
        while True:
            seat = game.to_act(state)
            assert seat is not None
            legal = g.legal_actions(state)
            view, read = bots.read_view(
                known, game.view_data(state, seat), [game.action_to_data(a) for a in legal]
            )
            if steps >= 15 + 20 * seed and len(legal) > 1 and bots.searches(view):
                searches.append((view, read))
                break
            state = g.apply(state, rng.choice(legal))
            steps += 1
    iterations = 25 * scale
    config = SearchConfig(iterations=iterations)

    def run() -> int:
        for i, (view, legal) in enumerate(searches):
            search_choice(bots, view, legal, random.Random(i), config)
        return iterations * len(searches)

    return run, _label(tajmahal.COMPILED)


def searched(engines: Sequence[Engine] = ENGINES) -> list[str]:
    """The games whose bots are on the kit's frames (their adapter's ``bots()``)."""
    return [e.name for e in engines if _has_bots(load(e).game)]


def _has_bots(game: object) -> bool:
    return isinstance(game, Adapter) and game.bots() is not None


def _chess(scale: int) -> tuple[Callable[[], int], str]:
    import chess

    def run() -> int:
        moves = 0
        for seed in range(scale * 3):
            rng = random.Random(seed)
            board = chess.Board()
            while not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
                moves += 1
        return moves

    return run, f"python-chess {chess.__version__}"


def _hearts_python(scale: int) -> tuple[Callable[[], int], str]:
    import pyspiel

    game = pyspiel.load_game("hearts")

    def run() -> int:
        return sum(_random_hearts(game, random.Random(seed)) for seed in range(scale * 12))

    return run, "OpenSpiel hearts, stepped from Python"


def _hearts_native(scale: int) -> tuple[Callable[[], int], str]:
    import pyspiel

    game = pyspiel.load_game("hearts")
    # Decisions of a hearts game: 3 passed cards each (none in the games that do
    # not pass) and 52 cards played; counted once from stepped games.
    per_game = _hearts_decisions(game)

    def run() -> int:
        games = scale * 60
        for seed in range(games):
            bots = [pyspiel.make_uniform_random_bot(p, seed * 4 + p) for p in range(4)]
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        return round(games * per_game)

    return run, "OpenSpiel hearts, whole games in C++"


def _hearts_decisions(game: object) -> float:
    rng = random.Random(0)
    return sum(_random_hearts(game, rng) for _ in range(200)) / 200


def _random_hearts(game: object, rng: random.Random) -> int:
    """Play one game of OpenSpiel's ``game`` from Python, every choice and chance
    outcome drawn from ``rng``; its decisions (chance outcomes not counted)."""
    decisions = 0
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


WORKLOADS: dict[str, Callable[[int], tuple[Callable[[], int], str]]] = {
    "chess": _chess,
    "hearts-python": _hearts_python,
    "hearts-native": _hearts_native,
}


def _workload(name: str, scale: int) -> tuple[Callable[[], int], str]:
    """The workload of contestant ``name``, warmed up."""
    game = name.removesuffix(PURE)
    if game.endswith(SEARCH):
        run, what = _search(game.removesuffix(SEARCH), scale)
        run()  # warm-up
        return run, what
    if any(e.name == game for e in ENGINES):
        return _playouts(game, scale)
    run, what = WORKLOADS[name](scale)
    run()  # warm-up (and imports)
    return run, what


def worker(name: str, scale: int) -> None:
    """Run one contestant's workload: warm up, time it, print ``rate engine``."""
    run, what = _workload(name, scale)
    start = time.process_time()
    count = run()
    seconds = time.process_time() - start
    print(f"{count / seconds:.1f} {what}")


# --------------------------------------------------------------------------- the run


def available(engines: Sequence[Engine] = ENGINES) -> list[str]:
    """The contestants of ``engines`` (and the others of a comparison of every game)
    whose libraries are installed."""
    names = [n for e in engines for n in (e.name, e.name + PURE)]
    names += [n for game in searched(engines) for n in (game + SEARCH, game + SEARCH + PURE)]
    others = (("chess", "chess"), ("hearts-python", "pyspiel"))
    for name, module in others if engines == ENGINES else others[:1]:
        try:
            __import__(module)
        except ImportError:
            continue
        names.append(name)
        if name == "hearts-python":
            names.append("hearts-native")
    return names


def _measure(name: str, scale: int) -> tuple[float, str]:
    env = dict(os.environ)
    env.pop("TAJMAHAL_PURE", None)
    if name.endswith(PURE):
        env["TAJMAHAL_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.compare", "--worker", name, "--scale", str(scale)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rate, what = out.strip().split(" ", 1)
    return float(rate), what


def run_all(
    quick: bool, rounds: int | None = None, games: Sequence[str] | None = None
) -> list[Result]:
    """The comparison's rows: of every game, or of the games named (and python-chess)."""
    engines = selected(games)
    names = available(engines)
    rounds = rounds or (1 if quick else 7)
    scale = 1 if quick else 5
    rates: dict[str, list[float]] = {name: [] for name in names}
    whats: dict[str, str] = {}
    for i in range(rounds):
        order = names[i % len(names) :] + names[: i % len(names)]
        for name in order:
            rate, whats[name] = _measure(name, scale)
            rates[name].append(rate)
    median = statistics.median

    def ratio(a: str, b: str) -> list[float]:
        return [x / y for x, y in zip(rates[a], rates[b], strict=True)]

    out: list[Result] = []
    for engine in engines:
        compiled, pure = engine.name, engine.name + PURE
        title = load(engine).title
        for name in (compiled, pure):
            out.append(
                Result(
                    f"{title} {PLAYERS}-player random playout, {whats[name]}",
                    median(rates[name]),
                    "actions/s",
                    note=spread(rates[name], ",.0f"),
                )
            )
        out.append(
            Result(
                f"{title} engine / pure engine",
                median(ratio(compiled, pure)),
                "x",
                note=f"per round; {spread(ratio(compiled, pure), '.2f')}",
            )
        )
        if "chess" in rates:
            out += [
                Result(
                    f"{title} engine / python-chess",
                    median(ratio(compiled, "chess")),
                    "x",
                    engine.chess,
                    note=f"per round; {spread(ratio(compiled, 'chess'), '.2f')}",
                ),
                Result(
                    f"{title} pure engine / python-chess",
                    median(ratio(pure, "chess")),
                    "x",
                    note=f"per round; {spread(ratio(pure, 'chess'), '.2f')}",
                ),
            ]
    for engine in engines:
        if engine.name + SEARCH not in rates:
            continue
        compiled, pure = engine.name + SEARCH, engine.name + SEARCH + PURE
        title = load(engine).title
        out += [
            Result(
                f"{title} MCTS, {whats[name]}",
                median(rates[name]),
                "iterations/s",
                note=spread(rates[name], ",.0f"),
            )
            for name in (compiled, pure)
        ]
        out.append(
            Result(
                f"{title} MCTS / pure MCTS",
                median(ratio(compiled, pure)),
                "x",
                engine.mcts,
                note=f"per round; {spread(ratio(compiled, pure), '.2f')}",
            )
        )
    if "chess" in rates:
        out.append(
            Result(
                f"random playout, {whats['chess']}",
                median(rates["chess"]),
                "moves/s",
                note=spread(rates["chess"], ",.0f"),
            )
        )
    first = ENGINES[0]  # the default game
    for name in ("hearts-python", "hearts-native"):
        if name in rates and first.name in rates:
            out += [
                Result(
                    whats[name],
                    median(rates[name]),
                    "decisions/s",
                    note=spread(rates[name], ",.0f"),
                ),
                Result(
                    f"{whats[name]} / {load(first).title} engine",
                    median(ratio(name, first.name)),
                    "x",
                    note=f"per round; {spread(ratio(name, first.name), '.2f')}",
                ),
            ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one short round")
    parser.add_argument("--rounds", type=int, help="rounds (default 7; --quick: 1)")
    parser.add_argument(
        "--game", action="append", metavar="NAME", help="only this game (repeatable)"
    )
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=int, default=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.scale)
        return 0
    from .report import print_table

    print_table(run_all(args.quick, args.rounds, args.game), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
