"""Hypothesis strategies for Java (``pip install hypothesis``): :func:`setups`
shuffles the festival cards (J13-J14) and draws a reshuffle seed, for either token
variant; ``states``, ``games`` and ``legal_actions_of`` play from them
(:mod:`tajmahal.kit.testing`), preferring to end turns and to lay three-space
tiles, so that games reach festivals and their end: ``@given(states(players=3))``.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from ..kit import testing as kit
from .actions import THREE, Action, EndTurn, PlaceLand
from .adapter import JAVA
from .components import Components
from .state import Setup, State

__all__ = ["games", "legal_actions_of", "setups", "states"]


def _deal(draw: st.DrawFn, players: int, variant: str, components: Components) -> Setup:
    """the festival cards in any order (J13-J14)."""
    deck = tuple(draw(st.permutations(range(len(components.cards)))))
    seed = draw(st.integers(0, 2**31 - 1))
    return Setup(players, variant, deck, seed, components)


#: Valid setups: ``setups(players=(2, 3, 4), variants=VARIANTS,
#: components=DEFAULT_COMPONENTS)``, the festival cards in any order.
setups = kit.component_setups(JAVA, _deal)


def _prefer(state: State, legal: Sequence[Action]) -> Sequence[Action]:
    """The end of the turn and the big three-space tiles, half of the time, so
    that games reach festivals and their end in few steps."""
    return [a for a in legal if isinstance(a, EndTurn) or a == PlaceLand(THREE)]


#: States reached by random play, whole games, one legal action of a state
#: (:func:`tajmahal.kit.testing.strategies`; ``states`` and ``games`` take the
#: options of :func:`setups`, ``states`` also ``max_actions``).
states, games, legal_actions_of = kit.strategies(JAVA, setups, _prefer, max_actions=300)
