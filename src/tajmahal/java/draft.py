"""How the engine makes the next state: a :class:`Draft` of it, changed in place,
then frozen once.

A step of the rules changes several parts of a :class:`~tajmahal.java.state.State`
(the board, a seat, the turn, the phase); building a frozen state for each change
(``attrs.evolve``) cost more than the rules themselves.  A draft holds the fields
of one state, the engine changes them, and :meth:`Draft.freeze` builds the next
state once; :meth:`Draft.change_seat` and :meth:`Draft.change_turn` change a
seat's and the turn's fields (as Tikal's draft changes a seat and a space).  Every value is built
through its slots (:func:`tajmahal.kit.slots.builder`).
"""

from __future__ import annotations

from typing import Final

from ..kit.slots import builder, replaced
from .state import Festival, Pending, Seat, Setup, State, Turn

state_of: Final = builder(State)
seat_of: Final = builder(Seat)
turn_of: Final = builder(Turn)


class Draft:
    """The fields of a state, to change before :meth:`freeze` freezes them."""

    def __init__(self, s: State) -> None:
        self.setup: Setup = s.setup
        self.height: tuple[int, ...] = s.height
        self.terrain: tuple[int, ...] = s.terrain
        self.top: tuple[int, ...] = s.top
        self.sizes: tuple[int, ...] = s.sizes
        self.figures: tuple[int, ...] = s.figures
        self.palace: tuple[int, ...] = s.palace
        self.red: tuple[int, ...] = s.red
        self.scored_water: tuple[int, ...] = s.scored_water
        self.players: tuple[Seat, ...] = s.players
        self.threes: int = s.threes
        self.water_left: int = s.water_left
        self.palaces_left: tuple[int, ...] = s.palaces_left
        self.pile: tuple[int, ...] = s.pile
        self.display: int | None = s.display
        self.discard: tuple[int, ...] = s.discard
        self.phase: str = s.phase
        self.to_act: int | None = s.to_act
        self.turn: Turn = s.turn
        self.pending: Pending | None = s.pending
        self.festival: Festival | None = s.festival
        self.last_turns: tuple[int, ...] = s.last_turns
        self.ended: bool = s.ended
        self.reshuffles: int = s.reshuffles

    def freeze(self) -> State:
        """The frozen state (every field given, in order)."""
        return state_of(
            self.setup,
            self.height,
            self.terrain,
            self.top,
            self.sizes,
            self.figures,
            self.palace,
            self.red,
            self.scored_water,
            self.players,
            self.threes,
            self.water_left,
            self.palaces_left,
            self.pile,
            self.display,
            self.discard,
            self.phase,
            self.to_act,
            self.turn,
            self.pending,
            self.festival,
            self.last_turns,
            self.ended,
            self.reshuffles,
        )

    def set_seat(self, seat: int, p: Seat) -> None:
        self.players = replaced(self.players, seat, p)

    def set_figure(self, position: int, seat: int) -> None:
        self.figures = replaced(self.figures, position, seat)

    def spend(self, ap: int) -> None:
        self.change_turn(ap=self.turn.ap - ap)

    def change_seat(
        self,
        seat: int,
        *,
        supply: int | None = None,
        tokens: int | None = None,
        twos: int | None = None,
        rice: int | None = None,
        villages: int | None = None,
        hand: tuple[int, ...] | None = None,
        water: int | None = None,
        palaces: int | None = None,
        festivals: int | None = None,
        final: int | None = None,
        scored: bool | None = None,
    ) -> None:
        """``seat``'s :class:`Seat` with the fields given changed (None: unchanged)."""
        p = self.players[seat]
        self.set_seat(
            seat,
            seat_of(
                p.supply if supply is None else supply,
                p.tokens if tokens is None else tokens,
                p.twos if twos is None else twos,
                p.rice if rice is None else rice,
                p.villages if villages is None else villages,
                p.hand if hand is None else hand,
                p.water if water is None else water,
                p.palaces if palaces is None else palaces,
                p.festivals if festivals is None else festivals,
                p.final if final is None else final,
                p.scored if scored is None else scored,
            ),
        )

    def change_turn(
        self,
        *,
        ap: int | None = None,
        land: bool | None = None,
        cards: int | None = None,
        token: bool | None = None,
        acted: bool | None = None,
        palaces: tuple[int, ...] | None = None,
        walked: tuple[int, ...] | None = None,
    ) -> None:
        """The turn with the fields given changed (None: unchanged)."""
        t = self.turn
        self.turn = turn_of(
            t.ap if ap is None else ap,
            t.land if land is None else land,
            t.cards if cards is None else cards,
            t.token if token is None else token,
            t.acted if acted is None else acted,
            t.palaces if palaces is None else palaces,
            t.walked if walked is None else walked,
            t.last,
        )
