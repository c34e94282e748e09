"""Withdrawal: rules W1-W12, played on stacked setups with numbers worked out by hand."""

from __future__ import annotations

from attrs import evolve

from tajmahal import (
    BonusTile,
    BuildMogulPalace,
    BuildPalace,
    Score,
    Setup,
    legal_actions,
    new_game,
)
from tajmahal.tajmahal.events import (
    BonusTaken,
    CardDrawn,
    ProvinceTileTaken,
    Reshuffled,
    Scored,
    Withdrew,
)

from tajmahal_scenario import Table, at_visit, give_special, with_palaces, with_player

RED = [0, 2, 5, 14, 16, 20]  # el+el, el+vizier, el+gen, el+mogul, monk+vizier, vizier+mogul
YELLOW = [21, 26, 29, 32, 37, 39]  # el+el, el+gen, el+monk, el+prin, monk+mogul, viz+gen
GREEN = [42, 47, 50, 53, 58, 59]  # el+el, el+gen, el+monk, el+prin, viz+gen, prin+monk
DISPLAY = [85, 86, 87, 88, 89]  # white elephants
DECK = [90, 91, 92, 93, 94]


def table(hands: list[list[int]] | None = None, **kw: object) -> Table:
    setup = Setup.stacked(3, hands or [RED, YELLOW, GREEN], display=DISPLAY, deck=DECK, **kw)  # type: ignore[arg-type]
    return Table(new_game(setup))


def swap_bonus(
    setup_tiles: tuple[tuple[int, BonusTile], ...], a: int, b: int
) -> tuple[tuple[int, BonusTile], ...]:
    tiles = dict(setup_tiles)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return tuple(sorted(tiles.items()))


def only_seat_0_plays(t: Table, card: int, extra: int | None = None) -> None:
    """Seat 0 plays; seats 1 and 2 withdraw at once and take two display cards each."""
    t.play(0, card, extra)
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)


# --------------------------------------------------------------------------- W1, W2


def test_w1_tie_wins_nothing_and_a_later_withdrawer_wins_without_playing_more() -> None:
    t = table()
    t.play(0, 0)  # red elephant+elephant: 2 elephants
    t.play(1, 21)  # yellow elephant+elephant: 2 elephants
    t.withdraw(2)
    t.take(2, 85, 86)
    assert t.withdraw(0)[0] == Withdrew(0, ())  # 2 is not more than seat 1's 2
    t.take(0, 87, 88)
    # Seat 0's cards are gone (W1): seat 1 now has the most elephants without playing more.
    assert t.withdraw(1)[0] == Withdrew(1, ("elephant",))
    assert t.player(1).province_tiles == (1,)
    assert t.player(1).score == Score(goods=1)  # tile 1: one rice, first rice held (W7)
    assert t.player(0).province_tiles == ()


def test_w1_zero_is_no_majority() -> None:
    t = table()
    only_seat_0_plays(t, 2)  # red elephant+vizier; nobody else still in
    events = t.withdraw(0)
    # Nobody has a mogul, general, monk or princess: 0 > 0 does not win them.
    assert events[0] == Withdrew(0, ("elephant", "vizier"))
    assert t.player(0).influence == (1, 0, 0, 0)


def test_w1_compares_only_with_players_still_in() -> None:
    t = table()
    t.play(0, 2)  # red elephant+vizier
    t.play(1, 39)  # yellow vizier+general
    t.play(2, 58)  # green vizier+general
    assert t.withdraw(0)[0] == Withdrew(0, ("elephant",))  # vizier: 1 against 1 and 1
    t.take(0, 85, 86)
    assert t.withdraw(1)[0] == Withdrew(1, ())  # vizier and general tie with seat 2
    t.take(1, 87, 88)
    # Seats 0 and 1 are gone: seat 2's single vizier and general now win.
    assert t.withdraw(2)[0] == Withdrew(2, ("vizier", "general"))


def test_w2_a_prize_is_taken_once_per_visit() -> None:
    t = table(hands=[[2, 5, 8, 11, 14, 16], YELLOW, GREEN])
    t.play(0, 2)  # elephant 1, vizier 1
    t.play(1, 37)  # yellow monk+mogul
    t.withdraw(2)
    t.take(2, 85, 86)
    assert t.withdraw(0)[0] == Withdrew(0, ("elephant", "vizier"))
    t.build(0, 1)
    t.take(0, 87, 88)
    t.play(1, 21)  # seat 1 alone (T7) now holds 2 elephants ...
    # ... but the province tile is gone (W2); monk and mogul are his.
    assert t.withdraw(1)[0] == Withdrew(1, ("mogul", "monk"))
    assert t.player(1).province_tiles == ()


