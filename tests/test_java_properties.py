"""Invariants of Java over random setups and reachable positions (hypothesis)."""

from __future__ import annotations

import random

import orjson
from hypothesis import HealthCheck, given, settings

from tajmahal.java import (
    DEFAULT_COMPONENTS,
    Action,
    State,
    apply,
    is_over,
    legal_actions,
    new_game,
    problem,
    step,
)
from tajmahal.java.adapter import JAVA
from tajmahal.java.components import PALACE_VALUES
from tajmahal.java.geometry import palace_of, villages
from tajmahal.java.hidden import determinize
from tajmahal.java.serialize import from_data, to_data
from tajmahal.java.state import NONE, RICE, VILLAGE, WATER
from tajmahal.java.testing import games, states
from tajmahal.java.views import view

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
C = DEFAULT_COMPONENTS


def check_invariants(state: State) -> None:
    n = len(state.players)
    for seat, p in enumerate(state.players):
        # J6/J44: every figure is in the supply or on the board
        assert p.supply + sum(s == seat for s in state.figures) == C.figures
        assert 0 <= p.tokens <= C.action_tokens
    for q, seat in enumerate(state.figures):
        if seat != NONE:
            # J45: figures stand on land, never on a palace
            assert state.terrain[q] in (RICE, VILLAGE) and not state.palace[q] and seat < n
    for q, value in enumerate(state.palace):
        if value:
            assert state.terrain[q] == VILLAGE and value in PALACE_VALUES
    # J23/J30: at most one palace per village
    for village in villages(state):
        assert sum(1 for q in village if state.palace[q]) <= 1
        assert palace_of(state, village) is None or True
    # J40: the printed tanks stay water
    assert all(state.terrain[t] == WATER for t in C.board.tanks)
    # J10: every card is in one place
    cards = list(state.pile) + list(state.discard) + [c for p in state.players for c in p.hand]
    if state.display is not None:
        cards.append(state.display)
    if state.festival is not None:
        cards += [c for laid in state.festival.laid for c in laid]
    assert sorted(cards) == list(range(len(C.cards)))
    # J8: three-space tiles used plus left make the supply
    assert sum(1 for s in state.sizes if s == 3) + state.threes == C.three_tiles
    # J18: AP never go negative
    assert state.turn.ap >= 0


@SETTINGS
@given(states())
def test_reachable_states_keep_the_invariants(state: State) -> None:
    check_invariants(state)
    if not is_over(state):
        legal = legal_actions(state)
        assert legal
        for action in random.Random(0).sample(legal, min(15, len(legal))):
            assert problem(state, action) is None
            check_invariants(apply(state, action))


@SETTINGS
@given(states())
def test_views_hide_the_other_hands_and_determinize_is_consistent(state: State) -> None:
    for seat in range(len(state.players)):
        v = view(state, seat)
        data = orjson.dumps(to_data(v))
        assert from_data(orjson.loads(data), type(v)) == v
        for other, p in enumerate(v.players):
            assert p.hand == () and v.hands[other] == len(state.players[other].hand)
        guess = determinize(v, random.Random(seat))
        check_invariants(guess)
        assert guess.players[seat].hand == state.players[seat].hand
        assert view(guess, seat) == v
        if not is_over(state):
            assert legal_actions(guess) == legal_actions(state) or state.to_act != seat


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_whole_games_replay_through_the_adapter(game: tuple[object, list[Action]]) -> None:
    setup, actions = game
    state = JAVA.new_game(JAVA.setup_from_data(JAVA.setup_to_data(setup)))
    for action in actions:
        data = orjson.loads(orjson.dumps(JAVA.action_to_data(action)))
        state, _ = step(state, JAVA.action_from_data(data))
    assert is_over(state)
    assert sum(1 for s in state.sizes if s == 3) == C.three_tiles  # J78
    assert all(p.scored for p in state.players)  # J79-J80: everyone scored


def test_a_fresh_game_is_the_same_from_the_same_setup() -> None:
    setup = JAVA.random_setup(4, 11)
    assert new_game(setup) == new_game(JAVA.setup_from_data(JAVA.setup_to_data(setup)))
