"""Java's rules, one test (or a few) per rule id of docs/java-rules.md.  Numbers are
worked out by hand from the rules; positions are named as in java_scenario."""

from __future__ import annotations

import pytest
from attrs import evolve
from java_scenario import (
    Steps,
    acting,
    at,
    build,
    deploy,
    extend,
    festival,
    fresh,
    land,
    lay,
    palace,
    play,
    put,
    rim,
    tiles,
    walk,
    water,
    withdraw,
)

from tajmahal.java import (
    Action,
    BuildPalace,
    Done,
    EndTurn,
    ExtendPalace,
    HoldFestival,
    IllegalAction,
    Lay,
    Move,
    Pass,
    PlaceLand,
    PlaceWater,
    State,
    TakeCard,
    UseToken,
    apply,
    final_scoring,
    legal_actions,
    step,
)
from tajmahal.java.events import FestivalScored, FinalScored, GameOver, WaterScored
from tajmahal.java.geometry import rank_key, tiers
from tajmahal.java.state import FESTIVAL, OVER

BOARD_RIM = range(150, len(fresh().terrain))  # the rim cells (J36)


def illegal(state: State, steps: Action | Steps, rule: str) -> None:
    """The decisions of ``steps`` but the last are legal; the last breaks ``rule``."""
    steps = steps if isinstance(steps, tuple) else (steps,)
    state = play(state, *steps[:-1])
    with pytest.raises(IllegalAction, match=f"^{rule}:"):
        apply(state, steps[-1])


def run(state: State, *steps: Action | Steps) -> list[object]:
    """The events of ``steps`` from ``state``."""
    events: list[object] = []
    for s in steps:
        for action in s if isinstance(s, tuple) else (s,):
            state, more = step(state, action)
            events += more
    return events


# -- J6, J13-J18: setup and the turn


def test_setup_deals_three_cards_and_a_display_and_gives_six_ap() -> None:
    state = fresh(players=3)
    assert [p.hand for p in state.players] == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
    assert state.display == 9 and len(state.pile) == 30 - 10
    p = state.players[0]
    assert (p.supply, p.tokens, p.twos, p.rice, p.villages) == (12, 3, 5, 3, 2)
    assert state.turn.ap == 6 and state.to_act == 0


# -- J20-J21: the mandatory land tile


def test_the_turn_owes_a_land_tile_and_other_actions_keep_one_ap_for_it() -> None:
    state = acting(fresh(), ap=1)
    illegal(state, EndTurn(), "J20")
    illegal(state, TakeCard(True), "J20")  # would leave no AP for the tile
    illegal(state, PlaceWater(), "J20")  # water is not land
    state = play(state, lay((at(5, 5),)))
    assert state.turn.ap == 0 and EndTurn() in legal_actions(state)


def test_the_obligation_lapses_when_no_land_tile_is_left() -> None:
    state = acting(fresh())
    players = (evolve(state.players[0], twos=0, rice=0, villages=0), state.players[1])
    state = evolve(state, players=players, threes=1)
    state = evolve(state, threes=0)
    assert EndTurn() in legal_actions(state)


def test_a_tile_the_ap_left_cannot_pay_holds_no_ap_back() -> None:
    # J20 (decision): water everywhere but two grid spaces on the southern edge:
    # the cheapest three-space tile overhangs one rim cell (J36: 2 AP); with 1 AP
    # left it cannot lie, the obligation lapses, and the AP buys a card instead
    state = fresh()
    terrain = [3] * len(state.terrain)
    for q in (at(9, 3), at(9, 4), *BOARD_RIM):
        terrain[q] = 0
    players = tuple(evolve(p, twos=0, rice=0, villages=0) for p in state.players)
    state = acting(evolve(state, terrain=tuple(terrain), players=players), ap=1)
    assert EndTurn() in legal_actions(state) and PlaceLand("three") not in legal_actions(state)
    assert play(state, TakeCard(True)).turn.ap == 0


# -- J25-J36: land tiles


