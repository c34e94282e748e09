"""Java as pictures: a layered top view of the 3D board in SVG, for the HTML replay
viewer and the browser game (:class:`tajmahal.arena.viewer.Pictures`).

Each position is a hex: the rim green (lowland) or dark (mountains), water blue,
rice fields green and villages ochre, darker the higher they are stacked, with
the height written on them; figures are discs in their seat's colour, palaces
squares with their value (white or red side up, J56).  Below the board: each
seat's score and supplies, the display card and the turn; a seat's hand is its
own layer.

>>> from tajmahal.java import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> picture = svg(state)
>>> picture.startswith("<svg") and picture.count("<polygon") >= 202
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any, Final

from .components import Components
from .state import NONE, RICE, VILLAGE, WATER, State

SIZE: Final = 16.0  # hex radius in pixels
SEAT_COLORS: Final = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
RIM: Final = {1: "#a9cf8f", 2: "#5a5a5a"}  # J46: lowland, mountains
FILL: Final = {RICE: (150, 200, 90), VILLAGE: (214, 160, 90)}
MARGIN: Final = 10.0
PANEL: Final = 150.0  # the text below the board


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


_FRAMES: dict[int, tuple[Components, tuple[float, float, float, float]]] = {}


def _frame(c: Components) -> tuple[float, float, float, float]:
    """The board's left and top edge, width and height (once per components object)."""
    cached = _FRAMES.get(id(c))
    if cached is not None and cached[0] is c:
        return cached[1]
    xs, ys = zip(*(_centre(q, r) for q, r in c.board.coords), strict=True)
    left, top = min(xs) - SIZE - MARGIN, min(ys) - SIZE - MARGIN
    frame = (left, top, max(xs) + SIZE + MARGIN - left, max(ys) + SIZE + MARGIN - top)
    if len(_FRAMES) > 8:
        _FRAMES.clear()
    _FRAMES[id(c)] = (c, frame)
    return frame


def _at(c: Components, p: int) -> tuple[float, float]:
    left, top, _, _ = _frame(c)
    x, y = _centre(*c.board.coords[p])
    return x - left, y - top


def _hex(c: Components, p: int, fill: str, **attrs: str) -> str:
    x, y = _at(c, p)
    points = " ".join(
        f"{x + SIZE * math.cos(math.radians(60 * k - 30)):.1f},"
        f"{y + SIZE * math.sin(math.radians(60 * k - 30)):.1f}"
        for k in range(6)
    )
    extra = "".join(f' {k}="{v}"' for k, v in attrs.items())
    return f'<polygon points="{points}" fill="{fill}" stroke="#888" stroke-width="0.6"{extra}/>'


def _text(x: float, y: float, text: str, size: int = 9, **attrs: str) -> str:
    attrs.setdefault("text_anchor", "middle")
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{extra}>{escape(text)}</text>'


def _shade(terrain: int, height: int) -> str:
    r, g, b = FILL[terrain]
    k = max(0.45, 1 - 0.12 * (height - 1))
    return f"rgb({round(r * k)},{round(g * k)},{round(b * k)})"


def board_layer(c: Components) -> str:
    """The grid, the rim's colours and the printed tanks (the same all game)."""
    board = c.board
    parts = []
    for p in range(len(board.coords)):
        if p >= board.grid_size:
            fill = RIM.get(board.edge_cost[p], "#ccc")
        else:
            fill = "#5b9bd5" if p in board.tanks else "#f1ede4"
        parts.append(_hex(c, p, fill, id=f"pos-{p}"))
    return '<g class="board">' + "".join(parts) + "</g>"


