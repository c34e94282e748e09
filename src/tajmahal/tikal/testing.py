"""Hypothesis strategies for Tikal (``pip install hypothesis``): test your bots,
tools or analyses on many setups and reachable positions.

.. code-block:: python

    from hypothesis import given
    from tajmahal.tikal import legal_actions
    from tajmahal.tikal.testing import states

    @given(states(players=3))
    def test_my_bot_always_answers_legally(state):
        if state.to_act is not None:
            assert my_bot(state) in legal_actions(state)

Strategies:

- :func:`setups` — valid :class:`~tajmahal.tikal.Setup` values: any order of the
  tiles within their back letters, any treasure supply, either variant.
- :func:`states` — states reached from such a setup by legal random play.
- :func:`legal_actions_of` — one legal action of a state.
- :func:`games` — a setup and a whole game's legal actions, for replay tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from ..kit import testing as kit
from .actions import Action
from .adapter import TIKAL
from .components import DEFAULT_COMPONENTS, Components
from .state import ACT, VARIANTS, Setup, State, all_treasures

__all__ = ["games", "legal_actions_of", "setups", "states"]


@st.composite
def setups(
    draw: st.DrawFn,
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
    components: Components = DEFAULT_COMPONENTS,
) -> Setup:
    """A valid setup: the tiles shuffled within each back letter (T11), the treasure
    tokens in any order (T14)."""
    n = draw(kit.pick(players))
    variant = draw(kit.pick(variants))
    stack: list[int] = []
    for back in sorted({t.back for t in components.tiles}):
        group = [t.id for t in components.tiles if t.back == back]
        stack.extend(draw(st.permutations(group)))
    treasures = tuple(draw(st.permutations(all_treasures(components))))
    return Setup(n, variant, tuple(stack), treasures, components)


def _prefer(state: State, legal: Sequence[Action]) -> Sequence[Action]:
    """The end of the turn, half of the time: games reach volcanoes and their end."""
    return legal[-1:] if len(legal) > 1 and state.phase == ACT else ()


def states(
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
    max_actions: int = 400,
) -> st.SearchStrategy[State]:
    """A state reached by up to ``max_actions`` legal actions from a setup; turns end
    early often enough to reach volcanoes and the end of the game."""
    return kit.states(TIKAL, setups(players, variants), max_actions, _prefer)


def legal_actions_of(state: State) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``state`` (which must not be over)."""
    return kit.legal_actions_of(TIKAL, state)


def games(
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
) -> st.SearchStrategy[tuple[Setup, tuple[Action, ...]]]:
    """A setup and the legal actions of a whole game played from it."""
    return kit.games(TIKAL, setups(players, variants), _prefer)
