"""Tikal's figures: random playouts (the engine), and the built-in bots' time per
decision (what a tournament of them costs).  No targets yet: a baseline to compare
later changes with."""

from __future__ import annotations

import random
import statistics

from tajmahal.kit.search import search_choice
from tajmahal.tikal import Setup, apply, is_over, legal_actions, new_game
from tajmahal.tikal.bots import BOTS, MCTS_BUILTIN, greedy_choice
from tajmahal.tikal.state import ACT, State
from tajmahal.tikal.views import view

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
    for players in (2, 3, 4):
        rates, game_rates = [], []
        for r in range(repeats):
            start = cpu_clock()
            actions = sum(_playout(players, 1000 * r + g) for g in range(games))
            seconds = cpu_clock() - start
            rates.append(actions / seconds)
            game_rates.append(games / seconds)
        name = f"Tikal random playout, {players} players"
        out.append(Result(name, statistics.median(rates), "actions/s", note=spread(rates, ",.0f")))
        out.append(Result(name, statistics.median(game_rates), "games/s"))
    return out


def _decisions(count: int) -> list[State]:
    """``count`` mid-turn positions of a 3-player game (every 5th decision in the act
    phase of random play)."""
    state = new_game(Setup.random(3, 7))
    rng = random.Random(7)
    found: list[State] = []
    step = 0
    while len(found) < count and not is_over(state):
        if state.phase == ACT and step % 5 == 0:
            found.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
        step += 1
    return found


def bots(positions: int) -> list[Result]:
    states = _decisions(positions)
    rng = random.Random(1)
    out = []
    times = []
    for state in states:
        start = cpu_clock()
        greedy_choice(state, legal_actions(state), rng)
        times.append(cpu_clock() - start)
    out.append(
        Result(
            "Tikal greedy decision",
            statistics.median(times) * 1000,
            "ms",
            higher_is_better=False,
            note=spread([t * 1000 for t in times], ".1f"),
        )
    )
    config = MCTS_BUILTIN
    times = []
    for state in states[: max(1, positions // 4)]:
        start = cpu_clock()
        search_choice(BOTS, view(state, state.to_act or 0), legal_actions(state), rng, config)
        times.append(cpu_clock() - start)
    out.append(
        Result(
            f"Tikal mcts decision ({config.iterations} iterations)",
            statistics.median(times) * 1000,
            "ms",
            higher_is_better=False,
            note=spread([t * 1000 for t in times], ".0f"),
        )
    )
    return out


def run_all(quick: bool) -> list[Result]:
    return playouts(1 if quick else 10, 3 if quick else 5) + bots(4 if quick else 40)
