"""A state being changed by one step of Tikal, and the frozen values it is made of.

The engine (:mod:`tajmahal.tikal.rules`, :mod:`tajmahal.tikal.effects`) changes a
:class:`Draft` of the state and freezes it into one new
:class:`~tajmahal.tikal.state.State` at the end of a step.  It builds the frozen
values through their slots (:mod:`tajmahal.kit.slots`); the builders and classes
are ``Final`` names, which mypyc keeps in C statics.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from ..kit.slots import slot_setters
from .events import Event
from .state import Auction, Round, Seat, Setup, Space, State

#: Where a step puts its events: a list (``step``), or None (``apply`` needs none).
Events: TypeAlias = list[Event] | None

_NEW: Final = object.__new__
_STATE: Final = State
_SEAT: Final = Seat
_SPACE: Final = Space
_STATE_SET: Final = slot_setters(State)
_SEAT_SET: Final = slot_setters(Seat)
_SPACE_SET: Final = slot_setters(Space)


def seat_of(
    reserve: int,
    removed: int,
    leader: int,
    camps: tuple[int, ...],
    guards: tuple[int, ...],
    treasures: tuple[int, ...],
    temple_points: int,
    treasure_points: int,
    capital: int,
) -> Seat:
    """``Seat(...)``, every field given in order."""
    p: Seat = _NEW(_SEAT)
    _SEAT_SET[0](p, reserve)
    _SEAT_SET[1](p, removed)
    _SEAT_SET[2](p, leader)
    _SEAT_SET[3](p, camps)
    _SEAT_SET[4](p, guards)
    _SEAT_SET[5](p, treasures)
    _SEAT_SET[6](p, temple_points)
    _SEAT_SET[7](p, treasure_points)
    _SEAT_SET[8](p, capital)
    return p


def space_of(
    kind: str,
    stones: tuple[int, ...],
    tile: int | None,
    value: int,
    tokens: tuple[int, ...],
    camp: int | None,
    guard: int | None,
    guard_leader: bool,
) -> Space:
    """``Space(...)``, every field given in order."""
    s: Space = _NEW(_SPACE)
    _SPACE_SET[0](s, kind)
    _SPACE_SET[1](s, stones)
    _SPACE_SET[2](s, tile)
    _SPACE_SET[3](s, value)
    _SPACE_SET[4](s, tokens)
    _SPACE_SET[5](s, camp)
    _SPACE_SET[6](s, guard)
    _SPACE_SET[7](s, guard_leader)
    return s


def state_of(
    setup: Setup,
    spaces: tuple[Space | None, ...],
    workers: tuple[tuple[int, ...], ...],
    players: tuple[Seat, ...],
    stack: tuple[int, ...],
    supply: tuple[int, ...],
    levels: tuple[int, ...],
    phase: str,
    to_act: int | None,
    tile: int | None,
    ap: int,
    turn: str,
    uncovered: tuple[tuple[int, int], ...],
    dug: tuple[tuple[int, int], ...],
    round: Round | None,
    auction: Auction | None,
    last_placer: int | None,
) -> State:
    """``State(...)``, every field given in order."""
    s: State = _NEW(_STATE)
    _STATE_SET[0](s, setup)
    _STATE_SET[1](s, spaces)
    _STATE_SET[2](s, workers)
    _STATE_SET[3](s, players)
    _STATE_SET[4](s, stack)
    _STATE_SET[5](s, supply)
    _STATE_SET[6](s, levels)
    _STATE_SET[7](s, phase)
    _STATE_SET[8](s, to_act)
    _STATE_SET[9](s, tile)
    _STATE_SET[10](s, ap)
    _STATE_SET[11](s, turn)
    _STATE_SET[12](s, uncovered)
    _STATE_SET[13](s, dug)
    _STATE_SET[14](s, round)
    _STATE_SET[15](s, auction)
    _STATE_SET[16](s, last_placer)
    return s


class Draft:
    """A state being changed by one step; :meth:`freeze` makes the new
    :class:`State` (the fields are :class:`State`'s)."""

    def __init__(self, s: State) -> None:
        self.setup: Setup = s.setup
        self.spaces: tuple[Space | None, ...] = s.spaces
        self.workers: tuple[tuple[int, ...], ...] = s.workers
        self.players: tuple[Seat, ...] = s.players
        self.stack: tuple[int, ...] = s.stack
        self.supply: tuple[int, ...] = s.supply
        self.levels: tuple[int, ...] = s.levels
        self.phase: str = s.phase
        self.to_act: int | None = s.to_act
        self.tile: int | None = s.tile
        self.ap: int = s.ap
        self.turn: str = s.turn
        self.uncovered: tuple[tuple[int, int], ...] = s.uncovered
        self.dug: tuple[tuple[int, int], ...] = s.dug
        self.round: Round | None = s.round
        self.auction: Auction | None = s.auction
        self.last_placer: int | None = s.last_placer

    def freeze(self) -> State:
        return state_of(
            self.setup,
            self.spaces,
            self.workers,
            self.players,
            self.stack,
            self.supply,
            self.levels,
            self.phase,
            self.to_act,
            self.tile,
            self.ap,
            self.turn,
            self.uncovered,
            self.dug,
            self.round,
            self.auction,
            self.last_placer,
        )

    def set_seat(self, index: int, player: Seat) -> None:
        players = list(self.players)
        players[index] = player
        self.players = tuple(players)

    def set_space(self, index: int, space: Space) -> None:
        spaces = list(self.spaces)
        spaces[index] = space
        self.spaces = tuple(spaces)

    def add_workers(self, space: int, seat: int, delta: int) -> None:
        row = list(self.workers[space])
        row[seat] += delta
        workers = list(self.workers)
        workers[space] = tuple(row)
        self.workers = tuple(workers)

    def change_seat(
        self,
        seat: int,
        *,
        reserve: int | None = None,
        removed: int | None = None,
        leader: int | None = None,
        camps: tuple[int, ...] | None = None,
        guards: tuple[int, ...] | None = None,
        treasures: tuple[int, ...] | None = None,
        temple_points: int | None = None,
        treasure_points: int | None = None,
        capital: int | None = None,
    ) -> None:
        """``seat``'s :class:`Seat` with the fields given changed (None: unchanged)."""
        p = self.players[seat]
        self.set_seat(
            seat,
            seat_of(
                p.reserve if reserve is None else reserve,
                p.removed if removed is None else removed,
                p.leader if leader is None else leader,
                p.camps if camps is None else camps,
                p.guards if guards is None else guards,
                p.treasures if treasures is None else treasures,
                p.temple_points if temple_points is None else temple_points,
                p.treasure_points if treasure_points is None else treasure_points,
                p.capital if capital is None else capital,
            ),
        )

    def change_space(
        self,
        index: int,
        *,
        value: int | None = None,
        tokens: tuple[int, ...] | None = None,
        camp: int | None = None,
        guard: int | None = None,
        guard_leader: bool | None = None,
    ) -> None:
        """The explored space ``index`` with the fields given changed (None:
        unchanged; the engine never takes a camp or a guard away)."""
        s = self.spaces[index]
        assert s is not None
        self.set_space(
            index,
            space_of(
                s.kind,
                s.stones,
                s.tile,
                s.value if value is None else value,
                s.tokens if tokens is None else tokens,
                s.camp if camp is None else camp,
                s.guard if guard is None else guard,
                s.guard_leader if guard_leader is None else guard_leader,
            ),
        )
