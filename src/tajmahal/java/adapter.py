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
from typing import TYPE_CHECKING, Any, ClassVar, Final

from attrs import evolve

from ..arena.player import FirstPlayer, Player, RandomPlayer
from ..kit.adapter import ComponentsAdapter, dict_function, field_expressions, who
from ..kit.jsontext import field_names
from . import rules
from .actions import (
    TILE_SIZES,
    Action,
    BuildPalace,
    Deploy,
    Done,
    EndTurn,
    ExtendPalace,
    HoldFestival,
    Lay,
    Move,
    Pass,
    PlaceLand,
    PlaceWater,
    Select,
    Shape,
    TakeCard,
    UseToken,
    Value,
    Withdraw,
)
from .components import DEFAULT_COMPONENTS, Components
from .events import (
    EVENT_TYPES,
    CardLaid,
    CardTaken,
    Event,
    FestivalBegan,
    FestivalScored,
    FigureDeployed,
    FigureMoved,
    FigureWithdrawn,
    FinalScored,
    GameOver,
    LandPlaced,
    PalaceBuilt,
    Passed,
    PileReshuffled,
    TokenUsed,
    TurnBegan,
    TurnEnded,
    WaterPlaced,
    WaterScored,
)
from .legal import legal_actions
from .rules import IllegalAction
from .serialize import CONVERTER, components_data
from .state import SCORE_SOURCES, START, TARGET, VARIANTS, Seat, Setup, State
from .views import JavaView, view

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .render import JavaPictures

__all__ = ["JAVA", "Java", "position_label"]


