"""Pictures of a game: :func:`svg` draws a :class:`~tajmahal.State` or a
:class:`~tajmahal.PlayerView` as an SVG document.

The map (left) comes from the board's data, laid out by
:mod:`~tajmahal.tajmahal.maplayout`: the provinces as touching regions, roads,
the cities (a fortress square with the bonus tile still on it, the Taj Mahal on
Agra's), each palace in its seat's colour and each mogul palace as a dashed ring
in its seat's colour, the current province outlined in red.  Beside it: the
visit, the grand mogul's court (the prizes still there, the reserve), the
display, and for each seat its score, palaces left, influence tiles, goods, the
cards on the table and its hand.  A state shows every hand; a view only the hand
of its seat (the others as a count, with the cards everybody saw them take).
Every part has a tooltip; :func:`legend` says what each symbol means.

>>> from tajmahal import Setup, new_game, view
>>> state = new_game(Setup.random(3, seed=1))
>>> svg(state).startswith("<svg")
True
>>> "hand-card-" in svg(view(state, None))  # a spectator sees no hand
False

States and views show themselves as this picture in Jupyter (``_repr_svg_``).

Clickable parts carry ids: ``city-N`` (city id N), ``hand-card-N`` and
``display-card-N`` (card id N).  The HTML replay viewer and the browser game use
them through :class:`TajMahalPictures`: the parts apart (the board that never
changes, the public picture of a step in fragments, each seat's hand), what a
person clicks for each action, and a preview of it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from ..kit.svg import HALO, attrs, points, svg_document, text, title
from .board import Board
from .maplayout import CITY_FONT, MAP_BOX, PROVINCE_FONT, MapLayout, layout, layout_of
from .panel import court, display, dummy, hand_parts, headline, seat_parts
from .scene import CARD_DEFS, HEIGHT, PANEL_X, SEAT_COLORS, WIDTH, Scene, good_at, scene_of
from .state import State
from .tiles import BonusTile
from .views import PlayerView, view

#: The map and the panel: one under the other on a narrow screen.
AREAS: Final = (
    (0.0, 0.0, PANEL_X - 6.0, MAP_BOX[1] + MAP_BOX[3] + 6.0),
    (PANEL_X - 8.0, 0.0, WIDTH - PANEL_X + 8.0, HEIGHT),
)


def board_layer(board: Board) -> str:
    """What never changes in a game: provinces, roads, names (an SVG group)."""
    m = layout(board)
    out = ['<g class="board">', CARD_DEFS]
    left, top, width, height = MAP_BOX
    out.append(
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="#c6dbe8" rx="8"/>'
    )
    for p, name in enumerate(board.provinces):
        cells = [m.cells[c] for c in board.province_cities[p]]
        fill = m.fills[p]
        out.append(f'<g id="province-{p}" class="province">{title(f"province {name}")}')
        out.extend(
            f'<polygon points="{points(cell)}" fill="{fill}" stroke="{fill}" '
            f'stroke-width="1" stroke-linejoin="round"/>'
            for cell in cells
        )
        out.append("</g>")
    province = [c.province for c in board.cities]
    lines = []
    for i, edges in enumerate(m.edges):
        for (x1, y1), (x2, y2), j in edges:
            if j < 0 or (i < j and province[i] != province[j]):
                lines.append(f"M{x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}")
    out.append(
        f'<path d="{"".join(lines)}" fill="none" stroke="#8a7452" stroke-width="2" '
        f'stroke-linecap="round" pointer-events="none"/>'
    )
    roads = "".join(
        f"M{m.cities[a][0]},{m.cities[a][1]}L{m.cities[b][0]},{m.cities[b][1]}"
        for a, b in board.roads
    )
    out.append(
        f'<path d="{roads}" stroke="#9b8765" stroke-width="2.5" fill="none" '
        f'stroke-dasharray="7 3" pointer-events="none"/>'
    )
    out.append(f'<g class="labels" pointer-events="none"{attrs(**HALO)}>')
    for p, name in enumerate(board.provinces):
        label = m.province_labels[p]
        out.append(
            text(
                label.x,
                label.y,
                name,
                PROVINCE_FONT,
                text_anchor="middle",
                fill="#6b5330",
                font_style="italic",
                class_="province-name",
            )
        )
    for c in board.cities:
        label = m.city_labels[c.id]
        out.append(
            text(
                label.x,
                label.y,
                c.name,
                CITY_FONT,
                text_anchor="middle",
                fill="#3a3024",
                class_="city-name",
            )
        )
    out.append("</g></g>")
    return "".join(out)


_LAST_CITIES: list[tuple[tuple[object, ...], tuple[str, ...]]] = []


def _cities_now(serial: int, s: Scene, names: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`_cities` of the scene, first checked against the last call by identity:
    a state keeps its tuples while they do not change (hashing 49 bonus tiles is slow)."""
    key = (serial, s.palaces, s.moguls, s.bonus, names)
    if _LAST_CITIES and all(a is b for a, b in zip(_LAST_CITIES[0][0], key, strict=True)):
        return _LAST_CITIES[0][1]
    found = _cities(*key)
    _LAST_CITIES[:] = [(key, found)]
    return found


