"""Built-in Java bots on the kit's frames (:mod:`tajmahal.kit.bots`): ``greedy``
(one decision ahead, each choice valued by its best completion) and ``mcts`` (the
kit's determinized Monte Carlo tree search over the seat's own turn), both
declared by :class:`JavaBots` (``JAVA.bots()``); the judgement is :mod:`tajmahal.java.heuristic`.

Both see only what a subprocess bot sees: the hello's static setup, the view and
the legal actions of each ``act`` message.  They rebuild a state from the view
(:func:`~tajmahal.java.hidden.determinize`: the other hands and the pile are
guessed) and think on it.

An action of Java is made of up to three decisions (what, where, how), and a
choice is worth what its best completion is worth: the greedy bot values a
choice by the best complete action it begins (:meth:`JavaBots.action_value`, on
the positions that look best: next to the seat's figures first); the search
compares the best few choices of a decision, each completed and followed to the
end of the seat's turn by the greedy bot (:meth:`JavaBots.playout`: the seat,
not chance, decides when its turn ends).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Final

from ..kit import bots as kit
from ..kit.search import SearchConfig
from .actions import Action, EndTurn
from .components import DEFAULT_COMPONENTS, Components
from .heuristic import FAR, NEAR, bid_choice, evaluate, festival_value, ordered, owner
from .hidden import determinize
from .legal import legal_actions
from .rules import apply
from .state import ACT, FESTIVAL, POSITION, SHAPE, TARGET, VALUE, State
from .views import PlayerView

#: The phases of a half-made action.
HALF: Final = (POSITION, SHAPE, TARGET, VALUE)
#: Ending the turn with AP left is worth this much less than doing nothing useful.
IDLE: Final = 0.05


class JavaBots(kit.Bots[PlayerView, State, Action]):
    """Java for the kit's bots.  The greedy judgement of a choice is the worth of
    the best complete action it begins (:meth:`action_value`).  The search
    compares the best few choices of a decision (:attr:`SearchConfig.width`), each
    completed and followed to the end of the turn by the greedy bot
    (:meth:`rollout_action`, :meth:`playout`), on a new guess of the hidden cards
    each time; festival bids are :func:`bid_choice`'s.

    ``searched``: the phases where the ``mcts`` player searches (elsewhere it is
    the greedy bot, which chooses what its search assumed); ``playout_width``: how
    many positions next to the seat's figures and elsewhere the greedy playouts
    look at (by default the greedy bot's own :data:`NEAR` and :data:`FAR`; fewer
    make playouts faster and shallower)."""

    def __init__(
        self,
        components: Components = DEFAULT_COMPONENTS,
        searched: tuple[str, ...] = (ACT, POSITION),
        playout_width: tuple[int, int] = (NEAR, FAR),
        game: Any = None,
    ) -> None:
        super().__init__(game)
        self.components = components
        self.searched = searched
        self.playout_width = playout_width

    #: The built-in ``mcts``: each of the 6 best choices tried twice, at most 0.8 s.
    budget = SearchConfig(iterations=12, seconds=0.8, width=6)

    def determinize(self, view: PlayerView, rng: random.Random) -> State:
        return determinize(view, rng, self.components)

    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    evaluate = staticmethod(evaluate)

    def within(self, start: State, state: State) -> bool:
        """The action under way (completed by :meth:`rollout_action`); the rest of
        the turn is the playout's."""
        return state is start or (state.pending is not None and owner(state) == owner(start))

    def is_node(self, state: State) -> bool:
        """Below the root, every decision is the greedy bot's."""
        return False

    def candidates(
        self, state: State, legal: Sequence[Action], rng: random.Random
    ) -> Sequence[int]:
        if state.phase == FESTIVAL:
            return [bid_choice(state, list(legal))]
        return ordered(state, list(legal))

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """The greedy bot's choice, on ``playout_width`` positions."""
        legal = legal_actions(state)
        near, far = self.playout_width
        return legal[self.greedy_index(state, legal, rng, near, far)]

    def greedy_index(
        self,
        state: State,
        legal: Sequence[Action],
        rng: random.Random,
        near: int = NEAR,
        far: int = FAR,
    ) -> int:
        """The index of the choice with the best :meth:`action_value` (bids:
        :func:`bid_choice`)."""
        if len(legal) == 1:
            return 0
        if state.phase == FESTIVAL:
            return bid_choice(state, list(legal))
        seat = state.to_act
        assert seat is not None
        best, choice = -math.inf, 0
        for i in ordered(state, list(legal), near, far):
            value = self.action_value(state, legal[i], seat, rng, near, far)
            if value > best:
                best, choice = value, i
        return choice

    def playout(
        self, start: State, state: State, rng: random.Random, steps: int | None
    ) -> Sequence[float]:
        """The rest of the turn (a festival's auction belongs to its proposer's
        turn) by :meth:`rollout_action`, then :func:`evaluate`."""
        seat = owner(start)
        played = 0
        while state.to_act is not None and owner(state) == seat:
            if steps is not None and played >= steps:
                break
            state = apply(state, self.rollout_action(state, rng))
            played += 1
        return evaluate(state)

    def action_value(
        self,
        state: State,
        action: Action,
        seat: int,
        rng: random.Random,
        near: int = NEAR,
        far: int = FAR,
    ) -> float:
        """The worth of the best complete action that ``action`` begins (or
        completes) for ``seat``, over the choices that look best (:func:`ordered`);
        opening a festival adds :func:`festival_value`; ending the turn with AP
        left is worth a little less than an action that changes nothing."""
        after = apply(state, action)
        if after.phase in HALF and after.to_act == seat:
            legal = legal_actions(after)
            return max(
                self.action_value(after, legal[i], seat, rng, near, far)
                for i in ordered(after, legal, near, far)
            )
        value = evaluate(after)[seat] + rng.random() * 1e-3
        if after.phase == FESTIVAL and state.phase != FESTIVAL and after.festival is not None:
            value += festival_value(state, after.festival.palace)
        if isinstance(action, EndTurn) and state.turn.ap > 0:
            value -= IDLE
        return value

    def searches(self, view: PlayerView) -> bool:
        return view.phase in self.searched


__all__ = ["JavaBots"]
