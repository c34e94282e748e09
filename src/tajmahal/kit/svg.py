"""Small pieces every game's pictures are written with (SVG text, not a drawing
library: a picture is a string the viewer stores and the browser shows).

>>> text(10, 20, "A & B", 12, fill="#333", font_weight="bold")
'<text x="10" y="20" font-size="12" fill="#333" font-weight="bold">A &amp; B</text>'
>>> plural(1, "point"), plural(3, "point")
('1 point', '3 points')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Generic, TypeVar
from xml.sax.saxutils import escape, quoteattr

T = TypeVar("T")

#: The font of every picture (the same metrics in the browser and in Jupyter).
FONT: Final = "DejaVu Sans, Verdana, sans-serif"
#: The paper every picture is drawn on.
PAPER: Final = "#fbf8f1"
#: A light outline behind text, so that it reads over roads and edges.
HALO: Final = {"stroke": PAPER, "stroke_width": "3", "paint_order": "stroke"}


#: An area of a picture: left, top, width, height.
Area = tuple[float, float, float, float]


def svg_document(
    body: str,
    width: float,
    height: float,
    shown: float | None = None,
    areas: Sequence[Area] = (),
) -> str:
    """One SVG picture of ``body``: a ``width`` x ``height`` canvas on :data:`PAPER`,
    ``shown`` pixels wide (default ``width``; the height in proportion).

    ``areas`` (the board, the panel beside it) are what a narrow screen shows one
    under another, each across the screen: the pages read them from the root's
    ``data-areas`` (each part stays in the area that holds its centre).

    >>> svg_document("", 100, 50, shown=300)[40:85]
    'viewBox="0 0 100 50" width="300" height="150"'
    """
    wide = width if shown is None else shown
    split = "|".join(" ".join(f"{v:.0f}" for v in area) for area in areas)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{wide:.0f}" height="{height * wide / width:.0f}" font-family="{FONT}"'
        f'{attrs(data_areas=split or None)}>'
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="{PAPER}"/>{body}</svg>'
    )


def number(value: float) -> str:
    """A coordinate as short as it reads: ``12``, ``12.5``."""
    if type(value) is int:
        return str(value)
    rounded = round(value, 1)
    return str(int(rounded)) if rounded.is_integer() else str(rounded)


def attrs(**values: object) -> str:
    """``name="value"`` pairs: ``font_size`` is written ``font-size``, ``class_`` ``class``."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        shown = number(value) if isinstance(value, float) else str(value)
        out.append(f" {key.rstrip('_').replace('_', '-')}={quoteattr(shown)}")
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def text(x: float, y: float, content: str, size: float = 12, **extra: object) -> str:
    """A line of text at ``(x, y)`` (its baseline).  A picture's lines come again
    at every step of a game: each is written once."""
    return (
        f'<text x="{number(x)}" y="{number(y)}" font-size="{number(size)}"{attrs(**extra)}>'
        f"{escape(content)}</text>"
    )


def title(content: str) -> str:
    """The tooltip of the element it is the first child of."""
    return f"<title>{escape(content)}</title>"


def points(corners: Iterable[tuple[float, float]]) -> str:
    """A ``points`` attribute's value."""
    return " ".join(f"{number(x)},{number(y)}" for x, y in corners)


def hexagon(x: float, y: float, radius: float, turn: float = 0.0) -> list[tuple[float, float]]:
    """The corners of a regular hexagon around ``(x, y)``: ``turn`` 0 is flat-topped
    (a corner due east), 30 pointy-topped."""
    return [
        (
            x + radius * math.cos(math.radians(60 * k + turn)),
            y + radius * math.sin(math.radians(60 * k + turn)),
        )
        for k in range(6)
    ]


#: The advance width of each printable ASCII character (space to ``~``) in the
#: pictures' font, DejaVu Sans, in thousandths of the font size (as Chromium
#: measures it): for placing labels where they fit.
_WIDTHS: Final = (
    318,
    401,
    460,
    838,
    636,
    950,
    780,
    275,
    390,
    390,
    500,
    838,
    318,
    361,
    318,
    337,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    337,
    337,
    838,
    838,
    838,
    531,
    1000,
    709,
    686,
    698,
    770,
    632,
    575,
    775,
    752,
    295,
    295,
    656,
    557,
    863,
    748,
    787,
    603,
    787,
    695,
    635,
    595,
    732,
    684,
    989,
    685,
    611,
    685,
    390,
    337,
    390,
    838,
    500,
    500,
    613,
    635,
    550,
    635,
    615,
    344,
    635,
    634,
    278,
    278,
    579,
    278,
    974,
    634,
    612,
    635,
    635,
    395,
    521,
    392,
    634,
    592,
    818,
    592,
    592,
    525,
    636,
    337,
    636,
    838,
)
_WIDE: Final = 0.65  # a character beyond ASCII: about a capital's width


def text_width(content: str, size: float) -> float:
    """How wide ``content`` is in the pictures' font at ``size``."""
    return size * sum(_WIDTHS[ord(ch) - 32] / 1000 if " " <= ch <= "~" else _WIDE for ch in content)


def plural(count: int, word: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def ring(x: float, y: float, radius: float, turn: float, color: str, dashed: bool = False) -> str:
    """A hexagon's outline around ``(x, y)`` (``turn`` as for :func:`hexagon`):
    where an action happens (dashed: where the last one happened)."""
    dash = ' stroke-dasharray="7 4"' if dashed else ""
    return (
        f'<polygon class="ring" points="{points(hexagon(x, y, radius, turn))}" fill="none" '
        f'stroke="{color}" stroke-width="3.5"{dash}/>'
    )


def tag(
    x: float, y: float, words: str, color: str, within: tuple[float, float] | None = None
) -> str:
    """A short label on a light ground centred on ``(x, y)`` (an AP cost, a rotation),
    moved along to lie whole ``within`` (left, right) where given: never cut by the
    picture's edge."""
    w = text_width(words, 11.5) * 1.1 + 12  # bold: a tenth wider
    if within is not None:
        x = max(within[0] + w / 2, min(x, within[1] - w / 2))
    return (
        f'<rect x="{number(x - w / 2)}" y="{number(y - 11.5)}" width="{number(w)}" height="17" '
        f'rx="4" fill="#fff" stroke="{color}" stroke-width="1.5"/>'
        + text(x, y + 1.5, words, 11.5, text_anchor="middle", font_weight="bold", fill="#8b0000")
    )


class Kept(Generic[T]):
    """What pictures work out once per object (a board, a set of components), found
    again by the object or by the serial number it was given (a small int, for the
    keys of ``functools.lru_cache``).  ``make(obj, serial)`` works it out."""

    def __init__(self, make: Callable[[Any, int], T]) -> None:
        self._make = make
        self._by_object: dict[int, tuple[Any, T]] = {}
        self._by_serial: dict[int, T] = {}

    def of(self, obj: Any) -> T:
        found = self._by_object.get(id(obj))
        if found is not None and found[0] is obj:
            return found[1]
        made = self._make(obj, len(self._by_serial) + 1)
        if len(self._by_object) > 8:
            self._by_object.clear()
        self._by_object[id(obj)] = (obj, made)
        self._by_serial[len(self._by_serial) + 1] = made
        return made

    def serial(self, serial: int) -> T:
        return self._by_serial[serial]
