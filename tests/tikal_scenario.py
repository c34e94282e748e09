"""Helpers for Tikal's scenario tests: stacked setups and hand-built positions.

Spaces are named by axial coordinates ``at(q, r)``.  The start spaces of the
reconstructed board (docs/tikal-rules.md): base camp (0,3), temples of value 1 on
(1,2) and (1,3), jungle on (0,4).  Borders between them, stones on both sides:
base-(1,2) 1+0, base-(1,3) 2+0, base-(0,4) 1+0, (1,2)-(1,3) 1+0, (1,3)-(0,4) 1+0.

Tile ids of the default components, by back letter:
A 0 jungle, 1 jungle, 2 temple 1, 3 treasure (2 masks);
B 4 volcano, 5-6 jungle, 7 temple 1, 8 temple 2, 9 treasure (2);
C 10 jungle, 11-13 temples 1-3, 14 treasure (3);
D 15 volcano, 16 jungle, 17-18 temples 2-3, 19-20 treasures (3);
E 21-22 jungle, 23-24 temples 3-4, 25 treasure (3);
F 26 volcano, 27 jungle, 28-30 temples 4, 5, 5, 31 treasure (4);
G 32 jungle, 33-34 temples 6, 35 treasure (4).
"""

from __future__ import annotations

from attrs import evolve

from tajmahal.tikal import DEFAULT_COMPONENTS, Action, Setup, State, apply
from tajmahal.tikal.state import ACT, NORMAL, Space

BOARD = DEFAULT_COMPONENTS.board
ALL_TILES = tuple(range(len(DEFAULT_COMPONENTS.tiles)))
TREASURES = tuple(t for t in range(8) for _ in range(3))  # 0,0,0,1,1,1,...: top first


def at(q: int, r: int) -> int:
    return BOARD.coords.index((q, r))


BASE, TEMPLE_A, TEMPLE_B, JUNGLE = at(0, 3), at(1, 2), at(1, 3), at(0, 4)


def stacked(
    players: int = 2,
    variant: str = "basic",
    stack: tuple[int, ...] = ALL_TILES,
    treasures: tuple[int, ...] = TREASURES,
) -> Setup:
    """A setup with the tiles (top first) and the treasure supply given."""
    return Setup(players, variant, stack, treasures)


def play(state: State, *actions: Action) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def acting(state: State, seat: int = 0, ap: int = 10, turn: str = NORMAL) -> State:
    """``state`` with ``seat`` in the middle of a turn with ``ap`` action points."""
    return evolve(state, phase=ACT, to_act=seat, ap=ap, tile=None, turn=turn, uncovered=(), dug=())


def lay(
    state: State,
    space: int,
    kind: str,
    stones: tuple[int, ...] = (1,) * 6,
    value: int = 0,
    tokens: tuple[int, ...] = (),
) -> State:
    """``state`` with an explored space laid by hand."""
    spaces = list(state.spaces)
    spaces[space] = Space(kind, stones, None, value, tokens)
    return evolve(state, spaces=tuple(spaces))


def put(state: State, space: int, seat: int, workers: int = 0, leader: bool = False) -> State:
    """``state`` with ``workers`` more workers of ``seat`` (from its reserve) and maybe
    its leader on ``space``."""
    rows = [list(r) for r in state.workers]
    rows[space][seat] += workers
    players = list(state.players)
    p = players[seat]
    players[seat] = evolve(p, reserve=p.reserve - workers, leader=space if leader else p.leader)
    return evolve(state, workers=tuple(tuple(r) for r in rows), players=tuple(players))
