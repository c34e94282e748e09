"""Tikal's immutable values: the setup, the state of a game and its parts.

Every class is a frozen attrs class; the engine (:mod:`tajmahal.tikal.rules`)
makes new states with :func:`attrs.evolve` and shares the unchanged parts.
"""

from __future__ import annotations

import random
from typing import ClassVar, Final

from attrs import field, frozen

from ..kit.dealt import Dealt
from ..kit.errors import SetupError
from ..kit.picture import Pictured
from .components import DEFAULT_COMPONENTS, Components

#: Where a leader is when it is not on a space.
RESERVE: Final = -1  # not yet brought into play
GONE: Final = -2  # removed from the game by a guard (T40), or standing guard itself

#: Phases: what the seat to act decides.
PLACE: Final = "place"  # where to put the tile in hand (T19-T21)
ACT: Final = "act"  # an action of its 10 AP, or the end of the turn (T17-T41)
BID: Final = "bid"  # auction variant: bid or pass (T48)
CHOOSE: Final = "choose"  # auction variant: which revealed tile to take (T49)
OVER: Final = "over"

#: Kinds of turn in the ACT phase.
NORMAL: Final = "normal"
SCORING: Final = "scoring"  # T42-T45: 10 AP, then the seat scores

#: Variants (T46-T56: the professional game with auctions).
BASIC: Final = "basic"
AUCTION: Final = "auction"
VARIANTS: Final = (BASIC, AUCTION)

#: T18: action points of a turn.
ACTION_POINTS: Final = 10
#: T46: each score cube starts on 20 in the auction variant.
AUCTION_CAPITAL: Final = 20
#: The parts of a score (breakdown).
SCORE_SOURCES: Final = ("temples", "treasures", "capital")


def deal_stack(components: Components, rng: random.Random) -> tuple[int, ...]:
    """T11: the tiles shuffled within each back letter, A on top, G at the bottom."""
    stack: list[int] = []
    for back in sorted({t.back for t in components.tiles}):
        group = [t.id for t in components.tiles if t.back == back]
        rng.shuffle(group)
        stack.extend(group)
    return tuple(stack)


def all_treasures(components: Components) -> tuple[int, ...]:
    """T6: every treasure token by type id, in order (each type ``copies`` times)."""
    copies = components.treasure_copies
    return tuple(t for t in range(len(components.treasure_types)) for _ in range(copies))


def deal_treasures(components: Components, rng: random.Random) -> tuple[int, ...]:
    """T14: every treasure token, shuffled face down."""
    tokens = list(all_treasures(components))
    rng.shuffle(tokens)
    return tuple(tokens)


@frozen
class Setup(Dealt):
    """What a game starts from: seats, variant, the tile stack (top first) and the
    face-down treasure supply (top first).  T16: seat 0 is the oldest player."""

    seats: ClassVar[range] = range(2, 5)
    seats_rule: ClassVar[str] = "T1: Tikal is for 2-4 players"
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    default_components: ClassVar[Components] = DEFAULT_COMPONENTS

    players: int
    variant: str
    stack: tuple[int, ...]
    treasures: tuple[int, ...]
    components: Components = field(default=DEFAULT_COMPONENTS, eq=False, repr=False)

    @classmethod
    def deal(
        cls, players: int, variant: str, rng: random.Random, components: Components
    ) -> Setup:
        stack = deal_stack(components, rng)
        return cls(players, variant, stack, deal_treasures(components, rng), components)

    def check(self) -> None:
        """Raises :class:`SetupError` unless a game can start from this setup."""
        c = self.components
        self.check_start(self.players, self.variant)
        if sorted(self.stack) != list(range(len(c.tiles))):
            raise SetupError("T5: the stack must hold every tile once")
        backs = [c.tiles[t].back for t in self.stack]
        if backs != sorted(backs):
            raise SetupError("T11: the stack must hold the A tiles on top, then B, ... G")
        if tuple(sorted(self.treasures)) != all_treasures(c):
            raise SetupError("T6: the supply must hold every treasure token once")


@frozen
class Space:
    """An explored space: its kind (``base``, ``jungle``, ``temple``, ``treasure``,
    ``volcano``), stones on its edges (rotated as placed), tile id (None for a start
    space), temple value (T22), face-down treasure tokens (T21; the top is the last),
    the seat whose camp (T38) or guard (T40) stands on it, and whether that guard is
    its leader."""

    kind: str
    stones: tuple[int, ...]
    tile: int | None = None
    value: int = 0
    tokens: tuple[int, ...] = ()
    camp: int | None = None
    guard: int | None = None
    guard_leader: bool = False


@frozen
class Seat:
    """One expedition: its figures off the board (T12, T23), camps and guards (T39,
    T40), treasures held face up (a count per type, T32) and the parts of its score."""

    reserve: int
    removed: int = 0
    leader: int = RESERVE
    camps: tuple[int, ...] = ()
    guards: tuple[int, ...] = ()
    treasures: tuple[int, ...] = ()
    temple_points: int = 0
    treasure_points: int = 0
    capital: int = 0

    @property
    def score(self) -> int:
        return self.capital + self.temple_points + self.treasure_points


@frozen
class Round:
    """A scoring round (T42-T45, T55-T56): the seats still to take their scoring turn
    (the first is taking it), who drew the volcano (None: the final round) and the
    volcano waiting to be placed."""

    order: tuple[int, ...]
    trigger: int | None = None
    volcano: int | None = None


@frozen
class Auction:
    """The auction variant's round (T47-T55): the revealed tiles, whose indicator is
    face down (had a turn this round), and the auction under way."""

    display: tuple[int, ...]
    done: tuple[bool, ...]
    opener: int
    high: int = 0
    bidder: int | None = None
    passed: tuple[bool, ...] = ()


@frozen
class State(Pictured):
    """A position of a game of Tikal.  ``workers[space][seat]`` counts the workers of
    ``seat`` on ``space``; a seat's leader is where :attr:`Seat.leader` says."""

    game_name = "tikal"

    setup: Setup
    spaces: tuple[Space | None, ...]
    workers: tuple[tuple[int, ...], ...]
    players: tuple[Seat, ...]
    stack: tuple[int, ...]
    supply: tuple[int, ...]
    levels: tuple[int, ...]
    phase: str
    to_act: int | None
    tile: int | None = None
    ap: int = 0
    turn: str = NORMAL
    uncovered: tuple[tuple[int, int], ...] = ()
    dug: tuple[tuple[int, int], ...] = ()
    round: Round | None = None
    auction: Auction | None = None
    last_placer: int | None = None

    @property
    def components(self) -> Components:
        return self.setup.components

    def figures(self, space: int, seat: int) -> int:
        """How many figures (workers and leader) ``seat`` has on ``space``."""
        return self.workers[space][seat] + (self.players[seat].leader == space)

    def strength(self, space: int, seat: int) -> int:
        """T40/T41: workers count 1, the leader counts 3."""
        leader = self.components.leader_strength if self.players[seat].leader == space else 0
        return self.workers[space][seat] + leader

