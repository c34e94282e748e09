"""What happens in a step of Tikal, for the record and the bots.

Every event is public: the only secrets of Tikal are the order of the tiles within
a back letter and the face-down treasure tokens, and no event shows them before
they are revealed to all.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from ..kit.scoring import GameOver as GameOver  # T45: the final totals and ranks


@frozen
class TileDrawn:
    """T17: ``seat`` draws ``tile`` from the stack."""

    seat: int
    tile: int


@frozen
class TilePlaced:
    """T19-T21: ``tile`` goes on ``space`` (turned ``rotation``); a treasure tile gets
    ``tokens`` face-down treasure tokens."""

    seat: int
    tile: int
    space: int
    rotation: int
    tokens: int = 0


@frozen
class TurnBegan:
    """``seat`` begins a turn of 10 AP: ``normal`` or ``scoring`` (T42-T45)."""

    seat: int
    kind: str


@frozen
class TurnEnded:
    """``seat`` ends its turn with ``left`` AP unused (T18)."""

    seat: int
    left: int


@frozen
class FigureEntered:
    """T23: ``seat`` brings a worker or its leader into play on ``space``."""

    seat: int
    space: int
    leader: bool


@frozen
class FigureMoved:
    """T24-T25: ``seat`` moves a figure for ``cost`` AP (``camp``: a camp move)."""

    seat: int
    origin: int
    target: int
    leader: bool
    cost: int
    camp: bool = False


@frozen
class CampBuilt:
    """T38: ``seat`` builds a camp on ``space``."""

    seat: int
    space: int


@frozen
class LevelUncovered:
    """T29: the temple on ``space`` now has ``value``."""

    seat: int
    space: int
    value: int


@frozen
class TreasureDug:
    """T32: ``seat`` digs up ``treasure`` (a type id) on ``space``; it lies face up."""

    seat: int
    space: int
    treasure: int


@frozen
class TreasuresExchanged:
    """T35: ``seat`` takes ``took`` from ``other`` and gives ``gave``."""

    seat: int
    other: int
    took: int
    gave: int


@frozen
class GuardPlaced:
    """T40: ``seat`` guards the temple on ``space``; ``removed_workers`` workers and
    (if ``removed_leader``) its leader leave the game."""

    seat: int
    space: int
    leader: bool
    removed_workers: int
    removed_leader: bool


@frozen
class ScoringBegan:
    """T42/T45/T56: a scoring round in the ``order`` given; ``volcano`` is the tile
    that set it off (None: the final round)."""

    order: tuple[int, ...]
    volcano: int | None


@frozen
class Scored:
    """T44: ``seat`` scores ``temples`` + ``treasures`` points, ``total`` in all now."""

    seat: int
    temples: int
    treasures: int
    total: int


@frozen
class TilesRevealed:
    """T47: the tiles auctioned this round."""

    tiles: tuple[int, ...]


@frozen
class BidMade:
    """T48: ``seat`` bids ``amount``."""

    seat: int
    amount: int


@frozen
class BidPassed:
    """T48: ``seat`` passes in this auction."""

    seat: int


@frozen
class TileChosen:
    """T49: ``seat`` takes ``tile`` from the revealed ones."""

    seat: int
    tile: int


@frozen
class AuctionWon:
    """T49/T51/T52: ``seat`` takes the next turn for ``bid`` points."""

    seat: int
    bid: int


Event = (
    TileDrawn | TilePlaced | TurnBegan | TurnEnded | FigureEntered | FigureMoved | CampBuilt
    | LevelUncovered | TreasureDug | TreasuresExchanged | GuardPlaced | ScoringBegan | Scored
    | TilesRevealed | BidMade | BidPassed | TileChosen | AuctionWon | GameOver
)  # fmt: skip
EVENT_TYPES: Final = (
    TileDrawn, TilePlaced, TurnBegan, TurnEnded, FigureEntered, FigureMoved, CampBuilt,
    LevelUncovered, TreasureDug, TreasuresExchanged, GuardPlaced, ScoringBegan, Scored,
    TilesRevealed, BidMade, BidPassed, TileChosen, AuctionWon, GameOver,
)  # fmt: skip
