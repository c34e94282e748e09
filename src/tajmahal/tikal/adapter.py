"""Tikal for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

Views, actions and events travel in the forms of :mod:`tajmahal.tikal.serialize`;
the hello's static setup holds the board, the tiles and the other components
(:func:`~tajmahal.tikal.serialize.components_data`).

Fallback policy (for a seat whose bot faulted): end the turn, or pass in an
auction, whenever that is legal; otherwise the first legal action (the first
placement of the tile, the first revealed tile).  It plays the seat passively and
needs no hidden information.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import orjson

from ..arena.game import refusal
from ..arena.player import Player
from .actions import (
    Action,
    Bid,
    BuildCamp,
    CampMove,
    Choose,
    Dig,
    EndTurn,
    Enter,
    Exchange,
    Guard,
    Move,
    Pass,
    Place,
    Uncover,
    figure,
)
from .components import DEFAULT_COMPONENTS, Components
from .events import (
    AuctionWon,
    BidMade,
    BidPassed,
    CampBuilt,
    Event,
    FigureEntered,
    FigureMoved,
    GameOver,
    GuardPlaced,
    LevelUncovered,
    Scored,
    ScoringBegan,
    TileChosen,
    TileDrawn,
    TilePlaced,
    TilesRevealed,
    TreasureDug,
    TreasuresExchanged,
    TurnBegan,
    TurnEnded,
)
from .rules import IllegalAction, apply, legal_actions, new_game, ranks, scores, step
from .serialize import components_data, from_data, setup_from_data, setup_to_data, to_data
from .state import BASIC, SCORE_SOURCES, VARIANTS, Setup, SetupError, State
from .views import view

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .render import TikalPictures

__all__ = ["TIKAL", "Tikal", "space_label"]


def space_label(components: Components, space: int) -> str:
    """A space as people name it: column letter and row number on the board
    (``A1`` top left), from its axial coordinates."""
    q, r = components.board.coords[space]
    row = r + (q - (q & 1)) // 2
    columns = sorted({c[0] for c in components.board.coords})
    rows = sorted({c[1] + (c[0] - (c[0] & 1)) // 2 for c in components.board.coords})
    return f"{chr(ord('A') + columns.index(q))}{rows.index(row) + 1}"


def tile_text(components: Components, tile: int) -> str:
    t = components.tiles[tile]
    detail = {"temple": f" {t.value}", "treasure": f" ({t.masks} masks)"}.get(t.kind, "")
    return f"tile {tile} ({t.back}: {t.kind}{detail})"


def action_text(state: State, action: Action) -> str:
    """A short text for ``action`` taken in ``state``."""
    c = state.components

    def at(space: int) -> str:
        return space_label(c, space)

    if isinstance(action, Place):
        assert state.tile is not None
        turn = f", turned {action.rotation}" if action.rotation else ""
        return f"place {tile_text(c, state.tile)} on {at(action.space)}{turn}"
    if isinstance(action, Enter):
        return f"bring {figure(action.leader)} into play on {at(action.space)}"
    if isinstance(action, Move):
        return f"move {figure(action.leader)} {at(action.origin)} -> {at(action.target)}"
    if isinstance(action, CampMove):
        return f"camp move {figure(action.leader)} {at(action.origin)} -> {at(action.target)}"
    if isinstance(action, Uncover):
        return f"uncover a level of the temple on {at(action.space)}"
    if isinstance(action, Dig):
        return f"dig up a treasure on {at(action.space)}"
    if isinstance(action, Exchange):
        names = c.treasure_types
        return f"exchange {names[action.give]} for seat {action.seat}'s {names[action.take]}"
    if isinstance(action, BuildCamp):
        return f"build a camp on {at(action.space)}"
    if isinstance(action, Guard):
        return f"guard the temple on {at(action.space)} with {figure(action.leader)}"
    if isinstance(action, EndTurn):
        return "end the turn"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Choose):
        return f"choose {tile_text(c, action.tile)}"
    raise AssertionError(action)


def _who(seat: int, names: Sequence[str]) -> str:
    return f"{names[seat]} (seat {seat})" if seat < len(names) else f"seat {seat}"


class Tikal:
    """Tikal as an arena :class:`~tajmahal.arena.game.Game`."""

    name = "tikal"
    title = "Tikal"
    min_players = 2
    max_players = 4
    score_sources: tuple[str, ...] = SCORE_SOURCES

    def __init__(self, components: Components = DEFAULT_COMPONENTS) -> None:
        self.components = components

    # -- setups

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> Setup:
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        return Setup.random(players, seed, variant or BASIC, self.components)

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
        first: ``"T17: first place the tile you drew"``.
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
        return to_data(event)

    def event_json(self, event: Event, seat: int | None) -> bytes:
        return orjson.dumps(to_data(event))

    def is_public(self, event: Event) -> bool:
        """Every event of Tikal is public (a dug treasure lies face up, T32)."""
        return True

    # -- results

    def scores(self, state: State) -> list[int]:
        return scores(state)

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [
            {"temples": p.temple_points, "treasures": p.treasure_points, "capital": p.capital}
            for p in state.players
        ]

    def ranks(self, state: State) -> list[int]:
        return ranks(scores(state))

    def fallback(self, state: State, legal: Sequence[Action]) -> int:
        """End the turn or pass when allowed (always last), else the first action."""
        return len(legal) - 1 if isinstance(legal[-1], (EndTurn, Pass)) else 0

    # -- for people

    def describe_action(self, state: State, action: Action) -> str:
        return action_text(state, action)

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        lines = [f"# Tikal ({state.setup.variant}); {_who(0, names)} starts"]
        if state.tile is not None:
            lines.append(f"{_who(0, names)} draws {tile_text(state.components, state.tile)}")
        if state.auction is not None:
            shown = ", ".join(tile_text(state.components, t) for t in state.auction.display)
            lines.append(f"revealed: {shown}")
        return lines

    def describe_events(
        self, state: State, events: Sequence[Event], names: Sequence[str]
    ) -> list[str]:
        c = state.components
        lines: list[str] = []
        for e in events:
            if isinstance(e, TileDrawn):
                lines.append(f"{_who(e.seat, names)} draws {tile_text(c, e.tile)}")
            elif isinstance(e, TilePlaced):
                extra = f" with {e.tokens} treasures" if e.tokens else ""
                lines.append(f"{tile_text(c, e.tile)} lies on {space_label(c, e.space)}{extra}")
            elif isinstance(e, TurnBegan):
                if e.kind != "normal":
                    lines.append(f"{_who(e.seat, names)} takes a scoring turn")
            elif isinstance(e, TurnEnded):
                if e.left:
                    lines.append(f"{_who(e.seat, names)} ends the turn ({e.left} AP lost)")
            elif isinstance(e, FigureEntered):
                lines.append(
                    f"{_who(e.seat, names)} brings {figure(e.leader)} into play on "
                    f"{space_label(c, e.space)}"
                )
            elif isinstance(e, FigureMoved):
                how = "camp move" if e.camp else f"{e.cost} AP"
                lines.append(
                    f"{_who(e.seat, names)} moves {figure(e.leader)} {space_label(c, e.origin)}"
                    f" -> {space_label(c, e.target)} ({how})"
                )
            elif isinstance(e, CampBuilt):
                lines.append(f"{_who(e.seat, names)} builds a camp on {space_label(c, e.space)}")
            elif isinstance(e, BidMade):
                lines.append(f"{_who(e.seat, names)} bids {e.amount}")
            elif isinstance(e, BidPassed):
                lines.append(f"{_who(e.seat, names)} passes")
            elif isinstance(e, TileChosen):
                lines.append(f"{_who(e.seat, names)} chooses {tile_text(c, e.tile)}")
            elif isinstance(e, LevelUncovered):
                lines.append(
                    f"{_who(e.seat, names)} uncovers the temple on {space_label(c, e.space)}: "
                    f"now worth {e.value}"
                )
            elif isinstance(e, TreasureDug):
                lines.append(f"{_who(e.seat, names)} digs up {c.treasure_types[e.treasure]}")
            elif isinstance(e, TreasuresExchanged):
                lines.append(
                    f"{_who(e.seat, names)} takes {c.treasure_types[e.took]} from "
                    f"{_who(e.other, names)} for {c.treasure_types[e.gave]}"
                )
            elif isinstance(e, GuardPlaced):
                lines.append(
                    f"{_who(e.seat, names)} guards the temple on {space_label(c, e.space)}; "
                    f"{e.removed_workers} workers"
                    + (" and the leader" if e.removed_leader else "")
                    + " leave the game"
                )
            elif isinstance(e, ScoringBegan):
                what = "final scoring round" if e.volcano is None else "volcano! scoring round"
                order = ", ".join(_who(s, names) for s in e.order)
                lines.append(f"# {what}: {order}")
            elif isinstance(e, Scored):
                lines.append(
                    f"{_who(e.seat, names)} scores {e.temples} for temples and {e.treasures} "
                    f"for treasures: {e.total}"
                )
            elif isinstance(e, TilesRevealed):
                lines.append("# revealed: " + ", ".join(tile_text(c, t) for t in e.tiles))
            elif isinstance(e, AuctionWon):
                lines.append(f"{_who(e.seat, names)} wins the turn for {e.bid}")
            elif isinstance(e, GameOver):
                lines.append(f"game over: totals {list(e.scores)}, ranks {list(e.ranks)}")
        return lines

    def pictures(self) -> TikalPictures:
        """How the HTML viewer and the browser game draw the game (SVG layers)."""
        from .render import TikalPictures

        return TikalPictures(self.components)

    def terminal(self, state: State, names: Sequence[str], seat: int | None) -> RenderableType:
        """The position for ``tajmahal show`` (rich)."""
        from .terminal import position

        return position(state, names, seat)

    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        from ..kit.bots import builtin_players
        from .bots import BOTS, MCTS_BUILTIN

        return builtin_players(BOTS, MCTS_BUILTIN)


#: The game object the CLI and the tournament use.
TIKAL: Final = Tikal()
