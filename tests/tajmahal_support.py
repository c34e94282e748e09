"""What Taj Mahal's property tests share: hypothesis settings, and a state with a
seat's secrets redrawn."""

from __future__ import annotations

import random

from attrs import evolve
from hypothesis import HealthCheck, settings

from tajmahal import (
    PlayerState,
    State,
    check_state,
)

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hide_secrets(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with everything ``seat`` cannot see redrawn: the other hands' hidden
    cards and the deck pooled and dealt again at the same sizes; another seed and
    setup deck.  Public knowledge stays: special cards and revealed cards."""

    def public(p: PlayerState) -> tuple[int, ...]:
        return tuple(c for c in p.hand if c >= 96 or c in p.revealed)

    pool = list(state.deck)
    for other, p in enumerate(state.players):
        if other != seat:
            pool += [c for c in p.hand if c not in public(p)]
    rng.shuffle(pool)
    players = list(state.players)
    for other, p in enumerate(players):
        if other == seat:
            continue
        keep = public(p)
        size = len(p.hand) - len(keep)
        hand, pool = pool[:size], pool[size:]
        players[other] = evolve(p, hand=tuple(sorted((*hand, *keep))))
    assert len(pool) == len(state.deck)
    deck = list(state.setup.deck)
    rng.shuffle(deck)
    setup = evolve(state.setup, seed=rng.randrange(2**32), deck=tuple(deck))
    hidden = evolve(state, setup=setup, players=tuple(players), deck=tuple(pool))
    check_state(hidden)
    return hidden


