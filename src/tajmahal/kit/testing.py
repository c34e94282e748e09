"""Hypothesis strategies for any game, written once (``pip install hypothesis``).

A game's ``testing`` module declares what is its own — its ``setups`` strategy
(which deals are valid) and, if random play reaches too little, the actions to
play more often — and builds the rest here, over its adapter (any object with
``new_game``, ``legal_actions``, ``apply`` and ``to_act``, like
:class:`tajmahal.kit.adapter.Adapter`):

- :func:`states`: states reached by legal random play from a drawn setup;
- :func:`games`: a setup and every action of one whole game played from it;
- :func:`legal_actions_of`: one legal action of a state;
- :func:`strategies`: the three for one game, taking its setups' options;
- :func:`component_setups`: the ``setups`` of a game that comes in a box of
  components (:class:`tajmahal.kit.adapter.ComponentsAdapter`), from its deal.

The random play of an example is driven by ONE draw (a seeded generator from
``st.randoms``), not a draw per action: an example costs what the game's own
``legal_actions`` and ``apply`` cost, and a failure shrinks to the shortest
prefix of the same walk.  ``prefer(state, legal)`` names actions to play half of
the time (ending a turn, say), so that games reach their end in few steps.

Random play from a setup takes milliseconds per example, far more than
hypothesis' defaults expect of data generation: on a busy machine its
``HealthCheck.too_slow`` (one second for the first ten examples) can fire.
Tests over these strategies say so in their settings::

    @settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")
Prefer = Callable[[Any, Sequence[Any]], Sequence[Any]]
#: ``deal(draw, players, variant, components)``: a game's setup, its hidden order
#: drawn with ``draw``.
Deal = Callable[[st.DrawFn, int, str, Any], Any]

__all__ = ["component_setups", "games", "legal_actions_of", "pick", "states", "strategies"]


def pick(value: T | Sequence[T]) -> st.SearchStrategy[T]:
    """``value`` itself if it is one (an int, a string), else one of the sequence."""
    if isinstance(value, int | str):
        return st.just(value)
    return st.sampled_from(list(value))  # type: ignore[arg-type]


def component_setups(game: Any, deal: Deal) -> Callable[..., st.SearchStrategy[Any]]:
    """``setups(players, variants, components)`` for ``game``, a
    :class:`~tajmahal.kit.adapter.ComponentsAdapter`: a seat count from ``players``
    (default: all the game allows), a variant from ``variants`` (default: all), then
    ``deal(draw, players, variant, components)`` (default components: the game's)."""

    @st.composite
    def setups(
        draw: st.DrawFn,
        players: int | Sequence[int] = range(game.min_players, game.max_players + 1),
        variants: str | Sequence[str] = game.variants,
        components: Any = game.default_components,
    ) -> Any:
        return deal(draw, draw(pick(players)), draw(pick(variants)), components)

    setups.__doc__ = f"A valid setup of {game.title}: {deal.__doc__}"
    return setups


def _choose(game: Any, state: Any, rng: random.Random, prefer: Prefer | None) -> Any:
    legal = game.legal_actions(state)
    if prefer is not None and rng.random() < 0.5:
        preferred = prefer(state, legal)
        if preferred:
            return rng.choice(preferred)
    return rng.choice(legal)


@st.composite
def states(
    draw: st.DrawFn,
    game: Any,
    setups: st.SearchStrategy[Any],
    max_actions: int = 400,
    prefer: Prefer | None = None,
) -> Any:
    """A state of ``game`` reached by up to ``max_actions`` legal random actions from
    a setup drawn from ``setups`` (it may be the end of the game)."""
    state = game.new_game(draw(setups))
    steps = draw(st.integers(0, max_actions))
    rng = draw(st.randoms(use_true_random=True))
    for _ in range(steps):
        if game.to_act(state) is None:
            break
        state = game.apply(state, _choose(game, state, rng, prefer))
    return state


@st.composite
def games(
    draw: st.DrawFn,
    game: Any,
    setups: st.SearchStrategy[Any],
    prefer: Prefer | None = None,
) -> tuple[Any, tuple[Any, ...]]:
    """A setup drawn from ``setups`` and every action of one whole game of ``game``
    played at random from it."""
    setup = draw(setups)
    rng = draw(st.randoms(use_true_random=True))
    state = game.new_game(setup)
    actions = []
    while game.to_act(state) is not None:
        action = _choose(game, state, rng, prefer)
        actions.append(action)
        state = game.apply(state, action)
    return setup, tuple(actions)


def legal_actions_of(game: Any, state: Any) -> st.SearchStrategy[Any]:
    """One of the legal actions of ``state`` (which must not be over)."""
    return st.sampled_from(list(game.legal_actions(state)))


def strategies(
    game: Any,
    setups: Callable[..., st.SearchStrategy[Any]],
    prefer: Prefer | None = None,
    max_actions: int = 400,
) -> tuple[
    Callable[..., st.SearchStrategy[Any]],
    Callable[..., st.SearchStrategy[tuple[Any, tuple[Any, ...]]]],
    Callable[[Any], st.SearchStrategy[Any]],
]:
    """``states``, ``games`` and ``legal_actions_of`` for ``game``, as a game's
    testing module offers them: ``states(*options, max_actions=...)`` and
    ``games(*options)`` take the options of its ``setups`` (players, variants ...)."""

    def game_states(*options: Any, max_actions: int = max_actions, **named: Any) -> Any:
        """A state reached by up to ``max_actions`` legal random actions from a setup
        drawn with the game's ``setups(*options)`` (it may be the end of the game)."""
        return states(game, setups(*options, **named), max_actions, prefer)

    def game_games(*options: Any, **named: Any) -> Any:
        """A setup drawn with the game's ``setups(*options)`` and every action of one
        whole game played at random from it."""
        return games(game, setups(*options, **named), prefer)

    def game_legal_actions_of(state: Any) -> st.SearchStrategy[Any]:
        """One of the legal actions of ``state`` (which must not be over)."""
        return legal_actions_of(game, state)

    return game_states, game_games, game_legal_actions_of
