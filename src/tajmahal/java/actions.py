"""Java's actions: the decisions of a turn (J19) and of a festival's auction (J67).

An action of the rules is made of one to three small decisions, so that no
decision offers more than a position's worth of choices (docs/java-rules.md,
"Decisions"): first *what* (the phase ``act``: :class:`PlaceLand`,
:class:`Move`, ...), then *where* (``position``: :class:`Select`), then *how*
(``shape`` of a tile, ``target`` of a walk, ``value`` of a palace).  The state
holds the half-made action (:attr:`State.pending
<tajmahal.java.state.State.pending>`) between them.  Positions are indices into
:attr:`Board.coords <tajmahal.java.components.Board.coords>`; cards are indices
into :attr:`Components.cards <tajmahal.java.components.Components.cards>`.

>>> from tajmahal.java import Setup, new_game, legal_actions, apply
>>> state = new_game(Setup.random(players=2, seed=1))
>>> legal_actions(state)[:2]
[PlaceLand(tile='three'), PlaceLand(tile='two')]
>>> state = apply(state, PlaceLand("three"))
>>> state.phase, state.pending
('position', Pending(action=PlaceLand(tile='three'), position=None))
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

__all__ = [
    "ACTION_TYPES", "TILES", "Action", "BuildPalace", "Deploy", "Done", "EndTurn",
    "ExtendPalace", "HoldFestival", "Lay", "Move", "Pass", "PlaceLand", "PlaceWater",
    "Select", "Shape", "TakeCard", "UseToken", "Value", "Withdraw",
]

#: J6-J8, J33: the land tiles, by what :class:`PlaceLand` calls them: a three-space
#: tile of the common supply, the seat's own two-space tiles and one-space rice and
#: village tiles.
THREE: Final = "three"
TWO: Final = "two"
RICE_TILE: Final = "rice"
VILLAGE_TILE: Final = "village"
TILES: Final = (THREE, TWO, RICE_TILE, VILLAGE_TILE)
#: Spaces of each tile.
TILE_SIZES: Final = {THREE: 3, TWO: 2, RICE_TILE: 1, VILLAGE_TILE: 1}


# --------------------------------------------------------------------------- what (phase act)


@frozen
class PlaceLand:
    """J25-J36: lay a land tile (``tile``: one of :data:`TILES`); then
    :class:`Select` its anchor (its village space; the only space of a one-space
    tile) and, for a tile of 2 or 3 spaces, its :class:`Shape`."""

    tile: str


@frozen
class PlaceWater:
    """J37-J40: lay a water tile; then :class:`Select` a bare grid position."""


@frozen
class Deploy:
    """J46: a figure from the supply; then :class:`Select` an edge position."""


@frozen
class Withdraw:
    """J47: a figure back to the supply; then :class:`Select` it (on the edge)."""


@frozen
class Move:
    """J48-J50: a figure walks; then :class:`Select` it and its target."""


@frozen
class BuildPalace:
    """J51-J54: a palace; then :class:`Select` its village position and its :class:`Value`."""


@frozen
class ExtendPalace:
    """J55: a higher palace tile; then :class:`Select` the palace and the new :class:`Value`."""


@frozen
class TakeCard:
    """J61: the face-up display card (``display``) or the top of the draw pile."""

    display: bool


@frozen
class UseToken:
    """J75-J77: one action token for a seventh action point."""


@frozen
class HoldFestival:
    """J62-J66: a festival; then :class:`Select` the palace.  The auction begins
    with the proposer's cards (:class:`Lay`)."""


@frozen
class EndTurn:
    """End the turn; unused action points are lost (J18)."""


# --------------------------------------------------------------------------- where, how


@frozen
class Select:
    """A position: where the pending action happens (phase ``position``) or
    where the chosen figure walks to (phase ``target``)."""

    position: int


@frozen
class Shape:
    """The spaces of a two- or three-space tile (sorted, the anchor among them:
    it shows the village, the others rice)."""

    cells: tuple[int, ...]


@frozen
class Value:
    """The value of the palace tile being built or put on top (J54-J55)."""

    value: int


# --------------------------------------------------------------------------- the auction


@frozen
class Lay:
    """J67: lay ``card`` (one showing a required symbol) in the bid under way."""

    card: int


@frozen
class Done:
    """J67: the bid under way is complete (the seat laid a card in it and stays in)."""


@frozen
class Pass:
    """J67: pass in the festival's auction (and leave it)."""


Action = (
    PlaceLand
    | PlaceWater
    | Deploy
    | Withdraw
    | Move
    | BuildPalace
    | ExtendPalace
    | TakeCard
    | UseToken
    | HoldFestival
    | EndTurn
    | Select
    | Shape
    | Value
    | Lay
    | Done
    | Pass
)
ACTION_TYPES: Final = (
    PlaceLand,
    PlaceWater,
    Deploy,
    Withdraw,
    Move,
    BuildPalace,
    ExtendPalace,
    TakeCard,
    UseToken,
    HoldFestival,
    EndTurn,
    Select,
    Shape,
    Value,
    Lay,
    Done,
    Pass,
)

# The choices of the phase ``act`` (J19), one shared value each (actions are
# immutable values: the engine offers these, with no allocation per decision).
PLACE_LAND: Final = {t: PlaceLand(t) for t in TILES}
PLACE_WATER: Final = PlaceWater()
DEPLOY: Final = Deploy()
WITHDRAW: Final = Withdraw()
MOVE: Final = Move()
BUILD_PALACE: Final = BuildPalace()
EXTEND_PALACE: Final = ExtendPalace()
TAKE_DISPLAY: Final = TakeCard(True)
TAKE_PILE: Final = TakeCard(False)
USE_TOKEN: Final = UseToken()
HOLD_FESTIVAL: Final = HoldFestival()
END_TURN: Final = EndTurn()
#: Every choice of the phase ``act``, in the order the engine lists them.
ACT_ACTIONS: Final[tuple[Action, ...]] = (
    *PLACE_LAND.values(),
    PLACE_WATER,
    DEPLOY,
    WITHDRAW,
    MOVE,
    BUILD_PALACE,
    EXTEND_PALACE,
    TAKE_DISPLAY,
    TAKE_PILE,
    USE_TOKEN,
    HOLD_FESTIVAL,
    END_TURN,
)
