"""Observations in parts (tajmahal.kit.observing), for every game at every player
count: an observer that rewrites only what a step changed gives what writing every
part afresh gives, whatever the order of the states; per-seat rows are relative to
the observer; nothing hidden from a seat changes its observation; and the action
indices found by identity are those found by value."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tajmahal.arena.registry import GAMES
from tajmahal.kit.encoding import encoding_of
from tajmahal.kit.observing import rotations

CASES = [
    pytest.param(game, n, id=f"{game}-{n}")
    for game in ("tajmahal", "tikal", "java")
    for n in range(GAMES.get(game).min_players, GAMES.get(game).max_players + 1)
]


def states(game: str, players: int, seed: int, every: int) -> list[Any]:
    """One in ``every`` states of a random game, in order, and its end."""
    rules = GAMES.get(game)
    state = rules.new_game(rules.random_setup(players, seed))
    rng = random.Random(seed)
    out = []
    while rules.to_act(state) is not None:
        if rng.randrange(every) == 0:
            out.append(state)
        state, _ = rules.step(state, rng.choice(rules.legal_actions(state)))
    return [*out, state]


@pytest.mark.once  # the machinery is the same on both engines
@pytest.mark.parametrize(("game", "players"), CASES)
def test_rewriting_what_changed_is_writing_everything(game: str, players: int) -> None:
    encoding = encoding_of(game)
    observer = encoding.observer(players)
    seen = states(game, players, seed=players, every={"tajmahal": 2, "tikal": 4}.get(game, 8))
    for order in (seen, random.Random(1).sample(seen, len(seen))):
        fresh = encoding.observer(players)
        for state in order:
            for seat in range(players):
                got = observer.observation(state, seat)
                assert np.array_equal(got, fresh.fresh(state, seat))
                assert got.dtype == np.float32
    out = np.full(encoding.layout(players).size, 7.0, np.float32)
    assert observer.observation(seen[0], 0, out=out) is out
    assert np.array_equal(out, encoding.observation(seen[0], 0))


@pytest.mark.parametrize(("game", "players"), CASES[::2])
def test_rows_are_relative_to_the_observing_seat(game: str, players: int) -> None:
    encoding = encoding_of(game)
    layout = encoding.layout(players)
    for state in states(game, players, seed=3, every=9)[:-1]:
        to_act = encoding.game.to_act(state)
        for seat in range(players):
            row = layout.part(encoding.observation(state, seat), "to_act")
            assert np.flatnonzero(row).tolist() == [(to_act - seat) % players]
    # The gathers move every per-seat axis, and only those.
    seat_blocks = [b for b in layout.blocks if b.seat_axes]
    assert seat_blocks and all(players in b.shape for b in seat_blocks)
    turned = rotations(layout)[1]
    for block in layout.blocks:
        span = turned[block.offset : block.stop]
        same = np.array_equal(span, np.arange(block.offset, block.stop))
        assert same == (not block.seat_axes)


@pytest.mark.parametrize(("game", "players"), CASES[1::2])
def test_what_a_seat_cannot_see_never_changes_its_observation(game: str, players: int) -> None:
    # The observation reads the state itself: dealing the hidden parts again (other
    # hands, the order of decks and stacks, face-down tokens) must change nothing.
    encoding = encoding_of(game)
    model = encoding.chance
    rng = random.Random(players)
    for state in states(game, players, seed=5, every=7)[:-1]:
        seat = encoding.game.to_act(state)
        for _ in range(2):
            other = model.resample(state, seat, rng)
            assert np.array_equal(
                encoding.observation(other, seat), encoding.observation(state, seat)
            )


@pytest.mark.parametrize("game", ["tajmahal", "tikal", "java"])
def test_action_indices_by_identity_are_the_indices_by_value(game: str) -> None:
    encoding = encoding_of(game)
    space = encoding.actions
    for state in states(game, 3, seed=2, every=3)[:-1]:
        legal = encoding.game.legal_actions(state)
        by_value = [space.index(a) for a in legal]
        assert space.index_list(legal) == by_value  # the first time: by value
        assert space.index_list(legal) == by_value  # then by identity
        assert space.index_list(list(legal)) == by_value
