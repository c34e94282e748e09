"""A state being changed by one step of Tikal, and the frozen values it is made of.

The engine (:mod:`tajmahal.tikal.rules`, :mod:`tajmahal.tikal.effects`) changes a
:class:`Draft` of the state and freezes it into one new
:class:`~tajmahal.tikal.state.State` at the end of a step.  It builds the frozen
values through their slots (:func:`tajmahal.kit.slots.builder`); the builders are
``Final`` names, which mypyc keeps in C statics.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from ..kit.slots import builder, replaced
from .events import Event
from .state import Auction, Round, Seat, Setup, Space, State

#: Where a step puts its events: a list (``step``), or None (``apply`` needs none).
Events: TypeAlias = list[Event] | None

seat_of: Final = builder(Seat)
space_of: Final = builder(Space)
state_of: Final = builder(State)


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
        self.players = replaced(self.players, index, player)

    def set_space(self, index: int, space: Space) -> None:
        self.spaces = replaced(self.spaces, index, space)

    def add_workers(self, space: int, seat: int, delta: int) -> None:
        row = self.workers[space]
        self.workers = replaced(self.workers, space, replaced(row, seat, row[seat] + delta))

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
