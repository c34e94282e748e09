"""What a seat may see of a game of Java.

Java is public but for the festival cards: each hand is secret to all but its
holder (J59), and the draw pile is face down (J14); the seed of later reshuffles
is hidden too.  :func:`view` gives a seat everything else (other hands as counts);
:func:`tajmahal.java.hidden.determinize` deals the unseen cards at random.

>>> from tajmahal.java import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> v = view(state, 0)
>>> v.hands, v.pile, v.hand == state.players[0].hand
((3, 3), 23, True)
"""

from __future__ import annotations

from attrs import evolve, frozen

from ..kit.memo import each
from ..kit.picture import Pictured
from ..kit.slots import like
from .state import Festival, Pending, Seat, State, Turn


@frozen
class PlayerView(Pictured):
    """A seat's view: the public state (see :class:`~tajmahal.java.state.State`),
    its own hand, every hand's size and the draw pile's size."""

    game_name = "java"

    seat: int
    variant: str
    hand: tuple[int, ...]
    hands: tuple[int, ...]
    players: tuple[Seat, ...]  # hands emptied
    height: tuple[int, ...]
    terrain: tuple[int, ...]
    top: tuple[int, ...]
    sizes: tuple[int, ...]
    figures: tuple[int, ...]
    palace: tuple[int, ...]
    red: tuple[int, ...]
    scored_water: tuple[int, ...]
    threes: int
    water_left: int
    palaces_left: tuple[int, ...]
    pile: int
    display: int | None
    discard: tuple[int, ...]
    phase: str
    to_act: int | None
    turn: Turn
    pending: Pending | None
    festival: Festival | None
    last_turns: tuple[int, ...]
    ended: bool


@each
def seat_views(seat: Seat) -> Seat:
    """Each seat as the others see it: its hand emptied (J59)."""
    return evolve(seat, hand=())


def view(state: State, seat: int) -> PlayerView:
    """What ``seat`` sees of ``state``: its own hand, the other hands and the pile
    only as counts; every other field is the state's of its name."""
    players = state.players
    return like(
        PlayerView,
        state,
        seat=seat,
        variant=state.setup.variant,
        hand=players[seat].hand,
        hands=tuple([len(p.hand) for p in players]),
        players=seat_views(players),
        pile=len(state.pile),
    )