# --------------------------------------------------------------------------- W3-W6


def test_w4_w5_mogul_palace_on_an_empty_fortress_then_a_normal_palace_there() -> None:
    t = table(hands=[RED, YELLOW, GREEN])
    t.play(0, 14)  # red elephant+mogul
    t.play(1, 39)  # yellow vizier+general
    t.play(2, 59)  # green princess+monk
    assert t.withdraw(0)[0] == Withdrew(0, ("elephant", "mogul"))
    t.build_mogul(0, 0)  # Kabul, a fortress with a +2 bonus tile
    assert t.state.bonus[0] == BonusTile("points")  # W5: the tile stays
    # W9 for seat 0: province tile 1 (rice: 1), then the palace (1 province: 1).
    assert t.player(0).score == Score(palaces=1, goods=1)
    t.take(0, 85, 86)
    assert t.withdraw(1)[0] == Withdrew(1, ("vizier", "general"))
    # W4: a city holding only another player's mogul palace still accepts a palace.
    assert BuildPalace(0) in legal_actions(t.state)
    events = t.build(1, 0)
    assert BonusTaken(1, 0, BonusTile("points")) in events
    t.build(1, 1)
    assert t.player(1).score == Score(palaces=1, bonus=2)
    t.take(1, 87, 88)
    assert t.withdraw(2)[0] == Withdrew(2, ("monk", "princess"))
    # Two palaces, two free cities (Jalalabad, Peshawar): placed without asking.
    assert t.state.visit == 2  # the visit ended: seat 2 took the last card too
    assert [t.state.palaces[c] for c in range(4)] == [1, 1, 2, 2]
    assert t.state.moguls[0] == 0
    assert t.player(2).score == Score(palaces=1)
    assert t.player(2).palaces == 18


def test_w5_a_mogul_palace_on_his_own_palace_city_and_a_palace_on_his_own_mogul() -> None:
    # Czech text: the mogul palace goes "on another palace already standing in the
    # province, or on a free city", and the ring shows a normal palace may still go on
    # it; no text limits either to another player's palace.
    t = table()
    only_seat_0_plays(t, 20)  # red vizier+mogul: seat 0 alone wins both
    t.withdraw(0)
    assert len(legal_actions(t.state)) == 8  # 4 cities for each palace
    t.build_mogul(0, 0)  # Kabul, a fortress with +2: the tile stays (W5)
    assert t.state.bonus[0] == BonusTile("points")
    assert BuildPalace(0) in legal_actions(t.state)  # his own mogul palace accepts one
    events = t.build(0, 0)
    assert BonusTaken(0, 0, BonusTile("points")) in events
    assert t.state.palaces[0] == 0 and t.state.moguls[0] == 0
    # W9: the bonus tile (+2), no province tile (no elephant), palace score 1.
    assert t.player(0).score == Score(palaces=1, bonus=2)
    assert t.player(0).palaces == 18


def test_w5_mogul_palace_on_his_own_normal_palace() -> None:
    t = table()
    only_seat_0_plays(t, 20)
    t.withdraw(0)
    t.build(0, 1)  # Ghazni
    assert [a for a in legal_actions(t.state)] == [BuildMogulPalace(c) for c in range(4)]
    t.build_mogul(0, 1)
    assert t.state.palaces[1] == 0 and t.state.moguls[1] == 0
    assert t.player(0).score == Score(palaces=1)  # one province, however many palaces


def test_w4_no_free_city_builds_nothing_but_takes_the_tile() -> None:
    t = table()
    t.state = with_palaces(t.state, {0: 1, 1: 1, 2: 1, 3: 1})
    only_seat_0_plays(t, 2)  # elephant+vizier
    t.withdraw(0)
    assert t.player(0).influence == (1, 0, 0, 0)  # vizier tile taken
    assert t.player(0).palaces == 20  # nothing built
    assert t.player(0).score == Score(goods=1)  # no palace score (W8); rice 1
    assert t.state.visit == 2


def test_w4_no_palace_left_builds_nothing() -> None:
    t = table()
    t.state = with_palaces(t.state, {city: 0 for city in range(4, 24)})  # all 20 elsewhere
    assert t.player(0).palaces == 0
    only_seat_0_plays(t, 2)
    t.withdraw(0)
    assert t.state.palaces[:4] == (-1, -1, -1, -1)
    assert t.player(0).influence == (1, 0, 0, 0)
    assert t.player(0).score == Score(goods=1)


