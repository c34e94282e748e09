"""Java's texts for people: positions by row and column, cards by their symbols,
and the line of each action and event (what ``tajmahal show``, the replay viewer
and the browser game print)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..kit.adapter import ComponentsWords
from ..kit.svg import Kept, plural
from . import actions as act
from . import events as ev
from .actions import TILE_SIZES, Action, Done, EndTurn, Pass
from .components import Board, Components
from .state import TARGET, State

__all__ = ["EVENT_TEXTS", "JavaWords", "action_text", "card_text", "position_label"]


def position_label(components: Components, position: int) -> str:
    """A position as people name it: row letter and column number on the grid
    (``A1`` top left); a rim cell gets its axial coordinates."""
    return _LABELS.of(components.board)[position]


def _position_labels(board: Board, _: int) -> tuple[str, ...]:
    grid = board.coords[: board.grid_size]
    first = min(r for _, r in grid)
    left = min(q + (r - (r & 1)) // 2 for q, r in grid)
    return tuple(
        f"{chr(ord('A') + r - first)}{q + (r - (r & 1)) // 2 - left + 1}"
        if p < board.grid_size
        else f"rim({q},{r})"
        for p, (q, r) in enumerate(board.coords)
    )


#: Each board's position labels, worked out once (a replay names a position at
#: nearly every step).
_LABELS: Final = Kept(_position_labels)


def card_text(components: Components, card: int) -> str:
    return "+".join(components.symbols[s] for s in components.cards[card])


_BEGUN_TEXT: Final = {
    act.PlaceWater: "lay water",
    act.Deploy: "deploy a figure",
    act.Withdraw: "withdraw a figure",
    act.Move: "move a figure",
    act.BuildPalace: "build a palace",
    act.ExtendPalace: "extend a palace",
    act.HoldFestival: "hold a festival",
}


def action_text(state: State, action: Action) -> str:
    """A short text for ``action`` taken in ``state`` (a position, shape or value
    is said with the action it completes)."""
    c = state.components

    def at(p: int) -> str:
        return position_label(c, p)

    if isinstance(action, act.PlaceLand):
        return (
            f"lay a {action.tile} tile"
            if action.tile in ("rice", "village")
            else (f"lay a {TILE_SIZES[action.tile]}-space tile")
        )
    if isinstance(action, act.TakeCard):
        return "take the display card" if action.display else "draw a festival card"
    if isinstance(action, act.UseToken):
        return "use an action token"
    if isinstance(action, EndTurn):
        return "end the turn"
    if isinstance(action, act.Lay):
        return f"lay {card_text(c, action.card)}"
    if isinstance(action, Done):
        return "end the bid"
    if isinstance(action, Pass):
        return "pass"
    if type(action) in _BEGUN_TEXT:
        return _BEGUN_TEXT[type(action)]
    pending = state.pending
    assert pending is not None, action
    what = action_text(state, pending.action)
    if isinstance(action, act.Shape):
        return f"{what} on " + " ".join(
            f"{at(p)}:{'village' if p == pending.position else 'rice'}" for p in action.cells
        )
    if isinstance(action, act.Value):
        assert pending.position is not None
        return f"{what} of {action.value} on {at(pending.position)}"
    assert isinstance(action, act.Select)
    if state.phase == TARGET:
        assert pending.position is not None
        return f"{what}: {at(pending.position)} -> {at(action.position)}"
    return f"{what} on {at(action.position)}"


class JavaWords(ComponentsWords):
    """Java's names for things: positions by row and column, cards by symbols."""

    def at(self, position: int) -> str:
        return position_label(self.c, position)

    def card(self, card: int) -> str:
        return card_text(self.c, card)


EVENT_TEXTS: Final[Mapping[type, Callable[[Any, JavaWords], str | None]]] = {
    ev.TurnBegan: lambda e, w: f"# {w.who(e.seat)}'s turn" + (" (last turn)" if e.last else ""),
    ev.LandPlaced: lambda e, w: (
        f"{w.who(e.seat)} lays a {len(e.cells)}-space tile on level {e.level} "
        f"at {', '.join(w.at(p) for p in e.cells)} ({e.cost} AP)"
    ),
    ev.WaterPlaced: lambda e, w: f"{w.who(e.seat)} lays water on {w.at(e.position)}",
    ev.WaterScored: lambda e, w: (
        f"water enclosed ({plural(len(e.area), 'space')}): {w.who(e.seat)} scores {e.points}"
    ),
    ev.FigureDeployed: lambda e, w: (
        f"{w.who(e.seat)} deploys on {w.at(e.position)} ({e.cost} AP)"
    ),
    ev.FigureWithdrawn: lambda e, w: f"{w.who(e.seat)} withdraws from {w.at(e.position)}",
    ev.FigureMoved: lambda e, w: (
        f"{w.who(e.seat)} moves {w.at(e.origin)} -> {w.at(e.target)} ({e.cost} AP)"
    ),
    ev.PalaceBuilt: lambda e, w: (
        f"{w.who(e.seat)} {'extends a palace to' if e.extended else 'builds a palace of'} "
        f"{e.value} on {w.at(e.position)}: {plural(e.points, 'point')}"
    ),
    ev.CardTaken: lambda e, w: (
        f"{w.who(e.seat)} takes {'the display card' if e.display else 'a card'}"
    ),
    ev.PileReshuffled: lambda e, w: f"the {e.size} discarded cards become the draw pile",
    ev.TokenUsed: lambda e, w: f"{w.who(e.seat)} uses an action token ({e.left} left)",
    ev.FestivalBegan: lambda e, w: f"{w.who(e.seat)} holds a festival on {w.at(e.palace)}",
    ev.CardLaid: lambda e, w: f"{w.who(e.seat)} lays {w.card(e.card)}",
    ev.Passed: lambda e, w: f"{w.who(e.seat)} passes",
    ev.FestivalScored: lambda e, w: (
        f"festival won by {', '.join(w.who(s) for s in e.winners) or 'nobody'}: "
        f"{plural(e.points, 'point')} each"
    ),
    ev.TurnEnded: lambda e, w: (
        f"{w.who(e.seat)} ends the turn ({e.left} AP lost)" if e.left else None
    ),
    ev.FinalScored: lambda e, w: f"{w.who(e.seat)} final scoring: {plural(e.points, 'point')}",
    ev.GameOver: lambda e, w: f"game over: totals {list(e.scores)}, ranks {list(e.ranks)}",
}
