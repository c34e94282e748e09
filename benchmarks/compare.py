"""Side by side, interleaved: every game's compiled and pure-Python engine,
python-chess and OpenSpiel (issues 15 and 25).

``python -m benchmarks.compare [--quick] [--rounds N]`` (also part of
``python -m benchmarks``).  Every round starts one worker process per contestant,
in an order rotated from round to round, and each worker times a fixed workload
on its own CPU clock after a warm-up:

- ``<game>`` for each game of :data:`~benchmarks.games.ENGINES` (``taj-mahal``,
  ``tikal``, ``java``): random 4-player playouts (``legal_actions`` + ``apply``, a
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
- ``mcts`` and ``mcts-pure``: iterations per second of Taj Mahal's search bot
  (``mcts_choice``, fixed positions and iterations) on each engine.

The ratios are taken within each round (workers of one round run back to back,
so a slow minute slows them all) and their medians reported: each game against
python-chess (its target in :data:`~benchmarks.games.ENGINES`) and against its
own pure engine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .games import ENGINES, PLAYERS, engine_named, load, play_random
from .measure import Result, spread

ROOT = Path(__file__).resolve().parent.parent
MCTS_TARGET = 2.0  # compiled / pure MCTS iterations per second
PURE = "-pure"


# --------------------------------------------------------------------------- workloads


def _playouts(name: str, scale: int) -> tuple[Callable[[], int], str]:
    """A game's random playouts: the seeds of the games that fill ``scale`` tenths
    of a second of CPU (played once here, which is also the warm-up)."""
    import tajmahal

    g = load(engine_named(name))
    seeds: list[int] = []
    start = time.process_time()
    while time.process_time() - start < scale / 10 or not seeds:
        play_random(g, PLAYERS, len(seeds))
        seeds.append(len(seeds))

    def run() -> int:
        return sum(play_random(g, PLAYERS, seed) for seed in seeds)

    return run, _label(tajmahal.COMPILED)


def _label(compiled: bool) -> str:
    return "compiled" if compiled else "pure Python"


def _mcts(scale: int) -> tuple[Callable[[], int], str]:
    import tajmahal
    from tajmahal import Setup, apply, legal_actions, new_game, view
    from tajmahal.kit.search import SearchConfig
    from tajmahal.tajmahal.bots import mcts_choice

    views = []  # four seats' views of positions of random games (outside the clock)
    for seed in range(4):
        state = new_game(Setup.random(4, seed))
        rng = random.Random(seed)
        for _ in range(15 + 20 * seed):
            state = apply(state, rng.choice(legal_actions(state)))
        assert state.to_act is not None
        views.append(view(state, state.to_act))
    iterations = 25 * scale
    config = SearchConfig(iterations=iterations)

    def run() -> int:
        for i, seen in enumerate(views):
            mcts_choice(seen, random.Random(i), config)
        return iterations * len(views)

    return run, _label(tajmahal.COMPILED)


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
        decisions = 0
        for seed in range(scale * 12):
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
        return decisions

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
    total = 0
    for _ in range(200):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                total += 1
    return total / 200


WORKLOADS: dict[str, Callable[[int], tuple[Callable[[], int], str]]] = {
    "chess": _chess,
    "hearts-python": _hearts_python,
    "hearts-native": _hearts_native,
    "mcts": _mcts,
    "mcts-pure": _mcts,
}


def _workload(name: str, scale: int) -> tuple[Callable[[], int], str]:
    """The workload of contestant ``name``, warmed up."""
    game = name.removesuffix(PURE)
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


def available() -> list[str]:
    """The contestants whose libraries are installed."""
    names = [n for e in ENGINES for n in (e.name, e.name + PURE)] + ["mcts", "mcts-pure"]
    for name, module in (("chess", "chess"), ("hearts-python", "pyspiel")):
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


def run_all(quick: bool, rounds: int | None = None) -> list[Result]:
    names = available()
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
    for engine in ENGINES:
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
    out += [
        Result(
            f"Taj Mahal MCTS, {whats['mcts']}",
            median(rates["mcts"]),
            "iterations/s",
            note=spread(rates["mcts"], ",.0f"),
        ),
        Result(
            f"Taj Mahal MCTS, {whats['mcts-pure']}",
            median(rates["mcts-pure"]),
            "iterations/s",
            note=spread(rates["mcts-pure"], ",.0f"),
        ),
        Result(
            "Taj Mahal MCTS / pure MCTS",
            median(ratio("mcts", "mcts-pure")),
            "x",
            MCTS_TARGET,
            note=f"per round; {spread(ratio('mcts', 'mcts-pure'), '.2f')}",
        ),
    ]
    if "chess" in rates:
        out.append(
            Result(
                f"random playout, {whats['chess']}",
                median(rates["chess"]),
                "moves/s",
                note=spread(rates["chess"], ",.0f"),
            )
        )
    for name in ("hearts-python", "hearts-native"):
        if name in rates:
            out += [
                Result(
                    whats[name],
                    median(rates[name]),
                    "decisions/s",
                    note=spread(rates[name], ",.0f"),
                ),
                Result(
                    f"{whats[name]} / Taj Mahal engine",
                    median(ratio(name, "taj-mahal")),
                    "x",
                    note=f"per round; {spread(ratio(name, 'taj-mahal'), '.2f')}",
                ),
            ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one short round")
    parser.add_argument("--rounds", type=int, help="rounds (default 7; --quick: 1)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=int, default=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.scale)
        return 0
    from .__main__ import print_table

    print_table(run_all(args.quick, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
