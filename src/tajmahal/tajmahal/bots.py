"""Built-in Taj Mahal bots for the referee: ``greedy`` (here) and ``random``.

:class:`GreedyPlayer` gets the same messages as a subprocess bot (see
``protocol/README.md``) and rebuilds the seat's :class:`~tajmahal.PlayerView`
from them, so it knows no more than any other bot.  ``bots/greedy_bot.py`` runs
the same heuristic as a subprocess.

The heuristic, :func:`greedy_choice`, looks one decision ahead with the engine:

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
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Final

from attrs import evolve

from .. import __version__
from ..arena.player import Player
from ..arena.protocol import Message
from .actions import Action, TakeCard, Withdraw
from .adapter import view_from_data
from .cards import CARD_COLOR, COLORS, SYMBOL_COUNTS
from .hidden import determinize
from .mcts import SearchConfig, mcts_choice
from .rules import apply, legal_actions
from .serialize import from_data
from .state import PLACE, PLAY, TAKE, State
from .views import PlayerView, PublicSetup

#: Worth of one influence tile (two buy a special card, and each built a palace).
INFLUENCE: Final = 1.5
#: Worth of a card kept in hand, by colour.
COLORED_CARD: Final = 0.9
WHITE_CARD: Final = 1.2
SPECIAL_CARD: Final = 3.0
#: Extra worth per card of the colour held most (a visit is played in one colour).
MAIN_COLOR: Final = 0.15
#: Share of a prize a play is credited with while rivals may still outbid.
CONTESTED: Final = 0.7

_REGULAR: Final = 96


def card_worth(hand: Sequence[int]) -> float:
    """What the cards in ``hand`` are worth for the rest of the game."""
    total = 0.0
    for card in hand:
        color = CARD_COLOR[card]
        if color == "white":
            total += WHITE_CARD
        elif color == "special":
            total += SPECIAL_CARD
        else:
            total += COLORED_CARD + 0.05 * sum(SYMBOL_COUNTS[card])
    main = max(sum(1 for c in hand if CARD_COLOR[c] == col) for col in COLORS)
    return total + MAIN_COLOR * main


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


def greedy_choice(v: PlayerView, rng: random.Random) -> int:
    """The index into ``v.legal`` that the greedy heuristic picks."""
    legal = v.legal
    if len(legal) <= 1 or v.seat is None:
        return 0
    seat = v.seat
    state = determinize(v, rng)
    if state.phase == TAKE:  # taking display cards: keep the cards worth most
        hand = v.hand
        return max(
            range(len(legal)),
            key=lambda i: (
                card_worth((*hand, legal[i].card))  # type: ignore[union-attr]
                if isinstance(legal[i], TakeCard)
                else 0.0
            ),
        )
    scores = [value(state, a, seat) for a in legal]
    best = max(scores)
    return scores.index(best)


class ViewPlayer(Player):
    """A built-in bot that thinks on the seat's :class:`~tajmahal.PlayerView`,
    rebuilt from the same messages a subprocess bot gets."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.setup: PublicSetup | None = None

    def on_hello(self, message: Message) -> None:
        self.setup = from_data(message["setup"], PublicSetup)

    def choose(self, message: Message) -> int | Any:
        assert self.setup is not None, "an act before the hello"
        return self.pick(view_from_data(self.setup, message["view"], message["legal"]))

    @abstractmethod
    def pick(self, view: PlayerView) -> int:
        """The index into ``view.legal`` to play."""


class GreedyPlayer(ViewPlayer):
    """The built-in ``greedy`` bot."""

    name = "greedy"
    version = __version__

    def pick(self, view: PlayerView) -> int:
        return greedy_choice(view, self.rng)


class MCTSPlayer(ViewPlayer):
    """The built-in ``mcts`` bot: :func:`tajmahal.tajmahal.mcts.mcts_choice` with
    :data:`MCTS_BUILTIN` (a fixed number of iterations, so a seed fixes its play,
    with a time cap that keeps a decision under a second on a slow machine)."""

    name = "mcts"
    version = __version__

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        super().__init__(seed)
        self.config = config or MCTS_BUILTIN

    def pick(self, view: PlayerView) -> int:
        return mcts_choice(view, self.rng, self.config)


#: The built-in ``mcts`` bot's budget.
MCTS_BUILTIN: Final = SearchConfig(iterations=300, seconds=0.9)
