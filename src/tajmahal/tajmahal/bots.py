"""Taj Mahal's built-in bots, ``greedy`` and ``mcts``, on the kit's frames.

:class:`TajMahalBots` declares Taj Mahal to the kit's bots (:mod:`tajmahal.kit.bots`): how
its views are read from protocol messages and guessed into full states
(:func:`~tajmahal.determinize`), its evaluation and rollout policy
(:mod:`tajmahal.tajmahal.heuristic`), the search's horizon (the current visit) and tree
(below the root, only card plays and withdrawals are nodes; palaces and display
cards follow the policy), and the greedy bot's judgement of an action.
:class:`GreedyPlayer` and :class:`MCTSPlayer` get the same messages as a subprocess
bot (see ``protocol/README.md``), so they know no more than any other bot;
``bots/greedy_bot.py`` and ``bots/mcts_bot.py`` run the same as subprocesses.  The
game hands them out, with itself to read the messages: ``TAJMAHAL.bots()``.

The greedy heuristic (``TAJMAHAL.bots().greedy(view, view.legal, rng)``) looks one
decision ahead with the engine:

1. It fills in what the seat cannot see — the other hands and the deck — with a
   random deal of the unseen cards (:func:`~tajmahal.determinize`); only public
   facts and the seat's own hand are used.
2. Each legal action is applied with :func:`tajmahal.apply`.  A play is judged by
   what withdrawing right after it would bring (prizes, palaces and their points),
   discounted while rivals can still outbid; a withdrawal by what it brings now.
   The seat's own follow-up choices (where to build, which display cards to take)
   are made greedily the same way.
3. The value of a position is its points, plus influence tiles toward special
   cards, plus the worth of the cards left in hand (cards are the currency for the
   visits to come).  The best value wins; ties go to the earlier action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from attrs import evolve

from ..kit import bots as kit
from ..kit.search import SearchConfig
from .actions import Action, TakeCard, Withdraw
from .cards import CARD_COLOR, COLORS
from .heuristic import NOISE, evaluate, hand_worth, rollout, rollout_action
from .hidden import determinize
from .legal import legal_actions
from .rules import apply
from .state import PLACE, PLAY, TAKE, State
from .views import PlayerView

#: Worth of one influence tile (two buy a special card, and each built a palace).
INFLUENCE: Final = 1.5
#: Worth of a card kept in hand, by colour.
WHITE_CARD: Final = 1.2
#: Extra worth of a coloured card per symbol it shows.
SYMBOL_BONUS: Final = 0.05
#: Extra worth per card of the colour held most (a visit is played in one colour).
MAIN_COLOR: Final = 0.15
#: Share of a prize a play is credited with while rivals may still outbid.
CONTESTED: Final = 0.7



def card_worth(hand: Sequence[int]) -> float:
    """What the cards in ``hand`` are worth for the rest of the game: the search's
    :func:`~tajmahal.tajmahal.heuristic.hand_worth`, whites a little less, a coloured
    card 0.05 more a symbol, and a bonus for the colour held most."""
    main = max(sum(1 for c in hand if CARD_COLOR[c] == col) for col in COLORS)
    return hand_worth(hand, WHITE_CARD, SYMBOL_BONUS) + MAIN_COLOR * main


def holdings(state: State, seat: int) -> float:
    """Points and influence: what a withdrawal can win."""
    p = state.players[seat]
    return p.score.total + INFLUENCE * sum(p.influence)


def worth(state: State, seat: int) -> float:
    return holdings(state, seat) + card_worth(state.players[seat].hand)


def finish_turn(state: State, seat: int) -> State:
    """Make ``seat``'s remaining choices of a withdrawal greedily (palaces, then
    display cards) and return the state once it is no longer choosing."""
    while state.to_act == seat and state.phase in (PLACE, TAKE):
        options = legal_actions(state)
        state = max(
            (apply(state, a) for a in options),
            key=lambda s: worth(s, seat),
        )
    return state


def value(state: State, action: Action, seat: int) -> float:
    """How good ``action`` looks for ``seat`` (see the module docstring)."""
    if state.phase != PLAY:
        return worth(finish_turn(apply(state, action), seat), seat)
    if isinstance(action, Withdraw):
        return worth(finish_turn(apply(state, action), seat), seat)
    after = apply(state, action)
    if after.to_act is None:  # cannot happen mid-visit, but be safe
        return worth(after, seat)
    rivals = any(not p.withdrawn and p.hand for s, p in enumerate(after.players) if s != seat) or (
        after.dummy is not None and after.dummy.bidding
    )
    mine = evolve(after, to_act=seat, pending=None)
    withdrawn = finish_turn(apply(mine, Withdraw()), seat)
    gain = holdings(withdrawn, seat) - holdings(after, seat)
    share = CONTESTED if rivals else 1.0
    return worth(withdrawn, seat) - (1.0 - share) * max(0.0, gain)


def action_value(state: State, action: Action, seat: int) -> float:
    """The greedy bot's judgement of ``action`` for ``seat`` (see the module
    docstring): taking display cards, the worth of the hand it makes; otherwise
    :func:`value`."""
    if state.phase == TAKE:  # taking display cards: keep the cards worth most
        if isinstance(action, TakeCard):
            return card_worth((*state.players[seat].hand, action.card))
        return 0.0
    return value(state, action, seat)


class TajMahalBots(kit.Bots[PlayerView, State, Action]):
    """Taj Mahal for the kit's bots; ``noise`` is the rollout policy's spread."""

    #: The built-in ``mcts`` bot's budget: a fixed number of iterations, so a seed
    #: fixes its play, with a time cap that keeps a decision under a second on a
    #: slow machine.
    budget = SearchConfig(iterations=300, seconds=0.9)

    def __init__(self, noise: float = NOISE, game: Any = None) -> None:
        super().__init__(game)
        self.noise = noise

    def determinize(self, view: PlayerView, rng: random.Random) -> State:
        return determinize(view, rng)

    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    evaluate = staticmethod(evaluate)

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        return rollout_action(state, rng, self.noise)

    def within(self, start: State, state: State) -> bool:
        """The search's horizon: the end of the visit under way."""
        return state.visit == start.visit

    def is_node(self, state: State) -> bool:
        """Below the root, where to build and which cards to take are left to the
        policy: exploring them would only dilute the play decisions."""
        return state.pending is None

    def playout(
        self, start: State, state: State, rng: random.Random, steps: int | None
    ) -> Sequence[float]:
        if steps is not None:
            return super().playout(start, state, rng, steps)
        return evaluate(rollout(state, rng, self.noise, start.visit))  # compiled: faster

    def action_value(self, state: State, action: Action, seat: int, rng: random.Random) -> float:
        return action_value(state, action, seat)


__all__ = [
    "TajMahalBots",
]
