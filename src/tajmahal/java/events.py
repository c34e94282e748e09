"""What happens in a game of Java, step by step (for records, bots and people).

Every event is public except :class:`CardTaken` from the draw pile: only its taker
sees the card (J59); the adapter hides it from the others.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from ..kit.scoring import GameOver as GameOver  # J85: the final totals and ranks


@frozen
class TurnBegan:
    seat: int
    ap: int
    last: bool  # J79: a last turn after the end was triggered


@frozen
class LandPlaced:
    seat: int
    cells: tuple[int, ...]
    villages: tuple[int, ...]
    level: int
    cost: int


@frozen
class WaterPlaced:
    seat: int
    position: int


@frozen
class WaterScored:
    """J43: an enclosed water area; ``seat`` None when nobody scores."""

    area: tuple[int, ...]
    seat: int | None
    points: int


@frozen
class FigureDeployed:
    seat: int
    position: int
    cost: int


@frozen
class FigureWithdrawn:
    seat: int
    position: int
    cost: int


@frozen
class FigureMoved:
    seat: int
    origin: int
    target: int
    cost: int


@frozen
class PalaceBuilt:
    seat: int
    position: int
    value: int
    points: int
    extended: bool


@frozen
class CardTaken:
    """J61: ``card`` is None where the viewer may not see it (from the pile)."""

    seat: int
    display: bool
    card: int | None
    new_display: int | None


@frozen
class PileReshuffled:
    """J61 (decision): the discards became the new draw pile."""

    size: int


@frozen
class TokenUsed:
    seat: int
    left: int


@frozen
class FestivalBegan:
    seat: int
    palace: int
    required: tuple[int, ...]
    bidders: tuple[int, ...]


@frozen
class CardLaid:
    """J67: a card laid in a festival's auction."""

    seat: int
    card: int


@frozen
class Passed:
    seat: int


@frozen
class FestivalScored:
    """J68-J71: symbols by seat, the winners and what each of them scored."""

    palace: int
    symbols: tuple[int, ...]
    winners: tuple[int, ...]
    points: int


@frozen
class TurnEnded:
    seat: int
    left: int


@frozen
class FinalScored:
    """J80-J84: a seat's own final scoring; ``cities`` lists (palace, place, points)."""

    seat: int
    cities: tuple[tuple[int, int, int], ...]
    points: int


Event = (
    TurnBegan
    | LandPlaced
    | WaterPlaced
    | WaterScored
    | FigureDeployed
    | FigureWithdrawn
    | FigureMoved
    | PalaceBuilt
    | CardTaken
    | PileReshuffled
    | TokenUsed
    | FestivalBegan
    | CardLaid
    | Passed
    | FestivalScored
    | TurnEnded
    | FinalScored
    | GameOver
)
EVENT_TYPES: Final = (
    TurnBegan,
    LandPlaced,
    WaterPlaced,
    WaterScored,
    FigureDeployed,
    FigureWithdrawn,
    FigureMoved,
    PalaceBuilt,
    CardTaken,
    PileReshuffled,
    TokenUsed,
    FestivalBegan,
    CardLaid,
    Passed,
    FestivalScored,
    TurnEnded,
    FinalScored,
    GameOver,
)
