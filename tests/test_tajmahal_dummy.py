"""The two-player variant with the dummy bidder: rules D1-D5 on stacked setups."""

from __future__ import annotations

from tajmahal import Dummy, Setup, new_game, view
from tajmahal.tajmahal.events import Discarded, DummyTurned, DummyWithdrew, VisitEnded, Withdrew

from tajmahal_scenario import Table

RED = [0, 1, 5, 6, 7, 8]  # el+el, el+el, el+gen x3, el+monk
GREEN = [42, 43, 47, 48, 49, 50]  # el+el x2, el+gen x3, el+monk
VIZIERS = [16, 17, 18, 19, 20, 2]  # red monk+viz, viz+prin, prin+mogul, gen+monk, viz+mogul, el+viz
GREEN_CHARS = [58, 59, 60, 61, 62, 44]  # green viz+gen, prin+monk, mogul+monk, gen+prin, viz+mogul


def table(hands: list[list[int]], deck: list[int], display: list[int] | None = None) -> Table:
    setup = Setup.stacked(2, hands, display=display or [85, 86, 87], deck=deck)
    return Table(new_game(setup))


def test_d1_two_players_get_the_dummy_and_a_display_of_three() -> None:
    state = new_game(Setup.random(2, seed=3))
    assert state.setup.variant == "dummy"
    assert len(state.display) == 3
    assert state.dummy == Dummy(cards=(), bidding=True)


def test_d2_d3_dummy_turns_a_card_after_each_turn_and_stops_on_a_repeated_colour() -> None:
    t = table([RED, GREEN], deck=[3, 24, 4])  # red el+viz, yellow el+viz, red el+viz
    assert DummyTurned(3) in t.play(0, 0)
    assert t.state.dummy == Dummy(cards=(3,))
    assert view(t.state, 1).dummy == Dummy(cards=(3,))  # its cards are public
    t.play(1, 42)
    assert t.state.dummy == Dummy(cards=(3, 24))
    events = t.play(0, 5)  # the dummy turns red 4: red again, it stops
    # Dummy: 2 elephants, 2 viziers.  Seat 0 (still in): 3 elephants, 1 general;
    # seat 1: 2 elephants.  Elephant 2 < 3: no; vizier 2 > 0 and 0: won.
    assert DummyWithdrew(4, ("vizier",)) in events
    assert Discarded(None, (4, 3, 24)) in events
    assert t.state.dummy == Dummy(cards=(), bidding=False)
    assert "vizier" not in t.state.court
    assert t.state.reserve == (6, 5, 5, 5)  # its influence tile went to the reserve
    assert t.state.deck[0] != 4 and 4 in t.state.discard
    # It turns nothing more in this visit.
    deck = t.state.deck
    assert t.withdraw(1)[0] == Withdrew(1, ())  # 2 elephants against seat 0's 3
    t.take(1, 85, 86)
    assert t.state.deck == deck
    assert t.withdraw(0)[0] == Withdrew(0, ("elephant", "general"))  # vizier is gone


def test_d3_white_counts_as_a_colour_a_second_white_stops_the_dummy() -> None:
    t = table([RED, GREEN], deck=[84, 26, 85], display=[88, 89, 90])
    t.play(0, 0)  # dummy: white elephant
    t.play(1, 42)  # dummy: yellow elephant+general
    events = t.play(0, 1)  # dummy: white elephant again: stop
    # Dummy: 2 elephants, 1 general; seat 0: 4 elephants; seat 1: 2 elephants.
    assert DummyWithdrew(85, ("general",)) in events
    assert t.state.reserve == (5, 6, 5, 5)


