"""The counts the rules of Taj Mahal decide by: the symbols cards show and the
majorities they win (W1/W2), goods held (W7), provinces joined by palaces (W8),
where a palace may stand (W4/W5), the next seat still in (T1/T7), and totals and
ranks (F2).  Pure functions, compiled with mypyc with the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .board import Board
from .cards import (
    SYMBOL_COUNTS,
    SYMBOLS,
)
from .state import NOBODY, Dummy, PlayerState, Score
from .tiles import PROVINCE_GOODS


def _total(s: Score) -> int:
    """``Score.total`` (a property of an interpreted class: a slower call)."""
    return s.palaces + s.goods + s.bonus + s.princess + s.hand


def ranks(totals: tuple[int, ...]) -> tuple[int, ...]:
    """F2: rank 1 is the highest total; equal totals share a rank (1, 1, 3, ...)."""
    return tuple(1 + sum(1 for other in totals if other > t) for t in totals)


def _palace_cities(
    board: Board, province: int, palaces: Sequence[int], moguls: Sequence[int], seat: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """W4/W5: the cities where ``seat`` may place a normal and a mogul palace now.

    A city holds at most one normal and one mogul palace, whoever owns them: the
    texts let a mogul palace stand on any palace (his own included) and a normal
    palace on any mogul palace (W5, Decision).
    """
    cities = board.province_cities[province]
    normal = tuple(c for c in cities if palaces[c] == NOBODY)
    mogul = tuple(c for c in cities if moguls[c] == NOBODY)
    return normal, mogul


def _next_in(players: Sequence[PlayerState], seat: int) -> int | None:
    """T1/T7: the next seat clockwise after ``seat`` still in the visit (maybe ``seat``)."""
    n = len(players)
    for k in range(1, n + 1):
        other = (seat + k) % n
        if not players[other].withdrawn:
            return other
    return None


def symbol_counts(cards: Sequence[int]) -> tuple[int, ...]:
    """W1: how many of each symbol (in :data:`~tajmahal.tajmahal.cards.SYMBOLS` order)
    ``cards`` show."""
    elephant = mogul = vizier = general = monk = princess = 0
    for card in cards:  # unrolled: several times faster than zip/sum for a few cards
        e, m, v, g, k, p = SYMBOL_COUNTS[card]
        elephant += e
        mogul += m
        vizier += v
        general += g
        monk += k
        princess += p
    return (elephant, mogul, vizier, general, monk, princess)


def rival_counts(players: Sequence[Any], dummy: Dummy | None, seat: int) -> list[tuple[int, ...]]:
    """W1: the symbol counts ``seat`` must beat: those of every other seat still in
    the visit (not withdrawn) and the dummy's while it bids (2 players)."""
    rivals = [
        symbol_counts(p.played) for s, p in enumerate(players) if s != seat and not p.withdrawn
    ]
    if dummy is not None and dummy.bidding:
        rivals.append(symbol_counts(dummy.cards))
    return rivals


def majorities(
    mine: Sequence[int], rivals: Sequence[Sequence[int]], court: Sequence[str]
) -> tuple[str, ...]:
    """W1/W2: the prizes still at ``court`` that counts ``mine`` win: at least one
    symbol, and more than each of ``rivals`` (the counts of those still in)."""
    won = []
    for i, symbol in enumerate(SYMBOLS):
        n = mine[i]
        if n and symbol in court:
            for rival in rivals:
                if rival[i] >= n:
                    break
            else:
                won.append(symbol)
    return tuple(won)


def goods_held(player: PlayerState, good: str) -> int:
    """W7: how many of ``good`` a player holds over his province and bonus tiles."""
    return sum(good in PROVINCE_GOODS[t] for t in player.province_tiles) + sum(
        tile.good == good for tile in player.bonus_tiles
    )


def connected_provinces(
    board: Board, province: int, seat: int, palaces: Sequence[int], moguls: Sequence[int]
) -> int:
    """W8: other provinces joined to ``seat``'s palaces in ``province`` by a chain of
    his palaces (normal or mogul) along roads; empty cities and cities with only
    another player's palace break the chain."""
    todo = [c for c in board.province_cities[province] if seat in (palaces[c], moguls[c])]
    seen = set(todo)
    neighbours = board.neighbours
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen and seat in (palaces[n], moguls[n]):
                seen.add(n)
                todo.append(n)
    cities = board.cities
    return len({cities[c].province for c in seen} - {province})
