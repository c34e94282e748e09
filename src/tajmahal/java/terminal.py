"""A position of Java in the terminal (rich): what ``tajmahal show RECORD --step N``
prints for a Java record.

The turn (who acts, the phase, action points left), the display card, the pile,
the tiles and palaces left; a map of the grid (a row per letter as the log names
positions, odd rows shifted half a cell as on the board, the rim around it):
``.`` bare, ``-`` and ``^`` the bare rim (lowland, mountains), ``~`` water,
``r``/``v`` a rice field or village with its height (``+`` for 10 or more),
after the seat number of the figure on it or ``P`` a palace (``p`` one turned red
side up, J56); the palaces with their values; a row per seat (score and its
parts, figures in supply, action tokens, own tiles, festival cards).  A state
shows every hand; ``seat`` only that seat's (the others as a count).

>>> from tajmahal.java import Setup, new_game
>>> from tajmahal.kit.terminal import plain
>>> "ann (seat 0) to act: act" in plain(position(new_game(Setup.random(2, seed=1)), ["ann", "bob"]))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..kit.svg import plural
from ..kit.terminal import SEAT_STYLES, seat_name
from .components import PALACE_VALUES, Components
from .state import NONE, RICE, VILLAGE, WATER, State
from .texts import card_text, position_label


def _column(q: int, r: int) -> int:
    return q + (r - (r & 1)) // 2


def map_rows(c: Components) -> list[tuple[int, list[int | None]]]:
    """Every position of the board (the grid and the rim around it) by row, top
    first: the row's axial ``r`` and its cells left to right (None: no position)."""
    columns = [_column(q, r) for q, r in c.board.coords]
    left, right = min(columns), max(columns)
    rows: dict[int, list[int | None]] = {}
    for p, (_, r) in enumerate(c.board.coords):
        rows.setdefault(r, [None] * (right - left + 1))[columns[p] - left] = p
    return [(r, rows[r]) for r in sorted(rows)]


def cell_text(state: State, p: int | None) -> Text:
    """One position of the map, 3 characters wide."""
    if p is None:
        return Text("   ")
    board = state.components.board
    terrain = state.terrain[p]
    if terrain == WATER:
        return Text(" ~ ", style="blue")
    if terrain not in (RICE, VILLAGE):
        if p >= board.grid_size:  # J46: the rim, lowland or mountains
            return Text(" ^ " if board.edge_cost[p] > 1 else " - ", style="dim")
        return Text(" . ", style="dim")
    height = state.height[p]
    if state.palace[p]:
        out = Text("p" if p in state.red else "P", style="bold")
    elif state.figures[p] != NONE:
        seat = state.figures[p]
        out = Text(str(seat), style=SEAT_STYLES[seat % 4])
    else:
        out = Text(" ")
    out.append(("r" if terrain == RICE else "v") + (str(height) if height < 10 else "+"))
    return out


def board_map(state: State) -> Text:
    """The board as text: 4 characters a position, odd rows shifted by 2, each grid
    row led by its letter."""
    c = state.components
    out = Text()
    for i, (r, row) in enumerate(map_rows(c)):
        if i:
            out.append("\n")
        inner = [p for p in row if p is not None and p < c.board.grid_size]
        letter = position_label(c, inner[0])[0] if inner else " "
        out.append(f"{letter} " + ("  " if r % 2 else ""), style="bold")
        for k, p in enumerate(row):
            if k:
                out.append(" ")
            out.append_text(cell_text(state, p))
    return out


def turn_text(state: State, labels: Sequence[str]) -> Text:
    if state.to_act is None:
        return Text("Game over", style="bold")
    head = Text(f"Java ({state.setup.variant}): ", style="bold")
    head.append_text(seat_name(labels, state.to_act))
    head.append(f" to act: {state.phase}")
    if state.festival is None:
        turn = state.turn
        head.append(f", {turn.ap} AP left" + ("" if turn.land else ", land tile owed"))
        if turn.last:
            head.append(" (last turn)")
    return head


def supplies_text(state: State) -> Text:
    c = state.components
    shown = card_text(c, state.display) if state.display is not None else "none"
    palaces = " ".join(f"{v}:{n}" for v, n in zip(PALACE_VALUES, state.palaces_left, strict=True))
    return Text(
        f"display {shown}; pile {len(state.pile)}, discard {len(state.discard)}; "
        f"three-space tiles {state.threes}, water {state.water_left}; palaces left {palaces}"
    )


def palaces_text(state: State) -> Text:
    c = state.components
    out = Text("palaces: ")
    built = [p for p, v in enumerate(state.palace) if v]
    for i, p in enumerate(built):
        if i:
            out.append(", ")
        out.append(f"{position_label(c, p)} {state.palace[p]}" + (" red" if p in state.red else ""))
    if not built:
        out.append("none")
    return out


def festival_text(state: State, labels: Sequence[str]) -> Text | None:
    f = state.festival
    if f is None:
        return None
    c = state.components
    required = "+".join(c.symbols[s] for s in f.required)
    out = Text(f"festival in the palace on {position_label(c, f.palace)} ({required}): ")
    for i, (seat, laid, passed) in enumerate(zip(f.bidders, f.laid, f.passed, strict=True)):
        if i:
            out.append("; ")
        out.append(labels[seat], style=SEAT_STYLES[seat % 4])
        cards = ", ".join(card_text(c, x) for x in laid) or "nothing"
        out.append(f" laid {cards}" + (", passed" if passed else ""))
    return out


def seats_table(state: State, labels: Sequence[str], seat: int | None) -> Table:
    c = state.components
    table = Table(box=None, pad_edge=False, header_style="bold", collapse_padding=True)
    for column in ("seat", "player", "points", "water", "palaces", "fest.", "final"):
        table.add_column(
            column, no_wrap=column != "player", justify="left" if column == "player" else "right"
        )
    table.add_column("figs", justify="right", no_wrap=True)
    table.add_column("tokens", justify="right", no_wrap=True)
    table.add_column("2/r/v", no_wrap=True)
    table.add_column("festival cards")
    for k, p in enumerate(state.players):
        if seat is None or seat == k:
            hand = ", ".join(card_text(c, x) for x in p.hand) or "none"
        else:
            hand = plural(len(p.hand), "card")
        table.add_row(
            str(k),
            Text(labels[k], style=SEAT_STYLES[k % 4]),
            str(p.score),
            str(p.water),
            str(p.palaces),
            str(p.festivals),
            str(p.final),
            str(p.supply),
            str(p.tokens),
            f"{p.twos}/{p.rice}/{p.villages}",
            hand,
        )
    return table


def position(
    state: State, names: Sequence[str] | None = None, seat: int | None = None
) -> RenderableType:
    """A rich renderable of ``state``: every hand, or only ``seat``'s."""
    if not isinstance(state, State):
        raise TypeError(f"position() shows a Java State, not {type(state).__name__}")
    n = len(state.players)
    labels = list(names) if names is not None else [f"seat {k}" for k in range(n)]
    parts: list[RenderableType] = [turn_text(state, labels), supplies_text(state)]
    festival = festival_text(state, labels)
    if festival is not None:
        parts.append(festival)
    parts += [board_map(state), palaces_text(state), seats_table(state, labels, seat)]
    parts.append(
        Text(
            "map: . bare, - lowland and ^ mountain rim, ~ water, r rice / v village and its "
            "height after the seat of its figure or P a palace (p red side up); "
            "2/r/v: own tiles left",
            style="dim",
        )
    )
    return Group(*parts)
