"""Java's chance model (tajmahal.java.chance), as OpenSpiel's python_java drives it:
the deal (J13-J14), a card taken from the pile or the display (J61), and the
discards reshuffled into an empty pile (J61, decision).
tests/test_openspiel.py runs what every game must pass."""

from __future__ import annotations

import random

import pyspiel
import pytest
from attrs import evolve

import tajmahal.openspiel as tos
from tajmahal.java import Setup, legal_actions, new_game
from tajmahal.java.actions import TakeCard
from tajmahal.java.chance import check, drawn, pools, relabel
from tajmahal.java.rules import step
from tajmahal.kit.encoding import encoding_of


def load(players: int) -> tos.OpenSpielGame:
    game: tos.OpenSpielGame = pyspiel.load_game("python_java", {"players": players})
    return game


def test_the_deal_is_three_cards_a_seat_then_the_display_card() -> None:
    state = load(2).new_initial_state()
    for k in range(7):  # J13: 3 cards to seat 0, 3 to seat 1, then the display card
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 30 - k and outcomes[0][1] == pytest.approx(1 / (30 - k))
        state.apply_action(outcomes[-1][0])  # the highest card left: 29, 28, ...
    engine = state.engine
    assert engine is not None and state.current_player() == 0  # J16: seat 0 starts
    assert engine.players[0].hand == (27, 28, 29) and engine.players[1].hand == (24, 25, 26)
    assert engine.display == 23 and engine.pile == tuple(range(23))  # unordered: by id
    # Seat 1 sees its own cards, and "a card went to seat 0" three times.
    tokens = tos.history_text(state, 1).split()
    assert tokens[1:4] == ["?>0"] * 3 and tokens[4:7] == ["card:26", "card:25", "card:24"]
    check(engine)


def dealt(players: int = 2) -> tos.OpenSpielState:
    """A game after the deal of a deck in id order: seat 0 holds 0-2, seat 1 3-5, the
    display is 6 and the pile 7-29."""
    state = load(players).new_initial_state()
    for card in range(3 * players + 1):
        state.apply_action(card)
    return state


def test_a_card_from_the_pile_goes_to_the_taker_unseen_by_the_others() -> None:
    state = dealt()
    state.apply_action(state.get_game().encoding.index(TakeCard(False)))
    assert state.chance_outcomes() == [(c, pytest.approx(1 / 23)) for c in range(7, 30)]
    state.apply_action(17)
    engine = state.engine
    assert engine is not None and not state.is_chance_node()
    assert engine.players[0].hand == (0, 1, 2, 17) and engine.display == 6
    assert 17 not in engine.pile and len(engine.pile) == 22
    assert tos.history_text(state, 1).split()[-1] == "?>0"
    assert tos.history_text(state, 0).split()[-1] == "card:17"
    check(engine)


def test_taking_the_display_card_shows_a_new_one_to_all() -> None:
    state = dealt()
    state.apply_action(state.get_game().encoding.index(TakeCard(True)))
    assert len(state.chance_outcomes()) == 23  # the new display card, from the pile
    state.apply_action(11)
    engine = state.engine
    assert engine is not None and engine.players[0].hand == (0, 1, 2, 6)
    assert engine.display == 11
    assert tos.history_text(state, 1).split()[-1] == "card:11"
    check(engine)


def test_an_empty_pile_draws_from_the_discards() -> None:
    # J61 (decision): the pile is empty, the discards 7-29 become it.
    start = new_game(Setup(2, "official", tuple(range(30)), 0))
    start = evolve(start, pile=(), discard=tuple(range(7, 30)))
    check(start)
    game = load(2)
    state = game.state_from_engine(start)
    state.apply_action(game.encoding.index(TakeCard(False)))
    assert [c for c, _ in state.chance_outcomes()] == list(range(7, 30))
    state.apply_action(20)
    engine = state.engine
    assert engine is not None and engine.players[0].hand == (0, 1, 2, 20)
    assert engine.discard == () and engine.pile == tuple(c for c in range(7, 30) if c != 20)
    assert engine.reshuffles == 1
    check(engine)


def test_relabelling_the_engines_draws_gives_the_chosen_cards() -> None:
    # In real games, at every card taken: choosing the cards the engine drew changes
    # nothing but the pile's order; choosing others puts them where the engine's went.
    rng = random.Random(1)
    for seed in range(4):
        state = new_game(Setup.random(3, seed))
        while state.to_act is not None:
            action = rng.choice(legal_actions(state))
            after, events = step(state, action)
            cards = drawn(state, events)
            if cards:
                same = relabel(after, cards, cards)
                assert same == evolve(after, pile=tuple(sorted(after.pile)))
                pool = sorted(pools(state, len(cards))[0] - set(cards))
                other = rng.sample(pool, 1) + list(cards[1:]) if pool else list(cards)
                changed = relabel(after, cards, other)
                seat = state.to_act
                assert seat is not None
                assert other[0] in changed.players[seat].hand or changed.display == other[0]
                check(changed)
            state = after


def test_the_pile_is_unordered_until_drawn_sorted_or_shuffled() -> None:
    # Java's pile (and Taj Mahal's deck): normalize forgets its order (by id),
    # shuffle draws one; neither changes which cards it holds, nor anything else.
    model = encoding_of("java").chance
    state = new_game(Setup.random(3, seed=4))
    ordered = model.normalize(state)
    assert ordered.pile == tuple(sorted(state.pile)) and ordered.players == state.players
    shuffled = model.shuffle(ordered, random.Random(1))
    assert sorted(shuffled.pile) == list(ordered.pile) and shuffled.pile != ordered.pile
    assert evolve(shuffled, pile=ordered.pile) == ordered
