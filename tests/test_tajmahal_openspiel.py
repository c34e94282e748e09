"""Taj Mahal in OpenSpiel (tajmahal.openspiel): its parameters, its chance model
(tajmahal.tajmahal.chance: the setup, the deal and the draws), its information
states, and the IS-MCTS example (examples/openspiel_ismcts.py).
tests/test_openspiel.py runs what every game must pass."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pyspiel
import pytest
from attrs import evolve

import tajmahal.tajmahal.chance as tc
from tajmahal import (
    Play,
    Setup,
    State,
    TakeCard,
    Withdraw,
    check_state,
    determinize,
    legal_actions,
    new_game,
    view,
)
from tajmahal.openspiel import OpenSpielGame, history_text
from tajmahal.tajmahal.encoding import action_index
from tajmahal.tajmahal.events import CardDrawn, DummyTurned, VisitBegan
from tajmahal.tajmahal.rules import step

PLAYERS = (2, 3, 4, 5)


def load(players: int) -> OpenSpielGame:
    game: OpenSpielGame = pyspiel.load_game("python_tajmahal", {"players": players})
    return game


def test_the_game_registers_with_its_parameter() -> None:
    for n in PLAYERS:
        game = load(n)
        assert game.num_players() == n
        assert game.num_distinct_actions() == 1623
        assert game.max_chance_outcomes() == 96
        assert game.min_utility() == pytest.approx(-1 / (n - 1)) and game.max_utility() == 1
        # 12 visits x (84 coloured cards + n withdrawals + 10 palaces + the display)
        assert game.max_game_length() == 12 * (84 + n + 10 + (3 if n == 2 else 2 * n - 1))
    assert load(4).get_parameters() == {"players": 4}
    default = pyspiel.load_game("python_tajmahal")
    assert default.num_players() == 4
    game_type = default.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    with pytest.raises(Exception, match="2-5 players"):
        load(6)


def test_the_setup_is_chance_node_by_chance_node() -> None:
    state = load(3).new_initial_state()
    assert state.chance_outcomes() == [
        (0, pytest.approx(1 / 3)),
        (1, pytest.approx(1 / 3)),
        (2, pytest.approx(1 / 3)),
    ]
    state.apply_action(2)  # seat 2 starts
    for k in range(11):  # S3: tiles 1-11 on the eleven other provinces, one node each
        outcomes = dict(state.chance_outcomes())
        assert sorted(outcomes) == list(range(1, 12 - k))
        assert all(p == pytest.approx(1 / (11 - k)) for p in outcomes.values())
        state.apply_action(max(outcomes))  # 11 first: tile 11 on the first province
    # S4/C5: 15 squares, 4x +2, 3x card, 2 of each good; never the Taj Mahal (kind 0).
    first = dict(state.chance_outcomes())
    assert first == pytest.approx(
        {1: 4 / 15, 2: 3 / 15, 3: 2 / 15, 4: 2 / 15, 5: 2 / 15, 6: 2 / 15}
    )
    state.apply_action(1)
    assert dict(state.chance_outcomes())[1] == pytest.approx(3 / 14)
    for _ in range(14):
        state.apply_action(state.chance_outcomes()[0][0])
    # S1/S2: each seat's 6 cards, then the display of 5, one card per node.
    dealt = []
    for k in range(18 + 5):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 96 - k and outcomes[0][1] == pytest.approx(1 / (96 - k))
        card = outcomes[-1][0]  # the highest card left: 95, 94, ...
        dealt.append(card)
        state.apply_action(card)
    engine = state.engine
    assert engine is not None and not state.is_chance_node()
    assert state.current_player() == 2 == engine.start_player
    assert engine.players[0].hand == tuple(range(90, 96))
    assert engine.players[2].hand == tuple(range(78, 84))
    assert engine.display == tuple(range(73, 78))
    assert engine.deck == tuple(range(73))  # unordered until drawn: kept in id order
    assert engine.setup.province_tiles[0] == 11  # the first province got tile 11
    check_state(engine)


# --------------------------------------------------------------------------- draws


def natural_picks(plan: tc.Plan, events: list) -> list[int]:  # type: ignore[type-arg]
    """The cards the engine itself drew in ``events``, in the order of the plan's slots
    (the display's cards from the older deck first: the display is sorted)."""
    drawn = [e.card for e in events if isinstance(e, CardDrawn | DummyTurned)]
    display = next((e.display for e in events if isinstance(e, VisitBegan)), ())
    slots = plan.slots
    first = next((s.epoch for s in slots if s.kind == tc.DISPLAY), 0)
    older = plan.pool(first, drawn)  # the display's slots come after every other one
    shown = iter(sorted(display, key=lambda c: c not in older))
    cards = iter(drawn)
    return [next(shown) if s.kind == tc.DISPLAY else next(cards) for s in slots]


def test_drawing_chosen_cards_is_the_engine_drawing_them() -> None:
    # The oracle: the engine plays real games (shuffled decks, seeded reshuffles);
    # at every action that draws, the cards it drew must be among the chance
    # outcomes, and realizing the plan with them must give the engine's own result.
    reshuffled: set[str] = set()
    for seed in range(40):
        players = PLAYERS[seed % 4]
        state = new_game(Setup.random(players, seed=seed))
        rng = random.Random(seed)
        while state.to_act is not None:
            action = rng.choice(legal_actions(state))
            after, events = step(state, action)
            plan, dry = tc.plan_draws(state, action)
            if plan is None:
                assert dry == after
            else:
                picks = natural_picks(plan, list(events))
                for i, card in enumerate(picks):
                    assert card in tc.available(plan, picks[:i])
                got = tc.realize(state, plan, picks)
                assert got == evolve(after, deck=tuple(sorted(after.deck)))
                reshuffled |= {s.kind for s in plan.slots if s.epoch > 0}
            state = after
    # The games ran through the deck: new displays and withdrawals' cards came
    # from reshuffled discard piles (the dummy's case has its own test below).
    assert {tc.DISPLAY, tc.HAND} <= reshuffled


def three_seat_visit_end() -> State:
    """Seats 0-2 each played two elephants; the deck holds 90 and 91, the discard
    pile the 71 other cards; seats 0 and 1 withdraw and take display cards."""
    hands = [[0, 1, 2, 3, 4, 5], [21, 22, 23, 24, 25, 26], [42, 43, 44, 45, 46, 47]]
    state = new_game(Setup.stacked(3, hands, display=[84, 85, 86, 87, 88], start_player=0))
    rest = [c for c in state.deck if c not in (90, 91)]
    state = evolve(state, deck=(90, 91), discard=tuple(rest))
    for action in (Play(0), Play(21), Play(42), Withdraw(), TakeCard(84), TakeCard(85)):
        state, _ = step(state, action)
    for action in (Withdraw(), TakeCard(86), TakeCard(87)):
        state, _ = step(state, action)
    check_state(state)
    return state


def test_a_new_display_runs_through_the_deck_and_the_reshuffled_discard_pile() -> None:
    game = load(3)
    start = three_seat_visit_end()
    discard_before = set(start.discard)
    state = game.state_from_engine(start)
    assert state.current_player() == 2
    state.apply_action(action_index(Withdraw()))  # the last seat: E1, then E4 (5 cards)
    # Two cards come from the deck (90, 91), then (W12) the discard pile with the
    # cards of this visit's last withdrawal (42) and the earlier ones (0, 21).
    assert [c for c, _ in state.chance_outcomes()] == [90, 91]
    state.apply_action(91)
    assert state.chance_outcomes() == [(90, 1.0)]
    state.apply_action(90)
    pool = sorted(discard_before | {42})
    assert {0, 21, 42} <= set(pool) and len(pool) == 74
    assert [c for c, _ in state.chance_outcomes()] == pool
    assert state.chance_outcomes()[0][1] == pytest.approx(1 / 74)
    for card in (42, 21, 63):  # two of them discarded during this very action
        state.apply_action(card)
    engine = state.engine
    assert engine is not None and not state.is_chance_node()
    assert engine.visit == 2 and engine.display == (21, 42, 63, 90, 91)
    assert engine.deck == tuple(sorted(set(pool) - {21, 42, 63}))
    assert engine.discard == ()
    assert engine.reshuffles == 1
    check_state(engine)


def two_seat_dummy() -> State:
    """Two players: the dummy holds purple 63 (turned from a discard pile of one
    card), the deck and the discard pile are empty, seat 1 holds every spare card;
    seat 0 has played red 0 and 1, seat 1 yellow 21 and 22; seat 0 is to act."""
    state = new_game(
        Setup.stacked(2, [[0, 1, 2, 3, 4, 5], [21, 22, 23, 24, 25, 26]], display=[84, 85, 86])
    )
    spare = [c for c in state.deck if c != 63]
    players = (
        state.players[0],
        evolve(state.players[1], hand=tuple(sorted((*state.players[1].hand, *spare)))),
    )
    state = evolve(state, players=players, deck=(), discard=(63,))
    state, _ = step(state, Play(0))  # the dummy turns 63 (a reshuffle of one card)
    assert state.dummy is not None and state.dummy.cards == (63,)
    for action in (Play(21), Play(1), Play(22)):
        state, _ = step(state, action)  # nothing left to turn for the dummy
    check_state(state)
    return state


@pytest.mark.parametrize("card", [0, 1])
def test_the_dummy_turns_a_card_its_own_turn_discarded(card: int) -> None:
    game = load(2)
    state = game.state_from_engine(two_seat_dummy())
    for action in (Withdraw(), TakeCard(84), TakeCard(85)):
        assert state.current_player() == 0
        state.apply_action(action_index(action))
    # Seat 0 withdrew: its red 0 and 1 went to the discard pile (W10), the only
    # cards there; the dummy's next card (D2) comes from them, reshuffled (W12).
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(card)
    engine = state.engine
    assert engine is not None
    assert engine.dummy is not None and engine.dummy.cards == (63, card)  # not purple: it bids on
    assert engine.deck == (1 - card,) and engine.discard == ()
    assert engine.reshuffles == 2 and engine.to_act == 1
    check_state(engine)


def two_seat_last_withdrawal() -> State:
    """Two players: the deck holds purple 70 and white 90, the discard pile the 76
    other cards not in hands or the display; the dummy has turned red 10, yellow 30
    and green 50; seat 0 has withdrawn and taken two display cards; seat 1 (yellow 21
    played) is to act."""
    hands = [[0, 1, 2, 3, 4, 5], [21, 22, 23, 24, 25, 26]]
    state = new_game(Setup.stacked(2, hands, display=[84, 85, 86]))
    rest = [c for c in state.deck if c not in (10, 30, 50, 70, 90)]
    state = evolve(state, deck=(10, 30, 50, 70, 90), discard=tuple(rest))
    for action in (Play(0), Play(21), Withdraw(), TakeCard(84), TakeCard(85)):
        state, _ = step(state, action)
    assert state.deck == (70, 90) and state.to_act == 1
    assert state.dummy is not None and state.dummy.cards == (10, 30, 50)
    check_state(state)
    return state


@pytest.mark.parametrize("dummy", [70, 90])
def test_the_dummys_last_card_is_reshuffled_into_the_next_display(dummy: int) -> None:
    # Seat 1's withdrawal ends the visit (E1): it takes display card 86, the dummy
    # turns one of the two cards left (D2), the dummy's cards are discarded (D5),
    # and the new display (E4) takes the other card, then two from the reshuffled
    # discard pile (W12), which holds the dummy's card, whichever it was.
    game = load(2)
    start = two_seat_last_withdrawal()
    state = game.state_from_engine(start)
    state.apply_action(action_index(Withdraw()))
    assert [c for c, _ in state.chance_outcomes()] == [70, 90]
    state.apply_action(dummy)  # the dummy's card
    other = 160 - dummy
    assert state.chance_outcomes() == [(other, 1.0)]  # the display's first card
    state.apply_action(other)
    # The 76 first discarded, both seats' played cards (W10), the dummy's four.
    pool = sorted({*start.discard, 0, 21, 10, 30, 50, dummy})
    assert [c for c, _ in state.chance_outcomes()] == pool
    assert other not in pool and len(pool) == 76 + 2 + 4
    state.apply_action(dummy)  # the dummy's card comes back at once
    state.apply_action(pool[0])
    engine = state.engine
    assert engine is not None and not state.is_chance_node()
    assert engine.visit == 2 and engine.dummy is not None and engine.dummy.cards == ()
    assert engine.display == tuple(sorted((other, dummy, pool[0])))
    assert engine.deck == tuple(sorted(set(pool) - {dummy, pool[0]}))
    assert engine.discard == () and engine.reshuffles == 1
    check_state(engine)


def two_seat_empty_deck_last_withdrawal() -> State:
    """Two players: the deck is empty and the discard pile holds the 79 cards not in
    hands, on the table, in the display or the dummy's row; the dummy bids with
    green 42, purple 63 and white 90; seat 0 (red 0 played) has withdrawn and taken
    two display cards; seat 1 (yellow 21 played) is to act, display card 86 left."""
    hands = [[0, 1, 2, 3, 4, 5], [21, 22, 23, 24, 25, 26]]
    state = new_game(Setup.stacked(2, hands, display=[84, 85, 86]))
    rest = [c for c in state.deck if c not in (42, 63, 90)]
    state = evolve(state, deck=(42, 63, 90), discard=tuple(rest))
    for action in (Play(0), Play(21), Withdraw(), TakeCard(84), TakeCard(85)):
        state, _ = step(state, action)  # the dummy turns 42, 63, 90 (D2)
    assert state.deck == () and state.to_act == 1 and state.display == (86,)
    assert state.dummy is not None and state.dummy.cards == (42, 63, 90)
    assert state.dummy.bidding
    check_state(state)
    return state


@pytest.mark.parametrize("dummy", [21, 0, 7])
def test_the_dummy_turns_a_card_the_last_withdrawal_discarded_before_a_new_display(
    dummy: int,
) -> None:
    # The node where OpenSpiel's MCTSBot crashed (issue 39): seat 1's withdrawal ends
    # the visit on an empty deck. Its yellow 21 goes to the discard pile (W10), it
    # takes the last display card (W11), the dummy turns a card (D2) from the
    # reshuffled pile (W12), which holds 21; the dummy's cards are discarded (D5)
    # and a new display of 3 (D1, E4) comes from the rest of that pile. Reached as a
    # bot at the table reaches it: seat 1's view, determinized, then expanded.
    game = load(2)
    start = two_seat_empty_deck_last_withdrawal()
    guess = determinize(view(start, 1), random.Random(0))
    state = game.state_from_engine(guess)
    state.apply_action(action_index(Withdraw()))
    pool = sorted({*start.discard, 21})  # the pile reshuffled: 79 + seat 1's card
    assert len(pool) == 80 and 0 in pool  # seat 0's red 0 went there at its withdrawal
    assert state.chance_outcomes() == [(c, pytest.approx(1 / 80)) for c in pool]
    state.apply_action(dummy)
    display = [c for c in pool if c != dummy][:3]
    for k, card in enumerate(display):  # the display: the pile less the dummy's card
        assert [c for c, _ in state.chance_outcomes()] == [
            c for c in pool if c != dummy and c not in display[:k]
        ]
        state.apply_action(card)
    engine = state.engine
    assert engine is not None and not state.is_chance_node()
    assert engine.visit == 2 and engine.display == tuple(display)
    # The dummy's four cards are discarded at the end of the visit (D5), after the
    # reshuffle: the new discard pile. The deck is the rest of the pile.
    assert engine.discard == (42, 63, 90, dummy)
    assert engine.deck == tuple(sorted(set(pool) - {dummy, *display}))
    assert engine.dummy is not None and engine.dummy.cards == () and engine.dummy.bidding
    assert engine.reshuffles == 1
    check_state(engine)


# --------------------------------------------------------------------------- information


def test_histories_hide_the_other_hands() -> None:
    game = load(2)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(
                state.chance_outcomes()[rng.randrange(len(state.chance_outcomes()))][0]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text0, text1 = history_text(state, 0), history_text(state, 1)
    engine = state.engine
    assert engine is not None
    # The deal: seat 0 sees its six cards by id, and only "a card went to seat 1".
    deal0 = text0.split()[1 + 1 + 11 + 15 :][:12]
    deal1 = text1.split()[1 + 1 + 11 + 15 :][:12]
    assert deal0[6:] == ["?>1"] * 6 and deal1[:6] == ["?>0"] * 6
    assert all(t.startswith("card:") for t in deal0[:6] + deal1[6:])
    # Before it, the start player, 11 province tiles and 15 bonus tiles (public).
    kinds = [t.split(":")[0] for t in text1.split()[1 : 1 + 1 + 11 + 15]]
    assert kinds == ["start"] + ["tile"] * 11 + ["bonus"] * 15
    assert text0.startswith("seat0:") and text1.startswith("seat1:")
    assert state.information_state_string(1).endswith(f" | {text1}")
    # The information state's tensor is the observation: a few thousand floats.
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    assert len(state.information_state_tensor(1)) == 1614


# --------------------------------------------------------------------------- bots


def test_the_ismcts_example_runs() -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    summary = example.main(["--games", "2", "--simulations", "3", "--opponents", "random"])
    assert summary["games"] == 2 and summary["faults"] == 0
    assert 1 <= summary["mean_rank"] <= 2
