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

from attrs import evolve, frozen

from ..kit.picture import Pictured
from .components import DEFAULT_COMPONENTS, Components
from .state import Festival, Pending, Seat, Setup, State, Turn


@frozen
class JavaView(Pictured):
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


def view(state: State, seat: int) -> JavaView:
    """What ``seat`` sees of ``state``."""
    return JavaView(
        seat=seat,
        variant=state.setup.variant,
        hand=state.players[seat].hand,
        hands=tuple(len(p.hand) for p in state.players),
        players=tuple(evolve(p, hand=()) for p in state.players),
        height=state.height,
        terrain=state.terrain,
        top=state.top,
        sizes=state.sizes,
        figures=state.figures,
        palace=state.palace,
        red=state.red,
        scored_water=state.scored_water,
        threes=state.threes,
        water_left=state.water_left,
        palaces_left=state.palaces_left,
        pile=len(state.pile),
        display=state.display,
        discard=state.discard,
        phase=state.phase,
        to_act=state.to_act,
        turn=state.turn,
        pending=state.pending,
        festival=state.festival,
        last_turns=state.last_turns,
        ended=state.ended,
    )


def determinize(
    v: JavaView, rng: random.Random, components: Components = DEFAULT_COMPONENTS
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
    return State(
        setup=setup,
        height=v.height,
        terrain=v.terrain,
        top=v.top,
        sizes=v.sizes,
        figures=v.figures,
        palace=v.palace,
        red=v.red,
        scored_water=v.scored_water,
        players=tuple(players),
        threes=v.threes,
        water_left=v.water_left,
        palaces_left=v.palaces_left,
        pile=tuple(unseen[: v.pile]),
        display=v.display,
        discard=v.discard,
        phase=v.phase,
        to_act=v.to_act,
        turn=v.turn,
        pending=v.pending,
        festival=v.festival,
        last_turns=v.last_turns,
        ended=v.ended,
    )
