"""Tikal's components as data (rules T4-T9): the board, the terrain tiles, the
temple levels, the treasures and each expedition's figures.

The published rules do not give most of this data (the board's hexes, each tile's
stones, temple values and masks, the letters on the tiles' backs): the files in
``tikal/data`` hold a documented reconstruction (docs/tikal-rules.md, "Component
data").  A user with the real game can replace them without touching code:
:func:`load_components` reads any pair of files of the same format and
:func:`validate` checks every rule the engine relies on, raising
:class:`ComponentError` with a message naming what is wrong.

Spaces are hexes in axial coordinates ``(q, r)``; the six directions are numbered
0-5 as :data:`DIRECTIONS` lists them, and direction ``d + 3`` (mod 6) is the
opposite one.  ``stones[d]`` is the number of stones on a space's edge in
direction ``d``.

>>> c = DEFAULT_COMPONENTS
>>> len(c.tiles), sum(t.kind == "volcano" for t in c.tiles), len(c.board.spaces)
(36, 3, 63)
>>> [t.back for t in c.tiles if t.kind == "volcano"]
['B', 'D', 'F']
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

from attrs import field, frozen

from ..kit.errors import ComponentError

#: Axial steps of the six directions, in the order of ``stones``.
DIRECTIONS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: Final = ("southeast", "northeast", "north", "northwest", "southwest", "south")
KINDS: Final = ("jungle", "temple", "treasure", "volcano")
BACKS: Final = "ABCDEFG"
#: T7: the highest temple level.
TOP_LEVEL: Final = 10


@frozen
class Tile:
    """A terrain tile (T5, T21): its id, back letter, kind, stones on its six edges
    (unrotated), printed temple ``value`` and treasure ``masks`` (0 when not that kind)."""

    id: int
    back: str
    kind: str
    stones: tuple[int, ...]
    value: int = 0
    masks: int = 0


@frozen
class StartSpace:
    """One of the four spaces explored at the start (T4)."""

    space: int
    kind: str  # "base", "temple" or "jungle"
    stones: tuple[int, ...]
    value: int = 0


@frozen
class Board:
    """The board's hexes (by index), their neighbours, and the four start spaces."""

    name: str
    coords: tuple[tuple[int, int], ...]
    start: tuple[StartSpace, ...]
    track: int
    #: Derived: the neighbour of each space in each direction (None off the board).
    neighbours: tuple[tuple[int | None, ...], ...] = field(init=False, eq=False, repr=False)

    @neighbours.default
    def _neighbours(self) -> tuple[tuple[int | None, ...], ...]:
        index = {c: i for i, c in enumerate(self.coords)}
        return tuple(
            tuple(index.get((q + dq, r + dr)) for dq, dr in DIRECTIONS) for q, r in self.coords
        )

    @property
    def spaces(self) -> range:
        return range(len(self.coords))

    @property
    def base_camp(self) -> int:
        return next(s.space for s in self.start if s.kind == "base")


@frozen
class Components:
    """Everything a game of Tikal is played with."""

    board: Board
    tiles: tuple[Tile, ...]
    #: T7: how many level tokens of each value there are: values 2..10 in order.
    levels: tuple[int, ...]
    #: T6: the names of the treasure types (ids are indices) and copies of each.
    treasure_types: tuple[str, ...]
    treasure_copies: int
    #: T8, T39, T40, T41.
    workers: int
    camps: int
    guards: int
    leader_strength: int

    @property
    def treasure_tokens(self) -> int:
        return len(self.treasure_types) * self.treasure_copies