def position_label(components: Components, position: int) -> str:
    """A position as people name it: row letter and column number on the grid
    (``A1`` top left); a rim cell gets its axial coordinates."""
    board = components.board
    q, r = board.coords[position]
    if position >= board.grid_size:
        return f"rim({q},{r})"
    column = q + (r - (r & 1)) // 2
    first = min(c[1] for c in board.coords[: board.grid_size])
    left = min(c[0] + (c[1] - (c[1] & 1)) // 2 for c in board.coords[: board.grid_size])
    return f"{chr(ord('A') + r - first)}{column - left + 1}"


def card_text(components: Components, card: int) -> str:
    return "+".join(components.symbols[s] for s in components.cards[card])


_BEGUN_TEXT: Final = {
    PlaceWater: "lay water",
    Deploy: "deploy a figure",
    Withdraw: "withdraw a figure",
    Move: "move a figure",
    BuildPalace: "build a palace",
    ExtendPalace: "extend a palace",
    HoldFestival: "hold a festival",
}


def action_text(state: State, action: Action) -> str:
    """A short text for ``action`` taken in ``state`` (a position, shape or value
    is said with the action it completes)."""
    c = state.components

    def at(p: int) -> str:
        return position_label(c, p)

    if isinstance(action, PlaceLand):
        return (
            f"lay a {action.tile} tile"
            if action.tile in ("rice", "village")
            else (f"lay a {TILE_SIZES[action.tile]}-space tile")
        )
    if isinstance(action, TakeCard):
        return "take the display card" if action.display else "draw a festival card"
    if isinstance(action, UseToken):
        return "use an action token"
    if isinstance(action, EndTurn):
        return "end the turn"
    if isinstance(action, Lay):
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
    if isinstance(action, Shape):
        return f"{what} on " + " ".join(
            f"{at(p)}:{'village' if p == pending.position else 'rice'}" for p in action.cells
        )
    if isinstance(action, Value):
        assert pending.position is not None
        return f"{what} of {action.value} on {at(pending.position)}"
    assert isinstance(action, Select)
    if state.phase == TARGET:
        assert pending.position is not None
        return f"{what}: {at(pending.position)} -> {at(action.position)}"
    return f"{what} on {at(action.position)}"


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
    min_players = 2
    max_players = 4
    score_sources: tuple[str, ...] = SCORE_SOURCES

    converter = CONVERTER
    action_type = Action
    event_types = EVENT_TYPES
    view_type = JavaView
    # The view straight from the state (as views.view makes it).
    view_from_state = True
    state_type = State
    view_by_hand: ClassVar[Mapping[str, str]] = {
        "seat": "seat",
        "variant": "state.setup.variant",
        "hand": "state.players[seat].hand",
        "hands": "[len(p.hand) for p in state.players]",
        "players": "j.records(state.players, seat_dict)",
        "pile": "len(state.pile)",
    }
    view_namespace: ClassVar[Mapping[str, Any]] = {"seat_dict": _SEAT_DICT}
    refused = IllegalAction
    passive = (EndTurn, Done, Pass)  # always last when allowed
    bots = "tajmahal.java.bots"
    setup_type = Setup
    variants = VARIANTS
    default_variant = START

    new_game = staticmethod(rules.new_game)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(rules.step)
    apply = staticmethod(rules.apply)
    view = staticmethod(view)
    components_data = staticmethod(components_data)
    event_for = staticmethod(event_for)

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        super().__init__(components)

    def is_public(self, event: Event) -> bool:
        """All but a card drawn from the pile."""
        return not (isinstance(event, CardTaken) and not event.display)

    # -- results

    def scores(self, state: State) -> list[int]:
        return rules.scores(state)

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [
            {"water": p.water, "palaces": p.palaces, "festivals": p.festivals, "final": p.final}
            for p in state.players
        ]

    def ranks(self, state: State) -> list[int]:
        return rules.ranks(rules.scores(state))

    # -- for people

    def describe_action(self, state: State, action: Action) -> str:
        return action_text(state, action)

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        c = state.components
        shown = card_text(c, state.display) if state.display is not None else "none"
        return [
            f"# Java ({state.setup.variant} action tokens); {who(0, names)} starts",
            f"display card: {shown}",
        ]

    def describe_events(
        self, state: State, events: Sequence[Event], names: Sequence[str]
    ) -> list[str]:
        c = state.components

        def at(p: int) -> str:
            return position_label(c, p)

        lines: list[str] = []
        for e in events:
            if isinstance(e, TurnBegan):
                last = " (last turn)" if e.last else ""
                lines.append(f"# {who(e.seat, names)}'s turn{last}")
            elif isinstance(e, LandPlaced):
                lines.append(
                    f"{who(e.seat, names)} lays a {len(e.cells)}-space tile on level {e.level} "
                    f"at {', '.join(at(p) for p in e.cells)} ({e.cost} AP)"
                )
            elif isinstance(e, WaterPlaced):
                lines.append(f"{who(e.seat, names)} lays water on {at(e.position)}")
            elif isinstance(e, WaterScored):
                owner = who(e.seat, names) if e.seat is not None else "nobody"
                lines.append(f"water enclosed ({len(e.area)} spaces): {owner} scores {e.points}")
            elif isinstance(e, FigureDeployed):
                lines.append(f"{who(e.seat, names)} deploys on {at(e.position)} ({e.cost} AP)")
            elif isinstance(e, FigureWithdrawn):
                lines.append(f"{who(e.seat, names)} withdraws from {at(e.position)}")
            elif isinstance(e, FigureMoved):
                lines.append(
                    f"{who(e.seat, names)} moves {at(e.origin)} -> {at(e.target)} ({e.cost} AP)"
                )
            elif isinstance(e, PalaceBuilt):
                what = "extends a palace to" if e.extended else "builds a palace of"
                lines.append(
                    f"{who(e.seat, names)} {what} {e.value} on {at(e.position)}: {e.points} points"
                )
            elif isinstance(e, CardTaken):
                what = "the display card" if e.display else "a card"
                lines.append(f"{who(e.seat, names)} takes {what}")
            elif isinstance(e, PileReshuffled):
                lines.append(f"the {e.size} discarded cards become the draw pile")
            elif isinstance(e, TokenUsed):
                lines.append(f"{who(e.seat, names)} uses an action token ({e.left} left)")
            elif isinstance(e, FestivalBegan):
                lines.append(f"{who(e.seat, names)} holds a festival on {at(e.palace)}")
            elif isinstance(e, CardLaid):
                lines.append(f"{who(e.seat, names)} lays {card_text(c, e.card)}")
            elif isinstance(e, Passed):
                lines.append(f"{who(e.seat, names)} passes")
            elif isinstance(e, FestivalScored):
                won = ", ".join(who(s, names) for s in e.winners) or "nobody"
                lines.append(f"festival won by {won}: {e.points} points each")
            elif isinstance(e, TurnEnded):
                if e.left:
                    lines.append(f"{who(e.seat, names)} ends the turn ({e.left} AP lost)")
            elif isinstance(e, FinalScored):
                lines.append(f"{who(e.seat, names)} final scoring: {e.points} points")
            elif isinstance(e, GameOver):
                lines.append(f"game over: totals {list(e.scores)}, ranks {list(e.ranks)}")
        return lines

    def pictures(self) -> JavaPictures:
        """How the HTML viewer and the browser game draw the game (SVG layers)."""
        from .render import JavaPictures

        return JavaPictures(self.components)

    def terminal(self, state: State, names: Sequence[str], seat: int | None) -> RenderableType:
        """The position for ``tajmahal show`` (rich); ``seat``: only the hand it sees."""
        from .terminal import position

        return position(state, names, seat)

    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        # Until java/bots.py declares BOTS and MCTS_BUILTIN on the kit's frames (the
        # java stream's port): then the kit's Adapter.builtin_players serves.
        from .bots import GreedyPlayer, MCTSPlayer

        return {
            "random": RandomPlayer,
            "greedy": GreedyPlayer,
            "mcts": MCTSPlayer,
            "first": FirstPlayer,
        }


#: The game object the CLI and the tournament use.
JAVA: Final = Java()
