"""Pig for learning programs (:mod:`tajmahal.kit.encoding`): two actions, and a
seat's view as numbers."""

from __future__ import annotations

from typing import Any

from tajmahal.kit.encoding import ActionSpace, BlockSpec, Encoding, Writer

from .chance import CHANCE
from .rules import GOAL, HOLD, MAX_ROLLS, ROLL, ROUNDS, Action, State, view


def blocks(players: int) -> list[BlockSpec]:
    return [
        ("to_act", ("n",), 1, "one-hot, relative seat to act (all 0 once the game is over)"),
        ("banks", ("n",), 2, f"each seat's bank / {GOAL}, relative seats"),
        ("turn", (1,), 2, f"the turn's points / {GOAL}"),
        ("round", (ROUNDS,), 1, "one-hot: the round"),
        ("rolled", (1,), 1, "1: the seat to act has rolled (it may hold)"),
    ]


def observe(state: State, seat: int, w: Writer) -> None:
    v = view(state, seat)
    n = v.players
    if v.to_act is not None:
        w.one("to_act", (v.to_act - seat) % n)
    for other, bank in enumerate(v.banks):
        w.put("banks", (other - seat) % n, bank / GOAL)
    w.put("turn", 0, v.turn / GOAL)
    w.one("round", v.round - 1)
    w.put("rolled", 0, float(v.rolled))


def encoding(game: Any) -> Encoding[State, Action]:
    return Encoding(
        game,
        ActionSpace([("roll", [ROLL]), ("hold", [HOLD])]),
        players=lambda state: state.setup.players,
        blocks=blocks,
        observe=observe,
        max_decisions=lambda players, variant: MAX_ROLLS + players * ROUNDS,
        chance=CHANCE,
    )
