"""Tikal's texts for people: spaces by column and row, tiles by id and kind, and
the line of each action and event (what ``tajmahal show``, the replay viewer and
the browser game print)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..kit.adapter import ComponentsWords
from ..kit.svg import Kept, plural
from . import actions as act
from . import events as ev
from .actions import Action, figure
from .components import Board, Components
from .state import State

__all__ = ["EVENT_TEXTS", "TikalWords", "action_text", "space_label", "tile_text"]


def space_label(components: Components, space: int) -> str:
    """A space as people name it: column letter and row number on the board
    (``A1`` top left), from its axial coordinates."""
    return _LABELS.of(components.board)[space]


def _space_labels(board: Board, _: int) -> tuple[str, ...]:
    columns = sorted({q for q, _ in board.coords})
    rows = sorted({r + (q - (q & 1)) // 2 for q, r in board.coords})
    return tuple(
        f"{chr(ord('A') + columns.index(q))}{rows.index(r + (q - (q & 1)) // 2) + 1}"
        for q, r in board.coords
    )


#: Each board's space labels, worked out once (a replay names a space at nearly
#: every step).
_LABELS: Final = Kept(_space_labels)


def tile_text(components: Components, tile: int) -> str:
    t = components.tiles[tile]
    detail = {"temple": f" {t.value}", "treasure": f" ({plural(t.masks, 'mask')})"}.get(t.kind, "")
    return f"tile {tile} ({t.back}: {t.kind}{detail})"


class TikalWords(ComponentsWords):
    """Tikal's names for things: spaces by column and row, tiles by id and kind."""

    def at(self, space: int) -> str:
        return space_label(self.c, space)

    def tile(self, tile: int) -> str:
        return tile_text(self.c, tile)

    def treasure(self, kind: int) -> str:
        return str(self.c.treasure_types[kind])


_ACTION_TEXTS: Final[Mapping[type, Callable[[Any, TikalWords], str]]] = {
    act.Place: lambda a, w: f"place {w.tile(w.state.tile)} on {w.at(a.space)}"
    + (f", turned {a.rotation}" if a.rotation else ""),
    act.Enter: lambda a, w: f"bring {figure(a.leader)} into play on {w.at(a.space)}",
    act.Move: lambda a, w: f"move {figure(a.leader)} {w.at(a.origin)} -> {w.at(a.target)}",
    act.CampMove: lambda a, w: (
        f"camp move {figure(a.leader)} {w.at(a.origin)} -> {w.at(a.target)}"
    ),
    act.Uncover: lambda a, w: f"uncover a level of the temple on {w.at(a.space)}",
    act.Dig: lambda a, w: f"dig up a treasure on {w.at(a.space)}",
    act.Exchange: lambda a, w: (
        f"exchange {w.treasure(a.give)} for seat {a.seat}'s {w.treasure(a.take)}"
    ),
    act.BuildCamp: lambda a, w: f"build a camp on {w.at(a.space)}",
    act.Guard: lambda a, w: f"guard the temple on {w.at(a.space)} with {figure(a.leader)}",
    act.EndTurn: lambda a, w: "end the turn",
    act.Bid: lambda a, w: f"bid {a.amount}",
    act.Pass: lambda a, w: "pass",
    act.Choose: lambda a, w: f"choose {w.tile(a.tile)}",
}


def action_text(state: State, action: Action) -> str:
    """A short text for ``action`` taken in ``state``."""
    return _ACTION_TEXTS[type(action)](action, TikalWords(state, ()))


EVENT_TEXTS: Final[Mapping[type, Callable[[Any, TikalWords], str | None]]] = {
    ev.TileDrawn: lambda e, w: f"{w.who(e.seat)} draws {w.tile(e.tile)}",
    ev.TilePlaced: lambda e, w: f"{w.tile(e.tile)} lies on {w.at(e.space)}"
    + (f" with {plural(e.tokens, 'treasure')}" if e.tokens else ""),
    ev.TurnBegan: lambda e, w: (
        f"{w.who(e.seat)} takes a scoring turn" if e.kind != "normal" else None
    ),
    ev.TurnEnded: lambda e, w: (
        f"{w.who(e.seat)} ends the turn ({e.left} AP lost)" if e.left else None
    ),
    ev.FigureEntered: lambda e, w: (
        f"{w.who(e.seat)} brings {figure(e.leader)} into play on {w.at(e.space)}"
    ),
    ev.FigureMoved: lambda e, w: (
        f"{w.who(e.seat)} moves {figure(e.leader)} {w.at(e.origin)} -> {w.at(e.target)}"
        f" ({'camp move' if e.camp else f'{e.cost} AP'})"
    ),
    ev.CampBuilt: lambda e, w: f"{w.who(e.seat)} builds a camp on {w.at(e.space)}",
    ev.BidMade: lambda e, w: f"{w.who(e.seat)} bids {e.amount}",
    ev.BidPassed: lambda e, w: f"{w.who(e.seat)} passes",
    ev.TileChosen: lambda e, w: f"{w.who(e.seat)} chooses {w.tile(e.tile)}",
    ev.LevelUncovered: lambda e, w: (
        f"{w.who(e.seat)} uncovers the temple on {w.at(e.space)}: now worth {e.value}"
    ),
    ev.TreasureDug: lambda e, w: f"{w.who(e.seat)} digs up {w.treasure(e.treasure)}",
    ev.TreasuresExchanged: lambda e, w: (
        f"{w.who(e.seat)} takes {w.treasure(e.took)} from {w.who(e.other)} "
        f"for {w.treasure(e.gave)}"
    ),
    ev.GuardPlaced: lambda e, w: (
        f"{w.who(e.seat)} guards the temple on {w.at(e.space)}; "
        f"{plural(e.removed_workers, 'worker')}"
        + (" and the leader" if e.removed_leader else "")
        + (" leaves" if e.removed_workers == 1 and not e.removed_leader else " leave")
        + " the game"
    ),
    ev.ScoringBegan: lambda e, w: (
        f"# {'final scoring round' if e.volcano is None else 'volcano! scoring round'}: "
        + ", ".join(w.who(s) for s in e.order)
    ),
    ev.Scored: lambda e, w: (
        f"{w.who(e.seat)} scores {e.temples} for temples and {e.treasures} for treasures: "
        f"{e.total}"
    ),
    ev.TilesRevealed: lambda e, w: "# revealed: " + ", ".join(w.tile(t) for t in e.tiles),
    ev.AuctionWon: lambda e, w: f"{w.who(e.seat)} wins the turn for {e.bid}",
    ev.GameOver: lambda e, w: f"game over: totals {list(e.scores)}, ranks {list(e.ranks)}",
}
