"""What a seat may see of a game of Java, and guesses of the rest.

Java is public but for the festival cards: each hand is secret to all but its
holder (J59), and the draw pile is face down (J14); the seed of later reshuffles
is hidden too.  :func:`view` gives a seat everything else (other hands as counts);
:func:`determinize` deals the unseen cards at random, consistently with a view.

>>> from tajmahal.java import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> v = view(state, 0)
>>> v.hands, v.pile, v.hand == state.players[0].hand
((3, 3), 23, True)
>>> guess = determinize(v, random.Random(2))
>>> guess.players[0].hand == state.players[0].hand and len(guess.pile) == 23
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from attrs import evolve, frozen

from ..kit.fields import copier
from ..kit.picture import Pictured
from .components import DEFAULT_COMPONENTS, Components
from .state import Festival, Pending, Seat, Setup, State, Turn


@frozen
class PlayerView(Pictured):
    """A seat's view: the public state (see :class:`~tajmahal.java.state.State`),
    its own hand, every hand's size and the draw pile's size."""

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


_Hands = tuple[int, ...]
_seen: Callable[[State, int, _Hands, _Hands, tuple[Seat, ...]], PlayerView] = copier(
    PlayerView,
    "state, seat, hand, hands, players",
    variant="state.setup.variant",
    pile="len(state.pile)",
)


def view(state: State, seat: int) -> PlayerView:
    """What ``seat`` sees of ``state``: its own hand, the other hands and the pile
    only as counts."""
    players = state.players
    hands = tuple([len(p.hand) for p in players])
    emptied = tuple([evolve(p, hand=()) for p in players])
    return _seen(state, seat, players[seat].hand, hands, emptied)


#: The state of a view with its hidden parts given.
_guessed: Callable[[PlayerView, Setup, tuple[Seat, ...], tuple[int, ...]], State] = copier(
    State, "v, setup, players, pile", left=("reshuffles",)
)


def determinize(
    v: PlayerView, rng: random.Random, components: Components = DEFAULT_COMPONENTS
) -> State:
    """A state consistent with ``v``: the cards the seat has not seen (other hands,
    the pile) dealt at random, and a random reshuffle seed."""
    seen = set(v.hand) | set(v.discard)
    if v.display is not None:
        seen.add(v.display)
    if v.festival is not None:
        for cards in v.festival.laid:
            seen.update(cards)
    unseen = [c for c in range(len(components.cards)) if c not in seen]
    rng.shuffle(unseen)
    players = []
    for s, p in enumerate(v.players):
        if s == v.seat:
            hand = v.hand
        else:
            hand, unseen = tuple(sorted(unseen[: v.hands[s]])), unseen[v.hands[s] :]
        players.append(evolve(p, hand=hand))
    deck = tuple(range(len(components.cards)))
    setup = Setup(len(v.players), v.variant, deck, rng.randrange(2**31), components)
    return _guessed(v, setup, tuple(players), tuple(unseen[: v.pile]))
