"""Java's immutable values: the setup, the state of a game and its parts.

Every class is a frozen attrs class; the engine (:mod:`tajmahal.java.rules`) makes
new states with :func:`attrs.evolve` and shares the unchanged parts.  The board is
kept per position (index into the board's coordinates): its height (J22: number of
land tiles), terrain, the top land tile, the figure and the palace on it.
"""

from __future__ import annotations

import random
from typing import ClassVar, Final

from attrs import field, frozen

from ..kit.dealt import Dealt
from ..kit.errors import SetupError
from ..kit.picture import Pictured
from .actions import Action
from .components import DEFAULT_COMPONENTS, Components

#: Terrain of a position (J22).
BARE: Final = 0
RICE: Final = 1
VILLAGE: Final = 2
WATER: Final = 3
TERRAINS: Final = ("bare", "rice", "village", "water")

#: Phases: what the seat to act decides (docs/java-rules.md, "Decisions").
ACT: Final = "act"  # the next action of the turn (J19) or its end
POSITION: Final = "position"  # where the pending action happens
SHAPE: Final = "shape"  # the spaces of the pending land tile
TARGET: Final = "target"  # where the pending walk ends
VALUE: Final = "value"  # the value of the pending palace tile
FESTIVAL: Final = "festival"  # lay a card, end the bid or pass (J67)
OVER: Final = "over"
PHASES: Final = (ACT, POSITION, SHAPE, TARGET, VALUE, FESTIVAL, OVER)

#: J77: when an action token may be used (the official rule, and the source's variant).
START: Final = "official"
ANYTIME: Final = "anytime"
VARIANTS: Final = (START, ANYTIME)

#: No figure, no tile.
NONE: Final = -1
#: The parts of a score (breakdown).
SCORE_SOURCES: Final = ("water", "palaces", "festivals", "final")


@frozen
class Setup(Dealt):
    """What a game starts from: seats (J16 decision: seat 0 starts, play goes by
    increasing seat), the token variant (J77), the shuffled festival cards (J13-J14:
    dealt 3 to each seat in turn, then the display card, the rest is the draw pile,
    top first) and the seed of later reshuffles (J61)."""

    seats: ClassVar[range] = range(2, 5)
    seats_rule: ClassVar[str] = "J1: Java is for 2-4 players"
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    default_components: ClassVar[Components] = DEFAULT_COMPONENTS

    players: int
    variant: str
    deck: tuple[int, ...]
    seed: int = 0
    components: Components = field(default=DEFAULT_COMPONENTS, eq=False, repr=False)

    @classmethod
    def deal(
        cls, players: int, variant: str, rng: random.Random, components: Components
    ) -> Setup:
        deck = list(range(len(components.cards)))
        rng.shuffle(deck)
        return cls(players, variant, tuple(deck), rng.randrange(2**31), components)

    def check(self) -> None:
        """Raises :class:`SetupError` unless a game can start from this setup."""
        self.check_start(self.players, self.variant)
        if sorted(self.deck) != list(range(len(self.components.cards))):
            raise SetupError("J10: the deck must hold every festival card once")


@frozen
class Seat:
    """A player's things: figures in the supply (J44), action tokens (J75), own
    land tiles (J6, J33), the secret hand of festival cards (J59) and the parts of
    the score; ``scored`` once its own final scoring is done (J80)."""

    supply: int
    tokens: int
    twos: int
    rice: int
    villages: int
    hand: tuple[int, ...] = ()
    water: int = 0
    palaces: int = 0
    festivals: int = 0
    final: int = 0
    scored: bool = False

    @property
    def score(self) -> int:
        return self.water + self.palaces + self.festivals + self.final


@frozen
class Pending:
    """A half-made action: the ``action`` chosen in the phase ``act`` and the
    ``position`` chosen for it (None before): a land tile's anchor, the figure
    that walks, the palace's position."""

    action: Action  # PlaceLand, PlaceWater, Deploy, Withdraw, Move, BuildPalace, ...
    position: int | None = None


@frozen
class Festival:
    """A festival under way (J62-J72): its palace, the required symbols (J63), the
    bidders in playing order from the proposer (J67), the cards each has laid and
    who has passed (by position in ``bidders``), whose bid it is, and the cards
    of the bid under way (empty before its first card)."""

    palace: int
    required: tuple[int, ...]
    bidders: tuple[int, ...]
    laid: tuple[tuple[int, ...], ...]
    passed: tuple[bool, ...]
    turn: int  # index into bidders
    bid: tuple[int, ...] = ()


@frozen
class Turn:
    """The running turn: AP left (J18), whether the land tile of J20 lies, cards
    taken (J61), token used (J75), whether anything happened yet (J77), palaces
    built or extended (J55), figures walked since the last other action, and whether
    it is a last turn (J79)."""

    ap: int
    land: bool = False
    cards: int = 0
    token: bool = False
    acted: bool = False
    palaces: tuple[int, ...] = ()
    walked: tuple[int, ...] = ()
    last: bool = False


@frozen
class State(Pictured):
    """A position of a game of Java."""

    game_name = "java"

    setup: Setup
    height: tuple[int, ...]
    terrain: tuple[int, ...]
    top: tuple[int, ...]  # serial of the top land tile per position, NONE if bare
    sizes: tuple[int, ...]  # size of each land tile placed, by serial
    figures: tuple[int, ...]  # the seat whose figure stands there, NONE if free
    palace: tuple[int, ...]  # value of the palace there, 0 if none
    red: tuple[int, ...]  # palaces turned red side up (J56, J64), sorted
    scored_water: tuple[int, ...]  # water positions of areas scored already (J43)
    players: tuple[Seat, ...]
    threes: int  # three-space tiles left (J7)
    water_left: int
    palaces_left: tuple[int, ...]  # by value of PALACE_VALUES
    pile: tuple[int, ...]  # top first
    display: int | None
    discard: tuple[int, ...]
    phase: str
    to_act: int | None
    turn: Turn
    pending: Pending | None = None
    festival: Festival | None = None
    last_turns: tuple[int, ...] = ()  # J79: seats still to take their last turn
    ended: bool = False  # J78: the last three-space tile was placed
    reshuffles: int = 0
    #: A cache, not part of the value (not compared, not copied by ``evolve``): for
    #: each tile size, each shape of ``Board.placements`` the AP a tile costs there
    #: if it fits now, else 0 (J25-J36 but J30; :func:`tajmahal.java.land.fits`).
    fits: tuple[bytes, ...] | None = field(default=None, init=False, eq=False, repr=False)

    @property
    def components(self) -> Components:
        return self.setup.components
