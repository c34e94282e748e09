"""A player's turn: rules T1-T8."""

from __future__ import annotations

import pytest

from tajmahal import (
    BuildPalace,
    IllegalAction,
    Play,
    Setup,
    TakeCard,
    Withdraw,
    apply,
    legal_actions,
    new_game,
    view,
)
from tajmahal.tajmahal.events import Withdrew

from tajmahal_scenario import Table, give_special

RED = [0, 2, 5, 14, 16, 20]
YELLOW = [23, 26, 29, 32, 37, 39]  # no 21, 22: seat 0 holds them in some tests
GREEN = [44, 47, 50, 53, 58, 59]  # no 42, 43
DISPLAY = [85, 86, 87, 88, 89]


def table(hands: list[list[int]] | None = None, start: int = 0) -> Table:
    setup = Setup.stacked(3, hands or [RED, YELLOW, GREEN], display=DISPLAY, start_player=start)
    return Table(new_game(setup))


def test_t1_start_player_first_then_clockwise_skipping_withdrawn() -> None:
    t = table(start=1)
    assert t.state.to_act == 1
    t.play(1, 23)
    assert t.state.to_act == 2
    t.withdraw(2)
    t.take(2, 85, 86)
    assert t.state.to_act == 0
    t.play(0, 0)
    assert t.state.to_act == 1  # seat 2 has withdrawn: skipped
    t.play(1, 26)
    assert t.state.to_act == 0


def test_t2_on_a_turn_only_plays_or_withdrawal() -> None:
    t = table()
    assert {type(a) for a in legal_actions(t.state)} == {Play, Withdraw}
    with pytest.raises(IllegalAction, match="^T2:"):
        apply(t.state, BuildPalace(0))
    with pytest.raises(IllegalAction, match="^T2:"):
        apply(t.state, TakeCard(85))


def test_t3_legal_plays_are_one_coloured_card_alone_or_with_one_white_or_special() -> None:
    hand = [0, 21, 42, 84, 91, 95]  # red, yellow, green; three white cards
    t = table(hands=[hand, YELLOW, GREEN])
    t.state = give_special(t.state, 0, 97)
    extras = [None, 84, 91, 95, 97]
    expected = [Play(c, e) for c in (0, 21, 42) for e in extras] + [Withdraw()]
    assert list(legal_actions(t.state)) == expected  # stable order: card, then extra


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play(84), "T3: a white card is never played alone"),
        (Play(97), "T3: a special card is never played alone"),
        (Play(84, 97), "T3: a white card is never played alone"),
        (Play(0, 21), "T3: never two coloured cards"),
        (Play(1), "T3: card 1 is not in your hand"),
        (Play(0, 85), "T3: card 85 is not in your hand"),
    ],
)
def test_t3_illegal_plays_name_the_rule(action: Play, message: str) -> None:
    t = table(hands=[[0, 21, 42, 84, 91, 95], YELLOW, GREEN])
    t.state = give_special(t.state, 0, 97)
    with pytest.raises(IllegalAction, match=f"^{message}"):
        apply(t.state, action)


def test_t4_colour_fixed_by_first_card() -> None:
    t = table(hands=[[0, 2, 21, 42, 84, 91], YELLOW, GREEN])
    t.play(0, 0)
    t.play(1, 23)
    t.play(2, 44)
    plays = [a for a in legal_actions(t.state) if isinstance(a, Play)]
    assert {a.card for a in plays} == {2}  # only red
    with pytest.raises(IllegalAction) as error:
        apply(t.state, Play(21))
    assert str(error.value) == "T4: a yellow card, but your colour in this visit is red"
    assert error.value.rule == "T4"


def test_t4_monk_card_on_the_first_turn_colour_fixed_by_the_next_card() -> None:
    t = table(hands=[[0, 2, 21, 22, 42, 84], YELLOW, GREEN])
    t.state = give_special(t.state, 0, 98)  # the monk's card
    t.play(0, 0, 98)  # red with the monk's card: no colour yet
    assert t.player(0).color is None
    t.play(1, 26)
    t.play(2, 44)
    t.play(0, 21)  # yellow, played without the monk's card: his colour
    assert t.player(0).color == "yellow"
    t.play(1, 29)
    t.play(2, 47)
    with pytest.raises(
        IllegalAction, match="T4: a red card, but your colour in this visit is yellow"
    ):
        apply(t.state, Play(2))
    assert Play(22) in legal_actions(t.state)


def test_t4_monk_card_later_allows_any_colour_that_turn_only() -> None:
    t = table(hands=[[0, 2, 21, 22, 42, 84], YELLOW, GREEN])
    t.state = give_special(t.state, 0, 98)
    t.play(0, 0)
    t.play(1, 26)
    t.play(2, 44)
    assert Play(21, 98) in legal_actions(t.state)
    assert Play(21) not in legal_actions(t.state)
    t.play(0, 21, 98)
    assert t.player(0).color == "red"
    t.play(1, 29)
    t.play(2, 47)
    assert {a.card for a in legal_actions(t.state) if isinstance(a, Play)} == {2}


def test_t5_special_cards_count_their_symbol_and_princess_scores_two_at_once() -> None:
    t = table()
    t.state = give_special(t.state, 0, 96)  # vizier's card: one mogul
    t.play(0, 0, 96)  # two elephants and a mogul
    assert t.player(0).score.total == 0
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    events = t.withdraw(0)
    assert events[0] == Withdrew(0, ("elephant", "mogul"))

    t = table()
    t.state = give_special(t.state, 0, 99)
    t.play(0, 0, 99)
    assert t.player(0).score.princess == 2


def test_t6_played_cards_are_public() -> None:
    t = table()
    t.play(0, 2)
    for seat in (1, 2):
        assert view(t.state, seat).players[0].played == (2,)
        assert 2 not in view(t.state, seat).hand


def test_t7_last_player_keeps_playing_as_long_as_he_likes() -> None:
    t = table()
    t.play(0, 0)
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    for card in (2, 5, 14):
        t.play(0, card)
        assert t.state.to_act == 0
    assert Withdraw() in legal_actions(t.state)


def test_t8_no_legal_play_must_withdraw_and_withdrawal_always_legal() -> None:
    whites = [84, 90, 91, 92, 93, 94]
    t = Table(new_game(Setup.stacked(3, [whites, YELLOW, GREEN], display=[85, 86, 87, 88, 89])))
    assert legal_actions(t.state) == (Withdraw(),)
    t2 = table()
    assert legal_actions(t2.state)[-1] == Withdraw()  # also on the first turn