def test_w6_card_bonus_tile_draws_the_top_card() -> None:
    setup = Setup.stacked(3, [RED, YELLOW, GREEN], display=DISPLAY, deck=DECK)
    setup = evolve(setup, bonus_tiles=swap_bonus(setup.bonus_tiles, 0, 12))  # card tile on Kabul
    t = Table(new_game(setup))
    only_seat_0_plays(t, 2)
    t.withdraw(0)
    events = t.build(0, 0)
    # Seats 1 and 2 drew 90 and 91 (W11); the bonus card is the next: 92.
    assert CardDrawn(0, 92, "bonus tile") in events
    assert 92 in t.player(0).hand
    assert t.player(0).score == Score(palaces=1, goods=1)


def test_w6_w12_the_card_tile_draws_before_the_played_cards_are_discarded() -> None:
    # docs/rules.md, where the texts disagree: the engine draws the bonus card at once
    # (002), so with an empty deck the reshuffled pile does not yet hold the cards the
    # withdrawing player played (W10 comes after the scoring).
    setup = Setup.stacked(3, [RED, YELLOW, GREEN], display=DISPLAY, deck=DECK)
    setup = evolve(setup, bonus_tiles=swap_bonus(setup.bonus_tiles, 0, 12))  # card tile on Kabul
    t = Table(new_game(setup))
    only_seat_0_plays(t, 2)  # seat 0: red elephant+vizier on the table
    rest = t.state.deck  # seats 1 and 2 drew 90 and 91: 92, 93, 94 and the others
    t.state = evolve(t.state, deck=(), discard=rest)
    t.withdraw(0)  # wins the province tile and the vizier
    events = t.build(0, 0)
    assert Reshuffled(len(rest)) in events  # the old discard pile only: not card 2
    drawn = next(e.card for e in events if isinstance(e, CardDrawn))
    assert drawn is not None and drawn in rest
    assert drawn in t.player(0).hand
    assert t.state.discard == (2,)  # discarded after the draw (W10)
    # The visit ended: visit 2's display came from the new deck too (E4).
    assert t.state.visit == 2
    assert sorted((*t.state.deck, *t.state.display, drawn)) == sorted(rest)


def test_w6_taj_mahal_scores_four() -> None:
    t = table()
    t.state = at_visit(t.state, 12)  # Agra: cities 28 (Taj Mahal) to 32
    only_seat_0_plays(t, 2)  # elephant+vizier
    t.withdraw(0)
    t.build(0, 28)
    # Taj +4; tile 12 = rice+spice: 1 + 1; one palace: 1.
    assert t.player(0).score.bonus == 4
    assert t.player(0).score.goods == 2
    assert t.player(0).score.palaces == 1


# --------------------------------------------------------------------------- W7-W9


def test_w7_example_eight_points_for_goods_in_one_withdrawal() -> None:
    """The worked example: he holds 2 spice, then wins a spice bonus tile and the
    spice+jewels province tile in one withdrawal: spice 3 and 4, jewels 1 = 8."""
    setup = Setup.stacked(3, [RED, YELLOW, GREEN], display=DISPLAY, deck=DECK)
    # Visit 3 is in Lahore (tile 3: spice, jewels); put a spice tile on Lahore city (8).
    setup = evolve(setup, bonus_tiles=swap_bonus(setup.bonus_tiles, 8, 38))
    state = at_visit(new_game(setup), 3)
    spice = BonusTile("good", "spice")
    # Earlier he won province tile 7 (rice, spice) and the spice tile of Lucknow (41).
    state = with_player(state, 0, province_tiles=(7,), bonus_tiles=(spice,))
    state = evolve(state, bonus=tuple(None if c == 41 else b for c, b in enumerate(state.bonus)))
    t = Table(state)
    only_seat_0_plays(t, 2)  # red elephant+vizier
    assert t.withdraw(0)[0] == Withdrew(0, ("elephant", "vizier"))
    t.build(0, 8)
    scoring = [e for e in t.events if isinstance(e, (BonusTaken, ProvinceTileTaken, Scored))]
    assert scoring == [  # W9: bonus tile, then province tile, then palaces
        BonusTaken(0, 8, spice),
        Scored(0, "goods", 3, "spice"),
        ProvinceTileTaken(0, 3),
        Scored(0, "goods", 4, "spice"),
        Scored(0, "goods", 1, "jewels"),
        Scored(0, "palaces", 1, "palace joined to 0 other provinces"),
    ]
    assert t.player(0).score == Score(palaces=1, goods=8)


