"""OpenSpiel's IS-MCTS bot against the built-in bots, through the referee.

    python examples/openspiel_ismcts.py --games 8 --simulations 200
    python examples/openspiel_ismcts.py --game tikal --opponents greedy --games 4

The IS-MCTS bot (``open_spiel.python.algorithms.ismcts``) searches the game's
OpenSpiel game (``python_tajmahal``, ``python_tikal``, ``python_java``:
:mod:`tajmahal.openspiel`); it sits at the table as an in-process player
(:func:`tajmahal.openspiel.ismcts_player`) that gets the same messages as any bot
and deals what its view hides at random.  Its leaves are valued by the game's own
bots (:class:`tajmahal.openspiel.BotsEvaluator`).  Its seat rotates from game to
game; the other seats are the game's built-in bots named by ``--opponents``.
Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from tajmahal.arena import InProcessConnection, MatchConfig, TimeControl, play_match
from tajmahal.arena.registry import GAMES
from tajmahal.arena.terms import seat_seed
from tajmahal.openspiel import ismcts_player


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tajmahal", help="tajmahal, tikal, ...")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=200, help="IS-MCTS simulations")
    parser.add_argument(
        "--opponents", default="greedy,random,random", help="built-in bots, comma-separated"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    opponents = args.opponents.split(",")
    players = 1 + len(opponents)
    rules = GAMES.get(args.game)
    builtins = rules.builtin_players()
    unknown = [name for name in opponents if name not in builtins]
    if unknown:
        parser.error(f"unknown built-in bots {unknown}; known: {sorted(builtins)}")
    wins = 0.0
    ranks: list[int] = []
    scores: list[int] = []
    thinking = decisions = 0.0
    faults = 0
    for game in range(args.games):
        seed = args.seed + game
        seat = game % players
        names = [*opponents[:seat], "ismcts", *opponents[seat:]]
        search = ismcts_player(seat_seed(seed, seat), args.simulations, rules)
        connections = [
            InProcessConnection(
                search if s == seat else builtins[name](seat_seed(seed, s)), name, None
            )
            for s, name in enumerate(names)
        ]
        # Time enough that a loaded machine changes no result, only the timings.
        config = MatchConfig(time=TimeControl(move=60.0, bank=600.0))
        start = time.perf_counter()
        setup = rules.random_setup(players, seed)
        result = play_match(rules, setup, connections, config, seed=seed)
        elapsed = time.perf_counter() - start
        mine = result.seats[seat]
        faults += len(result.faults)
        thinking += mine.time_used
        decisions += mine.decisions
        top = result.ranks.count(1)
        wins += 1 / top if result.ranks[seat] == 1 else 0.0
        ranks.append(result.ranks[seat])
        scores.append(result.scores[seat])
        table = " ".join(f"{n}={s}" for n, s in zip(names, result.scores, strict=True))
        print(f"game {game + 1}: {table}  (ismcts rank {result.ranks[seat]}, {elapsed:.0f} s)")
    summary = {
        "games": args.games,
        "win_share": wins / args.games,
        "mean_rank": sum(ranks) / args.games,
        "mean_score": sum(scores) / args.games,
        "seconds_per_decision": thinking / max(decisions, 1),
        "faults": faults,
    }
    print(
        f"ismcts ({args.simulations} simulations) against {', '.join(opponents)}: "
        f"win share {summary['win_share']:.2f} (fair share {1 / players:.2f}), "
        f"mean rank {summary['mean_rank']:.2f}, mean score {summary['mean_score']:.1f}, "
        f"{summary['seconds_per_decision']:.2f} s a decision, {faults} faults"
    )
    return summary


if __name__ == "__main__":
    main()
