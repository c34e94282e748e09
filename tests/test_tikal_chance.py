"""Tikal's chance model (tajmahal.tikal.chance), as OpenSpiel's python_tikal drives it:
the first tile (T17) or the first auction round (T47), a tile drawn at each turn
(T11: within its back letter), a dig (T32: a type as likely as its share of the
face-down tokens), and a dig that ends the turn and draws the next tile.
tests/test_openspiel.py runs what every game must pass."""

from __future__ import annotations

import random

import pyspiel
import pytest
from attrs import evolve
from tikal_scenario import TREASURES, acting, at, lay, put, stacked

import tajmahal.openspiel as tos
from tajmahal.tikal import Dig, EndTurn, Place, State, legal_actions, new_game
from tajmahal.tikal.chance import check, drawn, plan, rig
from tajmahal.tikal.components import DEFAULT_COMPONENTS
from tajmahal.tikal.rules import step

A_TILES = [0, 1, 2, 3]  # tikal_scenario's table of tile ids by back letter
B_TILES = [4, 5, 6, 7, 8, 9]


def load(players: int, variant: str = "basic") -> tos.OpenSpielGame:
    game: tos.OpenSpielGame = pyspiel.load_game(
        "python_tikal", {"players": players, "variant": variant}
    )
    return game


def test_the_game_starts_with_the_first_tile_drawn_from_the_a_tiles() -> None:
    state = load(2).new_initial_state()
    assert state.engine is None and state.is_chance_node()
    # T11/T17: the first tile is one of the four A tiles, each as likely.
    assert state.chance_outcomes() == [(t, 0.25) for t in A_TILES]
    state.apply_action(2)
    engine = state.engine
    assert engine is not None and not state.is_chance_node()
    assert engine.tile == 2 and engine.to_act == 0  # T16: seat 0 starts
    assert len(engine.stack) == 35 and 2 not in engine.stack
    assert engine.supply == TREASURES  # nothing seen: the supply by type
    check(engine)


def test_an_auction_round_reveals_a_tile_per_seat() -> None:
    state = load(3, "auction").new_initial_state()
    chosen: list[int] = []
    for tile in (3, 0, 1):  # T47: three tiles, from the four A tiles
        assert [t for t, _ in state.chance_outcomes()] == [t for t in A_TILES if t not in chosen]
        state.apply_action(tile)
        chosen.append(tile)
    engine = state.engine
    assert engine is not None and engine.auction is not None
    assert sorted(engine.auction.display) == [0, 1, 3] and engine.phase == "bid"
    # The next round begins with the last A tile, 2, then the B tiles.
    assert engine.stack[0] == 2 and sorted(engine.stack[1:7]) == B_TILES
    check(engine)


def test_a_tile_comes_from_its_back_letter_with_the_others_of_it_left() -> None:
    # Seat 0 placed its tile and ends the turn: seat 1 draws (T17) from the A tiles
    # still in the stack, 0, 1 and 3 (2 was seat 0's).
    game = load(2)
    start = new_game(stacked(2, stack=(2, 0, 1, 3, *range(4, 36))))
    engine = step(start, Place(at(1, 4)))[0]
    state = game.state_from_engine(engine)
    state.apply_action(game.encoding.index(EndTurn()))
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (3, 1 / 3)]
    state.apply_action(3)
    after = state.engine
    assert after is not None and after.to_act == 1 and after.tile == 3
    assert after.stack[:2] == (0, 1)  # the A tiles left, unordered: by id
    check(after)


def treasure_position() -> tuple[State, int]:
    """Seat 0 drew tile 3 (an A treasure tile, 2 masks) and placed it: it acts with
    its last 3 AP, two workers on that space with its two face-down tokens; the
    supply holds the other 22.  Returns the state and the space."""
    state = new_game(stacked(2, stack=(3, 0, 1, 2, *range(4, 36))))
    space = at(1, 4)
    state = lay(state, space, "treasure", tokens=(0, 7))
    laid = state.spaces[space]
    assert laid is not None
    spaces = (*state.spaces[:space], evolve(laid, tile=3), *state.spaces[space + 1 :])
    state = evolve(state, spaces=spaces, supply=TREASURES[1:-1])
    state = put(acting(state, 0, ap=3), space, 0, workers=2)
    check(state)
    return state, space


def test_a_dig_that_ends_the_turn_draws_a_treasure_then_the_next_tile() -> None:
    engine, space = treasure_position()
    draws, _ = plan(engine, Dig(space))
    assert [(d.kind, d.index) for d in draws] == [("treasure", space), ("tile", 0)]
    game = load(2)
    state = game.state_from_engine(engine)
    state.apply_action(game.encoding.index(Dig(space)))
    # T32: all 24 tokens are face down (3 of each of the 8 types), each as likely.
    assert state.chance_outcomes() == [(k, pytest.approx(3 / 24)) for k in range(8)]
    state.apply_action(2)
    # The dig cost the last 3 AP (T18): seat 1 draws from the A tiles left, 0-2;
    # the treasure type 2 just drawn is no tile.
    assert state.chance_outcomes() == [(t, pytest.approx(1 / 3)) for t in (0, 1, 2)]
    state.apply_action(2)
    after = state.engine
    assert after is not None and not state.is_chance_node()
    assert after.players[0].treasures[2] == 1 and after.to_act == 1 and after.tile == 2
    assert after.spaces[space] is not None and len(after.spaces[space].tokens) == 1
    check(after)


def test_rigging_gives_the_engine_the_chosen_draws() -> None:
    # The oracle: in real games (shuffled stacks and supplies), the tiles and tokens
    # the engine itself drew, set up by rig() on the normalized state, give the same
    # events.
    model = load(3).model
    for seed in range(6):
        rng = random.Random(seed)
        variant = ("basic", "auction")[seed % 2]
        state = new_game(
            evolve(stacked(3, variant), stack=_shuffled(rng), treasures=_tokens(rng))
        )
        while state.to_act is not None:
            action = rng.choice(legal_actions(state))
            after, events = step(state, action)
            draws, _ = plan(state, action)
            if draws:
                picks = drawn(events)
                ready = rig(model.normalize(state), draws, picks)
                assert drawn(step(ready, action)[1]) == picks
            state = after


def _shuffled(rng: random.Random) -> tuple[int, ...]:
    stack: list[int] = []
    for back in "ABCDEFG":
        group = [t.id for t in DEFAULT_COMPONENTS.tiles if t.back == back]
        rng.shuffle(group)
        stack += group
    return tuple(stack)


def _tokens(rng: random.Random) -> tuple[int, ...]:
    tokens = list(TREASURES)
    rng.shuffle(tokens)
    return tuple(tokens)

