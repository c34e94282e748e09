"""Hypothesis strategies for testing code against the engine.

Use them to test your own bots, tools or analyses on many setups and reachable
positions (``pip install hypothesis``):

.. code-block:: python

    from hypothesis import given
    from tajmahal import legal_actions
    from tajmahal.tajmahal.testing import states

    @given(states(players=4))
    def test_my_bot_always_answers_legally(state):
        if state.to_act is not None:
            assert my_bot(state) in legal_actions(state)

Strategies:

- :func:`setups` — valid :class:`~tajmahal.Setup` values: any deal, tile placement,
  bonus placement and start player, for the given numbers of players.
- :func:`states` — states reached from such a setup by legal random play.
- :func:`legal_actions_of` — one legal action of a state.
- :func:`games` — a setup and a whole game's legal actions, for replay tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from ..kit import testing as kit
from .actions import Action
from .adapter import TAJMAHAL
from .board import DEFAULT_BOARD, Board
from .cards import REGULAR_CARDS
from .setups import Setup, place_tiles, validate_setup, variant_for
from .state import State
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
    tiles, bonus = place_tiles(board, numbers, squares)
    setup = Setup(
        players=n,
        seed=draw(st.integers(0, 2**32 - 1)),
        start_player=draw(st.integers(0, n - 1)),
        deck=tuple(deck),
        province_tiles=tiles,
        bonus_tiles=bonus,
        board=board,
        variant=variant_for(n),
    )
    validate_setup(setup)
    return setup


def states(
    players: int | Sequence[int] = (2, 3, 4, 5), max_actions: int = 400
) -> st.SearchStrategy[State]:
    """A state reached by up to ``max_actions`` legal random actions from a setup
    drawn with :func:`setups` (it may be the end of the game)."""
    return kit.states(TAJMAHAL, setups(players), max_actions)


def legal_actions_of(state: State) -> st.SearchStrategy[Action]:
    """One of ``state``'s legal actions (the state must not be over)."""
    return kit.legal_actions_of(TAJMAHAL, state)


def games(
    players: int | Sequence[int] = (2, 3, 4, 5),
) -> st.SearchStrategy[tuple[Setup, tuple[Action, ...]]]:
    """A setup and every action of one whole game played at random from it."""
    return kit.games(TAJMAHAL, setups(players))
