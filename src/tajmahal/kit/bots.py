"""The bots of every game, written once: what a game supplies, and the frames.

A game gives its bots one object, a subclass of :class:`Bots`: how to read its
protocol messages back into a view, how to guess a full state from a view
(``determinize``), its engine (``to_act``, ``legal_actions``, ``apply``), and its
judgement — ``evaluate`` (each seat's value of a position) and a rollout policy,
with optional hooks for the search (horizon, tree nodes, candidates, playout) and
for the greedy bot (``action_value``).  The kit builds on it:

- :func:`greedy_choice`: one-step lookahead, each candidate action judged by
  ``action_value`` on one guess of the hidden state;
- :func:`tajmahal.kit.search.search_choice`: determinized information-set MCTS;
- the built-in players :class:`GreedyPlayer` and :class:`SearchPlayer`, which
  rebuild the seat's view from the same messages a subprocess bot gets (they know
  no more than any other bot) and pick with the two functions above.

A game's bots module declares its :class:`Bots` subclass, with the search budget
of its built-in ``mcts`` player (:attr:`Bots.budget`), and the game's adapter hands
it out (``bots()``); :func:`builtin_players` makes the players the game offers::

    class TikalBots(Bots[PlayerView, State, Action]):
        budget = SearchConfig(iterations=120, seconds=0.8)
        ...

    class Tikal(ComponentsAdapter[...]):
        def bots(self) -> TikalBots:
            return TikalBots(self.components, game=self)  # reads the messages with it

    players = builtin_players(TIKAL.bots())  # {"random": ..., "greedy": ..., "mcts": ...}

A game's bots are had from its game object only (``bots()``): the game reads the
protocol's messages back into views for them.

Nothing here knows any game.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Generic, Protocol, TypeVar

from ..arena.player import FirstPlayer, Player, RandomPlayer
from ..arena.protocol import Message
from ..version import __version__
from .search import SearchConfig, search_choice


class Turn(Protocol):
    """A game's state, as the kit's bots need it: who decides."""

    @property
    def to_act(self) -> int | None:
        """The seat to decide; None once the game is over."""


ViewT = TypeVar("ViewT")
StateT = TypeVar("StateT", bound=Turn)
ActionT = TypeVar("ActionT")


class Bots(ABC, Generic[ViewT, StateT, ActionT]):
    """What a game gives the kit's bots (see the module docstring).

    Required: :meth:`determinize`, :meth:`legal_actions`, :meth:`apply`,
    :meth:`evaluate`, and :attr:`game` or :meth:`read_view`.  The rest have
    defaults: the state's ``to_act``, a uniformly random rollout policy to the end
    of the game, every decision a tree node, every legal action a candidate, and a
    greedy value that is ``evaluate`` after the action.  The engine's functions can be taken as they
    are: ``legal_actions = staticmethod(rules.legal_actions)``.
    """

    #: The game's adapter (:class:`tajmahal.kit.adapter.Adapter`): its
    #: ``read_setup`` and ``read_act`` read the protocol's messages by default.
    game: Any = None
    #: The search budget of the built-in ``mcts`` player: a fixed number of
    #: iterations, so that a seed fixes its play, with a cap in seconds.
    budget: SearchConfig = SearchConfig()

    def __init__(self, game: Any = None) -> None:
        self.game = game

    # -- reading the protocol

    def read_setup(self, data: Any) -> Any:
        """What the bot keeps of the hello's ``setup`` (given to :meth:`read_view`)."""
        return data if self.game is None else self.game.read_setup(data)

    def read_view(
        self, setup: Any, view: Any, legal: Sequence[Any]
    ) -> tuple[ViewT, Sequence[ActionT]]:
        """The view and the legal actions of an ``act`` message (its ``view`` and
        ``legal`` data), for a bot that kept ``setup`` of the hello."""
        if self.game is None:
            raise NotImplementedError(f"{type(self).__name__} has no game to read views with")
        read: tuple[ViewT, Sequence[ActionT]] = self.game.read_act(setup, view, legal)
        return read

    # -- the engine

    @abstractmethod
    def determinize(self, view: ViewT, rng: random.Random) -> StateT:
        """A full state consistent with ``view``: what the seat cannot see dealt at
        random by ``rng``.  It must not use anything the view does not show."""

    def to_act(self, state: StateT) -> int | None:
        """The seat to decide in ``state``; None once the game is over."""
        return state.to_act

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """The legal actions of :meth:`to_act`, in the game's order."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The state after ``action``."""

    # -- judgement

    @abstractmethod
    def evaluate(self, state: StateT) -> Sequence[float]:
        """Each seat's value of ``state``, by seat, in one scale (points, say); a
        value relative to the best rival makes a seat play to win."""

    def rollout_action(self, state: StateT, rng: random.Random) -> ActionT:
        """The playout policy: the action to play in ``state`` (default: uniformly
        random).  A fast, sensible policy makes the search much stronger."""
        return rng.choice(self.legal_actions(state))

    def within(self, start: StateT, state: StateT) -> bool:
        """Whether ``state`` is inside the horizon of a search iteration that began
        at ``start``: playouts stop, and are valued, at the first state outside it
        (the end of the current visit, of the seat's turn ...).  Default: the rest
        of the game."""
        return True

    def is_node(self, state: StateT) -> bool:
        """Whether a decision below the search's root is a node of its tree (it is
        searched) or left to :meth:`rollout_action`.  Default: every decision."""
        return True

    def candidates(
        self, state: StateT, legal: Sequence[ActionT], rng: random.Random
    ) -> Sequence[int]:
        """Indices of the actions of ``legal`` worth a look in ``state``, best first:
        the greedy bot judges only these, and the search considers only these
        (progressively, with :attr:`SearchConfig.widening`).  One index means the
        decision is made without lookahead.  Default: all, in order."""
        return range(len(legal))

    def playout(
        self, start: StateT, state: StateT, rng: random.Random, steps: int | None
    ) -> Sequence[float]:
        """Play ``state`` with :meth:`rollout_action` until the game ends, the
        horizon (:meth:`within` ``start``) is left or ``steps`` actions are played,
        and :meth:`evaluate` the result.  A game may value a playout otherwise (its
        best point, say)."""
        played = 0
        while (
            self.to_act(state) is not None
            and self.within(start, state)
            and (steps is None or played < steps)
        ):
            state = self.apply(state, self.rollout_action(state, rng))
            played += 1
        return self.evaluate(state)

    def action_value(
        self, state: StateT, action: ActionT, seat: int, rng: random.Random
    ) -> float:
        """How good ``action`` looks to ``seat`` in ``state`` for the greedy bot
        (default: :meth:`evaluate` right after it)."""
        return self.evaluate(self.apply(state, action))[seat]

    def greedy(self, view: ViewT, legal: Sequence[ActionT], rng: random.Random) -> int:
        """The index into ``legal`` the built-in ``greedy`` player picks in ``view``
        (:func:`greedy_choice`): for a bot program of its own that plays as it does."""
        return greedy_choice(self, view, legal, rng)

    def search(
        self,
        view: ViewT,
        legal: Sequence[ActionT],
        rng: random.Random,
        config: SearchConfig | None = None,
    ) -> int:
        """The index into ``legal`` the search picks in ``view``
        (:func:`~tajmahal.kit.search.search_choice`, with ``config`` or the built-in
        ``mcts`` player's :attr:`budget`)."""
        return search_choice(self, view, legal, rng, config or self.budget)

    def searches(self, view: ViewT) -> bool:
        """Whether :class:`SearchPlayer` searches this decision (else it plays
        :func:`greedy_choice`).  Default: always."""
        return True


