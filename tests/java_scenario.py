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

from tajmahal.java import (
    DEFAULT_COMPONENTS,
    Action,
    BuildPalace,
    Deploy,
    ExtendPalace,
    HoldFestival,
    Lay,
    Move,
    PlaceLand,
    PlaceWater,
    Select,
    Setup,
    Shape,
    State,
    Value,
    Withdraw,
    apply,
    new_game,
)
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


Steps = tuple[Action, ...]


def lay(cells: tuple[int, ...], village: int | None = None) -> Steps:
    """The decisions of a land tile on ``cells`` with its village on ``village``
    (a one-space tile without village: rice)."""
    if len(cells) == 1:
        return (PlaceLand("rice" if village is None else "village"), Select(cells[0]))
    assert village is not None
    tile = "three" if len(cells) == 3 else "two"
    return (PlaceLand(tile), Select(village), Shape(tuple(sorted(cells))))


def water(position: int) -> Steps:
    return (PlaceWater(), Select(position))


def deploy(position: int) -> Steps:
    return (Deploy(), Select(position))


def withdraw(position: int) -> Steps:
    return (Withdraw(), Select(position))


def walk(origin: int, target: int) -> Steps:
    return (Move(), Select(origin), Select(target))


def build(position: int, value: int) -> Steps:
    return (BuildPalace(), Select(position), Value(value))


def extend(position: int, value: int) -> Steps:
    return (ExtendPalace(), Select(position), Value(value))


def festival(palace: int, *cards: int) -> Steps:
    """Propose a festival in ``palace`` and open with ``cards`` (the bid stays open)."""
    return (HoldFestival(), Select(palace), *(Lay(c) for c in cards))


def play(state: State, *steps: Action | Steps) -> State:
    """``state`` after each action (or each action of each tuple of them)."""
    for s in steps:
        for action in s if isinstance(s, tuple) else (s,):
            state = apply(state, action)
    return state
