"""Hypothesis strategies for Java (``pip install hypothesis``): test your bots,
tools or analyses on many setups and reachable positions.

.. code-block:: python

    from hypothesis import given
    from tajmahal.java import legal_actions
    from tajmahal.java.testing import states

    @given(states(players=3))
    def test_my_bot_always_answers_legally(state):
        if state.to_act is not None:
            assert my_bot(state) in legal_actions(state)

Strategies:

- :func:`setups` — valid :class:`~tajmahal.java.Setup` values: any order of the
  festival cards, any reshuffle seed, either token variant.
- :func:`states` — states reached from such a setup by legal random play.
- :func:`legal_actions_of` — one legal action of a state.
- :func:`games` — a setup and a whole game's legal actions, for replay tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from ..kit import testing as kit
from .actions import THREE, Action, EndTurn, PlaceLand
from .adapter import JAVA
from .components import DEFAULT_COMPONENTS, Components
from .state import VARIANTS, Setup, State

__all__ = ["games", "legal_actions_of", "setups", "states"]


@st.composite
def setups(
    draw: st.DrawFn,
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
    components: Components = DEFAULT_COMPONENTS,
) -> Setup:
    """A valid setup: the festival cards in any order (J13-J14)."""
    n = draw(kit.pick(players))
    variant = draw(kit.pick(variants))
    deck = tuple(draw(st.permutations(range(len(components.cards)))))
    seed = draw(st.integers(0, 2**31 - 1))
    return Setup(n, variant, deck, seed, components)


def _prefer(state: State, legal: Sequence[Action]) -> Sequence[Action]:
    """The end of the turn and the big three-space tiles, half of the time, so
    that games reach festivals and their end in few steps."""
    return [a for a in legal if isinstance(a, EndTurn) or a == PlaceLand(THREE)]


def states(
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
    max_actions: int = 300,
) -> st.SearchStrategy[State]:
    """A state reached by up to ``max_actions`` legal actions from a setup."""
    return kit.states(JAVA, setups(players, variants), max_actions, _prefer)


def legal_actions_of(state: State) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``state`` (which must not be over)."""
    return kit.legal_actions_of(JAVA, state)


def games(
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
) -> st.SearchStrategy[tuple[Setup, tuple[Action, ...]]]:
    """A setup and the legal actions of a whole game played from it."""
    return kit.games(JAVA, setups(players, variants), _prefer)