def greedy_choice(
    bots: Bots[ViewT, StateT, ActionT],
    view: ViewT,
    legal: Sequence[ActionT],
    rng: random.Random,
) -> int:
    """The index into ``legal`` whose :meth:`Bots.action_value` is highest on one
    guess of the hidden state (ties: the earlier candidate); 0 without a choice."""
    if len(legal) <= 1:
        return 0
    state = bots.determinize(view, rng)
    seat = bots.to_act(state)
    assert seat is not None, "a decision in a game that is over"
    indices = bots.candidates(state, legal, rng)
    if len(indices) == 1:
        return indices[0]
    best, best_value = 0, -math.inf
    for i in indices:
        value = bots.action_value(state, legal[i], seat, rng)
        if value > best_value:
            best, best_value = i, value
    return best


class ViewPlayer(Player):
    """A built-in player that thinks on the seat's view, rebuilt (by ``bots``'
    :meth:`Bots.read_view`) from the same messages a subprocess bot gets.  A
    subclass implements :meth:`pick`."""

    def __init__(self, bots: Bots[Any, Any, Any], seed: int = 0) -> None:
        self.bots = bots
        self.rng = random.Random(seed)
        self.setup: Any = None

    def on_hello(self, message: Message) -> None:
        self.setup = self.bots.read_setup(message["setup"])

    def choose(self, message: Message) -> int | Any:
        view, legal = self.bots.read_view(self.setup, message["view"], message["legal"])
        if len(legal) <= 1:
            return 0
        return self.pick(view, legal)

    @abstractmethod
    def pick(self, view: Any, legal: Sequence[Any]) -> int:
        """The index into ``legal`` to play (there are at least two)."""


class GreedyPlayer(ViewPlayer):
    """The built-in ``greedy`` bot: :func:`greedy_choice`."""

    name = "greedy"
    version = __version__

    def pick(self, view: Any, legal: Sequence[Any]) -> int:
        return greedy_choice(self.bots, view, legal, self.rng)


class SearchPlayer(ViewPlayer):
    """The built-in ``mcts`` bot: :func:`~tajmahal.kit.search.search_choice` with
    ``config``, or :func:`greedy_choice` where the game's :meth:`Bots.searches`
    says no."""

    name = "mcts"
    version = __version__

    def __init__(
        self, bots: Bots[Any, Any, Any], seed: int = 0, config: SearchConfig | None = None
    ) -> None:
        super().__init__(bots, seed)
        self.config = config or SearchConfig()

    def pick(self, view: Any, legal: Sequence[Any]) -> int:
        if not self.bots.searches(view):
            return greedy_choice(self.bots, view, legal, self.rng)
        return search_choice(self.bots, view, legal, self.rng, self.config)


def builtin_players(bots: Bots[Any, Any, Any] | None) -> dict[str, Callable[[int], Player]]:
    """A game's built-in players, by name, each made from a seed: ``random``,
    ``first``, and with ``bots`` ``greedy`` and ``mcts`` (the search with
    :attr:`Bots.budget`)."""
    if bots is None:
        return {"random": RandomPlayer, "first": FirstPlayer}
    return {
        "random": RandomPlayer,
        "greedy": partial(GreedyPlayer, bots),
        "mcts": partial(SearchPlayer, bots, config=bots.budget),
        "first": FirstPlayer,
    }


__all__ = [
    "Bots",
    "GreedyPlayer",
    "SearchPlayer",
    "ViewPlayer",
    "builtin_players",
    "greedy_choice",
]
