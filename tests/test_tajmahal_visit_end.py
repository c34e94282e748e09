"""End of a visit and of the game: rules E1-E5, F1-F2."""

from __future__ import annotations

import pytest
from attrs import evolve

from tajmahal import (
    IllegalAction,
    Play,
    Setup,
    Withdraw,
    apply,
    is_over,
    legal_actions,
    new_game,
    ranks,
    scores,
    step,
)
from tajmahal.tajmahal.events import GameOver, SpecialCardTaken, VisitBegan, VisitEnded, Withdrew

from tajmahal_scenario import Table, at_visit, give_special, with_player

RED = [0, 2, 5, 14, 16, 20]
YELLOW = [23, 26, 29, 32, 37, 39]
GREEN = [44, 47, 50, 53, 58, 59]
DISPLAY = [85, 86, 87, 88, 89]
DECK = [90, 91, 92, 93, 94]


def table(
    hands: list[list[int]] | None = None,
    display: list[int] = DISPLAY,
    deck: list[int] = DECK,
) -> Table:
    return Table(
        new_game(Setup.stacked(3, hands or [RED, YELLOW, GREEN], display=display, deck=deck))
    )


def everyone_withdraws_at_once(t: Table) -> None:
    """Start player 0: seats 0, 1, 2 withdraw in turn and take display cards."""
    display = list(t.state.display)
    t.withdraw(0)
    t.take(0, *display[0:2])
    t.withdraw(1)
    t.take(1, *display[2:4])
    t.withdraw(2)  # takes the last card by itself


def test_e1_e3_e4_visit_ends_when_all_withdrew_and_the_next_is_prepared() -> None:
    t = table()
    everyone_withdraws_at_once(t)
    assert VisitEnded(1) in t.events
    s = t.state
    assert s.visit == 2 and s.province == 1  # Kashmir holds tile 2
    assert s.start_player == 1 and s.to_act == 1  # E3: marker passes left
    assert s.court == ("elephant", "mogul", "vizier", "general", "monk", "princess")
    # E4: the W11 draws took 90, 91, 92; the new display is the next five cards:
    # 93, 94, then the cards no hand names, in id order: 1, 3, 4.
    assert s.display == (1, 3, 4, 93, 94)
    assert VisitBegan(2, 1, 1, s.display) in t.events
    assert all(not p.withdrawn and p.played == () and p.color is None for p in s.players)


def test_e3_court_refills_only_what_was_taken_from_the_reserve() -> None:
    t = table()
    t.play(0, 16)  # red monk+vizier
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    assert t.withdraw(0)[0] == Withdrew(0, ("vizier", "monk"))
    t.build(0, 1)  # two palaces, four free cities
    t.build(0, 2)
    # Vizier and monk tiles were won and replaced from the reserve; nobody won the
    # province tile (it leaves the game), the ring or the others: they stay.
    assert t.state.reserve == (4, 5, 4, 5)
    assert t.state.court == ("elephant", "mogul", "vizier", "general", "monk", "princess")


def test_e2_special_card_changes_hands_old_holder_still_uses_it_in_that_visit() -> None:
    t = table()
    t.state = give_special(t.state, 0, 96)  # seat 0 holds the vizier's card
    t.state = with_player(t.state, 1, influence=(1, 0, 0, 0))  # seat 1: one vizier tile
    t.state = evolve(t.state, reserve=(4, 5, 5, 5))
    t.play(0, 0, 96)  # two elephants, and a mogul from the vizier's card
    t.play(1, 39)  # yellow vizier+general
    t.withdraw(2)
    t.take(2, 85, 86)
    assert t.withdraw(0)[0] == Withdrew(0, ("elephant", "mogul"))  # the card still counts
    t.build_mogul(0, 1)
    assert 96 in t.player(0).hand  # W10: back to his hand
    t.take(0, 87, 88)
    assert t.withdraw(1)[0] == Withdrew(1, ("vizier", "general"))
    assert 96 in t.state.players[0].hand  # not at withdrawal: only at the visit's end
    t.build(1, 0)
    t.build(1, 2)
    assert SpecialCardTaken(1, "vizier", 96, 0) in t.events
    assert 96 in t.player(1).hand and 96 not in t.player(0).hand
    assert t.player(1).influence == (0, 1, 0, 0)
    # Vizier: 4 + 2 returned - 1 to the court; general: 5 - 1 to the court.
    assert t.state.reserve == (5, 4, 5, 5)


def test_e2_two_tiles_are_returned_even_by_the_holder_of_the_card() -> None:
    t = table()
    t.state = give_special(t.state, 0, 98)
    t.state = with_player(t.state, 0, influence=(0, 0, 2, 0))
    t.state = evolve(t.state, reserve=(5, 5, 3, 5))
    everyone_withdraws_at_once(t)
    assert SpecialCardTaken(0, "monk", 98, 0) in t.events
    assert t.player(0).influence == (0, 0, 0, 0)
    assert t.player(0).hand.count(98) == 1
    assert t.state.reserve == (5, 5, 5, 5)


def test_e5_f1_last_visit_then_final_hands_score_with_a_tie_between_colours() -> None:
    hand = [0, 1, 21, 22, 84, 91]  # 2 red, 2 yellow, 2 white
    t = table(hands=[hand, YELLOW, GREEN], display=[42, 43, 85, 86, 87], deck=[90, 92, 93])
    t.state = give_special(at_visit(t.state, 12), 0, 99)
    t.withdraw(0)  # W11 still applies in the last visit: draws 90 (white)
    t.take(0, 42, 85)
    t.withdraw(1)  # draws 92 (white)
    t.take(1, 43, 86)
    t.withdraw(2)  # draws 93 (white), takes 87 by itself
    assert is_over(t.state) and t.state.to_act is None
    assert legal_actions(t.state) == ()
    # F1, seat 0: red 2 and yellow 2 tie (one of them counts: 2), whites 84, 85,
    # 90, 91: 4, the princess's card: 1.  Total 7.
    assert t.player(0).hand == (0, 1, 21, 22, 42, 84, 85, 90, 91, 99)
    assert t.player(0).score.hand == 7
    # Seat 1: six yellow, one green, whites 86 and 92: 6 + 2 = 8.
    # Seat 2: six green, whites 87 and 93: 6 + 2 = 8.
    assert [t.player(s).score.hand for s in (1, 2)] == [8, 8]
    assert scores(t.state) == (7, 8, 8)
    assert [e for e in t.events if isinstance(e, GameOver)] == [GameOver((7, 8, 8), (3, 1, 1))]
    with pytest.raises(IllegalAction, match="^E5: the game is over"):
        apply(t.state, Withdraw())
    # apply's fast path for plays must not skip the check: a Play is refused too,
    # by apply and step alike, with the same rule.
    for act in (apply, step):
        with pytest.raises(IllegalAction, match="^E5: the game is over"):
            act(t.state, Play(0))


def test_f2_equal_totals_share_a_rank() -> None:
    assert ranks((10, 12, 10, 3)) == (2, 1, 2, 4)
    assert ranks((5, 5, 5)) == (1, 1, 1)
