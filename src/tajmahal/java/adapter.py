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
from typing import TYPE_CHECKING, Any, Final

import orjson
from attrs import evolve

from ..arena.game import refusal
from ..arena.player import Player
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
from .rules import IllegalAction, apply, new_game, ranks, scores, step
from .serialize import components_data, from_data, setup_from_data, setup_to_data, to_data
from .state import SCORE_SOURCES, START, TARGET, VARIANTS, Setup, SetupError, State
from .views import view

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


def _who(seat: int, names: Sequence[str]) -> str:
    return f"{names[seat]} (seat {seat})" if seat < len(names) else f"seat {seat}"


class Java:
    """Java as an arena :class:`~tajmahal.arena.game.Game`."""

    name = "java"
    title = "Java"
    min_players = 2
    max_players = 4
    score_sources: tuple[str, ...] = SCORE_SOURCES

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        self.components = components

    # -- setups

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> Setup:
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        return Setup.random(players, seed, variant or START, self.components)

    def setup_to_data(self, setup: Setup) -> Any:
        return setup_to_data(setup)

    def setup_from_data(self, data: Any) -> Setup:
        try:
            return setup_from_data(data, self.components)
        except SetupError:
            raise
        except ValueError as e:
            raise ValueError(str(e)) from None

    def players(self, setup: Setup) -> int:
        return setup.players

    def variant(self, setup: Setup) -> str:
        return setup.variant

    def public_setup(self, setup: Setup) -> Any:
        return components_data(setup.components)

    # -- play

    def new_game(self, setup: Setup) -> State:
        return new_game(setup)

    def to_act(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal_actions(state)

    def step(self, state: State, action: Action) -> tuple[State, Sequence[Event]]:
        return step(state, action)

    def why_illegal(self, state: State, action: Action) -> str | None:
        """The rule the engine cites when it refuses ``action`` in ``state``, id
        first: ``"J20: place a land tile before the turn ends"``.
        None if the engine takes the action, or fails on it otherwise (the action
        came from a bot)."""
        return refusal(apply, IllegalAction, state, action)

    def view_data(self, state: State, seat: int) -> Any:
        return to_data(view(state, seat))

    def view_json(self, state: State, seat: int) -> bytes:
        return orjson.dumps(self.view_data(state, seat))

    def action_to_data(self, action: Action) -> Any:
        return to_data(action)

    def action_from_data(self, data: Any) -> Action:
        action: Action = from_data(data, Action)
        return action

    def event_data(self, event: Event, seat: int | None) -> Any:
        if isinstance(event, CardTaken) and not event.display and seat != event.seat:
            event = evolve(event, card=None)  # J59: a drawn card is secret
        return to_data(event)

    def event_json(self, event: Event, seat: int | None) -> bytes:
        return orjson.dumps(self.event_data(event, seat))

    def is_public(self, event: Event) -> bool:
        """All but a card drawn from the pile."""
        return not (isinstance(event, CardTaken) and not event.display)

    # -- results

    def scores(self, state: State) -> list[int]:
        return scores(state)

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [
            {"water": p.water, "palaces": p.palaces, "festivals": p.festivals, "final": p.final}
            for p in state.players
        ]

    def ranks(self, state: State) -> list[int]:
        return ranks(scores(state))

    def fallback(self, state: State, legal: Sequence[Action]) -> int:
        """End the turn, the bid, or pass when allowed (always last), else the first
        action (in the phase ``act``, a land tile: the turn owes one)."""
        return len(legal) - 1 if isinstance(legal[-1], (EndTurn, Done, Pass)) else 0

    # -- for people

    def describe_action(self, state: State, action: Action) -> str:
        return action_text(state, action)

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        c = state.components
        shown = card_text(c, state.display) if state.display is not None else "none"
        return [
            f"# Java ({state.setup.variant} action tokens); {_who(0, names)} starts",
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
                lines.append(f"# {_who(e.seat, names)}'s turn{last}")
            elif isinstance(e, LandPlaced):
                lines.append(
                    f"{_who(e.seat, names)} lays a {len(e.cells)}-space tile on level {e.level} "
                    f"at {', '.join(at(p) for p in e.cells)} ({e.cost} AP)"
                )
            elif isinstance(e, WaterPlaced):
                lines.append(f"{_who(e.seat, names)} lays water on {at(e.position)}")
            elif isinstance(e, WaterScored):
                who = _who(e.seat, names) if e.seat is not None else "nobody"
                lines.append(f"water enclosed ({len(e.area)} spaces): {who} scores {e.points}")
            elif isinstance(e, FigureDeployed):
                lines.append(f"{_who(e.seat, names)} deploys on {at(e.position)} ({e.cost} AP)")
            elif isinstance(e, FigureWithdrawn):
                lines.append(f"{_who(e.seat, names)} withdraws from {at(e.position)}")
            elif isinstance(e, FigureMoved):
                lines.append(
                    f"{_who(e.seat, names)} moves {at(e.origin)} -> {at(e.target)} ({e.cost} AP)"
                )
            elif isinstance(e, PalaceBuilt):
                what = "extends a palace to" if e.extended else "builds a palace of"
                lines.append(
                    f"{_who(e.seat, names)} {what} {e.value} on {at(e.position)}: {e.points} points"
                )
            elif isinstance(e, CardTaken):
                what = "the display card" if e.display else "a card"
                lines.append(f"{_who(e.seat, names)} takes {what}")
            elif isinstance(e, PileReshuffled):
                lines.append(f"the {e.size} discarded cards become the draw pile")
            elif isinstance(e, TokenUsed):
                lines.append(f"{_who(e.seat, names)} uses an action token ({e.left} left)")
            elif isinstance(e, FestivalBegan):
                lines.append(f"{_who(e.seat, names)} holds a festival on {at(e.palace)}")
            elif isinstance(e, CardLaid):
                lines.append(f"{_who(e.seat, names)} lays {card_text(c, e.card)}")
            elif isinstance(e, Passed):
                lines.append(f"{_who(e.seat, names)} passes")
            elif isinstance(e, FestivalScored):
                won = ", ".join(_who(s, names) for s in e.winners) or "nobody"
                lines.append(f"festival won by {won}: {e.points} points each")
            elif isinstance(e, TurnEnded):
                if e.left:
                    lines.append(f"{_who(e.seat, names)} ends the turn ({e.left} AP lost)")
            elif isinstance(e, FinalScored):
                lines.append(f"{_who(e.seat, names)} final scoring: {e.points} points")
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
        from ..kit.bots import builtin_players
        from .bots import BOTS, MCTS_BUILTIN

        return builtin_players(BOTS, MCTS_BUILTIN)


#: The game object the CLI and the tournament use.
JAVA: Final = Java()