def test_a_tile_costs_one_ap_whatever_its_size() -> None:
    state = acting(fresh())
    after = play(state, lay((at(5, 5), at(5, 6), at(6, 6)), at(5, 6)))
    assert after.turn.ap == 5 and after.threes == 55
    assert [after.height[p] for p in (at(5, 5), at(5, 6), at(6, 6))] == [1, 1, 1]


def test_an_overhang_costs_one_more_ap_per_space_off_the_grid() -> None:
    state = acting(fresh())
    # a pair: (row 9, col 3) and the southern rim cell below it
    q, r = state.components.board.coords[at(9, 3)]
    outside = rim(q, r + 1)
    after = play(state, lay((at(9, 3), outside), at(9, 3)))
    assert after.turn.ap == 6 - 2
    # J36: one space must be inside the grid
    illegal(state, lay((outside,)), "J36")


def test_tiles_rest_evenly_and_never_on_a_single_tile_of_their_size() -> None:
    state = acting(land(fresh(), {at(5, 5): "rice", at(5, 6): "village", at(6, 6): "rice"}))
    # J27: one space on the tile, one on the bare board
    illegal(state, lay((at(5, 4), at(5, 5)), at(5, 4)), "J27")
    # J28: a 2-space tile on one 3-space tile lies on one tile only (with a tile on
    # (4, 5), a pair on it and on the big tile is legal: the anchor is)
    state = tiles(state, "rice", at(4, 5))
    illegal(state, lay((at(5, 5), at(5, 6)), at(5, 5)), "J28")
    assert play(state, lay((at(4, 5), at(5, 5)), at(5, 5))).height[at(4, 5)] == 2
    # J28: a 1-space tile exactly on a 1-space tile
    one = acting(tiles(fresh(), "rice", at(3, 3)))
    illegal(one, lay((at(3, 3),)), "J28")
    # a 1-space tile on a bigger tile is fine: level 2
    assert play(state, lay((at(5, 5),))).height[at(5, 5)] == 2
    # a 2-space tile across two tiles is fine
    two = acting(tiles(fresh(), "rice", at(3, 3), at(3, 4)))
    assert play(two, lay((at(3, 3), at(3, 4)), at(3, 4))).height[at(3, 4)] == 2


def test_a_tile_never_covers_figures_palaces_or_water() -> None:
    state = tiles(fresh(), "village", at(5, 5), at(5, 6))
    state = acting(palace(put(state, at(5, 5)), at(5, 6), 2))
    illegal(state, lay((at(5, 5),)), "J31")
    illegal(state, lay((at(5, 6),)), "J31")
    illegal(state, lay((at(2, 4),)), "J31")  # a printed tank


def test_a_tile_may_not_join_two_cities() -> None:
    state = tiles(fresh(), "village", at(5, 4), at(5, 6))
    state = acting(palace(palace(state, at(5, 4), 2), at(5, 6), 2))
    illegal(state, lay((at(5, 5),), at(5, 5)), "J30")
    # a rice field there joins nothing
    assert play(state, lay((at(5, 5),))).terrain[at(5, 5)] == 1


def test_own_small_tiles_run_out() -> None:
    state = acting(fresh(), ap=9)
    state = play(
        state,
        lay((at(1, 1),), at(1, 1)),
        lay((at(1, 3),), at(1, 3)),
    )
    illegal(state, PlaceLand("village"), "J33")
    assert state.players[0].villages == 0


# -- J37-J43: water


def test_water_goes_only_on_the_bare_board() -> None:
    state = acting(tiles(fresh(), "rice", at(5, 5)))
    illegal(state, water(at(5, 5)), "J38")
    assert play(state, water(at(5, 6))).water_left == 15


def test_an_enclosed_tank_scores_three_for_the_highest_figure_on_its_shore() -> None:
    tank = at(2, 4)
    shore = sorted(fresh().components.board.neighbours[tank])  # 18, 19, 33, 35, 48, 49
    state = tiles(fresh(), "rice", *shore[:5])
    state = tiles(state, "rice", shore[0], level=2)  # seat 1 stands higher
    state = put(put(state, shore[0], seat=1), shore[1], seat=0)
    state = acting(state)
    after = play(state, lay((shore[5],)))
    events = run(state, lay((shore[5],)))
    scored = [e for e in events if isinstance(e, WaterScored)]
    assert scored == [WaterScored((tank,), 1, 3)]
    assert after.players[1].water == 3 and after.players[0].water == 0
    # J43 (decision): an area scores once
    assert not [
        e for e in run(acting(after), lay((at(8, 8),))) if isinstance(e, WaterScored)
    ]


