"""Java for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

Views, actions and events travel in the forms of :mod:`tajmahal.java.serialize`;
the hello's static setup holds the board and the components
(:func:`~tajmahal.java.serialize.components_data`).  A card drawn from the pile
is seen only by its taker: the others get the event with ``"card": null``.

Fallback policy (for a seat whose bot faulted): end the turn, end the bid or
pass in a festival, whenever that is legal; otherwise the first legal action (a
land tile, which the turn owes, J20; its first position and shape).  It plays the seat
passively and needs no hidden information.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final

from attrs import evolve

from ..kit.adapter import ComponentsAdapter, ComponentsWords, dict_function, field_expressions, who
from ..kit.jsontext import field_names
from ..kit.svg import Kept, plural
from . import actions as act
from . import events as ev
from . import rules
from .actions import TILE_SIZES, Action, Done, EndTurn, Pass
from .components import Board, Components
from .events import CardTaken, Event
from .legal import legal_actions
from .rules import IllegalAction
from .serialize import CONVERTER, components_data
from .state import SCORE_SOURCES, TARGET, Seat, Setup, State
from .views import JavaView, view

__all__ = ["JAVA", "Java", "position_label"]


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


_EVENT_TEXTS: Final[Mapping[type, Callable[[Any, JavaWords], str | None]]] = {
    ev.TurnBegan: lambda e, w: f"# {w.who(e.seat)}'s turn" + (" (last turn)" if e.last else ""),
    ev.LandPlaced: lambda e, w: (
        f"{w.who(e.seat)} lays a {len(e.cells)}-space tile on level {e.level} "
        f"at {', '.join(w.at(p) for p in e.cells)} ({e.cost} AP)"
    ),
    ev.WaterPlaced: lambda e, w: f"{w.who(e.seat)} lays water on {w.at(e.position)}",
    ev.WaterScored: lambda e, w: (
        f"water enclosed ({len(e.area)} spaces): {w.who(e.seat)} scores {e.points}"
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


#: A seat's public record in the view (:class:`~tajmahal.java.state.Seat`, its hand
#: emptied: J59), straight from the state's.
_SEAT_DICT: Final = dict_function(
    "seat_dict", "p, j", field_expressions("p", Seat, field_names(Seat), {"hand": "()"})
)


def event_for(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` sees it: a card drawn from the pile is its taker's
    secret (J59)."""
    if isinstance(event, CardTaken) and not event.display and seat != event.seat:
        return evolve(event, card=None)
    return event


class Java(ComponentsAdapter[Setup, State, Action, Event]):
    """Java as an arena :class:`~tajmahal.arena.game.Game`."""

    name = "java"
    title = "Java"
    score_sources: tuple[str, ...] = SCORE_SOURCES

    converter = CONVERTER
    view_type = JavaView
    # The view straight from the state (as views.view makes it).
    state_type = State
    view_by_hand: ClassVar[Mapping[str, str]] = {
        "variant": "state.setup.variant",
        "hand": "state.players[seat].hand",
        "hands": "[len(p.hand) for p in state.players]",
        "players": "j.records(state.players, seat_dict)",
        "pile": "len(state.pile)",
    }
    view_namespace: ClassVar[Mapping[str, Any]] = {"seat_dict": _SEAT_DICT}
    refused = IllegalAction
    passive = (EndTurn, Done, Pass)  # always last when allowed
    event_texts = _EVENT_TEXTS
    words = JavaWords
    setup_type = Setup

    new_game = staticmethod(rules.new_game)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(rules.step)
    apply = staticmethod(rules.apply)
    view = staticmethod(view)
    components_data = staticmethod(components_data)
    event_for = staticmethod(event_for)
    scores = staticmethod(rules.scores)
    describe_action = staticmethod(action_text)

    def is_public(self, event: Event) -> bool:
        """All but a card drawn from the pile."""
        return not (isinstance(event, CardTaken) and not event.display)

    # -- results

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [
            {"water": p.water, "palaces": p.palaces, "festivals": p.festivals, "final": p.final}
            for p in state.players
        ]

    # -- for people

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        c = state.components
        shown = card_text(c, state.display) if state.display is not None else "none"
        return [
            f"# Java ({state.setup.variant} action tokens); {who(0, names)} starts",
            f"display card: {shown}",
        ]


#: The game object the CLI and the tournament use.
JAVA: Final = Java()
