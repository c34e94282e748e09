"""Invariants of Tikal over random setups and reachable positions (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal.tikal import (
    DEFAULT_COMPONENTS,
    Action,
    BuildCamp,
    CampMove,
    Dig,
    EndTurn,
    Enter,
    Exchange,
    Guard,
    IllegalAction,
    Move,
    Place,
    Setup,
    State,
    Uncover,
    apply,
    is_over,
    legal_actions,
    new_game,
    problem,
    step,
)
from tajmahal.tikal.adapter import TIKAL
from tajmahal.tikal.events import GameOver, Scored
from tajmahal.tikal.hidden import determinize
from tajmahal.tikal.serialize import to_data
from tajmahal.tikal.state import ACT, GONE, OVER, RESERVE
from tajmahal.tikal.testing import games, states
from tajmahal.tikal.views import view

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
C = DEFAULT_COMPONENTS


def check_invariants(state: State) -> None:
    c = state.components
    for seat, p in enumerate(state.players):
        # T8/T23/T40: every worker is in reserve, on a space, removed, or a guard
        on_board = sum(row[seat] for row in state.workers)
        guards = [s for s in state.spaces if s is not None and s.guard == seat]
        worker_guards = sum(not s.guard_leader for s in guards)
        assert p.reserve + on_board + p.removed + worker_guards == c.workers
        assert len(guards) == len(p.guards)
        if any(s.guard_leader for s in guards):
            assert p.leader == GONE
        assert len(p.camps) <= c.camps and len(p.guards) <= c.guards  # T39, T40
        assert p.leader in (RESERVE, GONE) or state.spaces[p.leader] is not None
        assert all(0 <= n <= 3 for n in p.treasures)
    for index, space in enumerate(state.spaces):
        if space is None:
            assert not any(state.workers[index])  # T27: nobody on unexplored spaces
            continue
        if space.kind == "volcano":
            assert not any(state.workers[index])  # T21
        assert 1 <= space.value <= 10 if space.kind == "temple" else space.value == 0
    # T6: every treasure token is somewhere, once
    tokens = Counter(state.supply)
    for space in state.spaces:
        if space is not None:
            tokens.update(space.tokens)
    for p in state.players:
        tokens.update({t: n for t, n in enumerate(p.treasures)})
    assert tokens == Counter({t: 3 for t in range(8)})
    # T7: used levels + left levels = all levels
    explored = sum(s is not None and s.tile is not None for s in state.spaces)
    assert explored + len(state.stack) + (state.tile is not None) <= len(c.tiles)
    assert all(n >= 0 for n in state.levels)


@SETTINGS
@given(states())
def test_every_reachable_state_keeps_the_invariants(state: State) -> None:
    check_invariants(state)
    legal = legal_actions(state)
    assert (legal == []) == is_over(state)
    for action in legal:
        assert problem(state, action) is None
    if state.phase == ACT:
        assert legal[-1] == EndTurn()
        for action in legal[:-1]:  # every action costs AP (T18)
            after = apply(state, action)
            assert after.ap < state.ap or after.to_act != state.to_act or after.turn != state.turn


@SETTINGS
@given(states(), st.integers(0, 62), st.integers(0, 62), st.booleans())
def test_an_action_is_legal_exactly_when_it_is_listed(
    state: State, a: int, b: int, leader: bool
) -> None:
    if is_over(state):
        with pytest.raises(IllegalAction, match="^T45"):
            apply(state, EndTurn())
        return
    move = Move(a, b, leader)
    if move in legal_actions(state):
        apply(state, move)
    else:
        with pytest.raises(IllegalAction, match=r"^T\d+: "):
            apply(state, move)


@SETTINGS
@given(states())
def test_views_show_no_secret_and_determinize_agrees_with_them(state: State) -> None:
    if state.to_act is None:
        return
    seat = state.to_act
    mine = view(state, seat)
    text = orjson.dumps(TIKAL.view_data(state, seat)).decode()
    assert '"tokens":[' not in text and '"supply":[' not in text  # counts only
    # the same view whatever lies face down or however the stack is shuffled
    guess = determinize(mine, random.Random(1))
    assert view(guess, seat) == mine
    assert legal_actions(guess) == legal_actions(state)
    check_invariants(guess)


@SETTINGS
@given(games(players=(2, 3)))
def test_whole_games_score_and_end_as_the_rules_say(game: tuple[Setup, list]) -> None:
    setup, actions = game
    state = new_game(setup)
    scored: Counter[int] = Counter()
    last: list[int] = [p.score for p in state.players]
    for action in actions:
        state, events = step(state, action)
        for e in events:
            if isinstance(e, Scored):
                scored[e.seat] += 1
                assert e.total == state.players[e.seat].score
        if setup.variant == "basic":  # scores only grow without bids
            now = [p.score for p in state.players]
            assert all(x >= y for x, y in zip(now, last, strict=True))
            last = now
    assert state.phase == OVER and isinstance(events[-1], GameOver)
    assert all(n == 4 for n in scored.values()) and len(scored) == setup.players  # T45
    assert sum(s is not None for s in state.spaces) == 40  # every tile placed
    assert to_data(events[-1])["type"] == "game_over"


def every_action(state: State) -> list[Action]:
    """Every action of the act phase on every space (most of them illegal)."""
    board = state.components.board
    out: list[Action] = [EndTurn()]
    for a in board.spaces:
        out += [Uncover(a), Dig(a), BuildCamp(a)]
        for leader in (False, True):
            out += [Enter(a, leader), Guard(a, leader)]
            out += [Move(a, b, leader) for b in board.neighbours[a] if b is not None]
            out += [CampMove(a, b, leader) for b in board.spaces if b != a]
    n = len(state.players)
    out += [Exchange(s, t, g) for s in range(n) for t in range(8) for g in range(8)]
    return out


@SETTINGS
@given(states())
def test_legal_actions_miss_no_allowed_action(state: State) -> None:
    if state.phase != ACT:
        return
    legal = set(legal_actions(state))
    allowed = {a for a in every_action(state) if problem(state, a) is None}
    assert allowed == legal


@SETTINGS
@given(states())
def test_placements_are_legal_exactly_when_listed(state: State) -> None:
    """T19-T20: every space and rotation of the board, against the listed placements."""
    while state.phase != "place" and not is_over(state):  # end turns, pass, choose
        state = apply(state, legal_actions(state)[-1])
    if is_over(state):
        return
    legal = set(legal_actions(state))
    board = state.components.board
    every = [Place(s, r) for s in board.spaces for r in range(6)]
    assert {a for a in every if problem(state, a) is None} == legal