def public_layer(state: State, names: Sequence[str] | None = None) -> str:
    """What every seat sees: tiles, water, figures, palaces, scores and the turn."""
    c = state.components
    parts = []
    for p, terrain in enumerate(state.terrain):
        x, y = _at(c, p)
        if terrain == WATER and p not in c.board.tanks:
            parts.append(_hex(c, p, "#5b9bd5"))
        elif terrain in (RICE, VILLAGE):
            parts.append(_hex(c, p, _shade(terrain, state.height[p])))
            if state.palace[p]:
                red = p in state.red
                parts.append(
                    f'<rect x="{x - 7:.1f}" y="{y - 7:.1f}" width="14" height="14" '
                    f'fill="{"#c0392b" if red else "#fff"}" stroke="#333"/>'
                )
                parts.append(_text(x, y + 3.5, str(state.palace[p]), 9, fill="#000"))
            elif state.figures[p] != NONE:
                colour = SEAT_COLORS[state.figures[p] % len(SEAT_COLORS)]
                parts.append(
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{colour}" stroke="#fff"/>'
                )
                parts.append(_text(x, y + 3, str(state.height[p]), 8, fill="#fff"))
            else:
                parts.append(_text(x, y + 3, str(state.height[p]), 8, fill="#333"))
    height = _frame(c)[3]
    y = height + 18
    for seat, player in enumerate(state.players):
        name = names[seat] if names and seat < len(names) else f"seat {seat}"
        mark = "> " if state.to_act == seat else ""
        line = (
            f"{mark}{name}: {player.score} points (water {player.water}, palaces "
            f"{player.palaces}, festivals {player.festivals}, final {player.final}); "
            f"supply {player.supply}, tokens {player.tokens}, own tiles "
            f"{player.twos}/{player.rice}/{player.villages}, {len(player.hand)} cards"
        )
        parts.append(_text(MARGIN, y, line, 9, text_anchor="start", fill=SEAT_COLORS[seat % 4]))
        y += 16
    shown = (
        "+".join(c.symbols[s] for s in c.cards[state.display])
        if state.display is not None
        else "none"
    )
    parts.append(
        _text(
            MARGIN,
            y,
            f"display: {shown}; pile {len(state.pile)}; three-space tiles {state.threes}; "
            f"water {state.water_left}; AP {state.turn.ap}; {state.phase}",
            9,
            text_anchor="start",
        )
    )
    return '<g class="public">' + "".join(parts) + "</g>"


def hand_layer(state: State, seat: int) -> str:
    """What only ``seat`` sees: its festival cards."""
    c = state.components
    _, _, _, height = _frame(c)
    cards = ", ".join("+".join(c.symbols[s] for s in c.cards[k]) for k in state.players[seat].hand)
    y = height + 18 + 16 * (len(state.players) + 1) + 14 * seat
    text = _text(MARGIN, y, f"seat {seat} holds: {cards or 'nothing'}", 10, text_anchor="start")
    return f'<g class="hand" id="hand-{seat}">{text}</g>'


def document(c: Components, body: str) -> str:
    _, _, width, height = _frame(c)
    h = height + PANEL
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {h:.0f}" '
        f'width="{width:.0f}" height="{h:.0f}" font-family="DejaVu Sans, Verdana, sans-serif">'
        f'<rect width="{width:.0f}" height="{h:.0f}" fill="#fbf8f1"/>{body}</svg>'
    )


def svg(state: State, names: Sequence[str] | None = None) -> str:
    """The whole picture of ``state``, every hand shown."""
    c = state.components
    hands = "".join(hand_layer(state, s) for s in range(len(state.players)))
    return document(c, board_layer(c) + public_layer(state, names) + hands)


class JavaPictures:
    """The layers, as the HTML viewer and the browser game take them."""

    def __init__(self, components: Components) -> None:
        self.components = components

    def board(self, state: State) -> str:
        return board_layer(state.components)

    def public(self, state: State, names: Sequence[str]) -> list[str]:
        return [public_layer(state, names)]

    def hand(self, state: State, seat: int) -> list[str]:
        return [hand_layer(state, seat)]

    def document(self, body: str) -> str:
        return document(self.components, body)

    def targets(self, state: State, action: Any) -> tuple[str, ...]:
        """The position a person clicks for an action on one position (a figure
        deployed, water laid, a palace built): its hex."""
        if not isinstance(action, dict):
            return ()
        for key in ("position", "palace"):
            if isinstance(action.get(key), int):
                return (f"pos-{action[key]}",)
        return ()

    def preview(self, state: State, action: Any) -> str:
        return ""

    def mark(self, state: State, action: Any) -> str:
        return ""

    def legend(self) -> list[tuple[str, str]]:
        return []
