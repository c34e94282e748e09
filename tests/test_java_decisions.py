"""Java's factored decisions (docs/java-rules.md, "Decisions"): an action of J19 is
made of small decisions (what, where, how); the legal ones are exactly those the
engine accepts, none leads into a dead end, and no ``act`` line is long."""

from __future__ import annotations

import random

import orjson
from hypothesis import HealthCheck, given, settings
from java_scenario import acting, at, fresh

from tajmahal.java import (
    DEFAULT_COMPONENTS,
    TILES,
    Action,
    BuildPalace,
    Deploy,
    Done,
    EndTurn,
    ExtendPalace,
    HoldFestival,
    Lay,
    Move,
    Pass,
    PlaceLand,
    PlaceWater,
    Select,
    Shape,
    State,
    TakeCard,
    UseToken,
    Value,
    Withdraw,
    apply,
    is_over,
    legal_actions,
    new_game,
    problem,
)
from tajmahal.java.actions import TILE_SIZES
from tajmahal.java.adapter import JAVA
from tajmahal.java.components import PALACE_VALUES
from tajmahal.java.state import ACT, FESTIVAL, POSITION, SHAPE, TARGET, VALUE
from tajmahal.java.testing import states
from tajmahal.java.views import view

BOARD = DEFAULT_COMPONENTS.board
ACT_CHOICES = (
    *(PlaceLand(t) for t in TILES),
    PlaceWater(),
    Deploy(),
    Withdraw(),
    Move(),
    BuildPalace(),
    ExtendPalace(),
    TakeCard(True),
    TakeCard(False),
    UseToken(),
    HoldFestival(),
    EndTurn(),
)


def universe(state: State) -> list[Action]:
    """Every action of the kind the phase asks for (legal or not)."""
    if state.phase == ACT:
        return list(ACT_CHOICES)
    if state.phase in (POSITION, TARGET):
        return [Select(p) for p in range(len(BOARD.coords))]
    if state.phase == SHAPE:
        assert state.pending is not None and isinstance(state.pending.action, PlaceLand)
        size = TILE_SIZES[state.pending.action.tile]
        return [Shape(cells) for cells in (BOARD.pairs if size == 2 else BOARD.triangles)]
    if state.phase == VALUE:
        return [Value(v) for v in (*PALACE_VALUES, 3, 12)]
    assert state.phase == FESTIVAL
    return [*(Lay(c) for c in range(len(DEFAULT_COMPONENTS.cards))), Done(), Pass()]


def check_decision(state: State) -> None:
    legal = legal_actions(state)
    assert legal and len(set(legal)) == len(legal)
    # the legal decisions are exactly those the engine takes, in the stable order
    assert [a for a in universe(state) if problem(state, a) is None] == sorted(
        legal, key=universe(state).index
    )
    if state.phase == ACT:
        assert len(legal) <= len(ACT_CHOICES) and legal == sorted(legal, key=ACT_CHOICES.index)
    for action in legal:  # no choice leads into a dead end
        after = apply(state, action)
        assert is_over(after) or legal_actions(after)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_the_legal_decisions_are_those_the_engine_takes(state: State) -> None:
    if not is_over(state):
        check_decision(state)


def test_every_phase_of_random_games_offers_what_the_engine_takes() -> None:
    seen = set()
    for seed in range(3):
        state = new_game(JAVA.random_setup(2 + seed, seed))
        rng = random.Random(seed)
        for n in range(600):
            if is_over(state):
                break
            if n % 7 == 0 or state.phase not in seen:
                check_decision(state)
                seen.add(state.phase)
            state = apply(state, rng.choice(legal_actions(state)))
    assert seen >= {ACT, POSITION, SHAPE, TARGET}


def test_a_tile_is_chosen_then_placed_then_turned() -> None:
    state = acting(fresh())
    state = apply(state, PlaceLand("three"))
    assert state.phase == POSITION and legal_actions(state)[0] == Select(0)
    state = apply(state, Select(at(5, 6)))  # the village space
    # six triangles around a hex of the open board, each with the anchor as village
    shapes = legal_actions(state)
    assert state.phase == SHAPE and len(shapes) == 6
    assert all(isinstance(s, Shape) and at(5, 6) in s.cells for s in shapes)
    # every seat sees the half-made action
    assert view(state, 1).pending == state.pending
    assert state.pending is not None and state.pending.position == at(5, 6)
    state = apply(state, Shape((at(5, 5), at(5, 6), at(6, 6))))
    assert state.phase == ACT and state.pending is None and state.turn.ap == 5
    assert state.terrain[at(5, 6)] == 2 and state.terrain[at(5, 5)] == 1  # village, rice


def test_no_act_line_is_over_32_kb() -> None:
    # a C bot with a fixed buffer must do: the act message of every decision of
    # whole games, 2 and 4 seats, built as the referee sends it
    longest = 0
    for players, seed in ((2, 1), (4, 2)):
        state = new_game(JAVA.random_setup(players, seed))
        rng = random.Random(seed)
        while not is_over(state):
            legal = legal_actions(state)
            seat = state.to_act
            assert seat is not None
            line = orjson.dumps(
                {
                    "type": "act",
                    "decision": 99999,
                    "view": JAVA.view_data(state, seat),
                    "legal": [JAVA.action_to_data(a) for a in legal],
                    "time": {"move": 1.0, "bank": 10.0},
                }
            )
            longest = max(longest, len(line))
            state = apply(state, rng.choice(legal))
    assert longest <= 32 * 1024