@functools.lru_cache(maxsize=1024)
def _cities(
    serial: int,
    palaces: tuple[int, ...],
    moguls: tuple[int, ...],
    bonus: tuple[BonusTile | None, ...],
    names: tuple[str, ...],
) -> tuple[str, ...]:
    """Every city with what lies on it (the same for most steps of a visit)."""
    return tuple(
        _city_part(
            serial,
            city,
            palaces[city],
            moguls[city],
            bonus[city],
            names[palaces[city]] if palaces[city] >= 0 else "",
            names[moguls[city]] if moguls[city] >= 0 else "",
        )
        for city in range(len(palaces))
    )


@functools.lru_cache(maxsize=8192)
def _city_part(
    serial: int,
    city: int,
    owner: int,
    mogul: int,
    tile: BonusTile | None,
    owner_name: str,
    mogul_name: str,
) -> str:
    """A city with what lies on it: the click target ``city-N``."""
    m = layout_of(serial)
    c = m.board.cities[city]
    x, y = m.cities[city]
    fill = SEAT_COLORS[owner % len(SEAT_COLORS)] if owner >= 0 else "#fffaf0"
    words = [c.name + (" (fortress)" if c.fortress else "")]
    if tile is not None:
        words.append(f"bonus tile {tile}")
    if owner >= 0:
        words.append(f"palace of {owner_name}")
    if mogul >= 0:
        words.append(f"mogul palace of {mogul_name}")
    out = [f'<g id="city-{city}" class="city" data-city="{city}">', title("; ".join(words))]
    out.append(f'<circle class="hit" cx="{x}" cy="{y}" r="17" fill="#fff" fill-opacity="0"/>')
    if c.fortress:
        out.append(
            f'<rect class="mark" x="{x - 12}" y="{y - 12}" width="24" height="24" rx="2" '
            f'fill="{fill}" stroke="#3b3024" stroke-width="2"/>'
        )
    else:
        out.append(
            f'<circle class="mark" cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#3b3024" '
            f'stroke-width="1.8"/>'
        )
    if tile is not None:
        out.append(_bonus_mark(tile, x, y))
    if mogul >= 0:
        out.append(
            f'<circle class="mogul" cx="{x}" cy="{y}" r="16" fill="none" '
            f'stroke="{SEAT_COLORS[mogul % len(SEAT_COLORS)]}" stroke-width="3.5" '
            f'stroke-dasharray="5 2.5"/>'
        )
    out.append("</g>")
    return "".join(out)


def _current_province(s: Scene, m: MapLayout) -> str:
    return "" if s.to_act is None else _province_outline(m.serial, s.province)


