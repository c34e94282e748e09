"""Determinization: a full state consistent with what one seat sees.

Search bots that cannot see the other hands or the deck play out *guesses*:
:func:`determinize` turns a :class:`~tajmahal.PlayerView` into a complete
:class:`~tajmahal.State` whose view for that seat is exactly the given view.
Every card the seat cannot place — the other hands, except their special cards
and the cards everybody saw them take from the display, and the deck — is dealt
again uniformly at random from the unseen cards.

>>> import random
>>> from tajmahal import Setup, new_game, view
>>> state = new_game(Setup.random(4, seed=3))
>>> seen = view(state, 2)
>>> guess = determinize(seen, random.Random(0))
>>> view(guess, 2) == seen
True
>>> guess.players[2].hand == state.players[2].hand
True
"""

from __future__ import annotations

import random

from .build import _holding, state_of
from .cards import CARDS
from .setups import Setup
from .state import State
from .views import PlayerView

_DEAL_ORDER = tuple(range(96))


def unseen_cards(view: PlayerView) -> list[int]:
    """The cards whose place ``view`` does not show: hidden in other hands or the deck."""
    seen = set(view.hand) | set(view.display) | set(view.discard) | set(view.supply)
    for p in view.players:
        seen.update(p.played, p.special_cards, p.revealed)
    if view.dummy is not None:
        seen.update(view.dummy.cards)
    return [c for c in range(len(CARDS)) if c not in seen]


def determinize(view: PlayerView, rng: random.Random) -> State:
    """A state consistent with ``view``, the hidden cards dealt uniformly by ``rng``.

    The result's setup has the view's public setup and a seed drawn from ``rng`` (so
    later reshuffles differ between guesses); its dealing order, which only
    :func:`~tajmahal.new_game` reads, is left in id order.
    """
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to determinize for")
    draw = rng.random
    hidden = sorted(unseen_cards(view), key=lambda _: draw())  # a uniform shuffle, 2x faster
    players = []
    for seat, p in enumerate(view.players):
        if seat == view.seat:
            hand = view.hand
        else:
            known = set(p.revealed) | {c for c in p.special_cards if c not in p.played}
            size = p.hand_size - len(known)
            dealt, hidden = hidden[:size], hidden[size:]
            hand = tuple(sorted((*known, *dealt)))
        players.append(_holding(p, hand, p.played, p.color, p.withdrawn))
    if len(hidden) != view.deck_size:
        raise ValueError("the view's hand sizes and deck size do not match its cards")
    public = view.setup
    setup = Setup(
        players=public.players,
        seed=rng.randrange(2**63),
        start_player=public.start_player,
        deck=_DEAL_ORDER,  # only new_game reads it; the guessed state is past that
        province_tiles=public.province_tiles,
        bonus_tiles=public.bonus_tiles,
        board=public.board,
        variant=public.variant,
    )
    return state_of(  # State(...), built faster
        setup,
        view.visit,
        view.province,
        view.start_player,
        view.to_act,
        tuple(players),
        tuple(hidden),
        view.discard,
        view.display,
        view.supply,
        view.court,
        view.reserve,
        view.palaces,
        view.moguls,
        view.bonus,
        view.pending,
        view.dummy,
        0,
    )
