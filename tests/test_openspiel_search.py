"""Search from a bot's seat in OpenSpiel (tajmahal.openspiel): positions a seat
cannot tell apart, dealt from its view, then expanded the way MCTS expands them.

A bot at the table builds its OpenSpiel state from its view (``state_from_engine``
of a determinized view) and searches from there: every legal action of a node,
each followed by its draws. Those nodes are not the ones random games reach (a
search tries every action, the unlikely ones too): the chance model must hold on
them as well (issue 39: the dummy's card on an empty deck).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tajmahal.openspiel as tos
from tajmahal.arena.registry import GAMES
from tajmahal.java import testing as java_testing
from tajmahal.java.chance import check as check_java
from tajmahal.tajmahal import testing as tajmahal_testing
from tajmahal.tajmahal.rules import check_state
from tajmahal.tikal import testing as tikal_testing
from tajmahal.tikal.chance import check as check_tikal

#: Each game's whole random games (its shipped strategies) and its whole-state
#: check (every card, tile and token in one place).
GAMES_PLAYED: dict[str, Callable[..., Any]] = {
    "tajmahal": tajmahal_testing.games,
    "tikal": tikal_testing.games,
    "java": java_testing.games,
}
CHECKS: dict[str, Callable[[Any], None]] = {
    "tajmahal": check_state,
    "tikal": check_tikal,
    "java": check_java,
}


def load(name: str, players: int) -> tos.OpenSpielGame:
    game: tos.OpenSpielGame = pyspiel.load_game(f"python_{name}", {"players": players})
    return game


def check_chance_node(state: tos.OpenSpielState) -> list[int]:
    """The outcomes of a chance node, checked: each once (in increasing order), each
    below the game's bound, probabilities above 0 summing to 1."""
    outcomes = state.chance_outcomes()
    values = [o for o, _ in outcomes]
    assert values, "a chance node without outcomes"
    assert values == sorted(set(values)), "an outcome offered twice"
    assert values[0] >= 0 and values[-1] < state.get_game().max_chance_outcomes()
    assert all(p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    return values


def draw_through(
    state: tos.OpenSpielState, rng: random.Random, check: Callable[[Any], None]
) -> int:
    """Choose the outcomes of the chance nodes ahead at random, checking each node,
    then the whole state the event leads to; the number of nodes."""
    nodes = 0
    while state.is_chance_node():
        state.apply_action(rng.choice(check_chance_node(state)))
        nodes += 1
    if nodes:
        check(state.engine)
    return nodes


def draw_every_first(
    state: tos.OpenSpielState, rng: random.Random, check: Callable[[Any], None]
) -> int:
    """At a chance node, every outcome of it tried on a copy (expectimax's expansion),
    the rest of its event drawn at random; then ``state``'s own draws at random."""
    nodes = 0
    if state.is_chance_node():
        for outcome in check_chance_node(state):
            other = state.clone()
            other.apply_action(outcome)
            nodes += 1 + draw_through(other, rng, check)
            check(other.engine)
    return nodes + draw_through(state, rng, check)


def rollout(
    state: tos.OpenSpielState, rng: random.Random, check: Callable[[Any], None], steps: int
) -> int:
    """Up to ``steps`` random decisions, each with its draws; the chance nodes met."""
    nodes = 0
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        nodes += draw_through(state, rng, check)
    return nodes


def expand(
    state: tos.OpenSpielState,
    rng: random.Random,
    check: Callable[[Any], None],
    width: int,
    steps: int,
) -> int:
    """MCTS's simulations from a decision node: up to ``width`` of its legal actions
    (all of them if fewer), each applied to a copy with its draws (every outcome of
    the first draw tried), then the same one level down from one grandchild each,
    then a random rollout of ``steps`` decisions; every chance node checked; the
    number of chance nodes met."""
    if state.is_terminal():
        return 0
    legal = state.legal_actions()
    nodes = 0
    for action in rng.sample(legal, min(width, len(legal))):
        child = state.clone()
        child.apply_action(action)
        nodes += draw_every_first(child, rng, check)
        if width > 1:
            nodes += expand(child, rng, check, 1, steps)
        else:
            nodes += rollout(child, rng, check, steps)
    return nodes


@pytest.mark.parametrize("name", sorted(GAMES_PLAYED))
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_search_from_a_determinized_position_meets_only_whole_chance_nodes(
    name: str, data: st.DataObject
) -> None:
    rules = GAMES.get(name)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    setup, actions = data.draw(GAMES_PLAYED[name](players=players), label="game")
    rng = data.draw(st.randoms(use_true_random=True), label="rng")
    engine = rules.new_game(setup)  # a position anywhere in the game, uniformly
    for action in actions[: rng.randrange(len(actions))]:
        engine, _ = rules.step(engine, action)
    seat = rules.to_act(engine)
    assert seat is not None
    game = load(name, players)
    # What a bot at the table searches from: its view dealt out at random.
    root = game.state_from_engine(game.model.resample(engine, seat, rng))
    assert root.current_player() == seat
    expand(root, rng, CHECKS[name], width=12, steps=30)
