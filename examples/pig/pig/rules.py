"""Pig, the dice game: the whole engine (rules P1-P5 of docs/adding-a-game.md).

- P1: 2-4 players; seat 0 starts; turns go round by seat.
- P2: on your turn you roll the die: a 1 ends your turn and loses its points; any
  other face adds to the turn's points.
- P3: after a roll that was not a 1 you may hold instead: the turn's points are
  banked and the turn passes.
- P4: the game ends as soon as a seat's banked points and turn points reach the
  goal (they are banked): that seat wins.
- P5: or after the last round: the highest bank wins (equal banks share).

The dice are drawn in advance, like a shuffled deck: the setup holds every face
the game may need, and ``rolls`` counts those used.  Nobody sees a face before it
is rolled (:func:`view`), so a search bot guesses them (``bots.py``).

>>> state = new_game(Setup.random(players=2, seed=1))
>>> state.to_act, legal_actions(state)
(0, (Roll(),))
"""

from __future__ import annotations

import random
from typing import Final

from attrs import evolve, field, frozen

from tajmahal.kit.errors import IllegalAction

GOAL: Final = 30
ROUNDS: Final = 8
#: The most rolls of a game: every turn of every round rolls at most GOAL / 2
#: faces that are not 1 (each adds 2 or more), then a 1.
MAX_ROLLS: Final = 4 * ROUNDS * (GOAL // 2 + 1)


@frozen
class Roll:
    """P2: roll the die."""


@frozen
class Hold:
    """P3: bank the turn's points."""


Action = Roll | Hold
ROLL: Final = Roll()
HOLD: Final = Hold()


@frozen
class Rolled:
    """``seat`` rolled ``face``; ``turn`` is the turn's points after it (0 after a 1)."""

    seat: int
    face: int
    turn: int


@frozen
class Banked:
    """``seat`` banked ``points``: ``total`` in all."""

    seat: int
    points: int
    total: int


@frozen
class GameOver:
    """The final banks and ranks (1 is best)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]


Event = Rolled | Banked | GameOver


@frozen
class Setup:
    """Seats, and the faces of the dice in the order they will be rolled."""

    players: int
    dice: tuple[int, ...] = field(repr=False)  # MAX_ROLLS faces: too many to print
    variant: str = "standard"

    @classmethod
    def random(cls, players: int, seed: int) -> Setup:
        check_players(players)
        rng = random.Random(seed)
        return cls(players, tuple(rng.randint(1, 6) for _ in range(MAX_ROLLS)))


@frozen
class State:
    """A position: the banks, whose turn, the turn's points, the round (1 ..
    ROUNDS), the rolls used, and whether the seat to act has rolled this turn."""

    setup: Setup
    banks: tuple[int, ...]
    to_act: int | None
    turn: int = 0
    round: int = 1
    rolls: int = 0
    rolled: bool = False


@frozen
class View:
    """What a seat sees: everything but the faces still to come."""

    seat: int
    players: int
    banks: tuple[int, ...]
    to_act: int | None
    turn: int
    round: int
    rolled: bool


def check_players(players: int) -> None:
    if not 2 <= players <= 4:
        raise ValueError(f"P1: Pig is for 2-4 players, not {players}")


def new_game(setup: Setup) -> State:
    check_players(setup.players)
    return State(setup, (0,) * setup.players, 0)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.to_act is None:
        return ()
    return (ROLL, HOLD) if state.rolled else (ROLL,)


def view(state: State, seat: int) -> View:
    return View(
        seat, state.setup.players, state.banks, state.to_act, state.turn, state.round,
        state.rolled,
    )  # fmt: skip


def scores(state: State) -> list[int]:
    return list(state.banks)


def ranks(state: State) -> list[int]:
    return [1 + sum(b > mine for b in state.banks) for mine in state.banks]


def step(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened."""
    seat = state.to_act
    if seat is None:
        raise IllegalAction("P4", "the game is over")
    if action not in legal_actions(state):
        raise IllegalAction("P3", f"hold only after a roll that was not a 1, not {action!r}")
    events: list[Event] = []
    if isinstance(action, Hold):
        return _bank(state, seat, events), events
    face = state.setup.dice[state.rolls]
    turn = 0 if face == 1 else state.turn + face
    state = evolve(state, rolls=state.rolls + 1, turn=turn, rolled=face != 1)
    events.append(Rolled(seat, face, turn))
    if face == 1:
        return _next_turn(state, seat, events), events
    if state.banks[seat] + turn >= GOAL:  # P4
        return _bank(state, seat, events), events
    return state, events


def apply(state: State, action: Action) -> State:
    return step(state, action)[0]


def _bank(state: State, seat: int, events: list[Event]) -> State:
    banks = list(state.banks)
    banks[seat] += state.turn
    state = evolve(state, banks=tuple(banks))
    events.append(Banked(seat, state.turn, banks[seat]))
    if banks[seat] >= GOAL:
        return _game_over(state, events)
    return _next_turn(state, seat, events)


def _next_turn(state: State, seat: int, events: list[Event]) -> State:
    after = (seat + 1) % state.setup.players
    rounds = state.round + (after == 0)
    if rounds > ROUNDS:  # P5
        return _game_over(state, events)
    return evolve(state, to_act=after, turn=0, round=rounds, rolled=False)


def _game_over(state: State, events: list[Event]) -> State:
    state = evolve(state, to_act=None, turn=0, rolled=False)
    events.append(GameOver(state.banks, tuple(ranks(state))))
    return state
