"""Tikal, rule by rule (ids of docs/tikal-rules.md), on stacked setups and positions
built by hand.  Every number is worked out from the rules and the reconstructed
components (see tikal_scenario.py for the start spaces and the tiles)."""

from __future__ import annotations

from collections import Counter

import pytest
from attrs import evolve
from tikal_scenario import (
    BASE,
    JUNGLE,
    TEMPLE_A,
    TEMPLE_B,
    acting,
    at,
    lay,
    play,
    put,
    stacked,
)

from tajmahal.tikal import (
    DEFAULT_COMPONENTS,
    Bid,
    BuildCamp,
    CampMove,
    Choose,
    Dig,
    EndTurn,
    Enter,
    Exchange,
    Guard,
    IllegalAction,
    Move,
    Pass,
    Place,
    Setup,
    State,
    Uncover,
    apply,
    legal_actions,
    new_game,
    ranks,
    scoring,
    step,
)
from tajmahal.tikal.events import AuctionWon, Scored, ScoringBegan, TilesRevealed
from tajmahal.tikal.rules import final_order
from tajmahal.tikal.state import ACT, BID, CHOOSE, GONE, OVER, PLACE, RESERVE, SCORING

C = DEFAULT_COMPONENTS


def refused(state: State, action: object, rule: str) -> str:
    with pytest.raises(IllegalAction) as e:
        apply(state, action)  # type: ignore[arg-type]
    assert str(e.value).startswith(f"{rule}:"), str(e.value)
    return str(e.value)


def start(players: int = 2) -> State:
    """Seat 0 in its first turn, its tile placed out of the way, 10 AP."""
    return acting(new_game(stacked(players)))


def test_t4_to_t8_the_components() -> None:
    kinds = Counter(t.kind for t in C.tiles)
    assert kinds == {"temple": 15, "jungle": 10, "treasure": 8, "volcano": 3}  # T5 (36)
    assert sum(t.masks for t in C.tiles) <= C.treasure_tokens == 24  # T6, T21
    assert dict(zip(range(2, 11), C.levels, strict=True)) == {
        2: 3,
        3: 6,
        4: 9,
        5: 11,
        6: 8,
        7: 5,
        8: 3,
        9: 2,
        10: 1,
    }  # T7
    assert sum(C.levels) == 48
    assert (C.workers, C.camps, C.leader_strength) == (18, 2, 3)  # T8, T39, T41
    state = new_game(stacked())
    explored = {i: s.kind for i, s in enumerate(state.spaces) if s is not None}
    assert explored == {BASE: "base", TEMPLE_A: "temple", TEMPLE_B: "temple", JUNGLE: "jungle"}
    assert state.spaces[TEMPLE_A].value == state.spaces[TEMPLE_B].value == 1  # type: ignore[union-attr]


def test_t11_the_stack_is_shuffled_within_each_letter_a_on_top() -> None:
    one, two = Setup.random(3, seed=1), Setup.random(3, seed=2)
    backs = [C.tiles[t].back for t in one.stack]
    assert backs == sorted(backs) and backs[0] == "A" and backs[-1] == "G"
    assert one.stack != two.stack
    assert [C.tiles[t].back for t in two.stack] == backs
    with pytest.raises(ValueError, match="T11"):
        Setup(2, "basic", tuple(reversed(range(36))), one.treasures).check()


def test_t12_t15_t16_start_figures_off_the_board_scores_zero_oldest_first() -> None:
    state = new_game(stacked(3))
    assert all(p.reserve == 18 and p.leader == RESERVE and p.score == 0 for p in state.players)
    assert state.to_act == 0 and state.phase == PLACE and state.tile == 0
    assert not any(any(row) for row in state.workers)


def test_t17_a_turn_begins_with_placing_the_drawn_tile() -> None:
    state = new_game(stacked())
    refused(state, EndTurn(), "T17")
    refused(state, Enter(BASE), "T17")