# -- J24: ranks


def test_more_figures_break_a_tie_of_the_best_ones() -> None:
    assert rank_key([3, 2]) > rank_key([3]) > rank_key([2, 2])
    state = tiles(fresh(players=3), "village", at(5, 5), at(5, 6), at(5, 7))
    state = put(put(put(state, at(5, 5), 0), at(5, 6), 0), at(5, 7), 1)
    assert tiers(state, [at(5, 5), at(5, 6), at(5, 7)]) == [[0], [1]]


# -- J44-J50: figures


def test_deploying_costs_one_from_the_lowland_and_two_from_the_mountains() -> None:
    state = acting(tiles(fresh(), "rice", at(0, 5), at(9, 5), at(5, 5)))
    assert play(state, deploy(at(0, 5))).turn.ap == 6 - 2
    assert play(state, deploy(at(9, 5))).turn.ap == 6 - 1
    illegal(state, deploy(at(5, 5)), "J46")  # not at the edge
    illegal(state, deploy(at(0, 6)), "J45")  # bare board
    back = play(state, deploy(at(9, 5)), withdraw(at(9, 5)))
    assert back.turn.ap == 4 and back.players[0].supply == 12


def test_walking_costs_one_ap_per_change_of_colour() -> None:
    state = tiles(fresh(), "rice", at(5, 2), at(5, 3))
    state = tiles(state, "village", at(5, 4), at(5, 5))
    state = tiles(state, "rice", at(5, 6))
    state = tiles(state, "rice", at(5, 3), level=2)  # heights cost nothing
    state = acting(put(state, at(5, 2)))
    assert play(state, walk(at(5, 2), at(5, 3))).turn.ap == 6
    assert play(state, walk(at(5, 2), at(5, 5))).turn.ap == 5
    assert play(state, walk(at(5, 2), at(5, 6))).turn.ap == 4
    illegal(state, walk(at(5, 2), at(5, 7)), "J48")  # bare board


def test_figures_go_round_other_players_but_pass_their_own() -> None:
    state = tiles(fresh(), "rice", at(5, 2), at(5, 3), at(5, 4))
    blocked = acting(put(put(state, at(5, 2)), at(5, 3), seat=1))
    illegal(blocked, Move(), "J48")  # its only figure is walled in
    own = acting(put(put(state, at(5, 2)), at(5, 3)))
    assert play(own, walk(at(5, 2), at(5, 4))).figures[at(5, 4)] == 0
    illegal(own, walk(at(5, 2), at(5, 3)), "J50")


def test_a_figure_walks_again_only_after_an_action_that_is_not_a_walk() -> None:
    # J49 (decision): free walks of two figures taking turns would never end
    state = tiles(fresh(), "rice", at(5, 2), at(5, 3), at(5, 4), at(5, 5))
    state = acting(put(put(state, at(5, 2)), at(5, 5)), land=True)
    state = play(state, walk(at(5, 2), at(5, 3)), walk(at(5, 5), at(5, 4)))
    assert state.turn.ap == 6 and state.turn.walked == (at(5, 3), at(5, 4))
    illegal(state, Move(), "J49")  # both walked: no figure may walk now
    state = play(state, TakeCard(True))  # another action: they may walk again
    assert play(state, walk(at(5, 3), at(5, 2))).figures[at(5, 2)] == 0


# -- J51-J58: palaces


def city(players: int = 2):  # type: ignore[no-untyped-def]
    """A village of 4 spaces on row 5, cols 3-6; seat 0 on level 2 at col 3,
    seat 1 on level 1 at col 6."""
    state = tiles(fresh(players), "village", at(5, 3), at(5, 4), at(5, 5), at(5, 6))
    state = tiles(state, "village", at(5, 3), level=2)
    return put(put(state, at(5, 3), 0), at(5, 6), 1)