@functools.lru_cache(maxsize=256)
def _province_outline(serial: int, province: int) -> str:
    """The red outline of the province of the visit."""
    m = layout_of(serial)
    mine = set(m.board.province_cities[province])
    lines = "".join(
        f"M{x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}"
        for i in mine
        for (x1, y1), (x2, y2), j in m.edges[i]
        if j not in mine
    )
    return (
        f'<path id="current-province" d="{lines}" fill="none" stroke="#c0392b" '
        f'stroke-width="4.5" stroke-linecap="round" pointer-events="none"/>'
    )


def _bonus_mark(tile: BonusTile, x: float, y: float) -> str:
    """The bonus tile on a fortress, drawn inside its square."""
    if tile.kind == "good" and tile.good is not None:
        return good_at(tile.good, x - 9, y - 9, 18)
    if tile.kind == "card":
        return (
            f'<rect x="{x - 5}" y="{y - 7}" width="10" height="14" rx="1.5" fill="#fff" '
            f'stroke="#333" stroke-width="1"/><rect x="{x - 2}" y="{y - 4}" width="4" '
            f'height="8" fill="#999"/>'
        )
    label = "+4" if tile.kind == "taj_mahal" else "+2"
    color = "#8a1c1c" if tile.kind == "taj_mahal" else "#5a4510"
    return text(x, y + 4.5, label, 12, text_anchor="middle", font_weight="bold", fill=color)


def public_parts(s: Scene) -> list[str]:
    """The public picture of a step (one SVG group), in fragments that change on
    their own."""
    m = layout(s.board)
    names = tuple(seat.name for seat in s.seats)
    parts = ['<g class="public">', _current_province(s, m)]
    parts += _cities_now(m.serial, s, names)
    parts += [headline(s), court(s), *display(s), dummy(s)]
    for seat in range(s.players):
        parts += seat_parts(s, seat)
    parts.append("</g>")
    return parts


def layers(state: State, names: Sequence[str] | None = None) -> tuple[str, str, tuple[str, ...]]:
    """The parts of :func:`svg` of ``state``: the board (the same all game), the
    public picture (what a spectator sees), and each seat's hand."""
    s = scene_of(state, names)
    return (
        board_layer(s.board),
        "".join(public_parts(s)),
        tuple("".join(hand_parts(s, k)) for k in range(s.players)),
    )


def svg(obj: State | PlayerView, names: Sequence[str] | None = None, width: int = WIDTH) -> str:
    """An SVG picture of a state (every hand shown) or a view (only what its seat
    may see); ``names`` label the seats; ``width`` in pixels (the height follows)."""
    s = scene_of(obj, names)
    hands = "".join("".join(hand_parts(s, k)) for k in range(s.players))
    return document(board_layer(s.board) + "".join(public_parts(s)) + hands, width)


def document(body: str, width: int = WIDTH) -> str:
    """Layers (from :func:`layers`) joined into one SVG document."""
    return svg_document(body, WIDTH, HEIGHT, width, AREAS)


def example_state(decisions: int = 60) -> State:
    """The position of the pictures in ``docs/images``: a 4-player game (seed 3) after
    ``decisions`` random legal actions (seeded: always the same)."""
    import random

    from .legal import legal_actions
    from .rules import apply, new_game
    from .setups import Setup

    state = new_game(Setup.random(4, seed=3))
    rng = random.Random(1)
    for _ in range(decisions):
        if state.to_act is None:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


EXAMPLE_NAMES: Final = ("alice", "greedy", "mcts", "bob")


def write_pictures(folder: str) -> list[str]:
    """Write ``board.svg`` (every hand) and ``view.svg`` (seat 0's view) of
    :func:`example_state` into ``folder``; the paths written."""
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    state = example_state()
    written = []
    for name, obj in (("board.svg", state), ("view.svg", view(state, 0))):
        path = out / name
        path.write_text(svg(obj, EXAMPLE_NAMES) + "\n", "utf-8")
        written.append(str(path))
    return written


if __name__ == "__main__":  # python -m tajmahal.tajmahal.render FOLDER
    import sys

    for written in write_pictures(sys.argv[1] if len(sys.argv) > 1 else "docs/images"):
        print(written)