def test_t18_ten_action_points_left_over_are_lost() -> None:
    state = play(new_game(stacked()), Place(at(0, 5), 0))
    assert (state.phase, state.to_act, state.ap) == (ACT, 0, 10)
    state = play(state, Enter(BASE))
    assert state.ap == 9
    state = play(state, EndTurn())
    assert (state.phase, state.to_act, state.tile, state.ap) == (PLACE, 1, 1, 0)


def test_t19_a_tile_goes_next_to_the_explored_area() -> None:
    state = new_game(stacked())
    refused(state, Place(at(5, 0), 0), "T19")
    refused(state, Place(BASE, 0), "T19")


def test_t20_a_stone_must_lead_onto_the_new_tile() -> None:
    # Tile 0 has stones [0, 1, 2, 0, 0, 0]; on (0,2) it borders the base camp to the
    # south (direction 5) and temple (1,2) to the southeast (direction 0), which both
    # have no stone on that border: its own stones must face one of them.
    state = new_game(stacked())
    assert C.tiles[0].stones == (0, 1, 2, 0, 0, 0)
    space = at(0, 2)
    for rotation in (0, 1, 2):
        refused(state, Place(space, rotation), "T20")
    assert [p.rotation for p in legal_actions(state) if p.space == space] == [3, 4, 5]  # type: ignore[union-attr]
    placed = play(state, Place(space, 3))
    assert placed.spaces[space].stones == (0, 0, 0, 0, 1, 2)  # type: ignore[union-attr]


def test_t20_rotations_that_lay_the_same_stones_are_listed_once() -> None:
    # A volcano has no stones: one placement per space, needing no stone (T21).
    state = evolve(new_game(stacked()), tile=4)
    places = legal_actions(state)
    assert {p.rotation for p in places} == {0}  # type: ignore[union-attr]
    assert at(0, 2) in {p.space for p in places}  # type: ignore[union-attr]
    refused(state, Place(at(0, 2), 3), "T20")


def test_t21_a_treasure_tile_gets_a_token_per_mask_from_the_supply() -> None:
    state = evolve(new_game(stacked(treasures=tuple(range(8)) * 3)), tile=3)  # 2 masks
    state = play(state, Place(at(0, 5), 0))
    assert state.spaces[at(0, 5)].tokens == (0, 1)  # type: ignore[union-attr]
    assert len(state.supply) == 22


def test_t21_nobody_enters_a_volcano() -> None:
    state = put(lay(start(), at(0, 2), "volcano", (0,) * 6), BASE, 0, workers=1)
    state = lay(state, BASE, "base", (1,) * 6)
    refused(state, Move(BASE, at(0, 2)), "T21")


def test_t23_figures_enter_on_the_base_camp_for_one_ap() -> None:
    state = play(start(), Enter(BASE), Enter(BASE, leader=True))
    assert state.ap == 8
    assert state.workers[BASE][0] == 1 and state.players[0].reserve == 17
    assert state.players[0].leader == BASE
    refused(state, Enter(BASE, leader=True), "T23")
    refused(state, Enter(TEMPLE_A), "T23")
    empty = evolve(state, players=(evolve(state.players[0], reserve=0), state.players[1]))
    refused(empty, Enter(BASE), "T23")


def test_t24_camp_moves_cost_one_ap_per_figure() -> None:
    state = play(put(start(), BASE, 0, workers=2), BuildCamp(at(0, 4)))
    assert state.ap == 5
    state = play(state, CampMove(BASE, JUNGLE), CampMove(BASE, JUNGLE))
    assert state.ap == 3 and state.workers[JUNGLE][0] == 2
    refused(state, CampMove(JUNGLE, TEMPLE_A), "T24")
    refused(state, CampMove(JUNGLE, JUNGLE), "T24")