def test_the_highest_figure_builds_a_palace_no_bigger_than_the_village() -> None:
    state = acting(city())
    after = play(state, build(at(5, 4), 4))
    assert after.palace[at(5, 4)] == 4 and after.players[0].palaces == 2  # J57: half
    illegal(state, build(at(5, 4), 6), "J54")
    illegal(state, build(at(5, 3), 2)[:2], "J53")  # a figure stands there
    illegal(acting(city(), seat=1), BuildPalace(), "J52")


def test_an_undecidable_tie_lets_nobody_build() -> None:
    state = tiles(fresh(), "village", at(5, 3), at(5, 4), at(5, 5))
    state = acting(put(put(state, at(5, 3), 0), at(5, 5), 1))
    illegal(state, BuildPalace(), "J52")


def test_a_palace_is_extended_once_a_turn_and_not_when_it_was_built() -> None:
    state = play(acting(city()), build(at(5, 4), 2))
    illegal(state, ExtendPalace(), "J55")
    state = acting(state)  # a later turn
    illegal(state, extend(at(5, 4), 2), "J55")
    after = play(state, extend(at(5, 4), 4))
    assert after.palace[at(5, 4)] == 4 and after.players[0].palaces == 1 + 2


def test_building_a_palace_costs_one_ap() -> None:
    # J19, J51 (seed: "V obou případech jde o akci za 1 AB"): 6 AP, the tile lies
    state = play(acting(city(), land=True), build(at(5, 4), 4))
    assert state.turn.ap == 5


def test_extending_a_palace_costs_one_ap() -> None:
    state = acting(palace(city(), at(5, 4), 2), land=True)
    assert play(state, extend(at(5, 4), 4)).turn.ap == 5  # J55: 1 AP


def test_one_ap_builds_one_palace_not_two() -> None:
    # two villages where seat 0 is alone: (5, 3)-(5, 6) and (8, 3)-(8, 4)
    state = tiles(city(), "village", at(8, 3), at(8, 4))
    state = acting(put(state, at(8, 3)), ap=1, land=True)
    state = play(state, build(at(5, 4), 4))
    assert state.turn.ap == 0
    illegal(state, BuildPalace(), "J18")
    assert BuildPalace() not in legal_actions(state)  # a free walk is all that is left


# -- J59-J61: festival cards


def test_two_cards_a_turn_and_the_display_is_refilled() -> None:
    state = acting(fresh())
    state = apply(state, TakeCard(True))
    assert 6 in state.players[0].hand and state.display == 7
    state = apply(state, TakeCard(False))
    assert 8 in state.players[0].hand and state.turn.ap == 4
    illegal(state, TakeCard(False), "J61")


# -- J62-J73: festivals


def festival_state(deck: tuple[int, ...]):  # type: ignore[no-untyped-def]
    state = palace(city(), at(5, 4), 6)
    state = acting(evolve(fresh(deck=deck), **{k: getattr(state, k) for k in (
        "height", "terrain", "top", "sizes", "figures", "palace")}), land=True)  # fmt: skip
    return state


def test_a_festival_goes_to_the_most_symbols() -> None:
    # seat 0: dance, dance, dance+music; seat 1: music, music+puppets, puppets; display
    # dance+music: a dance+music card counts 2, each other matching card 1
    top = (0, 1, 18, 6, 26, 12, 19)
    deck = (*top, *(c for c in range(30) if c not in top))
    state = festival_state(deck)
    state = play(state, festival(at(5, 4)))
    # J67: the proposer opens with at least one card: no pass yet
    assert state.phase == FESTIVAL and legal_actions(state) == [Lay(0), Lay(1), Lay(18)]
    state = play(state, Lay(18))  # 2 symbols
    assert legal_actions(state) == [Lay(0), Lay(1), Done()]
    state = play(state, Done())
    assert state.to_act == 1
    assert legal_actions(state) == [Lay(6), Lay(26), Pass()]  # puppets (12) does not count
    state = play(state, Lay(6), Lay(26), Done())  # 2 symbols
    state = play(state, Lay(0), Done())  # seat 0: 3
    assert legal_actions(state) == [Pass()]  # seat 1 has no matching card left
    state = play(state, Pass())
    assert legal_actions(state) == [Lay(1), Pass()]  # J67: the proposer bids on alone
    events = run(state, Pass())
    assert FestivalScored(at(5, 4), (3, 2), (0,), 3) in events  # half of 6
    state = play(state, Pass())
    assert state.players[0].festivals == 3 and at(5, 4) in state.red
    assert state.to_act == 1 and state.phase == "act"  # J73: the festival ended the turn
    assert sorted(state.discard) == [0, 6, 18, 26]


