"""Pig's randomness for OpenSpiel (:mod:`tajmahal.kit.chance`): each roll of the die
is a chance node with six outcomes, each as likely.  Nothing in the setup is random
(seat 0 starts), and nothing is hidden but the faces to come."""

from __future__ import annotations

import random

from attrs import evolve, frozen

from tajmahal.kit.chance import Chance, ChanceModel

from .rules import MAX_ROLLS, Action, Roll, Setup, State, new_game, step


@frozen
class DieChance(Chance[State]):
    """The face of the die that ``state``'s seat rolls."""

    state: State
    kind: str = "face"

    def outcomes(self) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in range(1, 7)]

    def choose(self, outcome: int) -> State:
        dice = list(self.state.setup.dice)
        dice[self.state.rolls] = outcome  # the chosen face is the next one rolled
        ready = evolve(self.state, setup=evolve(self.state.setup, dice=tuple(dice)))
        return step(ready, Roll())[0]

    def describe(self, outcome: int) -> str:
        return f"rolls a {outcome}"


class PigChance(ChanceModel[State, Action]):
    kinds = ("face",)
    max_outcomes = 7  # faces 1-6

    def start(self, players: int, variant: str | None) -> State:
        return new_game(Setup(players, (1,) * MAX_ROLLS))  # the faces come as rolled

    def after(self, state: State, action: Action) -> Chance[State] | State:
        return DieChance(state) if isinstance(action, Roll) else step(state, action)[0]

    def max_chance_nodes(self, players: int) -> int:
        return MAX_ROLLS

    def normalize(self, state: State) -> State:
        """A referee's state without the faces still to come (nobody knows them)."""
        dice = state.setup.dice[: state.rolls] + (1,) * (MAX_ROLLS - state.rolls)
        return evolve(state, setup=evolve(state.setup, dice=dice))

    def shuffle(self, state: State, rng: random.Random) -> State:
        """The faces still to come rolled again."""
        dice = state.setup.dice[: state.rolls] + tuple(
            rng.randint(1, 6) for _ in range(MAX_ROLLS - state.rolls)
        )
        return evolve(state, setup=evolve(state.setup, dice=dice))

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        return self.shuffle(state, rng)


CHANCE = PigChance()
