"""What the games' terminal pictures (``tajmahal show``, rich) share: the seats'
colours, in the order of the SVG pictures' seat colours, a seat's name, and a
picture as plain text.

>>> plain(seat_name(["ann", "bob"], 1))
'bob (seat 1)'
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from rich.console import Console, RenderableType
from rich.text import Text

__all__ = ["SEAT_STYLES", "plain", "seat_name"]

#: Rich styles of the seats, by seat number (modulo their count).
SEAT_STYLES: Final = ("bold red", "bold blue", "bold green", "bold magenta")


def seat_name(labels: Sequence[str], seat: int) -> Text:
    """``"ann (seat 0)"`` in the seat's colour."""
    return Text(f"{labels[seat]} (seat {seat})", style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def plain(picture: RenderableType, width: int = 80) -> str:
    """``picture`` as the terminal would show it ``width`` columns wide, without
    colours (for doctests, tests and logs)."""
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(picture)
    return console.export_text().rstrip("\n")
