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


# --------------------------------------------------------------------------- where tiles fit


def _cost(state: State, cells: tuple[int, ...]) -> int:
    reason, _, cost = land_problem(state, cells)
    return 0 if reason is not None else cost


def fits(state: State) -> tuple[bytes, ...]:
    """For each tile size (index 1-3), the AP a tile costs on each shape of
    ``Board.placements[size]`` if it fits there now (J25-J36 but J30), else 0.
    Kept in the state as a cache: computed once, then updated by :func:`refit`."""
    f = state.fits
    if f is None:
        placements = state.components.board.placements
        f = (b"", *(bytes([_cost(state, cells) for cells in placements[n]]) for n in (1, 2, 3)))
        object.__setattr__(state, "fits", f)
    return f


def refit(before: State, after: State, cells: list[int]) -> None:
    """Give ``after`` the fits of ``before`` (if known) with the shapes over
    ``cells`` (the positions whose tiles, figures, palace or water changed) redone."""
    f = before.fits
    if f is None or after.fits is not None:
        return
    if cells:
        board = after.components.board
        out = [b""]
        for size in (1, 2, 3):
            costs = bytearray(f[size])
            shapes, ids = board.placements[size], board.shape_ids[size]
            for c in cells:
                for i in ids[c]:
                    costs[i] = _cost(after, shapes[i])
            out.append(bytes(costs))
        f = tuple(out)
    object.__setattr__(after, "fits", f)


def _j30(state: State, tile: str) -> bool:
    """Whether J30 can refuse a placement of ``tile``: it shows a village and the
    board holds two cities or more."""
    palace = state.palace
    return tile != RICE_TILE and len(palace) - palace.count(0) >= 2


def shapes_at(state: State, tile: str, anchor: int, budget: int) -> list[tuple[int, ...]]:
    """The shapes of ``tile`` around ``anchor`` that may lie for at most ``budget`` AP."""
    size = TILE_SIZES[tile]
    board = state.components.board
    costs = fits(state)[size]
    shapes = board.placements[size]
    j30 = _j30(state, tile)
    out = []
    for i in board.shape_ids[size][anchor]:
        c = costs[i]
        if c and c <= budget and not (j30 and joins_cities(state, shapes[i], anchor)):
            out.append(shapes[i])
    return out


def anchors(state: State, tile: str, budget: int) -> list[int]:
    """The positions where ``tile`` has a legal placement for at most ``budget``
    AP with its anchor there, ascending."""
    size = TILE_SIZES[tile]
    costs = fits(state)[size]
    shapes = state.components.board.placements[size]
    j30 = _j30(state, tile)
    ok: set[int] = set()
    for i, c in enumerate(costs):
        if c and c <= budget:
            for q in shapes[i]:
                if q not in ok and not (j30 and joins_cities(state, shapes[i], q)):
                    ok.add(q)
    return sorted(ok)


def cheapest(state: State, tile: str, stop: int = 1) -> int:
    """The AP of the cheapest legal placement of ``tile`` (:data:`NO_COST` if there
    is none); the search may stop at the first costing ``stop`` or less."""
    size = TILE_SIZES[tile]
    costs = fits(state)[size]
    if not _j30(state, tile):
        for c in (1, 2, 3):
            if c in costs:
                return c
        return NO_COST
    shapes = state.components.board.placements[size]
    best = NO_COST
    for i, c in enumerate(costs):
        if c and c < best and any(not joins_cities(state, shapes[i], q) for q in shapes[i]):
            best = c
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
