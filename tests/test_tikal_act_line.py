"""The longest ``act`` line of Tikal stays under 32 KB, so that a bot with a fixed
line buffer of that size (a C bot, say) can read every request (issue 25).

The position is built to list more actions than any game can reach: every hex of
the board explored (a game explores 40 of the 63), seat 0's figures each on its own
temple away from the edge, the other hexes jungle where a camp may go, and as many
single treasures on both sides of an exchange as there are tokens (T35-T37).
"""

from __future__ import annotations

import orjson
from attrs import evolve
from tikal_scenario import BOARD, acting, lay, put, stacked

from tajmahal.arena import protocol
from tajmahal.tikal import legal_actions, new_game
from tajmahal.tikal.adapter import TIKAL
from tajmahal.tikal.state import State

LIMIT = 32 * 1024


def act_line(state: State) -> bytes:
    seat = state.to_act
    assert seat is not None
    legal = orjson.dumps([TIKAL.action_to_data(a) for a in legal_actions(state)])
    return protocol.act_outgoing(999, TIKAL.view_json(state, seat), legal, 30.0, 300.0).line


def crowded() -> State:
    state = acting(new_game(stacked(players=4)))
    inner = [s for s in BOARD.spaces if None not in BOARD.neighbours[s]]
    for s in BOARD.spaces:
        if state.spaces[s] is None or s in inner:
            kind = "temple" if s in inner[:19] else "jungle"
            state = lay(state, s, kind, (1,) * 6, value=5 if kind == "temple" else 0)
    for s in inner[:16]:
        state = put(state, s, 0, workers=1)
    state = put(state, inner[16], 0, leader=True)
    singles = (1,) * 8  # seats 0, 1 and 2 hold one token of every type: all 24
    players = list(state.players)
    for seat in (0, 1, 2):
        players[seat] = evolve(players[seat], treasures=singles)
    players[0] = evolve(players[0], camps=(inner[20],))
    return evolve(state, players=tuple(players), supply=())


def test_the_most_crowded_turn_fits_in_32_kb() -> None:
    state = crowded()
    legal = legal_actions(state)
    assert sum(type(a).__name__ == "Exchange" for a in legal) == 2 * 8 * 7  # T35-T37
    assert sum(type(a).__name__ == "Move" for a in legal) >= 17 * 6
    line = act_line(state)
    assert len(line) <= LIMIT, len(line)


def test_the_longest_auction_fits_in_32_kb() -> None:
    # T48: a seat may bid up to its score.  No game reaches 700 points: 4 scoring
    # rounds of at most ~110 temple points (the level tokens of T7 allow one temple
    # at 10, two at 9 or more, ...) and 48 for treasures, plus a capital of 20.
    state = new_game(stacked(players=4, variant="auction"))
    assert state.phase == "bid"
    players = list(state.players)
    players[0] = evolve(players[0], capital=700)
    state = evolve(crowded(), phase="bid", ap=0, auction=state.auction, players=tuple(players))
    assert len(legal_actions(state)) == 701  # 700 bids and the pass
    line = act_line(state)
    assert len(line) <= LIMIT, len(line)


def test_every_line_of_random_games_fits_in_32_kb() -> None:
    import random

    from tajmahal.tikal import Setup, apply, is_over

    for seed in range(3):
        state = new_game(Setup.random(4, seed, "auction" if seed == 2 else "basic"))
        rng = random.Random(seed)
        while not is_over(state):
            assert len(act_line(state)) <= LIMIT
            state = apply(state, rng.choice(legal_actions(state)))
