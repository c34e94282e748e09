"""Helpers for Java's scenario tests: hand-built positions on the reconstructed board.

The grid has 10 rows (A-J, north to south) of 15 spaces; ``at(row, col)`` counts
both from 0 and gives the position index (``row * 15 + col``).  Rows use offset
hexes: on an even row the neighbours above and below are ``col - 1`` and ``col``,
on an odd row ``col`` and ``col + 1``.  The rim of the northern half (rows 0-4) is
mountains (2 AP to deploy), of the southern half lowland (1 AP).  Printed water
tanks: (2, 4), (4, 10), (7, 6).
"""

from __future__ import annotations

from attrs import evolve

from tajmahal.java import DEFAULT_COMPONENTS, Action, Setup, State, apply, new_game
from tajmahal.java.state import ACT, NONE, RICE, VILLAGE, Turn

BOARD = DEFAULT_COMPONENTS.board
DECK = tuple(range(len(DEFAULT_COMPONENTS.cards)))


def at(row: int, col: int) -> int:
    return row * 15 + col


def rim(q: int, r: int) -> int:
    return BOARD.coords.index((q, r))


def fresh(players: int = 2, variant: str = "official", deck: tuple[int, ...] = DECK) -> State:
    """A new game with the festival cards in ``deck`` order: seat 0 holds cards 0-2,
    seat 1 cards 3-5 (...), the display is the next card."""
    return new_game(Setup(players, variant, deck, seed=1))


def acting(state: State, seat: int = 0, ap: int = 6, **turn: object) -> State:
    """``state`` with ``seat`` at the start of a turn with ``ap`` action points."""
    return evolve(state, phase=ACT, to_act=seat, turn=Turn(ap=ap, **turn))  # type: ignore[arg-type]


def land(state: State, cells: dict[int, str], level: int = 1) -> State:
    """One land tile on ``cells`` (position -> "rice" / "village") at ``level``."""
    height, terrain, top = list(state.height), list(state.terrain), list(state.top)
    serial = len(state.sizes)
    for p, kind in cells.items():
        height[p] = level
        terrain[p] = VILLAGE if kind == "village" else RICE
        top[p] = serial
    return evolve(
        state,
        height=tuple(height),
        terrain=tuple(terrain),
        top=tuple(top),
        sizes=(*state.sizes, len(cells)),
    )


def tiles(state: State, kind: str, *cells: int, level: int = 1) -> State:
    """One-space tiles of ``kind`` on each of ``cells``."""
    for p in cells:
        state = land(state, {p: kind}, level)
    return state


def put(state: State, position: int, seat: int = 0) -> State:
    """A figure of ``seat`` on ``position`` (taken from its supply)."""
    figures = list(state.figures)
    assert figures[position] == NONE
    figures[position] = seat
    players = list(state.players)
    players[seat] = evolve(players[seat], supply=players[seat].supply - 1)
    return evolve(state, figures=tuple(figures), players=tuple(players))


def palace(state: State, position: int, value: int) -> State:
    values = list(state.palace)
    values[position] = value
    return evolve(state, palace=tuple(values))


def play(state: State, *actions: Action) -> State:
    for action in actions:
        state = apply(state, action)
    return state
