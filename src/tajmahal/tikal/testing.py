"""Hypothesis strategies for Tikal (``pip install hypothesis``): :func:`setups`
deals the tiles in any order within their back letters (T11) and the treasure
tokens in any order (T14), for either variant; ``states``, ``games`` and
``legal_actions_of`` play from them (:mod:`tajmahal.kit.testing`), ending turns
early often enough to reach volcanoes and the end of the game:
``@given(states(players=3))``.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from ..kit import testing as kit
from .actions import Action
from .adapter import TIKAL
from .components import Components
from .state import ACT, Setup, State, all_treasures

__all__ = ["games", "legal_actions_of", "setups", "states"]


def _deal(draw: st.DrawFn, players: int, variant: str, components: Components) -> Setup:
    """the tiles shuffled within each back letter (T11), the treasure tokens in any
    order (T14)."""
    stack: list[int] = []
    for back in sorted({t.back for t in components.tiles}):
        group = [t.id for t in components.tiles if t.back == back]
        stack.extend(draw(st.permutations(group)))
    treasures = tuple(draw(st.permutations(all_treasures(components))))
    return Setup(players, variant, tuple(stack), treasures, components)


#: Valid setups: ``setups(players=(2, 3, 4), variants=VARIANTS,
#: components=DEFAULT_COMPONENTS)``, the tiles and treasures in any order.
setups = kit.component_setups(TIKAL, _deal)


def _prefer(state: State, legal: Sequence[Action]) -> Sequence[Action]:
    """The end of the turn, half of the time: games reach volcanoes and their end."""
    return legal[-1:] if len(legal) > 1 and state.phase == ACT else ()


#: States reached by random play, whole games, one legal action of a state
#: (:func:`tajmahal.kit.testing.strategies`; ``states`` and ``games`` take the
#: options of :func:`setups`, ``states`` also ``max_actions``).
states, games, legal_actions_of = kit.strategies(TIKAL, setups, _prefer)
