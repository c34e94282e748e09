"""The board (rule C8): provinces, cities, fortresses and roads.

The board is data.  :func:`load_board` reads a board file (the format of
``data/board.json``, described in ``docs/board.md``) and :func:`validate_board`
checks every count of C8, raising :class:`ComponentError` with a message that names
what is wrong.

>>> board = DEFAULT_BOARD
>>> len(board.provinces), len(board.cities), sum(c.fortress for c in board.cities)
(12, 49, 16)
>>> board.cities[board.taj_mahal_city].name
'Agra'
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

from attrs import field, frozen

from ..kit.errors import ComponentError

PROVINCES: Final = 12
CITIES: Final = 49
FORTRESSES: Final = 16


@frozen
class City:
    """A city: its id (index in :attr:`Board.cities`), name, province index and position."""

    id: int
    name: str
    province: int
    x: float
    y: float
    fortress: bool = False
    taj_mahal: bool = False


@frozen
class Board:
    """Provinces (by index), cities (by id) and roads (pairs of city ids)."""

    name: str
    provinces: tuple[str, ...]
    final_province: int
    cities: tuple[City, ...]
    roads: tuple[tuple[int, int], ...]
    #: Derived: the cities joined by a road to each city.
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    #: Derived: the city ids of each province.
    province_cities: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    #: Derived: the id of the city that holds the Taj Mahal tile (S4).
    taj_mahal_city: int = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        links: list[list[int]] = [[] for _ in self.cities]
        for a, b in self.roads:
            if 0 <= a < len(links) and 0 <= b < len(links):
                links[a].append(b)
                links[b].append(a)
        object.__setattr__(self, "neighbours", tuple(tuple(sorted(n)) for n in links))
        object.__setattr__(
            self,
            "province_cities",
            tuple(
                tuple(c.id for c in self.cities if c.province == p)
                for p in range(len(self.provinces))
            ),
        )
        taj = [c.id for c in self.cities if c.taj_mahal]
        object.__setattr__(self, "taj_mahal_city", taj[0] if taj else -1)

    @property
    def fortresses(self) -> tuple[int, ...]:
        return tuple(c.id for c in self.cities if c.fortress)

    def city(self, name: str) -> City:
        """The city called ``name``."""
        for c in self.cities:
            if c.name == name:
                return c
        raise KeyError(_unknown("city", name, [c.name for c in self.cities]))

    def province(self, name: str) -> int:
        """The index of the province called ``name``."""
        if name not in self.provinces:
            raise KeyError(_unknown("province", name, self.provinces))
        return self.provinces.index(name)


def _unknown(kind: str, name: str, names: Sequence[str]) -> str:
    """``no city 'Agraa'; did you mean 'Agra'?``"""
    close = difflib.get_close_matches(str(name), names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f" among the board's {len(names)}"
    return f"no {kind} {name!r}{hint}"


def _connected(nodes: set[int], neighbours: tuple[tuple[int, ...], ...]) -> bool:
    if not nodes:
        return True
    start = next(iter(nodes))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours[todo.pop()]:
            if n in nodes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == nodes


def validate_board(board: Board) -> None:
    """Check ``board`` against every count of C8; raise :class:`ComponentError` if wrong."""
    names = board.provinces
    if len(names) != PROVINCES:
        raise ComponentError(f"C8: a board has {PROVINCES} provinces, this one has {len(names)}")
    if len(set(names)) != len(names):
        raise ComponentError("C8: province names must be unique")
    if not 0 <= board.final_province < len(names):
        raise ComponentError("C8: the final province (Agra) is not one of the provinces")
    if len(board.cities) != CITIES:
        raise ComponentError(f"C8: a board has {CITIES} cities, this one has {len(board.cities)}")
    if len({c.name for c in board.cities}) != len(board.cities):
        raise ComponentError("C8: city names must be unique")
    for i, c in enumerate(board.cities):
        if c.id != i:
            raise ComponentError(f"C8: city {c.name!r} has id {c.id}, expected {i}")
        if not 0 <= c.province < len(names):
            raise ComponentError(f"C8: city {c.name!r} is in no province")
    final = names[board.final_province]
    for p, cities in enumerate(board.province_cities):
        want = 5 if p == board.final_province else 4
        if len(cities) != want:
            raise ComponentError(
                f"C8: province {names[p]!r} has {len(cities)} cities, expected {want}"
                + (" (the final province has 5)" if p == board.final_province else "")
            )
    forts = board.fortresses
    if len(forts) != FORTRESSES:
        raise ComponentError(f"C8: a board has {FORTRESSES} fortresses, this one has {len(forts)}")
    taj = [c for c in board.cities if c.taj_mahal]
    if len(taj) != 1:
        raise ComponentError(f"C8: exactly one city holds the Taj Mahal, found {len(taj)}")
    if not taj[0].fortress or taj[0].province != board.final_province:
        raise ComponentError(f"C8: the Taj Mahal city must be a fortress of {final!r}")
    seen: set[tuple[int, int]] = set()
    for a, b in board.roads:
        if not (0 <= a < CITIES and 0 <= b < CITIES) or a == b:
            raise ComponentError(f"C8: road {a}-{b} does not join two different cities")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise ComponentError(
                f"C8: road {board.cities[a].name}-{board.cities[b].name} is listed twice"
            )
        seen.add(key)
    for p, cities in enumerate(board.province_cities):
        if not _connected(set(cities), board.neighbours):
            raise ComponentError(f"C8: the cities of {names[p]!r} are not joined by roads")
    if not _connected(set(range(CITIES)), board.neighbours):
        raise ComponentError("C8: the road network is not connected")


def board_from_dict(raw: Mapping[str, Any]) -> Board:
    """Build and validate a board from the board file format (see ``docs/board.md``).

    The last board built is kept with a copy of its data: every record and
    setup of a tournament carries the same board, which is compared (about 20 µs)
    rather than built again (about 0.5 ms).  Boards are immutable, so sharing
    one is safe."""
    last = _LAST_BOARD[0] if _LAST_BOARD else None
    if last is not None and last[0] == raw:
        return last[1]
    board = _build_board(raw)
    _LAST_BOARD[:] = [(copy.deepcopy(raw), board)]  # a copy: the caller may change raw
    return board


_LAST_BOARD: Final[list[tuple[Any, Board]]] = []


def _build_board(raw: Mapping[str, Any]) -> Board:
    try:
        provinces = tuple(str(p) for p in raw["provinces"])
        index = {name: i for i, name in enumerate(provinces)}
        cities = []
        for i, c in enumerate(raw["cities"]):
            if c["province"] not in index:
                raise ComponentError(
                    f"C8: city {c['name']!r} names unknown province {c['province']!r}"
                )
            cities.append(
                City(
                    id=int(c.get("id", i)),
                    name=str(c["name"]),
                    province=index[c["province"]],
                    x=c["x"],
                    y=c["y"],
                    fortress=bool(c.get("fortress", False)),
                    taj_mahal=bool(c.get("taj_mahal", False)),
                )
            )
        by_name = {c.name: c.id for c in cities}
        roads = []
        for road in raw["roads"]:
            if len(road) != 2:
                raise ComponentError(f"C8: a road joins two cities, got {road!r}")
            ends = []
            for end in road:
                if isinstance(end, str):
                    if end not in by_name:
                        raise ComponentError(f"C8: road {road!r} names unknown city {end!r}")
                    ends.append(by_name[end])
                else:
                    ends.append(int(end))
            roads.append((ends[0], ends[1]))
        if raw["final_province"] not in index:
            raise ComponentError(f"C8: unknown final province {raw['final_province']!r}")
        board = Board(
            name=str(raw.get("name", "custom")),
            provinces=provinces,
            final_province=index[raw["final_province"]],
            cities=tuple(cities),
            roads=tuple(roads),
        )
    except KeyError as e:
        raise ComponentError(f"board file: missing field {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        if isinstance(e, ComponentError):
            raise
        raise ComponentError(f"board file: malformed ({e})") from None
    validate_board(board)
    return board


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board file format of ``board`` (inverse of :func:`board_from_dict`)."""
    names = board.provinces
    cities: list[dict[str, Any]] = []
    for c in board.cities:
        entry: dict[str, Any] = {
            "id": c.id,
            "name": c.name,
            "province": names[c.province],
            "x": c.x,
            "y": c.y,
        }
        if c.fortress:
            entry["fortress"] = True
        if c.taj_mahal:
            entry["taj_mahal"] = True
        cities.append(entry)
    return {
        "name": board.name,
        "final_province": names[board.final_province],
        "provinces": list(names),
        "cities": cities,
        "roads": [[board.cities[a].name, board.cities[b].name] for a, b in board.roads],
    }


def load_board(path: str | Path) -> Board:
    """Read and validate a board file."""
    try:
        raw = json.loads(Path(path).read_text("utf-8"))
    except json.JSONDecodeError as e:
        raise ComponentError(f"board file {path}: not JSON ({e})") from None
    return board_from_dict(raw)


def _default() -> Board:
    text = resources.files(__package__).joinpath("data/board.json").read_text("utf-8")
    return board_from_dict(json.loads(text))


#: The default board: the 12 Mughal provinces of north-west India around 1700.
DEFAULT_BOARD: Final[Board] = _default()
