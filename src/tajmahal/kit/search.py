"""The search bot of every game: determinized information-set Monte Carlo tree search.

:func:`search_choice` picks one of a seat's legal actions from what the seat sees
(its *view*), for any game that supplies the hooks of :class:`Searchable` (a game
subclasses :class:`tajmahal.kit.bots.Bots`, which gives sensible defaults for the
optional ones).  Each iteration

1. deals what the seat cannot see at random (the game's ``determinize``): a new
   guess every iteration, so the search never uses hidden information;
2. descends a tree of decisions from the root, each node choosing for the seat that
   acts there (UCB1 with availability counts: an action that is not legal in this
   deal is skipped without penalty — information-set MCTS).  A decision with one
   legal action is played without a node; below the root the game says which
   decisions are tree nodes (``is_node``), the others being left to its rollout
   policy.  A node looks at the game's ``candidates`` (all legal actions by
   default), widened progressively if :attr:`SearchConfig.widening` is set;
3. plays the rest of the game's horizon (``within``: the rest of a visit, a turn ...)
   with the game's ``playout`` (its ``rollout_action`` by default) and values the
   position for every seat (``evaluate``);
4. backs the values up, each node learning the value of the seat that chose there;
   with :attr:`SearchConfig.baseline` the same deal's value at the start of the
   iteration is subtracted first (the luck of the guessed hidden cards cancels out).

The action tried most at the root is played (ties: the better mean, then the
earlier action).  Budgets are iterations (the search is then a function of its
random generator) and seconds (as many iterations as fit, at least one).

This module is compiled with mypyc (``tajmahal._engine.COMPILED``); the hooks are
plain method calls on the game's object.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any, Protocol

from attrs import frozen


@frozen
class SearchConfig:
    """Budget and knobs of :func:`search_choice`.

    - ``iterations`` (deterministic for a seed) and ``seconds`` (wall clock) bound
      the search; with both, whichever ends first; at least one is needed.
    - ``exploration``: UCB1's constant, on the scale of the game's ``evaluate``.
    - ``shuffle``: a node tries its untried candidates in a random order (else in
      the game's order, best first), so that a small budget favours none.
    - ``baseline``: subtract each deal's own value at the start of the iteration
      from its result (a control variate against the luck of the guess).
    - ``widening``: progressive widening for large branching; a node visited ``n``
      times considers only its first ``ceil(widening * (n + 1) ** widening_power)``
      candidates (the game orders them, best first).  None: all of them.
    - ``width``: candidate pruning at the root: only the ``width`` candidates that
      the game's greedy judgement (``action_value``) rates best on the first deal
      are searched.  None: all of them.
    - ``playout_steps``: the most actions a playout plays before it is valued
      (None: up to the game's horizon).
    """

    iterations: int | None = 600
    seconds: float | None = None
    exploration: float = 1.0
    shuffle: bool = False
    baseline: bool = True
    widening: float | None = None
    widening_power: float = 0.5
    width: int | None = None
    playout_steps: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("SearchConfig needs iterations or seconds (or both)")
        for name in ("iterations", "seconds", "widening", "width", "playout_steps"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"SearchConfig.{name} must be positive, not {value!r}")


class Searchable(Protocol):
    """The hooks :func:`search_choice` calls (:class:`tajmahal.kit.bots.Bots` has
    them all, with defaults for the last seven)."""

    def determinize(self, view: Any, rng: random.Random) -> Any:
        """A full state the view's seat cannot tell from the real one."""

    def to_act(self, state: Any) -> int | None:
        """The seat to decide; None once the game is over."""

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """The legal actions of :meth:`to_act`."""

    def apply(self, state: Any, action: Any) -> Any:
        """The state after ``action``."""

    def evaluate(self, state: Any) -> Sequence[float]:
        """Each seat's value of ``state`` (relative to its rivals, say)."""

    def rollout_action(self, state: Any, rng: random.Random) -> Any:
        """The playout policy's action in ``state``."""

    def within(self, start: Any, state: Any) -> bool:
        """Whether ``state`` is still inside the horizon of an iteration that began
        at ``start`` (its determinized root state)."""

    def is_node(self, state: Any) -> bool:
        """Whether the decision in ``state``, below the root, is a tree node."""

    def candidates(self, state: Any, legal: Sequence[Any], rng: random.Random) -> Sequence[int]:
        """Indices of the actions of ``legal`` a node considers, best first."""

    def playout(
        self, start: Any, state: Any, rng: random.Random, steps: int | None
    ) -> Sequence[float]:
        """Play ``state`` to the horizon (at most ``steps`` actions) and value it."""

    def action_value(self, state: Any, action: Any, seat: int, rng: random.Random) -> float:
        """The greedy judgement of ``action`` for ``seat`` (for :attr:`SearchConfig.width`)."""


class _Node:
    """Statistics of one action in the information-set tree."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Any, _Node] = {}


def _width(config: SearchConfig, visits: int, count: int) -> int:
    """How many of ``count`` candidates a node visited ``visits`` times considers."""
    if config.widening is None:
        return count
    width = math.ceil(config.widening * math.pow(visits + 1, config.widening_power))
    return min(count, max(1, width))


def _select(
    node: _Node, actions: Sequence[Any], c: float, rng: random.Random | None
) -> tuple[Any, _Node, bool]:
    """UCB1 with availability counts over ``actions``; an untried action comes first
    (with ``rng``, one at random).  Returns the action, its node, and whether it was
    untried."""
    children = node.children
    for action in actions:
        child = children.get(action)
        if child is None:
            child = children[action] = _Node()
        child.available += 1
    if rng is not None:
        untried = [a for a in actions if children[a].visits == 0]
        if untried:
            action = rng.choice(untried)
            return action, children[action], True
    best: Any = None
    best_child: _Node | None = None
    best_score = -math.inf
    for action in actions:
        child = children[action]
        if child.visits == 0:
            return action, child, True
        score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best, best_child, best_score = action, child, score
    assert best_child is not None
    return best, best_child, False


def search_choice(
    game: Searchable,
    view: Any,
    legal: Sequence[Any],
    rng: random.Random,
    config: SearchConfig,
) -> int:
    """The index into ``legal`` (the seat's legal actions, as its view shows them)
    that the search picks; 0 without a choice."""
    if len(legal) <= 1:
        return 0
    deadline = None if config.seconds is None else time.perf_counter() + config.seconds
    limit = config.iterations
    root = _Node()
    first = game.determinize(view, rng)
    # The root's legal actions are the seat's own: the same in every deal, so its
    # candidates are chosen once.
    indices = list(game.candidates(first, legal, rng))
    if config.width is not None and len(indices) > config.width:
        indices = _best(game, first, legal, indices, rng, config.width)
    if len(indices) == 1:
        return indices[0]
    considered = [legal[i] for i in indices]
    state = first
    done = 0
    while True:
        _iterate(game, state, root, considered, rng, config)
        done += 1
        if limit is not None and done >= limit:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        state = game.determinize(view, rng)
    children = root.children
    best, best_key = 0, (-1, -math.inf)
    for i, action in enumerate(legal):
        child = children.get(action)
        key = (0, 0.0) if child is None else (child.visits, child.total / max(1, child.visits))
        if key > best_key:
            best, best_key = i, key
    return best


def _best(
    game: Searchable,
    state: Any,
    legal: Sequence[Any],
    indices: Sequence[int],
    rng: random.Random,
    width: int,
) -> list[int]:
    """The ``width`` of ``indices`` whose actions the game's greedy judgement rates
    best in ``state``, best first (ties: the earlier)."""
    seat = game.to_act(state)
    assert seat is not None
    values = [game.action_value(state, legal[i], seat, rng) for i in indices]
    order = sorted(range(len(indices)), key=lambda k: -values[k])
    return [indices[k] for k in order[:width]]


def _iterate(
    game: Searchable,
    state: Any,
    root: _Node,
    considered: Sequence[Any],
    rng: random.Random,
    config: SearchConfig,
) -> None:
    start = state
    baseline = game.evaluate(state) if config.baseline else None
    path: list[tuple[_Node, int]] = []
    node = root
    visits = root.visits
    root.visits += 1
    while True:
        seat = game.to_act(state)
        if seat is None or not game.within(start, state):
            break
        if path:
            actions = game.legal_actions(state)
            if len(actions) == 1:
                state = game.apply(state, actions[0])
                continue
            if not game.is_node(state):
                state = game.apply(state, game.rollout_action(state, rng))
                continue
            actions = [actions[i] for i in game.candidates(state, actions, rng)]
        else:
            actions = considered
        actions = actions[: _width(config, visits, len(actions))]
        action, child, fresh = _select(
            node, actions, config.exploration, rng if config.shuffle else None
        )
        path.append((child, seat))
        state = game.apply(state, action)
        node = child
        visits = child.visits
        if fresh:
            break
    values = game.playout(start, state, rng, config.playout_steps)
    for child, seat in path:
        child.visits += 1
        if baseline is None:
            child.total += values[seat]
        else:
            child.total += values[seat] - baseline[seat]


__all__ = ["SearchConfig", "Searchable", "search_choice"]