def _ints(raw: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(raw, list) or not all(type(x) is int for x in raw):
        raise ComponentError(f"{what}: expected a list of integers, got {raw!r}")
    if length is not None and len(raw) != length:
        raise ComponentError(f"{what}: expected {length} numbers, got {len(raw)}")
    return tuple(raw)


def _stones(raw: Any, what: str) -> tuple[int, ...]:
    stones = _ints(raw, f"{what} stones", 6)
    if any(not 0 <= s <= 3 for s in stones):
        raise ComponentError(f"{what}: T20 allows 0 to 3 stones on an edge, not {list(stones)}")
    return stones


def board_from_dict(raw: Mapping[str, Any]) -> Board:
    """A board from the data of ``board.json``; raises :class:`ComponentError`."""
    try:
        coords = tuple((q, r) for q, r in (_ints(c, "a space", 2) for c in raw["spaces"]))
        if len(set(coords)) != len(coords):
            raise ComponentError("the board lists a space twice")
        index = {c: i for i, c in enumerate(coords)}

        def space(entry: Mapping[str, Any], what: str) -> int:
            q, r = _ints(entry["space"], f"the {what}'s space", 2)
            if (q, r) not in index:
                raise ComponentError(f"the {what} at {[q, r]} is not a space of the board")
            return index[(q, r)]

        start = [
            StartSpace(
                space(raw["base_camp"], "base camp"),
                "base",
                _stones(raw["base_camp"]["stones"], "the base camp"),
            )
        ]
        for t in raw["temples"]:
            value = t["value"]
            if type(value) is not int or not 1 <= value < TOP_LEVEL:
                raise ComponentError(f"a start temple's value must be 1 to 9, not {value!r}")
            start.append(
                StartSpace(space(t, "temple"), "temple", _stones(t["stones"], "a temple"), value)
            )
        start.append(
            StartSpace(
                space(raw["jungle"], "jungle"),
                "jungle",
                _stones(raw["jungle"]["stones"], "the start jungle"),
            )
        )
        board = Board(str(raw["name"]), coords, tuple(start), int(raw["track"]))
    except (KeyError, TypeError) as e:
        raise ComponentError(f"the board misses or mistypes {e}") from None
    validate_board(board)
    return board


def validate_board(board: Board) -> None:
    """T4: one base camp, two temples and one jungle space explored at the start, on
    distinct spaces, joined by paths; the board's spaces connected."""
    kinds = Counter(s.kind for s in board.start)
    if kinds != Counter({"base": 1, "temple": 2, "jungle": 1}):
        raise ComponentError(
            f"T4: the start spaces must be a base camp, 2 temples and a "
            f"jungle space, not {dict(kinds)}"
        )
    spaces = [s.space for s in board.start]
    if len(set(spaces)) != len(spaces):
        raise ComponentError("T4: two start spaces on one hex")
    reached, todo = {0}, [0]
    while todo:
        for n in board.neighbours[todo.pop()]:
            if n is not None and n not in reached:
                reached.add(n)
                todo.append(n)
    if len(reached) != len(board.coords):
        raise ComponentError("the board's spaces are not all connected")
    stones = {s.space: s.stones for s in board.start}
    joined, todo = {board.base_camp}, [board.base_camp]
    while todo:
        here = todo.pop()
        for d, n in enumerate(board.neighbours[here]):
            if n in stones and n not in joined and stones[here][d] + stones[n][(d + 3) % 6] > 0:
                joined.add(n)
                todo.append(n)
    if joined != set(stones):
        raise ComponentError(
            "T4: every start space must be reachable over stones from the base camp"
        )


def components_from_dict(board: Board, raw: Mapping[str, Any]) -> Components:
    """The components of ``components.json`` on ``board``; raises :class:`ComponentError`."""
    try:
        tiles = []
        for i, t in enumerate(raw["tiles"]):
            if t.get("id") != i:
                raise ComponentError(f"tile {i}: ids must count from 0, got {t.get('id')!r}")
            if t["kind"] not in KINDS:
                raise ComponentError(f"tile {i}: unknown kind {t['kind']!r}")
            if t["back"] not in BACKS:
                raise ComponentError(f"tile {i}: T5 backs are A to G, not {t['back']!r}")
            tiles.append(
                Tile(
                    i,
                    t["back"],
                    t["kind"],
                    _stones(t["stones"], f"tile {i}"),
                    int(t.get("value", 0)),
                    int(t.get("masks", 0)),
                )
            )
        counts = {int(k): int(v) for k, v in raw["levels"].items()}
        if set(counts) != set(range(2, TOP_LEVEL + 1)) or any(n < 0 for n in counts.values()):
            raise ComponentError("T7: level tokens are numbered 2 to 10")
        levels = tuple(counts[v] for v in range(2, TOP_LEVEL + 1))
        treasures = raw["treasures"]
        figures = raw["figures"]
        components = Components(
            board=board,
            tiles=tuple(tiles),
            levels=levels,
            treasure_types=tuple(str(n) for n in treasures["types"]),
            treasure_copies=int(treasures["copies"]),
            workers=int(figures["workers"]),
            camps=int(figures["camps"]),
            guards=int(figures["guards"]),
            leader_strength=int(figures["leader_strength"]),
        )
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        if isinstance(e, ComponentError):
            raise
        raise ComponentError(f"the components file misses or mistypes {e}") from None
    validate(components)
    return components


def validate(c: Components) -> None:
    """The checks of T5-T8 and T20-T21 that the engine relies on."""
    for t in c.tiles:
        if t.kind == "volcano" and any(t.stones):
            raise ComponentError(f"tile {t.id}: T21 volcanoes have no stones")
        if t.kind != "volcano" and not any(t.stones):
            raise ComponentError(f"tile {t.id}: T20 every tile but a volcano has stones")
        if (t.kind == "temple") != (t.value > 0) or not 0 <= t.value < TOP_LEVEL:
            raise ComponentError(f"tile {t.id}: T22 temples (only) have a value of 1 to 9")
        if (t.kind == "treasure") != (t.masks > 0) or not 0 <= t.masks <= 4:
            raise ComponentError(f"tile {t.id}: T21 treasure tiles (only) have 2 to 4 masks")
    backs = [t.back for t in c.tiles]
    if backs != sorted(backs):
        raise ComponentError("T11: list the tiles by back letter, A first")
    masks = sum(t.masks for t in c.tiles)
    if masks > c.treasure_tokens:
        raise ComponentError(
            f"T21: the tiles have {masks} masks but there are only "
            f"{c.treasure_tokens} treasure tokens"
        )
    if len(c.levels) != TOP_LEVEL - 1 or any(n < 0 for n in c.levels):
        raise ComponentError("T7: level tokens are numbered 2 to 10")
    if len(c.tiles) + len(c.board.start) > len(c.board.coords):
        raise ComponentError("T4: the board has fewer spaces than there are tiles")
    if min(c.workers, c.camps, c.guards, c.leader_strength, c.treasure_copies) < 1:
        raise ComponentError("T6/T8: every count of figures and treasures must be positive")


def load_components(directory: str | Path | None = None) -> Components:
    """The components in ``directory`` (``board.json`` and ``components.json``; default:
    the package's own reconstruction)."""
    if directory is None:
        root = resources.files("tajmahal.tikal").joinpath("data")
        board_text = root.joinpath("board.json").read_text("utf-8")
        text = root.joinpath("components.json").read_text("utf-8")
    else:
        board_text = (Path(directory) / "board.json").read_text("utf-8")
        text = (Path(directory) / "components.json").read_text("utf-8")
    try:
        return components_from_dict(board_from_dict(json.loads(board_text)), json.loads(text))
    except json.JSONDecodeError as e:
        raise ComponentError(f"not JSON: {e}") from None


DEFAULT_COMPONENTS: Final = load_components()
