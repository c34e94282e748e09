"""determinize(view, rng): full states consistent with one seat's view."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tajmahal import Setup, State, check_state, determinize, is_over, new_game, view
from tajmahal.tajmahal.hidden import unseen_cards
from tajmahal.tajmahal.testing import states

from tajmahal_scenario import Table


@settings(max_examples=60, deadline=None)
@given(states((2, 3, 4, 5)), st.randoms(use_true_random=False))
def test_the_seat_sees_exactly_its_view_in_a_determinized_state(
    state: State, rng: random.Random
) -> None:
    for seat in range(state.setup.players):
        seen = view(state, seat)
        guess = determinize(seen, rng)
        check_state(guess)
        assert view(guess, seat) == seen
        if not is_over(state):
            assert guess.to_act == state.to_act


def test_hidden_cards_are_dealt_uniformly_from_the_unseen_ones() -> None:
    state = new_game(Setup.random(3, seed=8))
    seen = view(state, 0)
    unseen = unseen_cards(seen)
    assert len(unseen) == 100 - 6 - 5 - 4  # own hand, display, special cards
    rng = random.Random(1)
    in_seat_1: Counter[int] = Counter()
    runs = 3000
    for _ in range(runs):
        in_seat_1.update(determinize(seen, rng).players[1].hand)
    # Each unseen card lands in seat 1's 6-card hand with chance 6/85.
    expected = runs * 6 / len(unseen)
    assert set(in_seat_1) == set(unseen)
    assert all(abs(n - expected) < 0.35 * expected for n in in_seat_1.values())


def test_revealed_cards_stay_with_their_holder() -> None:
    t = Table(
        new_game(
            Setup.stacked(
                3,
                [[0, 2, 5, 14, 16, 20], [23, 26, 29, 32, 37, 39], [44, 47, 50, 53, 58, 59]],
                display=[85, 86, 87, 88, 89],
            )
        )
    )
    t.withdraw(0)
    t.take(0, 85, 89)  # everyone saw seat 0 take these two
    seen = view(t.state, 1)
    assert seen.players[0].revealed == (85, 89)
    rng = random.Random(5)
    for _ in range(50):
        guess = determinize(seen, rng)
        assert {85, 89} <= set(guess.players[0].hand)
        assert guess.players[1].hand == t.player(1).hand