def test_t25_a_move_costs_the_stones_on_both_sides_of_the_border() -> None:
    state = put(start(), BASE, 0, workers=2)
    assert play(state, Move(BASE, TEMPLE_A)).ap == 9  # 1 stone on the base's side
    assert play(state, Move(BASE, TEMPLE_B)).ap == 8  # 2 stones on the base's side
    both = lay(lay(state, at(0, 2), "jungle", (0, 0, 0, 0, 0, 3)), BASE, "base", (2, 1, 2, 0, 0, 1))
    assert play(both, Move(BASE, at(0, 2))).ap == 5  # 2 on the base's side + 3 on the tile's
    refused(evolve(both, ap=4), Move(BASE, at(0, 2)), "T18")


def test_t26_a_border_without_stones_cannot_be_crossed() -> None:
    # (1,2)'s northwest edge has no stone, nor has the southeast edge of this tile.
    state = put(lay(start(), at(0, 2), "jungle", (0, 0, 0, 0, 1, 2)), TEMPLE_A, 0, workers=1)
    refused(state, Move(TEMPLE_A, at(0, 2)), "T26")


def test_t27_figures_stay_on_explored_spaces_and_may_share_them() -> None:
    state = put(put(start(), BASE, 0, workers=1), TEMPLE_A, 1, workers=3)
    refused(state, Move(BASE, at(0, 2)), "T27")
    refused(state, Move(BASE, at(2, 3)), "T25")  # not adjacent
    state = play(state, Move(BASE, TEMPLE_A))
    assert state.workers[TEMPLE_A] == (1, 3)


def test_t29_t30_levels_one_per_figure_at_most_two_per_temple_and_turn() -> None:
    state = put(start(), TEMPLE_A, 0, workers=1)
    state = play(state, Uncover(TEMPLE_A))
    assert state.spaces[TEMPLE_A].value == 2 and state.ap == 8  # type: ignore[union-attr]
    assert state.levels[0] == 2  # one of the three 2s is used
    refused(state, Uncover(TEMPLE_A), "T30")
    state = play(put(state, TEMPLE_A, 0, workers=1), Uncover(TEMPLE_A))
    assert state.spaces[TEMPLE_A].value == 3  # type: ignore[union-attr]
    state = put(state, TEMPLE_A, 0, workers=5)
    refused(state, Uncover(TEMPLE_A), "T30")  # two a turn, however many figures
    state = play(state, Uncover(TEMPLE_B)) if state.figures(TEMPLE_B, 0) else state
    state = play(acting(state), Uncover(TEMPLE_A))  # the next turn
    assert state.spaces[TEMPLE_A].value == 4  # type: ignore[union-attr]
    no_fives = evolve(acting(state), levels=(2, 5, 8, 0, 8, 5, 3, 2, 1))
    refused(no_fives, Uncover(TEMPLE_A), "T29")
    refused(state, Uncover(TEMPLE_B), "T29")  # no figure there
    refused(state, Uncover(BASE), "T29")


def test_t29_the_top_level_is_ten() -> None:
    state = put(lay(start(), TEMPLE_A, "temple", value=10), TEMPLE_A, 0, workers=2)
    refused(state, Uncover(TEMPLE_A), "T29")


def test_t32_t33_dig_the_top_token_one_per_figure_two_per_space_and_turn() -> None:
    state = lay(start(), at(0, 2), "treasure", tokens=(5, 6, 7))
    state = put(state, at(0, 2), 0, workers=1)
    state = play(state, Dig(at(0, 2)))
    assert state.ap == 7 and state.players[0].treasures[7] == 1
    assert state.spaces[at(0, 2)].tokens == (5, 6)  # type: ignore[union-attr]
    refused(state, Dig(at(0, 2)), "T33")
    state = play(put(state, at(0, 2), 0, workers=1), Dig(at(0, 2)))
    assert state.players[0].treasures[6] == 1 and state.ap == 4
    refused(put(state, at(0, 2), 0, workers=1), Dig(at(0, 2)), "T33")
    refused(state, Dig(BASE), "T32")


