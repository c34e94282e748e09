"""Where a land tile may lie (J25-J36) and what it costs.

A tile is laid in three decisions (docs/java-rules.md, "Decisions"): which tile,
its *anchor* (its village space; the only space of a one-space tile) and, for a
tile of two or three spaces, its shape around the anchor.  These functions list
the anchors and shapes that have a legal placement, and find the cheapest
placement of a seat (J20).
"""

from __future__ import annotations

from .actions import RICE_TILE, THREE, TILE_SIZES, TILES, TWO, VILLAGE_TILE
from .state import NONE, RICE, VILLAGE, WATER, State

NO_COST = 99  # the cost of a placement that is not allowed


def tiles_left(state: State, seat: int) -> list[str]:
    """J7, J33: the tiles ``seat`` may lay now, in the order of :data:`TILES`."""
    p = state.players[seat]
    have = {THREE: state.threes, TWO: p.twos, RICE_TILE: p.rice, VILLAGE_TILE: p.villages}
    return [t for t in TILES if have[t]]


def land_problem(state: State, cells: tuple[int, ...]) -> tuple[str | None, int, int]:
    """Whether a land tile of ``len(cells)`` spaces may lie on ``cells`` (apart from
    AP and J30): (a problem or None, the level it lies at, its AP cost)."""
    board = state.components.board
    grid = board.grid_size
    figures, palace, terrain, height = state.figures, state.palace, state.terrain, state.height
    inside = False
    for p in cells:
        if p < grid:
            inside = True
        if figures[p] != NONE:
            return "J31: a land tile may not cover a figure", 0, 0
        if palace[p]:
            return "J31: a land tile may not cover a palace", 0, 0
        if terrain[p] == WATER:
            return "J31: a land tile may not cover water", 0, 0
    if not inside:
        return "J36: at least one space of a tile must lie inside the grid", 0, 0
    h = height[cells[0]]
    for p in cells:
        if height[p] != h:
            return "J27: a tile must rest evenly on the board or on tiles", 0, 0
    if h == 0:
        cost = 1
        for p in cells:
            if p >= grid:
                cost += 1
        return None, 1, cost
    top = state.top
    first = top[cells[0]]
    alone = True
    for p in cells:
        if top[p] != first:
            alone = False
    if alone and state.sizes[first] == len(cells):
        return "J28: a tile may not cover a tile of its size exactly", 0, 0
    if alone and len(cells) >= 2:
        return "J28: a tile of 2 or 3 spaces must lie on at least two tiles", 0, 0
    return None, h + 1, 1


def joins_cities(state: State, cells: tuple[int, ...], village: int | None) -> bool:
    """J30: whether the tile on ``cells`` with its village on ``village`` (None: a
    rice tile) would join two cities into one village."""
    if village is None:
        return False
    nb = state.components.board.neighbours
    terrain, palace = state.terrain, state.palace
    if not any(terrain[q] == VILLAGE for q in nb[village]):
        return False  # the new village space touches no village: it joins nothing
    seen = {village}
    todo = [village]
    palaces = 0
    while todo:
        p = todo.pop()
        if palace[p]:
            palaces += 1
            if palaces > 1:
                return True
        for q in nb[p]:
            if q in seen:
                continue
            kind = (VILLAGE if q == village else RICE) if q in cells else terrain[q]
            if kind == VILLAGE:
                seen.add(q)
                todo.append(q)
    return False


def village_of(tile: str, anchor: int) -> int | None:
    """The village space of ``tile`` laid at ``anchor`` (None: a rice tile)."""
    return None if tile == RICE_TILE else anchor


def placement(
    state: State, tile: str, anchor: int, cells: tuple[int, ...]
) -> tuple[str | None, int]:
    """Whether ``tile`` may lie on ``cells`` with its village on ``anchor`` (apart
    from AP): (a problem or None, its AP cost)."""
    reason, _, cost = land_problem(state, cells)
    if reason is None and joins_cities(state, cells, village_of(tile, anchor)):
        reason = "J30: a land tile may not join two cities"
    return reason, cost


def shapes_at(state: State, tile: str, anchor: int, budget: int) -> list[tuple[int, ...]]:
    """The shapes of ``tile`` around ``anchor`` that may lie for at most ``budget`` AP."""
    out = []
    for cells in state.components.board.shapes[TILE_SIZES[tile]][anchor]:
        reason, cost = placement(state, tile, anchor, cells)
        if reason is None and cost <= budget:
            out.append(cells)
    return out


def _all_shapes(state: State, size: int) -> tuple[tuple[int, ...], ...]:
    board = state.components.board
    return board.pairs if size == 2 else board.triangles if size == 3 else board.singles


def anchors(state: State, tile: str, budget: int) -> list[int]:
    """The positions where ``tile`` has a legal placement for at most ``budget``
    AP with its anchor there, ascending."""
    ok: set[int] = set()
    for cells in _all_shapes(state, TILE_SIZES[tile]):
        reason, _, cost = land_problem(state, cells)
        if reason is not None or cost > budget:
            continue
        for q in cells:
            if q not in ok and not joins_cities(state, cells, village_of(tile, q)):
                ok.add(q)
    return sorted(ok)


def cheapest(state: State, tile: str, stop: int = 1) -> int:
    """The AP of the cheapest legal placement of ``tile`` (:data:`NO_COST` if there
    is none); the search stops at the first costing ``stop`` or less."""
    best = NO_COST
    for cells in _all_shapes(state, TILE_SIZES[tile]):
        reason, _, cost = land_problem(state, cells)
        if reason is not None or cost >= best:
            continue
        if any(not joins_cities(state, cells, village_of(tile, q)) for q in cells):
            best = cost
            if best <= stop:
                return best
    return best


def cheapest_land(state: State, seat: int) -> int:
    """J20: the AP of the cheapest legal land tile placement of ``seat``, whatever
    the AP left (:data:`NO_COST` if it has no tile that fits anywhere)."""
    best = NO_COST
    for tile in tiles_left(state, seat):
        best = min(best, cheapest(state, tile))
        if best == 1:
            break
    return best