def test_a_bidder_passes_only_before_laying_and_ends_a_bid_only_after() -> None:
    top = (0, 1, 18, 6, 26, 12, 19)
    state = festival_state((*top, *(c for c in range(30) if c not in top)))
    state = play(state, festival(at(5, 4), 18))
    illegal(state, Pass(), "J67")  # it laid a card in this bid
    state = play(state, Done())
    illegal(state, Done(), "J67")  # seat 1 laid nothing yet
    illegal(state, Lay(12), "J67")  # puppets: no required symbol
    illegal(state, Lay(0), "J67")  # not in its hand


def test_a_tied_festival_pays_the_table() -> None:
    deck = (0, 1, 2, 3, 4, 5, 19, *tuple(range(6, 19)), *tuple(range(20, 30)))
    state = festival_state(deck)  # display dance+music, both hold three dance
    state = play(state, festival(at(5, 4), 0), Done(), Lay(3), Done(), Pass(), Pass())
    assert state.players[0].festivals == state.players[1].festivals == 2  # value 6, tied
    illegal(acting(state, land=True), HoldFestival(), "J64")  # red now


# -- J75-J77: action tokens


def test_a_token_gives_a_seventh_ap_at_the_start_of_the_turn() -> None:
    state = acting(fresh())
    after = apply(state, UseToken())
    assert after.turn.ap == 7 and after.players[0].tokens == 2
    illegal(after, UseToken(), "J75")
    later = play(state, lay((at(5, 5),)))
    illegal(later, UseToken(), "J77")
    anytime = acting(fresh(variant="anytime"))
    assert play(anytime, lay((at(5, 5),)), UseToken()).turn.ap == 6


# -- J78-J85: the end


def test_final_scoring_gives_the_value_to_first_and_half_to_second() -> None:
    state = palace(city(players=3), at(5, 4), 6)
    assert final_scoring(state, 0) == (((at(5, 4), 1, 6),), 6)
    assert final_scoring(state, 1) == (((at(5, 4), 2, 3),), 3)
    assert final_scoring(state, 2) == ((), 0)


def test_the_game_ends_when_no_three_space_tile_fits_although_some_remain() -> None:
    # J78 (decision): water everywhere but one bare grid space: 56 three-space
    # tiles remain, none can lie; the seat ends its turn and scores, as if it had
    # laid the last one
    state = fresh()
    terrain = [3] * len(state.terrain)
    terrain[at(5, 5)] = 0
    state = acting(evolve(state, terrain=tuple(terrain)), land=True)
    assert state.threes == 56 and PlaceLand("three") not in legal_actions(state)
    state, events = step(state, EndTurn())
    assert FinalScored(0, (), 0) in events and state.ended
    assert state.to_act == 1 and state.turn.last


def test_the_last_three_space_tile_ends_the_game_after_one_more_turn_each() -> None:
    state = palace(city(), at(5, 4), 6)
    state = acting(evolve(state, threes=1))
    state = play(state, lay((at(7, 1), at(7, 2), at(8, 2)), at(7, 1)))
    state, events = step(state, EndTurn())
    assert FinalScored(0, ((at(5, 4), 1, 6),), 6) in events
    assert state.to_act == 1 and state.turn.last
    assert EndTurn() in legal_actions(state)  # J79: no land tile owed
    state, events = step(state, EndTurn())
    assert state.phase == OVER and events[-1] == GameOver((6, 3), (1, 2))
