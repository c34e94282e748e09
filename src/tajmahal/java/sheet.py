"""What Java's pictures share: the sizes and colours, and the sheet of a set of
components (each position's centre, outline, name and sides, worked out once).
"""

from __future__ import annotations

import math
from typing import Final

from attrs import field, frozen

from ..kit.svg import Kept, hexagon, points
from .components import Components
from .state import NONE, RICE, VILLAGE

SIZE: Final = 22.0  # hex radius
EDGE: Final = 26.0  # room for the coordinates round the board
PANEL_W: Final = 390.0
SEAT_COLORS: Final = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
RIM: Final = {1: "#a9cf8f", 2: "#6b6b6b"}  # J46: lowland, mountains
BARE: Final = "#f1ede4"
WATER_FILL: Final = "#5b9bd5"
FILL: Final = {RICE: (150, 200, 90), VILLAGE: (214, 160, 90)}
CARD_FILL: Final = "#fff6d8"
CARD_W: Final = 38
#: A card's and the pile's height: 25 px at 1280 x 900 (a target a finger can hit).
CARD_H: Final = 30
#: The seats' rows in the panel: where the first begins, how tall each is (room
#: for two rows of festival cards), and the room a festival under way takes below.
SEATS_TOP: Final = 140.0
SEAT_H: Final = 128.0
FESTIVAL_H: Final = 120.0


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


@frozen
class Sheet:
    """What the pictures of one set of components share all game: each position's
    centre, outline and name, the neighbours in each direction, the board's size."""

    serial: int
    components: Components = field(eq=False, repr=False)
    centres: tuple[tuple[float, float], ...]
    outlines: tuple[str, ...]
    names: tuple[str, ...]
    #: per position: (neighbour, the two corners of the shared edge)
    sides: tuple[tuple[tuple[int, tuple[float, float], tuple[float, float]], ...], ...]
    width: float
    height: float


def position_name(c: Components, position: int) -> str:
    """A position as the log names it (row letter, column number: ``A1`` top left)."""
    from .texts import position_label

    return position_label(c, position)


def _make_sheet(c: Components, serial: int) -> Sheet:
    board = c.board
    raw = [_centre(q, r) for q, r in board.coords]
    xs, ys = zip(*raw, strict=True)
    half = SIZE * math.sqrt(3) / 2
    left, top = min(xs) - half - EDGE, min(ys) - SIZE - EDGE
    at = tuple((round(x - left, 1), round(y - top, 1)) for x, y in raw)
    sides = []
    for p, (x, y) in enumerate(at):
        towards = {
            round(math.degrees(math.atan2(at[n][1] - y, at[n][0] - x))) % 360: n
            for n in board.neighbours[p]
        }
        sides.append(tuple(_side(x, y, 60 * k, towards.get(60 * k, NONE)) for k in range(6)))
    sheet = Sheet(
        serial=serial,
        components=c,
        centres=at,
        outlines=tuple(points(hexagon(x, y, SIZE, 30)) for x, y in at),
        names=tuple(position_name(c, p) for p in range(len(at))),
        sides=tuple(sides),
        width=max(xs) + half + EDGE - left,
        height=max(ys) + SIZE + EDGE - top,
    )
    return sheet


SHEETS: Final = Kept(_make_sheet)
#: The sheet of a components object (worked out once per object).
sheet_of: Final = SHEETS.of


def _side(
    x: float, y: float, angle: int, neighbour: int
) -> tuple[int, tuple[float, float], tuple[float, float]]:
    """The side of the hex at ``(x, y)`` facing ``angle`` degrees (0 east, 90 south):
    the neighbour beyond it (:data:`NONE` off the board) and its two corners."""
    a, b = (
        (
            round(x + SIZE * math.cos(math.radians(angle + d)), 1),
            round(y + SIZE * math.sin(math.radians(angle + d)), 1),
        )
        for d in (-30, 30)
    )
    return neighbour, a, b


def shade(terrain: int, height: int) -> str:
    r, g, b = FILL[terrain]
    k = max(0.45, 1 - 0.13 * (height - 1))
    return f"rgb({round(r * k)},{round(g * k)},{round(b * k)})"
