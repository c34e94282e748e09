"""The batched engine (tajmahal.batched, JAX) against the rules engine, in one run:
steps and games per second at each batch size, on whatever device JAX has.

``python -m benchmarks.batched [--batch 1,64,1024,4096] [--players 4] [--steps 200]
[--quick] [--markdown] [--json FILE]`` (also part of ``python -m benchmarks`` when
JAX is installed).  ``--markdown`` prints the table as docs/research.md shows it;
each batch size's row also goes to stderr as soon as it is measured (a run cut
short keeps what it measured).  On a machine with a GPU, one command gives the
accelerator's figures (docs/research.md, Speed):

    python -m benchmarks.batched --batch 1,1024,16384,65536 --markdown --json gpu.json

Each batch size runs ``--steps`` steps of every game in one compiled ``lax.scan``
(the first call compiles: its time is reported), each game's seat choosing a
uniformly random legal action (``tajmahal.batched.random_action``) and each finished
game dealt anew in its place (``reset_finished``: a few new deals a step, not one
per game as Pgx's ``auto_reset`` computes); the figures are the medians of the
timed calls on the wall clock (all of the device); games per second is that rate
over the mean length of the games that finished in the timed calls.
The rules engine's random playout (``legal_actions`` + ``apply``, a
``random.Random`` choosing) runs in the same process on one core, on its CPU clock
(benchmarks/engine.py's row; the compiled engine where it is installed, else the
pure-Python one, as the row says).  Targets: at the best batch size 3 times the
compiled engine on a CPU; 10 million steps a second at batch 65,536 on a GPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import calibrated_seeds
from .games import engine_named, load, play_random
from .measure import Result, cpu_clock, spread, timed
from .report import markdown_table, report

#: The targets (issue 40): times the compiled engine on a CPU, steps/s on a GPU.
CPU_RATIO = 3.0
GPU_RATE = 10_000_000
GPU_BATCH = 65_536


def reference_rate(game: str, players: int, seconds: float, repeats: int) -> tuple[float, float]:
    """The rules engine's random playouts: actions and games per CPU second (median)."""
    g = load(engine_named(game))
    seeds = calibrated_seeds(g, players, seconds)
    actions = sum(play_random(g, players, s) for s in seeds)
    median = statistics.median(
        timed(lambda: [play_random(g, players, s) for s in seeds], repeats, cpu_clock)
    )
    return actions / median, len(seeds) / median


def reference_engine() -> str:
    """Which rules engine this process runs: "compiled" or "pure-Python"."""
    from tajmahal._engine import select

    return "compiled" if select()[0] else "pure-Python"


def playout(
    game: str, players: int, batch: int, steps: int
) -> tuple[Callable[[Any, Any], Any], Any]:
    """A compiled run of ``steps`` random steps of ``batch`` games (the games after
    them and how many finished), and its first state."""
    import jax
    import jax.numpy as jnp

    import tajmahal.batched as batched

    env = batched.make(num_players=players, game=game)

    def one(state: Any, key: Any) -> Any:
        choose, step = jax.random.split(key)
        action = batched.random_action(choose, state.legal_action_mask)
        return env.step(state, action, step)

    def body(state: Any, key: Any) -> tuple[Any, Any]:
        play, deal = jax.random.split(key)
        state = jax.vmap(one)(state, jax.random.split(play, batch))
        ended = state.terminated
        finished = jnp.stack([ended.sum(), jnp.where(ended, state._step_count, 0).sum()])
        return batched.reset_finished(env, state, deal, max(1, batch // 64)), finished

    @jax.jit
    def run(state: Any, key: Any) -> tuple[Any, Any]:
        """``steps`` steps of every game; how many games finished, and their steps."""
        state, finished = jax.lax.scan(body, state, jax.random.split(key, steps))
        return state, finished.sum(axis=0)

    first = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), batch))
    return run, first


@dataclass(frozen=True)
class Measured:
    """One batch size's figures: steps per second of each timed call (wall clock);
    the mean length of the games that finished in them (steps a game: games start
    together and end in waves, so counting the games that end in a few calls would
    miscount); the compile time; and the steps per second
    of this process's CPU time over the timed calls (every core's: on a shared
    machine, what the wall clock would give if the cores were free)."""

    steps: list[float]
    game_length: float
    compile_s: float
    per_cpu: float