def test_t34_t44_treasures_score_1_3_6_per_type() -> None:
    state = start()
    held = (1, 2, 3, 0, 0, 0, 0, 0)
    state = evolve(state, players=(evolve(state.players[0], treasures=held), state.players[1]))
    assert scoring(state, 0) == (0, 1 + 3 + 6)


def with_treasures(state: State, *holdings: tuple[int, ...]) -> State:
    return evolve(
        state,
        players=tuple(evolve(p, treasures=h) for p, h in zip(state.players, holdings, strict=True)),
    )


def test_t35_t37_exchanges_of_single_treasures() -> None:
    state = with_treasures(start(), (1, 2, 0, 0, 0, 0, 0, 0), (0, 0, 1, 3, 0, 0, 0, 0))
    after = play(state, Exchange(1, take=2, give=0))
    assert after.ap == 7
    assert after.players[0].treasures == (0, 2, 1, 0, 0, 0, 0, 0)
    assert after.players[1].treasures == (1, 0, 0, 3, 0, 0, 0, 0)
    refused(state, Exchange(1, take=3, give=0), "T36")  # their triple stays whole
    refused(state, Exchange(1, take=2, give=1), "T36")  # so does my pair
    refused(state, Exchange(0, take=2, give=0), "T35")
    same = with_treasures(start(), (1,) + (0,) * 7, (1,) + (0,) * 7)
    refused(same, Exchange(1, take=0, give=0), "T37")
    # two exchanges in a turn, 6 AP: swap singles to build a pair (T36)
    two = with_treasures(start(), (1, 1, 0, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0, 0, 0))
    two = play(two, Exchange(1, take=2, give=0), Exchange(1, take=0, give=1))
    assert two.ap == 4 and two.players[0].treasures[:3] == (1, 0, 1)


def test_t38_t39_camps() -> None:
    state = start()
    refused(state, BuildCamp(TEMPLE_A), "T38")
    refused(state, BuildCamp(BASE), "T38")
    refused(state, BuildCamp(at(0, 2)), "T38")  # unexplored
    refused(lay(state, at(0, 2), "treasure", tokens=(1,)), BuildCamp(at(0, 2)), "T38")
    state = lay(state, at(0, 2), "treasure")  # dug out: a camp may go there
    state = play(state, BuildCamp(JUNGLE))
    assert state.ap == 5 and state.spaces[JUNGLE].camp == 0  # type: ignore[union-attr]
    state = play(state, BuildCamp(at(0, 2)))
    assert state.to_act == 1  # 0 AP left: the turn ended
    rival = acting(state, seat=1)
    refused(rival, BuildCamp(JUNGLE), "T39")
    refused(rival, Enter(JUNGLE), "T23")  # not its camp
    lay_more = lay(acting(state), at(1, 4), "jungle")
    refused(lay_more, BuildCamp(at(1, 4)), "T39")  # two camps each
    state = play(acting(state), Enter(JUNGLE), Enter(at(0, 2), leader=True))
    assert state.workers[JUNGLE][0] == 1 and state.players[0].leader == at(0, 2)


def test_t40_t41_a_guard_needs_more_strength_the_leader_counting_three() -> None:
    state = put(put(start(), TEMPLE_A, 0, leader=True), TEMPLE_A, 1, workers=3)
    refused(state, Guard(TEMPLE_A, leader=True), "T40")  # 3 against 3
    refused(state, Guard(TEMPLE_A), "T40")  # and no worker of its own there
    state = put(state, TEMPLE_A, 0, workers=1)
    after = apply(state, Guard(TEMPLE_A))  # 4 against 3; a worker guards
    assert after.ap == 5 and after.spaces[TEMPLE_A].guard == 0  # type: ignore[union-attr]
    assert after.players[0].leader == GONE and after.workers[TEMPLE_A] == (0, 3)
    assert after.players[0].removed == 0 and after.players[0].guards == (TEMPLE_A,)
    refused(put(after, TEMPLE_A, 0, workers=2), Uncover(TEMPLE_A), "T31")
    refused(after, Enter(BASE, leader=True), "T23")  # removed for good
    # the guarded temple scores only for its guard, whoever has the majority (T44)
    assert scoring(after, 0)[0] == 1 and scoring(after, 1)[0] == 0
    # at most two guards
    more = put(put(acting(after), TEMPLE_B, 0, workers=1), at(0, 2), 0, workers=1)
    more = lay(more, at(0, 2), "temple", value=1)
    more = play(more, Guard(TEMPLE_B))
    refused(acting(more), Guard(at(0, 2)), "T40")


