"""A position of Tikal in the terminal (rich): what ``tajmahal show RECORD --step N``
prints for a Tikal record.

The turn (who acts, the phase, action points left, the tile in hand), the stack
by back letter, the supply and the level tokens left; a row per explored space
(its label as the log names it, kind, temple value, face-down treasures, the
stones on its six edges, camp, guard and each seat's figures); a row per seat
(score and its parts, figures in reserve, where the leader is, camps and guards
left, treasures held).  It draws a seat's view (:func:`~tajmahal.tikal.views.view`):
nothing of Tikal is private to one seat, and the face-down treasures and the
stack's order, hidden from every seat, are only counted.

>>> from tajmahal.tikal import Setup, new_game
>>> from tajmahal.kit.terminal import plain
>>> start = position(new_game(Setup.random(2, seed=1)), ["ann", "bob"])
>>> "ann (seat 0) to act: place" in plain(start)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..kit.svg import plural
from ..kit.terminal import SEAT_STYLES, seat_name
from .components import DEFAULT_COMPONENTS, TOP_LEVEL, Components
from .state import GONE, RESERVE, State
from .texts import space_label, tile_text
from .views import PlayerView, view


def figures_text(workers: int, leader: bool) -> str:
    """A seat's figures on a space: ``3`` workers, ``L`` the leader, ``2+L`` both."""
    if leader:
        return f"{workers}+L" if workers else "L"
    return str(workers)


def leader_text(v: PlayerView, c: Components, seat: int) -> str:
    where = v.players[seat].leader
    if where == RESERVE:
        return "reserve"
    if where == GONE:
        return "gone"
    return space_label(c, where)


def treasures_text(c: Components, held: Sequence[int]) -> str:
    """The treasures a seat holds face up, by type: ``jade mask 2, cacao jar``."""
    parts = [
        f"{name} {n}" if n > 1 else name
        for name, n in zip(c.treasure_types, held, strict=False)
        if n
    ]
    return ", ".join(parts) or "-"


def turn_text(v: PlayerView, c: Components, labels: Sequence[str]) -> Text:
    if v.to_act is None:
        return Text("Game over", style="bold")
    head = Text(f"Tikal ({v.variant}): ", style="bold")
    head.append_text(seat_name(labels, v.to_act))
    head.append(f" to act: {v.phase}")
    if v.phase == "act":
        head.append(f", {v.ap} AP left" + (" (scoring turn)" if v.turn == "scoring" else ""))
    if v.tile is not None:
        head.append(f"; in hand: {tile_text(c, v.tile)}")
    return head


def supplies_text(v: PlayerView) -> Text:
    backs = Counter(v.stack)
    stack = " ".join(f"{b}{backs[b]}" for b in sorted(backs)) or "empty"
    levels = " ".join(
        f"{value}:{n}" for value, n in zip(range(2, TOP_LEVEL + 1), v.levels, strict=True)
    )
    return Text(
        f"stack {plural(len(v.stack), 'tile')} ({stack}); "
        f"supply {plural(v.supply, 'face-down treasure')}; "
        f"level tokens left {levels}"
    )


#: The edges of a space, in the order of its stones (DIRECTIONS).
EDGES: Final = ("SE", "NE", "N", "NW", "SW", "S")


def stones_text(stones: Sequence[int]) -> str:
    """The stones on a space's edges, by edge (``SE2 NE1 S1``; ``-`` for none):
    crossing a border costs the stones on both its sides (T25).

    >>> stones_text((2, 1, 0, 0, 0, 1)), stones_text((0,) * 6)
    ('SE2 NE1 S1', '-')
    """
    return " ".join(f"{edge}{n}" for edge, n in zip(EDGES, stones, strict=True) if n) or "-"


def spaces_table(v: PlayerView, c: Components, labels: Sequence[str]) -> Table:
    """A row per explored space, in board order."""
    table = Table(box=None, pad_edge=False, header_style="bold", collapse_padding=True)
    for column in ("space", "kind", "stones", "hidden", "camp/guard"):
        table.add_column(column, no_wrap=True)
    table.add_column("figures (seat:count)")
    for space, s in enumerate(v.spaces):
        if s is None:
            continue
        kind = f"{s.kind} {s.value}" if s.kind == "temple" else s.kind
        post = Text()
        if s.camp is not None:
            post.append(f"camp {s.camp}", style=SEAT_STYLES[s.camp % 4])
        if s.guard is not None:
            post.append(
                f"guard {s.guard}" + ("L" if s.guard_leader else ""), style=SEAT_STYLES[s.guard % 4]
            )
        figures = Text()
        for seat, workers in enumerate(v.workers[space]):
            leader = v.players[seat].leader == space
            if workers or leader:
                if figures:
                    figures.append(" ")
                figures.append(
                    f"{seat}:{figures_text(workers, leader)}", style=SEAT_STYLES[seat % 4]
                )
        table.add_row(
            space_label(c, space),
            kind,
            stones_text(s.stones),
            str(s.tokens) if s.tokens else "",
            post,
            figures,
        )
    return table


def seats_table(v: PlayerView, c: Components, labels: Sequence[str]) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold", collapse_padding=True)
    for column in ("seat", "player", "points", "temples", "treas.", "capital", "reserve", "leader"):
        table.add_column(
            column,
            no_wrap=column != "player",
            justify="left" if column in ("player", "leader") else "right",
        )
    table.add_column("camps", justify="right", no_wrap=True)
    table.add_column("guards", justify="right", no_wrap=True)
    table.add_column("treasures")
    for seat, p in enumerate(v.players):
        table.add_row(
            str(seat),
            Text(labels[seat], style=SEAT_STYLES[seat % 4]),
            str(p.score),
            str(p.temple_points),
            str(p.treasure_points),
            str(p.capital),
            str(p.reserve),
            leader_text(v, c, seat),
            str(c.camps - len(p.camps)),
            str(c.guards - len(p.guards)),
            treasures_text(c, p.treasures),
        )
    return table


def position(
    obj: State | PlayerView,
    names: Sequence[str] | None = None,
    seat: int | None = None,
    components: Components | None = None,
) -> RenderableType:
    """A rich renderable of ``obj`` (a state is drawn as a seat sees it: ``seat``,
    or seat 0's view, which is every seat's but for the ``seat`` field)."""
    if isinstance(obj, State):
        c = obj.components
        v = view(obj, seat if seat is not None else 0)
    elif isinstance(obj, PlayerView):
        c = components or DEFAULT_COMPONENTS
        v = obj
    else:
        raise TypeError(f"position() shows a State or a PlayerView, not {type(obj).__name__}")
    n = len(v.players)
    labels = list(names) if names is not None else [f"seat {k}" for k in range(n)]
    parts: list[RenderableType] = [turn_text(v, c, labels), supplies_text(v)]
    if v.round is not None:
        order = Text("scoring round: ")
        for i, k in enumerate(v.round.order):
            if i:
                order.append(", ")
            order.append_text(seat_name(labels, k))
        parts.append(order)
    if v.auction is not None:
        a = v.auction
        shown = ", ".join(tile_text(c, t) for t in a.display) or "none"
        high = f"; high bid {a.high} by seat {a.bidder}" if a.bidder is not None else ""
        parts.append(Text(f"auction: revealed {shown}{high}"))
    parts.append(spaces_table(v, c, labels))
    parts.append(seats_table(v, c, labels))
    parts.append(
        Text(
            "stones: on each edge (SE, NE, N, NW, SW, S); hidden: face-down treasures; "
            "figures: workers, L the leader; guard kL: seat k's leader guards",
            style="dim",
        )
    )
    return Group(*parts)
