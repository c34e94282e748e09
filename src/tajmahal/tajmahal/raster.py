"""Taj Mahal as an RGB image (a numpy array), for ``render_mode="rgb_array"`` of the
PettingZoo environment (:mod:`tajmahal.pettingzoo`): no text, so that a video
recorder or a network can take it as it is.  The SVG pictures for people are in
:mod:`tajmahal.tajmahal.render`.

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from .cards import CARDS
from .state import State

#: Image size (height, width) and the seats' colours (RGB).
HEIGHT: Final = 480
WIDTH: Final = 720
SEAT_COLORS: Final = ((220, 40, 40), (40, 90, 220), (30, 160, 60), (230, 150, 20), (140, 60, 170))
CARD_COLORS: Final = {
    "red": (200, 30, 30),
    "yellow": (235, 200, 40),
    "green": (40, 150, 60),
    "purple": (120, 50, 150),
    "white": (245, 245, 245),
    "special": (200, 160, 60),
}
_BACKGROUND: Final = (238, 228, 205)
_ROAD: Final = (150, 130, 100)
_CITY: Final = (110, 100, 90)
_HIGHLIGHT: Final = (0, 0, 0)
_BONUS: Final = (250, 215, 60)
_MAP: Final = 460  # the board is drawn in a square of this size at the left
_MARGIN: Final = 10


def city_pixel(state: State, city: int) -> tuple[int, int]:
    """Where ``render_image`` draws ``city``: (row, column)."""
    cities = state.setup.board.cities
    xs = [c.x for c in cities]
    ys = [c.y for c in cities]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    c = cities[city]
    scale = (_MAP - 2 * _MARGIN) / span
    return (
        round(_MARGIN + (c.y - min(ys)) * scale),
        round(_MARGIN + (c.x - min(xs)) * scale),
    )


def _disc(img: npt.NDArray[np.uint8], row: int, col: int, r: int, rgb: tuple[int, ...]) -> None:
    y0, y1 = max(row - r, 0), min(row + r + 1, img.shape[0])
    x0, x1 = max(col - r, 0), min(col + r + 1, img.shape[1])
    yy, xx = np.ogrid[y0:y1, x0:x1]
    inside = (yy - row) ** 2 + (xx - col) ** 2 <= r * r
    img[y0:y1, x0:x1][inside] = rgb


def _rect(
    img: npt.NDArray[np.uint8], row: int, col: int, h: int, w: int, rgb: tuple[int, ...]
) -> None:
    img[max(row, 0) : max(row + h, 0), max(col, 0) : max(col + w, 0)] = rgb


def _line(
    img: npt.NDArray[np.uint8], a: tuple[int, int], b: tuple[int, int], rgb: tuple[int, ...]
) -> None:
    steps = max(abs(a[0] - b[0]), abs(a[1] - b[1]), 1)
    rows = np.linspace(a[0], b[0], steps + 1).round().astype(int)
    cols = np.linspace(a[1], b[1], steps + 1).round().astype(int)
    img[rows, cols] = rgb


def render_image(state: State) -> npt.NDArray[np.uint8]:
    """The table as an RGB image (``HEIGHT x WIDTH x 3``, uint8), without text.

    Left, the board: roads, cities (grey), a normal palace as a disc in its seat's
    colour, a mogul palace as a ring in its seat's colour, a yellow square on a
    fortress that still has its bonus tile, and a black outline around the cities
    of this visit's province.  Right, one row per seat (in ``SEAT_COLORS``): its
    score as a bar (two pixels a point), a marker if it is to act, its cards on the
    table in their card colours; under the rows, the display; at the top, the
    visit (one block per visit played).
    """
    img = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    img[:, :] = _BACKGROUND
    board = state.setup.board
    where = [city_pixel(state, c) for c in range(len(board.cities))]
    for a, b in board.roads:
        _line(img, where[a], where[b], _ROAD)
    here = set(board.province_cities[state.province])
    for city, (row, col) in enumerate(where):
        if city in here:
            _disc(img, row, col, 10, _HIGHLIGHT)
        mogul = state.moguls[city]
        if mogul >= 0:
            _disc(img, row, col, 9, SEAT_COLORS[mogul])
            _disc(img, row, col, 6, _CITY)
        else:
            _disc(img, row, col, 7, _CITY)
        owner = state.palaces[city]
        if owner >= 0:
            _disc(img, row, col, 5, SEAT_COLORS[owner])
        if state.bonus[city] is not None:
            _rect(img, row - 14, col - 3, 6, 6, _BONUS)
    left = _MAP + 10
    for visit in range(state.visit):
        _rect(img, 8, left + visit * 20, 10, 16, _HIGHLIGHT)
    for seat, p in enumerate(state.players):
        top = 30 + seat * 70
        color = SEAT_COLORS[seat]
        _rect(img, top, left, 12, 12, color)
        if state.to_act == seat:
            _rect(img, top + 3, left + 16, 6, 6, _HIGHLIGHT)
        _rect(img, top, left + 28, 12, min(2 * p.score.total, WIDTH - left - 30), color)
        for i, card in enumerate(p.played[:20]):
            _rect(img, top + 20, left + i * 12, 18, 10, CARD_COLORS[CARDS[card].color])
        if p.withdrawn:
            _rect(img, top + 44, left, 3, 120, color)
    top = 30 + len(state.players) * 70 + 10
    for i, card in enumerate(state.display):
        _rect(img, top, left + i * 14, 24, 12, CARD_COLORS[CARDS[card].color])
    return img
