"""Guesses of what a seat cannot see in Java: :func:`determinize` deals the unseen
cards (other hands, the pile) at random, consistently with a view (J14, J59).

>>> import random
>>> from tajmahal.java import Setup, new_game, view
>>> state = new_game(Setup.random(players=2, seed=1))
>>> guess = determinize(view(state, 0), random.Random(2))
>>> guess.players[0].hand == state.players[0].hand and len(guess.pile) == 23
True
"""

from __future__ import annotations

import random

from attrs import evolve

from ..kit.slots import like
from .components import DEFAULT_COMPONENTS, Components
from .state import Setup, State
from .views import PlayerView


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
    return like(
        State, v, setup=setup, players=tuple(players), pile=tuple(unseen[: v.pile]), reshuffles=0
    )
