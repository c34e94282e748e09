"""Java's components as data (rules J5-J12): the board, the tiles, the palaces,
the festival cards and what each player gets.

The rules give almost none of this (see the MISSING items of docs/java-rules.md):
the files in ``java/data`` hold a documented reconstruction.  A user with the real
game replaces them without touching code: :func:`load_components` reads any pair
of files of the same format and checks what the engine relies on, raising
:class:`ComponentError` with a message naming what is wrong.

Positions are hexes in axial coordinates ``(q, r)``: first the grid (the 150 spaces
of J3/J5), then the rim (the cells next to the grid, where a tile may overhang,
J36, and whose colour sets the cost of deploying a figure, J46).

>>> c = DEFAULT_COMPONENTS
>>> c.board.grid_size, len(c.board.coords) - c.board.grid_size, len(c.board.tanks)
(150, 52, 3)
>>> len(c.cards), c.symbols
(30, ('dance', 'music', 'puppets'))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

from attrs import field, frozen

from ..kit.errors import ComponentError

#: Axial steps to the six neighbours of a hex.
DIRECTIONS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: J54: the values a palace may have.
PALACE_VALUES: Final = (2, 4, 6, 8, 10)


@frozen
class Board:
    """The grid (positions ``0 .. grid_size - 1``) and the rim after it; the
    printed tanks (J5, J39) and the cost of reaching each position from beyond the
    edge (J46: the cheapest rim colour it touches, 0 for an inner space)."""

    name: str
    coords: tuple[tuple[int, int], ...]
    grid_size: int
    tanks: tuple[int, ...]
    edge_cost: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    pairs: tuple[tuple[int, int], ...] = field(init=False, eq=False, repr=False)
    triangles: tuple[tuple[int, int, int], ...] = field(init=False, eq=False, repr=False)
    #: The positions at the edge (J46: ``edge_cost`` above 0).
    edges: tuple[int, ...] = field(init=False, eq=False, repr=False)
    singles: tuple[tuple[int], ...] = field(init=False, eq=False, repr=False)
    #: Every tile shape (sorted cells, at least one in the grid) by size:
    #: ``placements[size]`` is ``singles``, ``pairs`` or ``triangles`` (index 0: none).
    placements: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, eq=False, repr=False)
    #: Per position, the shapes that cover it: ``shapes[size][position]``, and
    #: their indices into ``placements[size]``: ``shape_ids[size][position]``.
    shapes: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = field(
        init=False, eq=False, repr=False
    )
    shape_ids: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        index = {c: i for i, c in enumerate(self.coords)}
        neighbours = tuple(
            tuple(index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in index)
            for q, r in self.coords
        )
        object.__setattr__(self, "neighbours", neighbours)
        pairs = sorted(
            {
                (min(a, b), max(a, b))
                for a in range(len(self.coords))
                for b in neighbours[a]
                if min(a, b) < self.grid_size
            }
        )
        object.__setattr__(self, "pairs", tuple(pairs))
        triangles: set[tuple[int, int, int]] = set()
        for a, b in pairs:
            for c in set(neighbours[a]) & set(neighbours[b]):
                x, y, z = sorted((a, b, c))
                triangles.add((x, y, z))
        object.__setattr__(self, "triangles", tuple(sorted(triangles)))
        object.__setattr__(self, "edges", tuple(p for p, c in enumerate(self.edge_cost) if c))
        singles = tuple((p,) for p in range(self.grid_size))
        object.__setattr__(self, "singles", singles)
        placements = ((), singles, self.pairs, self.triangles)
        object.__setattr__(self, "placements", placements)
        n = len(self.coords)
        ids: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(4)]
        for size, shapes in enumerate(placements):
            for i, cells in enumerate(shapes):
                for p in cells:
                    ids[size][p].append(i)
        shape_ids = tuple(tuple(tuple(per) for per in by_size) for by_size in ids)
        object.__setattr__(self, "shape_ids", shape_ids)
        object.__setattr__(
            self,
            "shapes",
            tuple(
                tuple(tuple(placements[size][i] for i in per) for per in by_size)
                for size, by_size in enumerate(shape_ids)
            ),
        )

    def in_grid(self, position: int) -> bool:
        return position < self.grid_size


@frozen
class Components:
    """Everything the rules count (J6-J12) and the board."""

    board: Board
    action_points: int
    figures: int
    action_tokens: int
    starting_cards: int
    own_twos: int
    own_rice: int
    own_villages: int
    three_tiles: int
    water_tiles: int
    palaces: tuple[int, ...]  # tiles of each value of PALACE_VALUES
    festival_tie: tuple[int, ...]  # J69: each tied winner's points, by value
    water_points: int
    symbols: tuple[str, ...]
    cards: tuple[tuple[int, ...], ...]  # each card's symbols (indices into symbols)


def _ints(raw: Any, what: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise ComponentError(f"{what}: expected a whole number >= 0, not {raw!r}")
    return raw


def _cells(raw: Any, what: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c) for c in raw
    ):
        raise ComponentError(f"{what}: expected a list of [q, r] pairs")
    return [(c[0], c[1]) for c in raw]


def board_from_dict(raw: Mapping[str, Any], costs: Mapping[str, int]) -> Board:
    """J5: the board from its file; ``costs`` are the AP of each rim colour."""
    grid = _cells(raw.get("grid"), "board grid")
    if len(set(grid)) != len(grid) or not grid:
        raise ComponentError("J5: the grid lists a space twice, or none")
    rim: dict[tuple[int, int], int] = {}
    for colour in ("lowland", "mountains"):
        for cell in _cells(raw.get(colour), f"board {colour}"):
            if cell in grid or cell in rim:
                raise ComponentError(
                    f"J5: the rim cell {list(cell)} is in the grid or listed twice"
                )
            rim[cell] = costs[colour]
    index = {c: i for i, c in enumerate(grid)}
    for q, r in grid:
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n not in index and n not in rim:
                raise ComponentError(f"J5: the cell {list(n)} next to the grid has no rim colour")
    tanks = _cells(raw.get("tanks"), "board tanks")
    if any(t not in index for t in tanks):
        raise ComponentError("J5: a printed water tank lies outside the grid")
    coords = tuple(grid) + tuple(rim)
    edge = []
    for q, r in grid:
        near = [rim[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in rim]
        edge.append(min(near, default=0))
    edge.extend(rim.values())
    return Board(
        str(raw.get("name", "board")),
        coords,
        len(grid),
        tuple(sorted(index[t] for t in tanks)),
        tuple(edge),
    )


def components_from_dict(raw: Mapping[str, Any], board_raw: Mapping[str, Any]) -> Components:
    """The components of a ``components.json`` and ``board.json`` pair."""
    try:
        costs = {k: _ints(raw["rim_costs"][k], f"rim cost {k}") for k in ("lowland", "mountains")}
        own = raw["own_tiles"]
        palaces = tuple(_ints(raw["palaces"][str(v)], f"palaces {v}") for v in PALACE_VALUES)
        tie = tuple(_ints(raw["festival_tie"][str(v)], f"tie {v}") for v in PALACE_VALUES)
        symbols = tuple(str(s) for s in raw["symbols"])
        cards = []
        for card in raw["cards"]:
            if not isinstance(card, list) or not 1 <= len(card) <= 2 or len(set(card)) != len(card):
                raise ComponentError(f"J10: a festival card shows 1 or 2 symbols, not {card!r}")
            if any(s not in symbols for s in card):
                raise ComponentError(f"J10: unknown symbol on the card {card!r}")
            cards.append(tuple(sorted(symbols.index(s) for s in card)))
        if raw.get("three_shape", "triangle") != "triangle" or raw.get("three_villages", 1) != 1:
            raise ComponentError("J8: the engine knows triangular 3-space tiles with 1 village")
        c = Components(
            board=board_from_dict(board_raw, costs),
            action_points=_ints(raw["action_points"], "action points"),
            figures=_ints(raw["figures"], "figures"),
            action_tokens=_ints(raw["action_tokens"], "action tokens"),
            starting_cards=_ints(raw["starting_cards"], "starting cards"),
            own_twos=_ints(own["two"], "two-space tiles"),
            own_rice=_ints(own["one_rice"], "one-space rice tiles"),
            own_villages=_ints(own["one_village"], "one-space village tiles"),
            three_tiles=_ints(raw["three_tiles"], "three-space tiles"),
            water_tiles=_ints(raw["water_tiles"], "water tiles"),
            palaces=palaces,
            festival_tie=tie,
            water_points=_ints(raw["water_points"], "water points"),
            symbols=symbols,
            cards=tuple(cards),
        )
    except (KeyError, TypeError) as e:
        raise ComponentError(f"component data: missing or malformed {e}") from None
    if c.three_tiles < 1:
        raise ComponentError("J78: the game ends with the last three-space tile; there must be one")
    if len(c.cards) < 4 * c.starting_cards + 1:
        raise ComponentError("J13: too few festival cards to deal 4 hands and a display card")
    return c


def load_components(components: Path | str, board: Path | str) -> Components:
    """The components of two files (the formats of ``java/data``)."""
    try:
        raw = json.loads(Path(components).read_text())
        board_raw = json.loads(Path(board).read_text())
    except (OSError, ValueError) as e:
        raise ComponentError(f"cannot read component data: {e}") from None
    return components_from_dict(raw, board_raw)


def _default() -> Components:
    data = resources.files(__package__) / "data"
    raw = json.loads((data / "components.json").read_text())
    board = json.loads((data / "board.json").read_text())
    return components_from_dict(raw, board)


DEFAULT_COMPONENTS: Final = _default()