def chain_position(owners: dict[int, int], moguls: dict[int, int] | None = None) -> Table:
    """Visit 3 in Lahore with palaces already standing; seat 0 wins the vizier alone."""
    t = table()
    t.state = with_palaces(at_visit(t.state, 3), owners, moguls)
    only_seat_0_plays(t, 2)
    t.withdraw(0)
    return t


def test_w8_chain_over_three_provinces() -> None:
    # Seat 0: Peshawar 3 and Jalalabad 2 (Kabul), Muzaffarabad 7 and Baramulla 5
    # (Kashmir), Multan 12 (Multan).  Rohtas 11 (Lahore) touches 3 and 7; Multan is
    # reached only through Lahore city 8, which is empty: the chain breaks there.
    t = chain_position({3: 0, 2: 0, 7: 0, 5: 0, 12: 0})
    t.build(0, 11)
    assert t.player(0).score.palaces == 1 + 2  # Kabul and Kashmir, each once


def test_w8_chain_broken_by_another_players_palace() -> None:
    # Peshawar 3 and Muzaffarabad 7 hold seat 1's palaces: Rohtas 11 is cut off.
    t = chain_position({3: 1, 2: 0, 7: 1, 5: 0, 12: 0})
    t.build(0, 11)
    assert t.player(0).score.palaces == 1


def test_w8_own_mogul_palace_beside_another_players_palace_keeps_the_chain() -> None:
    t = chain_position({3: 1, 2: 0, 7: 1, 5: 0}, moguls={7: 0})
    t.build(0, 11)
    assert t.player(0).score.palaces == 1 + 1  # through 7 to Baramulla: Kashmir
    # the reason as a person reads it: one province, not "1 other provinces"
    assert Scored(0, "palaces", 2, "palace joined to 1 other province") in t.events


# --------------------------------------------------------------------------- W10-W12


def test_w10_played_special_card_returns_to_hand_others_discarded() -> None:
    t = table()
    t.state = give_special(t.state, 0, 99)  # the princess's card
    t.play(0, 2, 99)
    assert t.player(0).score.princess == 2  # T5: at once
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    t.withdraw(0)
    t.build(0, 1)
    assert 99 in t.player(0).hand
    assert 2 not in t.player(0).hand
    assert 2 in t.state.discard and 99 not in t.state.discard


def test_w11_withdrawing_without_playing_draws_three_cards() -> None:
    t = table()
    t.withdraw(0)  # first turn, no card played
    assert t.player(0).hand == (*RED, 90)  # the top card of the deck (W11)
    t.take(0, 85, 89)
    assert t.player(0).hand == (*RED, 85, 89, 90)
    assert len(t.player(0).hand) == 6 + 3


def test_w11_after_playing_no_deck_card() -> None:
    t = table()
    t.play(0, 0)
    t.withdraw(1)
    t.take(1, 85, 86)
    t.withdraw(2)
    t.take(2, 87, 88)
    t.withdraw(0)
    # Seat 0 played: no deck card; the last display card came by itself.
    assert t.player(0).hand == (*RED[1:], 89)


def test_w12_reshuffle_when_the_deck_is_empty() -> None:
    t = table()
    discard = tuple(t.state.deck)
    t.state = evolve(t.state, deck=(), discard=discard)
    events = t.withdraw(0)
    assert Reshuffled(len(discard)) in events
    drawn = next(e for e in events if isinstance(e, CardDrawn)).card
    assert drawn in discard
    assert sorted((*t.state.deck, drawn)) == sorted(discard)
    assert t.state.discard == ()
    assert t.state.reshuffles == 1
    # Same state, same action: the same new deck (the shuffle comes from the seed).
    again = Table(evolve(new_game(t.state.setup), deck=(), discard=discard))
    again.withdraw(0)
    assert again.state == t.state


def test_w12_no_card_when_deck_and_discard_are_empty() -> None:
    t = table()
    deck = t.state.deck  # the other seats hold every remaining card
    t.state = with_player(t.state, 1, hand=tuple(sorted(YELLOW + list(deck[::2]))))
    t.state = with_player(t.state, 2, hand=tuple(sorted(GREEN + list(deck[1::2]))))
    t.state = evolve(t.state, deck=(), discard=())
    events = t.withdraw(0)
    assert not any(isinstance(e, (CardDrawn, Reshuffled)) for e in events)
    assert t.player(0).hand == tuple(RED)