def test_d3_dummy_prizes_leave_the_court_province_tile_out_ring_back() -> None:
    t = table([VIZIERS, GREEN_CHARS], deck=[14, 35, 15])  # el+mogul: red, yellow, red
    t.play(0, 16)  # red monk+vizier
    t.play(1, 58)  # green vizier+general
    events = t.play(0, 17)  # red vizier+princess; the dummy turns red 15 and stops
    # Dummy: 2 elephants, 2 moguls; nobody else has either.
    assert DummyWithdrew(15, ("elephant", "mogul")) in events
    assert t.state.court == ("vizier", "general", "monk", "princess")
    assert t.player(0).score.total == 0 and t.player(1).score.total == 0  # it builds nothing
    assert t.state.palaces == (-1,) * 49 and t.state.moguls == (-1,) * 49
    assert len(t.state.display) == 3  # it takes no card
    # Seat 1: vizier 1 against seat 0's 2; general 1 against 0: won.
    assert t.withdraw(1)[0] == Withdrew(1, ("general",))
    t.build(1, 1)
    t.take(1, 85, 86)
    # Seat 0 alone: monk, vizier, princess; three palaces on the three free cities.
    assert t.withdraw(0)[0] == Withdrew(0, ("vizier", "monk", "princess"))
    assert VisitEnded(1) in t.events
    assert t.player(0).province_tiles == () and t.player(1).province_tiles == ()
    # Next visit: the ring is back, a new province tile, the won tiles replaced.
    assert t.state.court == ("elephant", "mogul", "vizier", "general", "monk", "princess")
    assert t.state.reserve == (4, 4, 4, 4)


def test_d4_d5_withdrawal_compared_with_the_dummy_and_the_visit_ends_while_it_bids() -> None:
    # yellow el+el, red el+viz, green el+el, then purple el+el: four colours, no repeat.
    t = table([RED, GREEN_CHARS], deck=[21, 3, 42, 63])
    t.play(0, 0)  # dummy: yellow elephant+elephant
    t.play(1, 58)  # dummy: red elephant+vizier -> 3 elephants, 1 vizier
    # Seat 0: 2 elephants: more than seat 1 (0) but not than the dummy (3).
    assert t.withdraw(0)[0] == Withdrew(0, ())
    t.take(0, 85, 86)
    assert t.state.dummy == Dummy(cards=(21, 3, 42))  # it turned after the withdrawal
    # Seat 1: vizier 1 ties the dummy's 1; general 1 beats its 0.
    assert t.withdraw(1)[0] == Withdrew(1, ("general",))
    t.build(1, 2)
    # Seat 1 took the last display card by itself, which ends its turn: the dummy
    # turns purple 63 (D2, the last withdrawal included), a new colour, so it still
    # bids; then the visit ends (D5) and all four of its cards are discarded.
    assert DummyTurned(63) in t.events
    assert Discarded(None, (21, 3, 42, 63)) in t.events
    assert t.state.visit == 2 and t.state.dummy == Dummy()
    assert 87 in t.player(1).hand
    assert len(t.player(0).hand) == 5 + 2 and len(t.player(1).hand) == 5 + 1


def test_d2_d3_the_card_turned_after_the_last_withdrawal_can_stop_the_dummy() -> None:
    # The Slovak text: a card is turned "at the end of every turn of every player";
    # the last withdrawal is such a turn.  Red 4 repeats red 3: the dummy stops (D3).
    t = table([RED, GREEN_CHARS], deck=[21, 3, 42, 4])
    t.play(0, 0)
    t.play(1, 58)
    t.withdraw(0)
    t.take(0, 85, 86)
    t.withdraw(1)
    t.build(1, 2)
    # Dummy (21, 3, 42): 5 elephants, 1 vizier; nobody is still in, so both prizes
    # still at the court are its own; general went to seat 1.
    assert DummyWithdrew(4, ("elephant", "vizier")) in t.events
    assert Discarded(None, (4, 21, 3, 42)) in t.events
    assert 4 in t.state.discard and 4 not in t.state.display
    # The province tile left the game; the vizier tile went back to the reserve and
    # came out again with the general's for visit 2 (E3): 6-1 viziers, 5-1 generals.
    assert t.player(0).province_tiles == () and t.player(1).province_tiles == ()
    assert t.state.reserve == (5, 4, 5, 5)
    assert t.state.visit == 2 and t.state.dummy == Dummy()
