"""Java's shared definitions on the board (J22-J24, J48-J50): villages and cities,
ranks of figures in an area, and where a figure can walk at what cost.

Pure functions of a :class:`~tajmahal.java.state.State` (or of a view's fields,
which are the same).
"""

from __future__ import annotations

from collections.abc import Iterable

from .state import NONE, RICE, VILLAGE, State


def is_land(state: State, p: int) -> bool:
    t = state.terrain[p]
    return t in (RICE, VILLAGE)


def area_of(state: State, start: int, terrain: int) -> list[int]:
    """The connected group of ``terrain`` positions around ``start`` (J23, J41):
    hex adjacency only, whatever the heights."""
    nb = state.components.board.neighbours
    kinds = state.terrain
    seen = {start}
    out = [start]
    i = 0
    while i < len(out):
        for q in nb[out[i]]:
            if kinds[q] == terrain and q not in seen:
                seen.add(q)
                out.append(q)
        i += 1
    return out


def villages(state: State) -> list[list[int]]:
    """J23: every village (connected village positions, palace positions included)."""
    seen: set[int] = set()
    out = []
    for p, t in enumerate(state.terrain):
        if t == VILLAGE and p not in seen:
            area = area_of(state, p, VILLAGE)
            seen.update(area)
            out.append(area)
    return out


def palace_of(state: State, village: Iterable[int]) -> int | None:
    """The position of the palace in a village (J23: at most one), None if none."""
    palace = state.palace
    for p in village:
        if palace[p]:
            return p
    return None


def levels(state: State, area: Iterable[int]) -> list[list[int]]:
    """J24: the levels of each seat's figures on ``area``, highest first."""
    out: list[list[int]] = [[] for _ in state.players]
    figures, height = state.figures, state.height
    for p in area:
        seat = figures[p]
        if seat != NONE:
            out[seat].append(height[p])
    for lv in out:
        lv.sort(reverse=True)
    return out


def rank_key(levels: list[int]) -> tuple[int, ...]:
    """J24: compared lexicographically; a missing figure ranks below any level
    (Python compares a longer tuple with an equal prefix as greater)."""
    return tuple(levels)


def tiers(state: State, area: Iterable[int]) -> list[list[int]]:
    """J24: the seats with figures on ``area`` from first place down; undecidable
    ties share a tier."""
    lv = levels(state, area)
    keys = sorted({rank_key(x) for x in lv if x}, reverse=True)
    return [[s for s, x in enumerate(lv) if x and rank_key(x) == k] for k in keys]


def highest(state: State, area: Iterable[int]) -> int | None:
    """J43, J52: the seat alone in first place on ``area``, None if nobody is."""
    lv = levels(state, area)
    best: tuple[int, ...] = ()
    who: int | None = None
    for s, x in enumerate(lv):
        if not x:
            continue
        key = rank_key(x)
        if who is None or key > best:
            best, who = key, s
        elif key == best:
            who = -1
    return None if who is None or who < 0 else who


def walk_costs(state: State, origin: int, seat: int, budget: int = 99) -> dict[int, int]:
    """J48-J50: the cheapest cost (at most ``budget``) from ``origin`` to each
    position a figure of ``seat`` may pass (1 AP per change between rice and
    village; no water, palace, bare board or other players' figures on the way).
    Layer by layer: each cost's positions spread over their own colour for free."""
    nb = state.components.board.neighbours
    terrain, figures, palace = state.terrain, state.figures, state.palace
    cost = {origin: 0}
    layer = [origin]
    d = 0
    while layer:
        change: list[int] = []
        i = 0
        while i < len(layer):
            p = layer[i]
            i += 1
            here = terrain[p]
            for q in nb[p]:
                if q in cost:
                    continue
                t = terrain[q]
                if (t != RICE and t != VILLAGE) or palace[q]:
                    continue
                f = figures[q]
                if f != NONE and f != seat:
                    continue
                if t == here:
                    cost[q] = d
                    layer.append(q)
                elif d < budget:
                    change.append(q)
        d += 1
        layer = []
        for q in change:
            if q not in cost:
                cost[q] = d
                layer.append(q)
    return cost


def walk_targets(state: State, origin: int, seat: int, budget: int) -> list[int]:
    """J48-J50: the free positions the figure on ``origin`` can walk to for at
    most ``budget`` AP, ascending."""
    figures = state.figures
    return sorted(
        q
        for q, c in walk_costs(state, origin, seat, budget).items()
        if q != origin and figures[q] == NONE
    )
