"""The batched engine (tajmahal.batched, JAX) against the compiled rules engine, in
one run: steps per second at each batch size, on whatever device JAX has.

``python -m benchmarks.batched [--batch 1,64,1024,4096] [--players 4] [--steps 200]
[--quick] [--json FILE]`` (also part of ``python -m benchmarks`` when JAX is
installed).  One command gives the GPU figure on a machine with one:

    pip install -U "jax[cuda12]"
    python -m benchmarks.batched --batch 1,256,4096,65536 --json gpu.json

Each batch size runs ``--steps`` steps of every game in one compiled ``lax.scan``
(the first call compiles: its time is reported), each game's seat choosing a
uniformly random legal action (``tajmahal.batched.random_action``) and each finished
game dealt anew in its place (``reset_finished``: a few new deals a step, not one
per game as Pgx's ``auto_reset`` computes); the
figure is the median of the timed calls on the wall clock (all of the device).  The
compiled engine's random playout (``legal_actions`` + ``apply``, a
``random.Random`` choosing) runs in the same process on one core, on its CPU clock
(benchmarks/engine.py's row).  Targets: at the best batch size 3 times the compiled
engine on a CPU; 10 million steps a second at batch 65,536 on a GPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from .engine import calibrated_seeds
from .games import engine_named, load, play_random
from .measure import Result, cpu_clock, spread, timed

#: The targets (issue 40): times the compiled engine on a CPU, steps/s on a GPU.
CPU_RATIO = 3.0
GPU_RATE = 10_000_000
GPU_BATCH = 65_536


def compiled_rate(game: str, players: int, seconds: float, repeats: int) -> float:
    """The compiled engine's random playouts, actions per CPU second (median)."""
    g = load(engine_named(game))
    seeds = calibrated_seeds(g, players, seconds)
    actions = sum(play_random(g, players, s) for s in seeds)
    times = timed(lambda: [play_random(g, players, s) for s in seeds], repeats, cpu_clock)
    return actions / statistics.median(times)


def playout(
    game: str, players: int, batch: int, steps: int
) -> tuple[Callable[[Any, Any], Any], Any]:
    """A compiled run of ``steps`` random steps of ``batch`` games, and its first state."""
    import jax

    import tajmahal.batched as batched

    env = batched.make(num_players=players, game=game)

    def one(state: Any, key: Any) -> Any:
        choose, step = jax.random.split(key)
        action = batched.random_action(choose, state.legal_action_mask)
        return env.step(state, action, step)

    def body(state: Any, key: Any) -> tuple[Any, None]:
        play, deal = jax.random.split(key)
        state = jax.vmap(one)(state, jax.random.split(play, batch))
        return batched.reset_finished(env, state, deal, max(1, batch // 64)), None

    @jax.jit
    def run(state: Any, key: Any) -> Any:
        state, _ = jax.lax.scan(body, state, jax.random.split(key, steps))
        return state

    first = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), batch))
    return run, first


def measure(
    game: str, players: int, batch: int, steps: int, repeats: int
) -> tuple[list[float], float, float]:
    """Steps per second (wall clock) of each timed call, the compile time, and the
    steps per second of this process's CPU time over the timed calls (every core's:
    on a shared machine, what the wall clock would give if the cores were free)."""
    import jax

    run, state = playout(game, players, batch, steps)
    start = time.perf_counter()
    state = jax.block_until_ready(run(state, jax.random.key(1)))
    compile_s = time.perf_counter() - start
    rates = []
    cpu = cpu_clock()
    for r in range(repeats):
        start = time.perf_counter()
        state = jax.block_until_ready(run(state, jax.random.key(2 + r)))
        rates.append(batch * steps / (time.perf_counter() - start))
    per_cpu = batch * steps * repeats / (cpu_clock() - cpu)
    return rates, compile_s, per_cpu


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
    base = compiled_rate(game, players, 0.05 if quick else 0.5, 3 if quick else 7)
    title = load(engine_named(game)).title
    where = device()
    gpu = not where.startswith("cpu")
    results = [
        Result(
            f"{title} compiled engine random playout, {players} players (batched row)",
            base,
            "actions/s",
            note="one core, CPU time",
        )
    ]
    best = 0.0
    for batch in batches:
        rates, compile_s, per_cpu = measure(game, players, batch, steps, repeats)
        rate = statistics.median(rates)
        best = max(best, rate)
        target = GPU_RATE if gpu and batch == GPU_BATCH else None
        results.append(
            Result(
                f"{title} batched engine, {players} players, batch {batch:,}",
                rate,
                "steps/s",
                target,
                note=f"{where}; {spread(rates, ',.0f')}; compile {compile_s:.1f} s; "
                f"{rate / base:.2f}x the compiled engine; {per_cpu:,.0f} a CPU second",
            )
        )
    if not gpu:
        results.append(
            Result(
                f"{title} batched engine at its best batch / compiled engine",
                best / base,
                "x",
                CPU_RATIO,
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
    from .report import report

    report(results, args.markdown, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