def test_t40_the_other_figures_of_the_guard_leave_the_game() -> None:
    state = put(put(start(), TEMPLE_A, 0, workers=3, leader=True), TEMPLE_A, 1, workers=2)
    after = play(state, Guard(TEMPLE_A, leader=True))
    assert after.players[0].removed == 3 and after.players[0].leader == GONE
    assert after.players[0].reserve == 15 and after.workers[TEMPLE_A] == (0, 2)


def test_t40_the_log_counts_the_figures_that_leave_in_good_english() -> None:
    from tajmahal.tikal.adapter import TIKAL

    def told(workers: int, leader: bool) -> str:
        state = put(start(), TEMPLE_A, 0, workers=workers + 1, leader=leader)
        after, events = TIKAL.step(state, Guard(TEMPLE_A))
        return " / ".join(TIKAL.describe_events(after, events, ["ann", "bob"]))

    assert "; 1 worker leaves the game" in told(1, False)
    assert "; 2 workers leave the game" in told(2, False)
    assert "; 1 worker and the leader leave the game" in told(1, True)
    assert "; 0 workers leave the game" in told(0, False)


def test_t44_majority_by_strength_ties_score_for_nobody() -> None:
    state = lay(lay(start(), TEMPLE_A, "temple", value=5), TEMPLE_B, "temple", value=3)
    state = put(put(state, TEMPLE_A, 0, workers=2), TEMPLE_A, 1, leader=True)
    state = put(put(state, TEMPLE_B, 0, workers=1), TEMPLE_B, 1, workers=1)
    state = with_treasures(state, (2,) + (0,) * 7, (0,) * 8)
    assert scoring(state, 0) == (0, 3)  # 2 against the leader's 3; a tie; a pair
    assert scoring(state, 1) == (5, 0)


def test_t44_the_outlook_is_what_a_scoring_round_now_would_add() -> None:
    """Before the first scoring round every score is 0: the pages show beside it
    what each seat would score now (T44), as the rules count it."""
    from tajmahal.tikal.adapter import TIKAL
    from tajmahal.tikal.pictures import pictures

    state = lay(lay(start(), TEMPLE_A, "temple", value=5), TEMPLE_B, "temple", value=3)
    state = put(put(state, TEMPLE_A, 0, workers=2), TEMPLE_A, 1, leader=True)
    state = put(put(state, TEMPLE_B, 0, workers=2), TEMPLE_B, 1, workers=1)
    state = with_treasures(state, (2,) + (1,) + (0,) * 6, (0,) * 8)
    # seat 0: temple B (2 against 1) 3, a pair and a single 3 + 1; seat 1: temple A
    # (the leader's 3 against 2) 5, no treasure
    assert TIKAL.outlook(state) == [3 + 4, 5] and TIKAL.scores(state) == [0, 0]
    panel = "".join(pictures(state.components).public(state, ["ann", "bob"]))
    assert "ann: 0 points (+7 if scored now)" in panel
    assert "bob: 0 points (+5 if scored now)" in panel


def draw_to_volcano() -> State:
    """Two players; tiles 0-3 (A) are placed and the turns ended; seat 0 then draws
    the B volcano, tile 4, which is next in this stack."""
    state = new_game(stacked())
    for _ in range(4):
        state = play(state, legal_actions(state)[0], EndTurn())
    return state


