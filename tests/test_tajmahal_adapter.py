"""The Taj Mahal adapter and the built-in greedy bot."""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tajmahal import (
    Setup,
    apply,
    determinize,
    legal_actions,
    new_game,
    step,
    view,
)
from tajmahal.arena import BotSpec, MatchConfig, run_match
from tajmahal.kit import adapter as kit_adapter
from tajmahal.tajmahal import adapter
from tajmahal.tajmahal.adapter import TAJMAHAL, view_from_data
from tajmahal.tajmahal.events import event_for
from tajmahal.tajmahal.serialize import to_data


def random_state(players: int, seed: int, steps: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = new_game(Setup.random(players, seed))
    for _ in range(steps):
        if state.to_act is None:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000), st.integers(0, 300))
def test_view_data_is_the_converters_view(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    for seat in range(players):
        v = view(state, seat)
        expected = to_data(v)
        del expected["setup"], expected["legal"]
        assert TAJMAHAL.view_data(state, seat) == expected


def _expected_view_json(state, seat: int) -> bytes:  # type: ignore[no-untyped-def]
    expected = to_data(view(state, seat))
    del expected["setup"], expected["legal"]
    return orjson.dumps(expected)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000))
def test_view_json_is_the_converters_view_along_whole_games(players: int, seed: int) -> None:
    """The referee's incremental encoding (parts kept by identity from state to
    state, across games too) gives the converter's view, byte for byte, for every
    seat of every state of a game, in the order the referee meets them."""
    rng = random.Random(seed)
    state = new_game(Setup.random(players, seed))
    while True:
        for seat in range(players):
            assert TAJMAHAL.view_json(state, seat) == _expected_view_json(state, seat)
        if state.to_act is None:
            break
        state = apply(state, rng.choice(legal_actions(state)))


def test_view_json_with_tiny_caches_and_the_long_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kit_adapter, "CACHE_LIMIT", 3)
    game = adapter.TajMahal()
    rng = random.Random(3)
    state = new_game(Setup.random(2, 3))
    states = []
    while state.to_act is not None:
        states.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
    rng.shuffle(states)  # out of order: no part is where the previous state left it
    for s in states[:60]:
        for seat in range(2):
            assert game.view_json(s, seat) == _expected_view_json(s, seat)
    assert game._texts is not None
    assert len(game._texts.shared) <= 3 and len(game._texts.values) <= 3

    game = adapter.TajMahal()  # the view the referee sends leaves the legal actions out
    for s in states[60:70]:
        if s.to_act is not None:
            assert game.view_to_send(s, s.to_act).legal == ()
            assert view(s, s.to_act).legal == legal_actions(s)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000))
def test_event_data_is_the_converters_for_every_seat(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(Setup.random(players, seed))
    while state.to_act is not None:
        state, events = step(state, rng.choice(legal_actions(state)))
        for event in events:
            for seat in (None, *range(players)):
                expected = to_data(event_for(event, seat))
                assert TAJMAHAL.event_data(event, seat) == expected
                assert TAJMAHAL.event_json(event, seat) == orjson.dumps(expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000), st.integers(0, 300))
def test_a_bot_rebuilds_its_view_from_the_messages(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    if state.to_act is None:
        return
    seat = state.to_act
    v = view(state, seat)
    public = v.setup
    legal = [TAJMAHAL.action_to_data(a) for a in v.legal]
    assert view_from_data(public, TAJMAHAL.view_data(state, seat), legal) == v


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000), st.integers(0, 300))
def test_greedys_guess_agrees_with_everything_the_seat_sees(
    players: int, seed: int, steps: int
) -> None:
    state = random_state(players, seed, steps)
    if state.to_act is None:
        return
    seat = state.to_act
    v = view(state, seat)
    guess = determinize(v, random.Random(seed))
    seen = view(guess, seat)
    assert seen.legal == v.legal
    assert to_data(seen) == to_data(v) | {"setup": to_data(seen.setup)}
    assert 0 <= TAJMAHAL.bots().greedy(v, v.legal, random.Random(1)) < len(v.legal)


def test_greedy_ignores_what_it_cannot_see() -> None:
    """Two states that differ only in hidden cards give the same view, so the same choice."""
    state = random_state(4, 5, 20)
    seat = state.to_act
    assert seat is not None
    other = (seat + 1) % 4
    hidden = list(state.deck)
    random.Random(0).shuffle(hidden)
    from attrs import evolve

    swapped = evolve(state, deck=tuple(hidden))
    assert state.players[other].hand and view(swapped, seat) == view(state, seat)
    greedy = TAJMAHAL.bots().greedy
    seen, other_seen = view(state, seat), view(swapped, seat)
    assert greedy(seen, seen.legal, random.Random(2)) == greedy(
        other_seen, other_seen.legal, random.Random(2)
    )


def test_greedy_beats_three_random_bots() -> None:
    wins = 0
    games = 12
    for seed in range(games):
        seat = seed % 4
        specs = [
            BotSpec.parse("greedy" if s == seat else "random", ["greedy", "random"])
            for s in range(4)
        ]
        result = run_match(TAJMAHAL, Setup.random(4, seed), specs, MatchConfig(), seed=seed)
        wins += result.ranks[seat] == 1
    assert wins >= 8, f"greedy won {wins} of {games}"


def test_setups_and_variants() -> None:
    setup = TAJMAHAL.random_setup(2, 1)
    assert TAJMAHAL.variant(setup) == "dummy"
    assert TAJMAHAL.setup_from_data(TAJMAHAL.setup_to_data(setup)) == setup
    with pytest.raises(ValueError, match="not for 4 players"):
        TAJMAHAL.random_setup(4, 1, "dummy")
    with pytest.raises(ValueError, match="unknown variant"):
        TAJMAHAL.random_setup(4, 1, "solo")
    with pytest.raises(ValueError, match="2-5 players"):
        TAJMAHAL.random_setup(6, 1)
    bad = TAJMAHAL.setup_to_data(setup) | {"deck": [0] * 96}
    with pytest.raises(ValueError):
        TAJMAHAL.setup_from_data(bad)


def test_actions_round_trip_and_events_hide_draws() -> None:
    state = random_state(3, 2, 0)
    for action in legal_actions(state):
        assert TAJMAHAL.action_from_data(TAJMAHAL.action_to_data(action)) == action
    with pytest.raises(ValueError):
        TAJMAHAL.action_from_data({"type": "fly"})
    from tajmahal.tajmahal.events import CardDrawn

    drawn = CardDrawn(seat=1, card=17, reason="bonus tile")
    assert TAJMAHAL.event_data(drawn, 1)["card"] == 17
    assert TAJMAHAL.event_data(drawn, 0)["card"] is None
    assert TAJMAHAL.event_data(drawn, None)["card"] is None
