"""The research environments beside the engine under them (issue 39).

``python -m benchmarks.environments [--quick] [--game NAME]... [--rounds N]`` (also
part of ``python -m benchmarks``).  For every game of :data:`~benchmarks.games.ENGINES`
and every player count it allows, three workloads play the same random games:

- ``engine``: the engine's own random playout (``legal_actions`` + ``apply``, a
  ``random.Random`` choosing: :func:`benchmarks.games.play_random`);
- ``aec``: the PettingZoo AEC environment (``tajmahal.pettingzoo.env``), the loop
  PettingZoo's docs show: ``agent_iter``, ``last()`` (the observation and the
  mask of the agent to act), a uniform choice among the mask's legal indices
  (:func:`legal`), ``step``;
- ``parallel``: the parallel environment (``parallel_env``): ``step`` with the
  action of the agent to act, every live agent's observation back.

Each round times the three, one after the other, on the CPU clock, for the same
seeds; the environments' rates are taken as shares of the engine's rate within
each round, and the medians reported.  Target: each environment at least 25% of
the engine's rate (decisions per second), for every game and player count.

With OpenSpiel installed, one more row a game: the CPU time of a random 4-player
game through OpenSpiel's ``rl_environment`` (which reads every seat's
information-state tensor at every step); its target is the game's
(``speed_targets["rl_environment"]``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tajmahal.extras import missing

from .engine import calibrated_seeds
from .games import ENGINES, PLAYERS, Engine, Loaded, load, play_random, selected
from .measure import Result, cpu_clock, spread

#: The share of the engine's rate each environment must reach.
TARGET = 0.25


def legal(mask: Any) -> Any:
    """The legal indices of an int8 mask (read as booleans: numpy finds the nonzero
    elements of a boolean array several times faster than of an int8 one)."""
    return mask.view(bool).nonzero()[0]


def aec_game(g: Loaded, players: int, seed: int) -> int:
    """One random game through the AEC environment; returns the decisions."""
    from tajmahal.pettingzoo import env

    game = env(g.engine.name, players)
    game.reset(seed=seed)
    choice = random.Random(seed).choice
    decisions = 0
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(choice(legal(observation["action_mask"]))))
        decisions += 1
    return decisions


def parallel_game(g: Loaded, players: int, seed: int) -> int:
    """One random game through the parallel environment; returns the decisions."""
    from tajmahal.pettingzoo import parallel_env

    game = parallel_env(g.engine.name, players)
    observations, infos = game.reset(seed=seed)
    choice = random.Random(seed).choice
    decisions = 0
    while game.agents:
        active = infos[game.agents[0]]["active_agent"]
        action = int(choice(legal(observations[active]["action_mask"])))
        observations, _, _, _, infos = game.step({active: action})
        decisions += 1
    return decisions


WORKLOADS: dict[str, Callable[[Loaded, int, int], int]] = {
    "engine": play_random,
    "aec": aec_game,
    "parallel": parallel_game,
}


def rl_environment_game(g: Loaded, players: int, seed: int) -> float:
    """CPU seconds of one random game through OpenSpiel's ``rl_environment`` (every
    seat's information-state tensor and legal actions at every step)."""
    from open_spiel.python import rl_environment

    import tajmahal.openspiel  # noqa: F401 - registers the games

    env = rl_environment.Environment(f"python_{g.engine.name}", players=players)
    env.seed(seed)
    choice = random.Random(seed).choice
    start = cpu_clock()
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([choice(step.observations["legal_actions"][seat])])
    return cpu_clock() - start


def rates(g: Loaded, players: int, seeds: Sequence[int]) -> dict[str, float]:
    """Decisions per CPU second of each workload over ``seeds``, one after the other."""
    out = {}
    for name, game in WORKLOADS.items():
        start = cpu_clock()
        decisions = sum(game(g, players, seed) for seed in seeds)
        out[name] = decisions / (cpu_clock() - start)
    return out


def measure(engine: Engine, quick: bool, rounds: int) -> list[Result]:
    g = load(engine)
    results = []
    for players in g.players:
        seeds = calibrated_seeds(g, players, 0.1 if quick else 0.5, aec_game)
        runs = [rates(g, players, seeds) for _ in range(rounds)]
        engine_rates = [r["engine"] for r in runs]
        results.append(
            Result(
                f"{g.title} engine playout beside the environments, {players} players",
                statistics.median(engine_rates),
                "decisions/s",
                note=f"{len(seeds)} games; {spread(engine_rates, ',.0f')}",
            )
        )
        for name in ("aec", "parallel"):
            shares = [r[name] / r["engine"] for r in runs]
            label = "AEC env" if name == "aec" else "parallel env"
            where = f"{g.title} {label} / engine, {players} players"
            note = (
                f"{statistics.median(r[name] for r in runs):,.0f} decisions/s; "
                f"{spread(shares, '.3f')}"
            )
            results.append(
                Result(
                    where,
                    statistics.median(shares),
                    "ratio",
                    TARGET,
                    note=note,
                )
            )
    if not missing(("pyspiel",)):
        players = g.seats(PLAYERS)
        times = [rl_environment_game(g, players, seed) for seed in range(3 if quick else 7)]
        results.append(
            Result(
                f"{g.title} OpenSpiel rl_environment random game, {players} players",
                statistics.median(times),
                "s CPU",
                engine.rl_environment,
                higher_is_better=False,
                note=f"{len(times)} games; {spread(times, '.2f')}",
            )
        )
    return results


def run_all(
    quick: bool = False, engines: Sequence[Engine] = ENGINES, rounds: int = 0
) -> list[Result]:
    """Every game's rows (``rounds``: 0 for the default, 3, or 1 with ``quick``);
    none without the research extra (``pip install -e '.[rl]'``)."""
    if missing(("numpy", "gymnasium", "pettingzoo")):
        print("benchmarks.environments: no rl extra, no environment figures", file=sys.stderr)
        return []
    rounds = rounds or (1 if quick else 3)
    return [r for engine in engines for r in measure(engine, quick, rounds)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.environments", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds, for smoke tests")
    parser.add_argument("--game", action="append", metavar="NAME", help="only this game")
    parser.add_argument("--rounds", type=int, default=0, help="rounds (default 3, quick 1)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    from .report import print_table

    print_table(run_all(args.quick, selected(args.game), args.rounds), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
