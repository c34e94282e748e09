"""tajmahal.batched: Pgx's Env interface, random games that keep every card in one
place, uniform draws, illegal actions and finished games as Pgx handles them.
(That the batched rules are the rules engine's is tests/test_batched_differential.py.)"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import tajmahal.batched as batched  # noqa: E402
from tajmahal import Setup, Withdraw, new_game  # noqa: E402
from tajmahal.kit.encoding import encoding_of  # noqa: E402
from tajmahal.tajmahal.batched import TajMahal, from_setup  # noqa: E402
from tajmahal.tajmahal.batched.bits import count, unpack  # noqa: E402
from tajmahal.tajmahal.batched.tables import DECK, DISPLAY, HAND, NUM_CARDS  # noqa: E402
from tajmahal.tajmahal.encoding import WITHDRAW_INDEX  # noqa: E402

ENCODING = encoding_of("tajmahal")
pytestmark = pytest.mark.once  # the batched engine does not depend on the rules engine's build


@functools.cache
def compiled(players: int) -> tuple[TajMahal, Any, Any]:
    env = TajMahal(players)
    return env, jax.jit(env.init), jax.jit(env.step)


def test_make_gives_pgx_s_interface_with_the_kit_encoding_s_sizes() -> None:
    env = batched.make(num_players=3)
    assert (env.num_players, env.num_actions) == (3, ENCODING.actions.size)
    assert env.observation_shape == (ENCODING.layout(3).size,)
    assert env.id == "tajmahal" and env.version
    state = env.init(jax.random.key(7))
    assert state.legal_action_mask.shape == (1623,) and state.rewards.shape == (3,)
    assert state.observation.shape == env.observation_shape
    assert 0 <= int(state.current_player) < 3 and not bool(state.terminated)
    hands = [count(state.piles[HAND + seat]) for seat in range(3)]
    assert hands == [6, 6, 6] and count(state.piles[DISPLAY]) == 5  # S1, S2
    assert count(state.piles[DECK]) == 96 - 18 - 5
    with pytest.raises(ValueError, match="Tikal has no batched engine"):
        batched.make(num_players=3, game="tikal")


def test_a_step_needs_a_key() -> None:
    env = batched.make(num_players=4)
    state = env.init(jax.random.key(0))
    with pytest.raises(TypeError, match="pass a key"):
        env.step(state, jnp.int32(WITHDRAW_INDEX))


def piles_partition_the_cards(state: Any) -> bool:
    """C3: every card lies in exactly one pile."""
    held = np.asarray(unpack(state.piles)).astype(int)  # [pile, card]
    return bool((held.sum(axis=0) == 1).all())


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5])
def test_random_games_run_to_the_end_keeping_every_card_in_one_place(players: int) -> None:
    _, init, step = compiled(players)
    state = init(jax.random.key(players))
    key = jax.random.key(100)
    steps = 0
    while not bool(state.terminated):
        assert piles_partition_the_cards(state)
        assert int(state.current_player) >= 0 and bool(state.legal_action_mask.any())
        key, choose, draw = jax.random.split(key, 3)
        action = batched.random_action(choose, state.legal_action_mask)
        assert bool(state.legal_action_mask[action])
        state = step(state, action, draw)
        steps += 1
    assert piles_partition_the_cards(state) and int(state.visit) == 12
    assert int(state.current_player) == -1 and bool(state.legal_action_mask.all())  # Pgx
    rewards = np.asarray(state.rewards)
    assert abs(rewards.sum()) < 1e-6 and rewards.max() > 0
    totals = np.asarray(state.score).sum(axis=1)
    assert (rewards == rewards.max()).tolist() == (totals == totals.max()).tolist()  # F2
    again = step(state, jnp.int32(0), jax.random.key(1))  # a finished game stays as it is
    assert not np.asarray(again.rewards).any() and int(again.visit) == 12
    assert 100 < steps < 600


def test_an_illegal_action_ends_the_game_with_a_penalty_for_its_seat() -> None:
    _, init, step = compiled(4)
    state = init(jax.random.key(3))
    seat = int(state.current_player)
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = step(state, jnp.int32(illegal), jax.random.key(0))
    assert bool(after.terminated) and int(after.current_player) == -1
    expected = np.full(4, 1 / 3, np.float32)
    expected[seat] = -1
    np.testing.assert_allclose(np.asarray(after.rewards), expected)


@pytest.mark.slow
def test_a_withdrawal_without_a_card_played_draws_uniformly_from_the_deck() -> None:
    """W11 with the deck as a set: each deck card comes with the same chance."""
    env = compiled(3)[0]
    state = from_setup(env, Setup.random(3, seed=11))
    seat = int(state.current_player)
    keys = jax.random.split(jax.random.key(5), 4000)
    after = jax.vmap(lambda k: env.step(state, jnp.int32(WITHDRAW_INDEX), k))(keys)
    hand = np.asarray(unpack(after.piles[:, HAND + seat]))
    before = np.asarray(unpack(state.piles[HAND + seat]))
    drawn = hand & ~before  # one card each time, from the deck
    assert (drawn.sum(axis=1) == 1).all()
    deck = np.asarray(unpack(state.piles[DECK]))
    counts = drawn.sum(axis=0)
    assert not counts[~deck].any()
    expected = 4000 / deck.sum()
    chi2 = float(((counts[deck] - expected) ** 2 / expected).sum())
    assert chi2 < deck.sum() + 6 * np.sqrt(2 * deck.sum())  # far above chance only if biased


def test_auto_reset_deals_a_new_game_after_the_last_step() -> None:
    env = TajMahal(2)
    setup = Setup.random(2, seed=4)
    state = from_setup(env, setup)
    faulted = env.step(state, jnp.int32(NUM_CARDS * 17), jax.random.key(0))  # out of range
    assert bool(faulted.terminated)
    again = batched.auto_reset(env, state, jnp.int32(NUM_CARDS * 17), jax.random.key(0))
    assert bool(again.terminated) and int(again._step_count) == 0  # a new deal
    assert float(np.asarray(again.rewards).min()) == -1.0
    go_on = batched.auto_reset(env, again, jnp.int32(WITHDRAW_INDEX), jax.random.key(1))
    assert not bool(go_on.terminated)


def test_a_rules_engine_state_on_arrays_has_its_legal_actions() -> None:
    state = new_game(Setup.random(5, seed=2))
    env = TajMahal(5)
    arrays = from_setup(env, state.setup)
    np.testing.assert_array_equal(
        np.asarray(arrays.legal_action_mask), ENCODING.legal_mask(state)
    )
    assert ENCODING.index(Withdraw()) == WITHDRAW_INDEX
    with pytest.raises(ValueError, match="a 5-player state for a 4-player engine"):
        from_setup(TajMahal(4), state.setup)
