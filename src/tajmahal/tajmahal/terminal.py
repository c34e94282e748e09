"""A position in the terminal (rich): what ``tajmahal show RECORD --step N`` prints.

The same content as the SVG picture of :mod:`tajmahal.tajmahal.render`, as text: the
visit, the court and the display, each province's cities with their palaces
(``name:seat``, ``*`` for a mogul palace) and bonus tiles, and a row per seat.
A state shows every hand; ``seat`` shows only that seat's (as it saw the game).

>>> from rich.console import Console
>>> from tajmahal import Setup, new_game
>>> console = Console(width=100, record=True, file=__import__("io").StringIO())
>>> console.print(position(new_game(Setup.random(3, seed=1)), ["a", "b", "c"]))
>>> "Visit 1 of 12" in console.export_text()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..kit.svg import plural
from .cards import CARDS, CHARACTERS
from .scene import SYMBOL_MARKS
from .state import State
from .tiles import GOODS, PROVINCE_GOODS
from .views import PlayerView, view

#: Rich styles of the card colours and of the seats.
CARD_STYLES: Final = {
    "red": "bold white on red3",
    "yellow": "bold black on yellow3",
    "green": "bold white on green4",
    "purple": "bold white on purple4",
    "white": "bold black on grey85",
    "special": "bold yellow on grey23",
}
SEAT_STYLES: Final = ("bold blue", "bold dark_orange", "bold cyan", "bold magenta", "bold yellow4")


def card_block(card_id: int) -> Text:
    """A card as a coloured block of its symbols' letters (``*`` a special card)."""
    card = CARDS[card_id]
    marks = "".join(SYMBOL_MARKS[s] for s in card.symbols)
    if card.special:
        marks = SYMBOL_MARKS[card.special] + "*" + marks
    return Text(f"{marks:^3}", style=CARD_STYLES[card.color])


def cards_text(cards: Sequence[int]) -> Text:
    """Cards as coloured blocks on one line."""
    return Text(" ").join(card_block(c) for c in cards)


class CardRows:
    """``label`` and cards as coloured blocks, wrapped between two cards, never
    inside one (a table cell narrower than the hand gets whole cards per line)."""

    def __init__(self, label: str, cards: Sequence[int]) -> None:
        self.label = label
        self.blocks = [card_block(c) for c in cards]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((b.cell_len for b in self.blocks), default=0)
        whole = sum(b.cell_len + 1 for b in self.blocks)
        return Measurement(len(self.label) + widest, len(self.label) + max(0, whole - 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text(self.label)
        filled = False
        for block in self.blocks:
            if filled and line.cell_len + 1 + block.cell_len > options.max_width:
                yield line
                line, filled = Text(" " * len(self.label)), False
            if filled:
                line.append(" ")
            line.append_text(block)
            filled = True
        yield line


def position(
    obj: State | PlayerView, names: Sequence[str] | None = None, seat: int | None = None
) -> RenderableType:
    """A rich renderable of ``obj``; with ``seat`` (for a state), that seat's view."""
    if isinstance(obj, State):
        hands: list[tuple[int, ...] | None] = [p.hand for p in obj.players]
        v = view(obj, None)
        if seat is not None:
            hands = [h if k == seat else None for k, h in enumerate(hands)]
    elif isinstance(obj, PlayerView):
        v = obj
        hands = [obj.hand if k == obj.seat else None for k in range(len(obj.players))]
    else:
        raise TypeError(f"position() shows a State or a PlayerView, not {type(obj).__name__}")
    n = len(v.players)
    labels = list(names) if names is not None else [f"seat {k}" for k in range(n)]
    board = v.setup.board
    if v.to_act is None:
        head = Text("Game over", style="bold")
    else:
        head = Text(f"Visit {v.visit} of 12 in {board.provinces[v.province]}: ", style="bold")
        head.append(labels[v.to_act], style=SEAT_STYLES[v.to_act % 5])
        head.append(f" to act ({v.phase})")
    court = Text("court: ")
    court.append(" ".join(SYMBOL_MARKS.get(p, p) for p in v.court) or "empty", style="bold")
    court.append(
        "   reserve: " + ", ".join(f"{c} {k}" for c, k in zip(CHARACTERS, v.reserve, strict=False))
    )
    display = Text(f"display ({v.deck_size} in deck): ").append_text(cards_text(v.display))
    parts: list[RenderableType] = [head, court, display]
    if v.dummy is not None:
        parts.append(Text("dummy: ").append_text(cards_text(v.dummy.cards)))
    provinces = Table(box=None, pad_edge=False, show_header=False, collapse_padding=True)
    provinces.add_column("province", no_wrap=True)
    provinces.add_column("cities")
    for province, cities in enumerate(board.province_cities):
        line = Text()
        for i, c in enumerate(cities):
            city = board.cities[c]
            if i:
                line.append(", ")
            line.append(city.name + ("#" if city.fortress else ""))
            owner, mogul = v.palaces[c], v.moguls[c]
            if owner >= 0:
                line.append(f":{owner}", style=SEAT_STYLES[owner % 5])
            if mogul >= 0:
                line.append(f"*{mogul}", style=SEAT_STYLES[mogul % 5])
            tile = v.bonus[c]
            if tile is not None:
                line.append(f" ({tile})", style="yellow")
        style = "bold reverse" if province == v.province and v.to_act is not None else "italic"
        provinces.add_row(Text(board.provinces[province], style=style), line)
    parts.append(provinces)
    seats = Table(box=None, pad_edge=False, header_style="bold", collapse_padding=True)
    for column in ("seat", "player", "points", "palaces", "influence", "goods"):
        seats.add_column(column, no_wrap=column != "player")
    seats.add_column("table / hand")
    for k, p in enumerate(v.players):
        goods = [g for t in p.province_tiles for g in PROVINCE_GOODS.get(t, ())]
        goods += [t.good for t in p.bonus_tiles if t.kind == "good" and t.good is not None]
        influence = " ".join(
            f"{SYMBOL_MARKS[c]}{m}" for c, m in zip(CHARACTERS, p.influence, strict=False) if m
        )
        rows: list[RenderableType] = [CardRows("table: ", p.played)]
        hand = hands[k]
        if hand is not None:
            rows.append(CardRows("hand:  ", hand))
        elif p.hand_size:
            rows.append(Text(f"hand: {plural(p.hand_size, 'card')}"))
        cards = Group(*rows)
        seats.add_row(
            str(k),
            Text(labels[k] + (" (withdrawn)" if p.withdrawn else ""), style=SEAT_STYLES[k % 5]),
            str(p.score.total),
            str(p.palaces),
            influence or "-",
            " ".join(
                f"{g}{goods.count(g) if goods.count(g) > 1 else ''}" for g in GOODS if g in goods
            )
            or "-",
            cards,
        )
    parts.append(seats)
    parts.append(
        Text(
            "cards: E elephant, R ring (grand mogul), V vizier, G general, M monk, P princess, "
            "* a special card; cities: # fortress, :k palace of seat k, *k mogul palace",
            style="dim",
        )
    )
    return Group(*parts)
