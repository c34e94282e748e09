"""Invariants over random legal games (hypothesis), for 2, 3, 4 and 5 players."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from tajmahal_support import SETTINGS, hide_secrets

from tajmahal import (
    PlayerView,
    Setup,
    State,
    apply,
    check_state,
    is_over,
    legal_actions,
    new_game,
    scores,
    step,
    view,
)
from tajmahal.tajmahal.actions import Action
from tajmahal.tajmahal.events import Event, VisitEnded
from tajmahal.tajmahal.serialize import from_data, to_data
from tajmahal.tajmahal.testing import games, setups, states

PLAYERS = (2, 3, 4, 5)


def cards_everywhere(state: State) -> list[int]:
    """Every card's place: hands, tables, deck, discard, display, supply, the dummy."""
    cards = [*state.deck, *state.discard, *state.display, *state.supply]
    for p in state.players:
        cards += [*p.hand, *p.played]
    if state.dummy is not None:
        cards += state.dummy.cards
    return cards


@SETTINGS
@given(setups(PLAYERS), st.randoms(use_true_random=False))
def test_whole_random_games_keep_every_invariant(setup: Setup, rng: random.Random) -> None:
    state = new_game(setup)
    visits_ended = []
    previous = scores(state)
    while not is_over(state):
        actions = legal_actions(state)
        assert actions, "legal_actions is empty before the end"
        action = rng.choice(actions)
        snapshot = to_data(state)
        state_after, events = step(state, action)
        assert to_data(state) == snapshot, "apply mutated its input"
        assert apply(state, action) == state_after, "step and apply disagree"
        state = state_after
        assert sorted(cards_everywhere(state)) == list(range(100))
        check_state(state)  # also: palaces and influence tiles all accounted for
        now = scores(state)
        assert all(a >= b for a, b in zip(now, previous, strict=True)), "a score decreased"
        previous = now
        visits_ended += [e.visit for e in events if isinstance(e, VisitEnded)]
        assert all(0 <= p.palaces <= 20 for p in state.players)
    assert visits_ended == list(range(1, 13))
    assert state.visit == 12
    assert legal_actions(state) == ()


@SETTINGS
@given(games(PLAYERS))
def test_same_setup_and_actions_give_equal_states(game: tuple[Setup, tuple[Action, ...]]) -> None:
    setup, actions = game

    def replay() -> State:
        state = new_game(setup)
        for action in actions:
            state = apply(state, action)
        return state

    first, second = replay(), replay()
    assert first == second
    assert is_over(first)


@SETTINGS
@given(states(PLAYERS))
def test_serialization_round_trips(state: State) -> None:
    assert from_data(to_data(state), State) == state
    assert from_data(to_data(state.setup), Setup) == state.setup
    for seat in range(state.setup.players):
        v = view(state, seat)
        assert from_data(to_data(v), PlayerView) == v
    for action in legal_actions(state):
        assert from_data(to_data(action), Action) == action
    if not is_over(state):
        _, events = step(state, legal_actions(state)[-1])
        for event in events:
            assert from_data(to_data(event), Event) == event




@SETTINGS
@given(states(PLAYERS), st.randoms(use_true_random=False))
def test_a_view_does_not_depend_on_what_the_seat_cannot_see(
    state: State, rng: random.Random
) -> None:
    for seat in range(state.setup.players):
        other = hide_secrets(state, seat, rng)
        assert view(other, seat) == view(state, seat)
        assert view(other, seat).hand == state.players[seat].hand
