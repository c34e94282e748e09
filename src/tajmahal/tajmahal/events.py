"""Public events: what happened in a step, so that a follower need not recompute it.

:func:`tajmahal.step` returns the events of one action.  Only
:class:`CardDrawn` carries a secret (which card came from the deck); use
:func:`event_for` to get the version a given seat may see.
"""

from __future__ import annotations

from typing import Final

from attrs import evolve, frozen

from ..kit.scoring import GameOver as GameOver  # E5/F2: the final totals and ranks
from .tiles import BonusTile


@frozen
class VisitBegan:
    """S3/E3/E4: a visit starts in ``province`` with this display."""

    visit: int
    province: int
    start_player: int
    display: tuple[int, ...]


@frozen
class Played:
    """T3: ``seat`` played ``card`` (and ``extra``)."""

    seat: int
    card: int
    extra: int | None


@frozen
class Withdrew:
    """W1: ``seat`` withdrew and won ``prizes`` (symbol names, elephant = province tile)."""

    seat: int
    prizes: tuple[str, ...]


@frozen
class PalaceBuilt:
    """W4/W5: ``seat`` built a palace (``mogul``: with the ring) on ``city``."""

    seat: int
    city: int
    mogul: bool


@frozen
class BonusTaken:
    """W6: ``seat`` took the bonus ``tile`` from the fortress ``city``."""

    seat: int
    city: int
    tile: BonusTile


@frozen
class ProvinceTileTaken:
    """W3: ``seat`` took province tile number ``tile``."""

    seat: int
    tile: int


@frozen
class Scored:
    """``seat`` scored ``points`` from ``source`` (a :class:`~tajmahal.Score` field)."""

    seat: int
    source: str
    points: int
    reason: str


@frozen
class Discarded:
    """W10/D3/D5: cards went to the discard pile (``seat`` None: the dummy's)."""

    seat: int | None
    cards: tuple[int, ...]


@frozen
class CardDrawn:
    """W6/W11: ``seat`` drew the top card of the deck (``card`` is None for other seats)."""

    seat: int
    card: int | None
    reason: str


@frozen
class CardTaken:
    """W11: ``seat`` took ``card`` from the display."""

    seat: int
    card: int


@frozen
class Reshuffled:
    """W12: the discard pile (``cards`` many) was shuffled into a new deck."""

    cards: int


@frozen
class SpecialCardTaken:
    """E2: ``seat`` returned two ``character`` tiles and took that special card."""

    seat: int
    character: str
    card: int
    previous_holder: int | None


@frozen
class DummyTurned:
    """D2: the dummy turned ``card`` from the deck."""

    card: int


@frozen
class DummyWithdrew:
    """D3: the dummy stopped on ``card`` and won ``prizes``, which leave the court."""

    card: int
    prizes: tuple[str, ...]


@frozen
class VisitEnded:
    """E1: every player has withdrawn."""

    visit: int


Event = (
    VisitBegan
    | Played
    | Withdrew
    | PalaceBuilt
    | BonusTaken
    | ProvinceTileTaken
    | Scored
    | Discarded
    | CardDrawn
    | CardTaken
    | Reshuffled
    | SpecialCardTaken
    | DummyTurned
    | DummyWithdrew
    | VisitEnded
    | GameOver
)
EVENT_TYPES: Final = (
    VisitBegan,
    Played,
    Withdrew,
    PalaceBuilt,
    BonusTaken,
    ProvinceTileTaken,
    Scored,
    Discarded,
    CardDrawn,
    CardTaken,
    Reshuffled,
    SpecialCardTaken,
    DummyTurned,
    DummyWithdrew,
    VisitEnded,
    GameOver,
)


def event_for(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may see it (None: a spectator, who sees no secret)."""
    if isinstance(event, CardDrawn) and event.seat != seat and event.card is not None:
        return evolve(event, card=None)
    return event
