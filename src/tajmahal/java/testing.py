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

from .actions import THREE, Action, EndTurn, PlaceLand
from .components import DEFAULT_COMPONENTS, Components
from .legal import legal_actions
from .rules import apply, is_over, new_game
from .state import VARIANTS, Setup, State

__all__ = ["games", "legal_actions_of", "setups", "states"]


def _pick(value: int | str | Sequence[int] | Sequence[str]) -> st.SearchStrategy[object]:
    return st.just(value) if isinstance(value, (int, str)) else st.sampled_from(list(value))


@st.composite
def setups(
    draw: st.DrawFn,
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
    components: Components = DEFAULT_COMPONENTS,
) -> Setup:
    """A valid setup: the festival cards in any order (J13-J14)."""
    n = draw(_pick(players))
    variant = draw(_pick(variants))
    deck = tuple(draw(st.permutations(range(len(components.cards)))))
    seed = draw(st.integers(0, 2**31 - 1))
    return Setup(n, variant, deck, seed, components)  # type: ignore[arg-type]


def legal_actions_of(state: State) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``state`` (which must not be over)."""
    return st.sampled_from(legal_actions(state))


def _biased(state: State) -> st.SearchStrategy[Action]:
    """Any legal action; the end of the turn and the big three-space tiles often,
    so that games reach festivals and their end in few steps."""
    legal = legal_actions(state)
    options = [st.sampled_from(legal)]
    if isinstance(legal[-1], EndTurn):
        options.append(st.just(legal[-1]))
    if PlaceLand(THREE) in legal:
        options.append(st.just(PlaceLand(THREE)))
    return st.one_of(*options)


@st.composite
def states(
    draw: st.DrawFn,
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
    max_actions: int = 300,
) -> State:
    """A state reached by up to ``max_actions`` legal actions from a setup."""
    state = new_game(draw(setups(players, variants)))
    for _ in range(draw(st.integers(0, max_actions))):
        if is_over(state):
            break
        state = apply(state, draw(_biased(state)))
    return state


@st.composite
def games(
    draw: st.DrawFn,
    players: int | Sequence[int] = (2, 3, 4),
    variants: str | Sequence[str] = VARIANTS,
) -> tuple[Setup, list[Action]]:
    """A setup and the legal actions of a whole game played from it."""
    setup = draw(setups(players, variants))
    state = new_game(setup)
    actions: list[Action] = []
    while not is_over(state):
        action = draw(_biased(state))
        actions.append(action)
        state = apply(state, action)
    return setup, actions
