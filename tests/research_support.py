"""What the research adapters' tests share: a random walk through an OpenSpiel
state, and a rollout evaluator."""

from __future__ import annotations

import random

import numpy as np
from open_spiel.python.algorithms.mcts import Evaluator

import tajmahal.openspiel as tos


def play(state: tos.OpenSpielState, rng: random.Random, steps: int | None = None) -> None:
    """Random chance outcomes (by their probabilities) and random actions, to the end
    or for ``steps`` steps."""
    while not state.is_terminal() and steps != 0:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps = None if steps is None else steps - 1


class Rollouts(Evaluator):
    """Leaf values for MCTSBot: random steps (chance nodes drawn by their
    probabilities; ``steps`` of them, None: to the end), then the returns if the
    game ended, else 0 for every seat."""

    def __init__(self, rng: random.Random, steps: int | None) -> None:
        self.rng, self.steps = rng, steps

    def evaluate(self, state: tos.OpenSpielState) -> np.ndarray:
        working = state.clone()
        play(working, self.rng, self.steps)
        if working.is_terminal():
            return np.array(working.returns())
        return np.zeros(state.num_players())

    def prior(self, state: tos.OpenSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]