def measure(game: str, players: int, batch: int, steps: int, repeats: int) -> Measured:
    import jax

    run, state = playout(game, players, batch, steps)
    start = time.perf_counter()
    state, _ = jax.block_until_ready(run(state, jax.random.key(1)))
    compile_s = time.perf_counter() - start
    rates, games, game_steps = [], 0, 0
    cpu = cpu_clock()
    for r in range(repeats):
        start = time.perf_counter()
        state, finished = jax.block_until_ready(run(state, jax.random.key(2 + r)))
        rates.append(batch * steps / (time.perf_counter() - start))
        games, game_steps = games + int(finished[0]), game_steps + int(finished[1])
    per_cpu = batch * steps * repeats / (cpu_clock() - cpu)
    return Measured(rates, game_steps / games if games else float("nan"), compile_s, per_cpu)


def device() -> str:
    import jax

    d = jax.devices()[0]
    return f"{d.platform} ({getattr(d, 'device_kind', d.platform)}, {jax.device_count()} device(s))"


def run_all(
    quick: bool,
    batches: Sequence[int] | None = None,
    players: int = 4,
    steps: int | None = None,
    game: str = "tajmahal",
) -> list[Result]:
    """The batched engine's rows for ``game`` (none without JAX: the ``jax`` extra)."""
    try:
        import jax  # noqa: F401
    except ImportError:
        return []
    if batches is None:
        batches = (64,) if quick else (1, 16, 256, 1024, 4096, 16_384, 65_536)
    steps = steps or (20 if quick else 200)
    repeats = 2 if quick else 5
    base, base_games = reference_rate(game, players, 0.05 if quick else 0.5, 3 if quick else 7)
    title = load(engine_named(game)).title
    engine = reference_engine()
    where = device()
    gpu = not where.startswith("cpu")
    results = [
        Result(
            f"{title} {engine} engine random playout, {players} players (batched row)",
            base,
            "actions/s",
            note=f"one core, CPU time; {base_games:,.1f} games/s ({base / base_games:.0f} "
            "actions a game)",
        )
    ]
    best = 0.0
    for batch in batches:
        m = measure(game, players, batch, steps, repeats)
        rate = statistics.median(m.steps)
        best = max(best, rate)
        target = GPU_RATE if gpu and batch == GPU_BATCH else None
        row = Result(
            f"{title} batched engine, {players} players, batch {batch:,}",
            rate,
            "steps/s",
            target,
            note=f"{where}; {rate / m.game_length:,.1f} games/s "
            f"({m.game_length:.0f} steps a game); {rate / base:.2f}x the {engine} engine; "
            f"a CPU second: {m.per_cpu:,.0f} steps, {m.per_cpu / m.game_length:,.0f} games, "
            f"{m.per_cpu / base:.2f}x the {engine} engine; "
            f"compile {m.compile_s:.1f} s; {spread(m.steps, ',.0f')}",
        )
        print(markdown_table([row]).splitlines()[-1], file=sys.stderr, flush=True)
        results.append(row)
    if not gpu:
        results.append(
            Result(
                f"{title} batched engine at its best batch / {engine} engine",
                best / base,
                "x",
                CPU_RATIO if engine == "compiled" else None,
                note=f"{where}: every core on the wall clock, against one core's CPU time",
            )
        )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batched", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="batch 64, a few steps")
    parser.add_argument("--batch", help="batch sizes, comma-separated (default: 1 to 65,536)")
    parser.add_argument("--game", default="tajmahal", help="a game with a batched engine")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, help="steps a timed call (default 200)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    try:
        import jax  # noqa: F401
    except ImportError:
        sys.exit("the batched engine needs jax: pip install 'tajmahal[jax]'")
    batches = [int(b.replace("_", "")) for b in args.batch.split(",")] if args.batch else None
    results = run_all(args.quick, batches, args.players, args.steps, args.game)
    report(results, args.markdown, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
