"""Java's actions: what a player may do with the action points of a turn (J19),
and the bids of a festival (J67).  Positions are indices into
:attr:`Board.coords <tajmahal.java.components.Board.coords>`; cards are indices
into :attr:`Components.cards <tajmahal.java.components.Components.cards>`.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen


@frozen
class PlaceLand:
    """J25-J36: a land tile on ``cells`` (1, 2 or 3 positions, sorted); the ones in
    ``villages`` show a village, the others a rice field.  Its size says which tile:
    1 and 2 from the player's own, 3 from the common supply (J33)."""

    cells: tuple[int, ...]
    villages: tuple[int, ...]


@frozen
class PlaceWater:
    """J37-J40: a water tile on a bare grid position."""

    position: int


@frozen
class Deploy:
    """J46: a figure from the supply onto an edge position."""

    position: int


@frozen
class Withdraw:
    """J47: the figure on an edge position back to the supply."""

    position: int


@frozen
class Move:
    """J48-J50: the figure on ``origin`` walks to ``target`` by the cheapest path."""

    origin: int
    target: int


@frozen
class BuildPalace:
    """J51-J54: a palace of ``value`` on a village position."""

    position: int
    value: int


@frozen
class ExtendPalace:
    """J55: a palace tile of a higher ``value`` on the palace at ``position``."""

    position: int
    value: int


@frozen
class TakeCard:
    """J61: the face-up display card (``display``) or the top of the draw pile."""

    display: bool


@frozen
class UseToken:
    """J75-J77: one action token for a seventh action point."""


@frozen
class HoldFestival:
    """J62-J67: a festival in the palace at ``palace``, opened with ``cards``."""

    palace: int
    cards: tuple[int, ...]


@frozen
class Lay:
    """J67: lay ``cards`` in the festival's auction."""

    cards: tuple[int, ...]


@frozen
class Pass:
    """J67: pass in the festival's auction (and leave it)."""


@frozen
class EndTurn:
    """End the turn; unused action points are lost (J18)."""


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
    | Lay
    | Pass
    | EndTurn
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
    Lay,
    Pass,
    EndTurn,
)
