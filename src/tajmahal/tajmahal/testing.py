"""Hypothesis strategies for Taj Mahal (``pip install hypothesis``), to test your
bots, tools or analyses on many setups and reachable positions:

- :func:`setups`: valid :class:`~tajmahal.Setup` values, any deal, tile and bonus
  placement and start player, for the given numbers of players;
- ``states``, ``games``, ``legal_actions_of``: positions reached by legal random
  play from them, whole games, one legal action (:mod:`tajmahal.kit.testing`).

.. code-block:: python

    from hypothesis import HealthCheck, given, settings
    from tajmahal import legal_actions
    from tajmahal.tajmahal.testing import states

    @settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(states(players=4))
    def test_my_bot_always_answers_legally(state):
        if state.to_act is not None:
            assert my_bot(state) in legal_actions(state)
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from ..kit import testing as kit
from .adapter import TAJMAHAL
from .board import DEFAULT_BOARD, Board
from .cards import REGULAR_CARDS
from .setups import Setup
from .tiles import DEFAULT_BONUS_TILES

__all__ = ["games", "legal_actions_of", "setups", "states"]


@st.composite
def setups(
    draw: st.DrawFn, players: int | Sequence[int] = (2, 3, 4, 5), board: Board = DEFAULT_BOARD
) -> Setup:
    """A valid setup: a shuffled deck, province and bonus tiles placed, a start player."""
    n = draw(kit.pick(players))
    deck = draw(st.permutations(REGULAR_CARDS))
    numbers = draw(st.permutations(range(1, 12)))
    squares = draw(st.permutations(DEFAULT_BONUS_TILES))
    seed = draw(st.integers(0, 2**32 - 1))
    return Setup.dealt(n, seed, draw(st.integers(0, n - 1)), deck, numbers, squares, board)


#: States reached by random play, whole games, one legal action of a state
#: (:func:`tajmahal.kit.testing.strategies`; ``states`` and ``games`` take the
#: options of :func:`setups`, ``states`` also ``max_actions``).
states, games, legal_actions_of = kit.strategies(TAJMAHAL, setups)