def test_t42_t43_a_volcano_starts_a_scoring_round() -> None:
    before = new_game(stacked())
    for _ in range(3):
        before = play(before, legal_actions(before)[0], EndTurn())
    state, events = step(before, legal_actions(before)[0])
    state, events = step(state, EndTurn())
    assert ScoringBegan((0, 1), 4) in events
    assert (state.phase, state.turn, state.to_act, state.ap) == (ACT, SCORING, 0, 10)
    # seat 0 walks a worker to temple (1,2) and scores it (value 1)
    state, events = step(play(state, Enter(BASE), Move(BASE, TEMPLE_A)), EndTurn())
    assert Scored(0, 1, 0, 1) in events
    assert (state.turn, state.to_act) == (SCORING, 1)
    # seat 1 brings two workers and takes the majority, and scores the same temple
    state = play(state, Enter(BASE), Enter(BASE), Move(BASE, TEMPLE_A), Move(BASE, TEMPLE_A))
    state, events = step(state, EndTurn())
    assert Scored(1, 1, 0, 1) in events
    # then seat 0 puts the volcano on the board and takes its normal turn
    assert (state.phase, state.to_act, state.tile) == (PLACE, 0, 4)
    state = play(state, legal_actions(state)[0])
    assert (state.phase, state.turn, state.to_act, state.ap) == (ACT, "normal", 0, 10)
    state = play(state, EndTurn())
    assert (state.phase, state.to_act, state.tile) == (PLACE, 1, 5)  # no other tile for 0


def test_t43_the_scoring_turn_and_the_normal_turn_have_their_own_limits() -> None:
    state = draw_to_volcano()
    assert (state.turn, state.to_act) == (SCORING, 0)
    state = put(state, TEMPLE_A, 0, workers=2)
    state = play(state, Uncover(TEMPLE_A), Uncover(TEMPLE_A), EndTurn())
    state = play(state, EndTurn())  # seat 1's scoring turn
    state = play(state, legal_actions(state)[0])  # the volcano
    state = play(state, Uncover(TEMPLE_A))  # a new turn: two more levels
    assert state.spaces[TEMPLE_A].value == 4  # type: ignore[union-attr]


def test_t45_the_final_round_after_the_last_tile_then_the_end() -> None:
    state = new_game(stacked(3))
    rounds = []
    while state.phase != OVER:
        before = state.last_placer
        state, events = step(state, legal_actions(state)[0] if state.phase == PLACE else EndTurn())
        rounds += [(e, before) for e in events if isinstance(e, ScoringBegan)]
    assert len(rounds) == 4  # three volcanoes (B, D, F) and the final round
    final, last_placer = rounds[-1]
    assert final.volcano is None and final.order[-1] == last_placer == state.last_placer
    assert final.order[0] == (last_placer + 1) % 3
    assert state.to_act is None and legal_actions(state) == []
    refused(state, EndTurn(), "T45")


def test_t45_a_tie_for_first_is_a_shared_win() -> None:
    assert ranks([12, 12, 7]) == [1, 1, 3]


# --------------------------------------------------------------------------- auction


def test_t46_t48_auction_setup_and_bids() -> None:
    state = new_game(stacked(3, "auction"))
    assert [p.score for p in state.players] == [20, 20, 20]
    assert (state.phase, state.to_act) == (BID, 0)
    assert state.auction is not None and state.auction.display == (0, 1, 2)
    assert legal_actions(state)[0] == Bid(1) and legal_actions(state)[-1] == Pass()
    assert len(legal_actions(state)) == 21
    refused(state, Bid(0), "T48")
    refused(state, Bid(21), "T48")
    refused(state, EndTurn(), "T48")
    state = play(state, Bid(2))
    refused(state, Bid(2), "T48")


