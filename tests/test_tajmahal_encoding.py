"""The fixed action space and the observation tensors (tajmahal.tajmahal.encoding)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st
from tajmahal_support import SETTINGS, hide_secrets

from tajmahal import (
    BuildMogulPalace,
    BuildPalace,
    Play,
    Score,
    Setup,
    State,
    TakeCard,
    Withdraw,
    apply,
    is_over,
    legal_actions,
    new_game,
)
from tajmahal.kit.encoding import encoding_of, tables
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tajmahal.encoding import (
    ACTIONS,
    NUM_ACTIONS,
    ActionIndexError,
    action_index,
    observation,
    observation_layout,
)
from tajmahal.tajmahal.testing import states

ENCODING = TAJMAHAL.encoding()

PLAYERS = (2, 3, 4, 5)


# --------------------------------------------------------------------------- actions


def test_the_action_layout() -> None:
    # 84 coloured cards x (no extra + 16 extras), withdraw, 49 + 49 cities, 96 cards.
    assert NUM_ACTIONS == 84 * 17 + 1 + 49 + 49 + 96 == 1623
    assert action_index(Play(0)) == 0
    assert action_index(Play(0, 84)) == 1  # the first white card
    assert action_index(Play(0, 99)) == 16  # the princess's card, the last extra
    assert action_index(Play(1)) == 17
    assert action_index(Play(83, 99)) == 83 * 17 + 16 == 1427
    assert action_index(Withdraw()) == 1428
    assert action_index(BuildPalace(0)) == 1429
    assert action_index(BuildPalace(48)) == 1477
    assert action_index(BuildMogulPalace(0)) == 1478
    assert action_index(BuildMogulPalace(48)) == 1526
    assert action_index(TakeCard(0)) == 1527
    assert action_index(TakeCard(95)) == 1622


def test_every_index_is_one_action_and_back() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == len(set(ACTIONS))
    for i, action in enumerate(ACTIONS):
        assert action_index(action) == i
        assert ENCODING.action(i) == action


def test_bad_indices_and_non_actions_are_refused() -> None:
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(ActionIndexError, match="outside 0..1622"):
            ENCODING.action(bad)
    with pytest.raises(ActionIndexError, match="not an action"):
        action_index(Play(84))  # a white card alone (T3)
    with pytest.raises(ActionIndexError, match="not an action"):
        action_index(BuildPalace(49))
    state = new_game(
        Setup.stacked(3, [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]])
    )
    with pytest.raises(ActionIndexError, match=r"action 102 \(play red elephant\+general\)"):
        ENCODING.action(action_index(Play(6)), state)  # seat 1's card; seat 0 acts
    assert ENCODING.action(1428, state) == Withdraw()


def test_the_mask_of_a_stacked_start() -> None:
    # Seat 0 holds red 0-5 (no white or special card): six plays alone, and withdraw.
    state = new_game(
        Setup.stacked(3, [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]])
    )
    mask = ENCODING.legal_mask(state)
    assert mask.dtype == np.bool_ and mask.shape == (1623,)
    assert sorted(np.flatnonzero(mask)) == [0, 17, 34, 51, 68, 85, 1428]
    assert ENCODING.legal_indices(state) == (0, 17, 34, 51, 68, 85, 1428)


@SETTINGS
@given(states(PLAYERS))
def test_mask_is_exactly_the_legal_actions_and_indices_round_trip(state: State) -> None:
    legal = legal_actions(state)
    mask = ENCODING.legal_mask(state)
    assert set(np.flatnonzero(mask)) == {action_index(a) for a in legal}
    assert int(mask.sum()) == len(legal)  # no two legal actions share an index
    for action in legal:
        assert ENCODING.action(action_index(action), state) == action
    if is_over(state):
        assert not mask.any()


# --------------------------------------------------------------------------- observations


def test_layout_sizes_per_player_count() -> None:
    # Blocks for the whole table, then blocks with one row per seat (docs/research.md).
    for n in PLAYERS:
        layout = observation_layout(n)
        fixed = 12 + 4 + 12 + 144 + 6 + 4 + 4 + 1 + 4 * 100 + 1 + 5 + 49 * 7
        per_seat = 2 + 49 * 2 + 1 + 100 + 4 + 1 + 1 + 4 + 12 + 7 + 5 + 4 + 100
        assert layout.size == fixed + n * per_seat
        assert [b.offset for b in layout.blocks[1:]] == [b.stop for b in layout.blocks[:-1]]
    with pytest.raises(ValueError, match="2-5 players"):
        observation_layout(6)


def test_observation_of_a_stacked_start() -> None:
    setup = Setup.stacked(
        3,
        [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]],
        display=[84, 85, 86, 87, 95],
        start_player=2,
    )
    state = new_game(setup)
    layout = observation_layout(3)
    obs = observation(state, 1)

    def part(name: str) -> np.ndarray:
        return layout.part(obs, name)

    assert list(np.flatnonzero(part("hand"))) == [6, 7, 8, 9, 10, 11]
    assert list(np.flatnonzero(part("display"))) == [84, 85, 86, 87, 95]
    assert part("visit").tolist() == [1] + [0] * 11
    assert part("phase").tolist() == [1, 0, 0, 0]
    # Seat 2 starts and acts: one seat after the observer (seat 1).
    assert part("to_act").tolist() == [0, 1, 0]
    assert part("start_player").tolist() == [0, 1, 0]
    assert part("deck_size")[0] == pytest.approx((96 - 18 - 5) / 96)
    assert part("hand_size").tolist() == pytest.approx([0.6, 0.6, 0.6])
    assert part("court").tolist() == [1] * 6
    assert part("reserve").tolist() == [5, 5, 5, 5]
    assert part("supply").tolist() == [1, 1, 1, 1]
    assert part("palaces_left").tolist() == [1, 1, 1]
    assert not part("played").any() and not part("discard").any()
    # Visit k in the province with tile k: stacked setups put 1-11 in board order.
    order = part("visit_order")
    assert order.sum() == 12 and order[0, 0] == 1 and order[1, 1] == 1
    assert order[state.setup.board.final_province, 11] == 1
    assert obs.dtype == np.float32 and obs.shape == (layout.size,)


def test_observation_follows_plays_from_each_seats_side() -> None:
    setup = Setup.stacked(
        3, [[0, 1, 2, 3, 4, 5], [21, 22, 23, 24, 25, 26], [42, 43, 44, 45, 46, 47]]
    )
    state = apply(new_game(setup), Play(2))  # seat 0: red elephant+vizier
    layout = observation_layout(3)
    mine = observation(state, 0)
    theirs = observation(state, 2)
    # Seat 0 is row 0 for itself, row 1 for seat 2 (the seat after seat 2).
    assert layout.part(mine, "played")[0, 2] == 1
    assert layout.part(theirs, "played")[1, 2] == 1
    assert layout.part(mine, "color")[0].tolist() == [1, 0, 0, 0]  # red
    assert layout.part(theirs, "color")[1].tolist() == [1, 0, 0, 0]
    assert layout.part(mine, "hand_size")[0] == pytest.approx(0.5)
    assert layout.part(mine, "to_act").tolist() == [0, 1, 0]


@SETTINGS
@given(states(PLAYERS), st.randoms(use_true_random=False))
def test_hidden_information_never_changes_an_observation(state: State, rng: random.Random) -> None:
    n = state.setup.players
    layout = observation_layout(n)
    high = layout.high()
    for seat in range(n):
        obs = observation(state, seat)
        assert obs.shape == (layout.size,) and obs.dtype == np.float32
        assert (obs >= 0).all() and (obs <= high).all()
        other = hide_secrets(state, seat, rng)
        assert np.array_equal(observation(other, seat), obs)
        # A control that can fail: the same change seen by a seat whose hand it touched.
        for rival in range(n):
            if other.players[rival].hand != state.players[rival].hand:
                assert not np.array_equal(observation(other, rival), observation(state, rival))


def test_a_different_own_hand_is_a_different_observation() -> None:
    state = new_game(Setup.random(4, seed=5))
    p = state.players[0]
    swapped = evolve(
        state,
        players=(evolve(p, hand=tuple(sorted((*p.hand[1:], state.deck[0])))), *state.players[1:]),
        deck=(p.hand[0], *state.deck[1:]),
    )
    assert not np.array_equal(observation(swapped, 0), observation(state, 0))
    assert np.array_equal(observation(swapped, 1), observation(state, 1))


@pytest.mark.parametrize("game", ["tajmahal", "tikal"])
def test_docs_show_each_games_tables_as_the_command_prints_them(game: str) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text("utf-8")
    figure = f"<!-- figure: python -m tajmahal.kit.encoding {game} -->\n"
    assert figure + tables(encoding_of(game)) + "\n<!-- figure end -->" in text


def finished(totals: tuple[int, ...]) -> State:
    """A state marked over, with these totals (palace points only)."""
    state = new_game(Setup.random(len(totals), seed=1))
    players = tuple(
        evolve(p, score=Score(palaces=t)) for p, t in zip(state.players, totals, strict=True)
    )
    return evolve(state, players=players, to_act=None)


def test_outcome_of_a_lone_winner_and_of_shared_first_places() -> None:
    outcome = ENCODING.outcome
    assert outcome(finished((10, 40, 20, 30))) == pytest.approx((-1 / 3, 1, -1 / 3, -1 / 3))
    # Two winners share the prize of 1: 4/3 * (1/2 - 1/4) = 1/3 each; the others -1/3.
    assert outcome(finished((10, 30, 20, 30))) == pytest.approx((-1 / 3, 1 / 3, -1 / 3, 1 / 3))
    assert outcome(finished((25, 25))) == pytest.approx((0, 0))
    assert outcome(finished((30, 25))) == pytest.approx((1, -1))
    assert outcome(finished((5, 5, 5))) == pytest.approx((0, 0, 0))
    with pytest.raises(ValueError, match="not over"):
        ENCODING.outcome(new_game(Setup.random(3, seed=1)))
