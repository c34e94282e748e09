"""Java's figures: random playouts (the engine), ``legal_actions`` at the start of a
turn (thousands of land tile placements), and the built-in bots' time per
decision.  No targets yet: a baseline to compare later changes with."""

from __future__ import annotations

import random
import statistics

from tajmahal.java import Setup, State, apply, is_over, legal_actions, new_game
from tajmahal.java.bots import SearchConfig, greedy_choice, mcts_choice
from tajmahal.java.state import ACT
from tajmahal.java.views import view

from .measure import Result, cpu_clock, spread


def _playout(players: int, seed: int) -> int:
    state = new_game(Setup.random(players, seed))
    rng = random.Random(seed)
    actions = 0
    while not is_over(state):
        state = apply(state, rng.choice(legal_actions(state)))
        actions += 1
    return actions


def playouts(games: int, repeats: int) -> list[Result]:
    out = []
    for players in (2, 4):
        rates, game_rates = [], []
        for r in range(repeats):
            start = cpu_clock()
            actions = sum(_playout(players, 1000 * r + g) for g in range(games))
            seconds = cpu_clock() - start
            rates.append(actions / seconds)
            game_rates.append(games / seconds)
        name = f"Java random playout, {players} players"
        out.append(Result(name, statistics.median(rates), "actions/s", note=spread(rates, ",.0f")))
        out.append(Result(name, statistics.median(game_rates), "games/s"))
    return out


def _turn_starts(count: int) -> list[State]:
    """``count`` positions at the start of a turn of a 3-player game of random play."""
    state = new_game(Setup.random(3, 7))
    rng = random.Random(7)
    found: list[State] = []
    while len(found) < count and not is_over(state):
        if state.phase == ACT and not state.turn.acted:
            found.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
    return found


def _timed(name: str, times: list[float], fmt: str) -> Result:
    ms = [t * 1000 for t in times]
    return Result(name, statistics.median(ms), "ms", higher_is_better=False, note=spread(ms, fmt))


def decisions(positions: int) -> list[Result]:
    states = _turn_starts(positions)
    rng = random.Random(1)
    legal_times, greedy_times, mcts_times = [], [], []
    for state in states:
        start = cpu_clock()
        legal = legal_actions(state)
        legal_times.append(cpu_clock() - start)
        start = cpu_clock()
        greedy_choice(state, legal, rng)
        greedy_times.append(cpu_clock() - start)
    config = SearchConfig(seconds=None)
    for state in states[: max(1, positions // 4)]:
        start = cpu_clock()
        mcts_choice(view(state, state.to_act or 0), legal_actions(state), rng, config)
        mcts_times.append(cpu_clock() - start)
    return [
        _timed("Java legal_actions at a turn's start", legal_times, ".1f"),
        _timed("Java greedy decision", greedy_times, ".1f"),
        _timed(f"Java mcts decision ({config.iterations} iterations)", mcts_times, ".0f"),
    ]


def run_all(quick: bool) -> list[Result]:
    return playouts(1 if quick else 10, 3 if quick else 5) + decisions(4 if quick else 40)
