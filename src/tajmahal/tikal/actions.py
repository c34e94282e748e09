"""The actions of Tikal (rules T17-T41, T48-T49).

Actions are small frozen values compared by content; each keeps its hash once
computed (the search bots look actions up in their trees all the time).  ``leader`` says whether the
figure is the expedition leader (True) or a worker (False).  Each action costs the
action points of :func:`cost` (T23-T40); the others cost nothing.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

__all__ = [
    "ACTION_TYPES", "Action", "Bid", "BuildCamp", "CampMove", "Choose", "Dig", "EndTurn",
    "Enter", "Exchange", "Guard", "Move", "Pass", "Place", "Uncover",
]


@frozen(cache_hash=True)
class Place:
    """T19-T21: put the tile in hand on ``space``, turned ``rotation`` sixths of a turn
    (its edge ``d`` then faces direction ``d + rotation``)."""

    space: int
    rotation: int = 0


@frozen(cache_hash=True)
class Enter:
    """T23 (1 AP): bring a figure into play on the base camp or one of your camps."""

    space: int
    leader: bool = False


@frozen(cache_hash=True)
class Move:
    """T25-T27 (1 AP a stone): move a figure to the adjacent ``target``."""

    origin: int
    target: int
    leader: bool = False


@frozen(cache_hash=True)
class CampMove:
    """T24 (1 AP): move a figure between the base camp and your camps."""

    origin: int
    target: int
    leader: bool = False


@frozen(cache_hash=True)
class Uncover:
    """T29-T31 (2 AP): put the next level on the temple at ``space``."""

    space: int


@frozen(cache_hash=True)
class Dig:
    """T32-T33 (3 AP): take the top treasure token of ``space``."""

    space: int


@frozen(cache_hash=True)
class Exchange:
    """T35-T37 (3 AP): take ``seat``'s single treasure ``take`` for your single ``give``."""

    seat: int
    take: int
    give: int


@frozen(cache_hash=True)
class BuildCamp:
    """T38-T39 (5 AP): build one of your camps on ``space``."""

    space: int


@frozen(cache_hash=True)
class Guard:
    """T40 (5 AP): a figure of yours on the temple at ``space`` becomes its guard."""

    space: int
    leader: bool = False


@frozen(cache_hash=True)
class EndTurn:
    """T18: end the turn; action points left over are lost."""


@frozen(cache_hash=True)
class Bid:
    """T48: bid ``amount`` points for the next turn (auction variant)."""

    amount: int


@frozen(cache_hash=True)
class Pass:
    """T48: drop out of this auction (auction variant)."""


@frozen(cache_hash=True)
class Choose:
    """T49: take ``tile`` from the revealed ones (auction variant)."""

    tile: int


Action = (
    Place
    | Enter
    | Move
    | CampMove
    | Uncover
    | Dig
    | Exchange
    | BuildCamp
    | Guard
    | EndTurn
    | Bid
    | Pass
    | Choose
)
ACTION_TYPES: Final = (
    Place,
    Enter,
    Move,
    CampMove,
    Uncover,
    Dig,
    Exchange,
    BuildCamp,
    Guard,
    EndTurn,
    Bid,
    Pass,
    Choose,
)
END_TURN: Final = EndTurn()
PASS: Final = Pass()

#: AP costs of the actions with a fixed price (T23, T24, T29, T32, T35, T38, T40).
COSTS: Final[dict[type, int]] = {
    Enter: 1,
    CampMove: 1,
    Uncover: 2,
    Dig: 3,
    Exchange: 3,
    BuildCamp: 5,
    Guard: 5,
}


def figure(leader: bool) -> str:
    return "the leader" if leader else "a worker"