def test_t49_to_t54_a_round_of_auctions() -> None:
    state = new_game(stacked(3, "auction"))
    state, events = step(play(state, Bid(2), Bid(3), Pass()), Pass())
    assert AuctionWon(1, 3) in events
    assert (state.phase, state.to_act) == (CHOOSE, 1) and state.players[1].score == 17
    refused(state, Choose(5), "T49")
    state = play(state, Choose(1))
    assert (state.phase, state.tile) == (PLACE, 1)
    state = play(state, legal_actions(state)[0], EndTurn())
    # T50: the left neighbour of seat 1 opens; T51: all pass, the opener plays for free
    assert (state.phase, state.to_act) == (BID, 2)
    state, events = step(play(state, Pass()), Pass())
    assert AuctionWon(2, 0) in events and state.to_act == 2
    state = play(state, Choose(2))
    state = play(state, legal_actions(state)[0])
    # T52: the last turn of the round is free, with the last tile
    state, events = step(state, EndTurn())
    assert AuctionWon(0, 0) in events and legal_actions(state) == [Choose(0)]
    state = play(state, Choose(0))
    state, events = step(play(state, legal_actions(state)[0]), EndTurn())
    # T53/T54: a new round, opened by the left neighbour of seat 0, who played last
    assert TilesRevealed((3, 4, 5)) in events
    assert (state.phase, state.to_act) == (BID, 1)
    assert [p.score for p in state.players] == [20, 17, 20]


def test_t55_a_chosen_volcano_starts_the_scoring_round() -> None:
    state = new_game(stacked(2, "auction"))

    def take_turn(state: State, tile: int) -> State:
        state = play(state, Choose(tile))
        return play(state, legal_actions(state)[0], EndTurn())

    state = take_turn(play(state, Pass(), Pass()), 0)  # round 1: tiles 0 and 1
    state = take_turn(state, 1)
    assert state.auction is not None and state.auction.display == (2, 3)
    state = take_turn(play(state, Pass(), Pass()), 2)
    state = take_turn(state, 3)
    assert state.auction is not None and state.auction.display == (4, 5)
    assert state.to_act == 0  # T54: seat 1 played last, its left neighbour opens
    state, events = step(play(state, Bid(1), Pass()), Choose(4))
    assert ScoringBegan((0, 1), 4) in events and state.turn == SCORING
    state = play(state, EndTurn(), EndTurn())
    assert (state.phase, state.to_act, state.tile) == (PLACE, 0, 4)
    state = play(state, legal_actions(state)[0], EndTurn())
    # only now is seat 0's indicator turned: seat 1 plays the last tile of the round
    assert legal_actions(state) == [Choose(5)] and state.to_act == 1
    assert [p.score for p in state.players] == [19, 20]


def test_t56_the_final_order_in_the_auction_game() -> None:
    state = new_game(stacked(4, "auction"))
    capital = (10, 5, 5, 7)
    state = evolve(
        state,
        players=tuple(evolve(p, capital=c) for p, c in zip(state.players, capital, strict=True)),
        last_placer=1,
    )
    # fewest points first; seats 1 and 2 tie: seat 2 is next after the last placer
    assert final_order(state, 2) == (2, 1, 3, 0)
    basic = evolve(new_game(stacked(4)), last_placer=1)
    assert final_order(basic, 2) == (2, 3, 0, 1)  # T45: clockwise after the last placer


def test_t20_the_stone_rule_is_waived_when_no_placement_has_access() -> None:
    # The base camp walled in by volcanoes: every free space borders only volcanoes.
    state = new_game(stacked())
    for space in (TEMPLE_A, TEMPLE_B, JUNGLE, at(0, 2)):
        state = lay(state, space, "volcano", (0,) * 6)
    places = legal_actions(state)
    assert places and all(state.spaces[p.space] is None for p in places)  # type: ignore[union-attr]
    assert {p.rotation for p in places if p.space == at(2, 2)} == set(range(6))  # type: ignore[union-attr]
    assert at(2, 2) in {p.space for p in places}  # type: ignore[union-attr]
