"""A game's randomness as explicit chance nodes, written once for every game.

An engine of this package draws inside ``step`` (a card, a tile, a treasure) from
a setup fixed in advance.  Search and learning programs (OpenSpiel's MCTS,
IS-MCTS, CFR) want the opposite: every random event a node of its own, with its
outcomes and their probabilities, chosen when it happens.  A game DECLARES that
model: a :class:`ChanceModel` (the setup as chance nodes, and which decisions
draw), whose chance nodes are :class:`Chance` values; the kit's OpenSpiel game
(:mod:`tajmahal.openspiel`) drives them.  Nothing here needs numpy or OpenSpiel.

A chance node knows the outcomes of the next random event and who sees them
(:attr:`Chance.seer`); choosing one gives the next chance node, or the engine's
state once the event is complete.  Outcomes are small integers below the model's
:attr:`~ChanceModel.max_outcomes`.  Chance nodes are immutable: a search copies
a position by sharing it.  docs/adding-a-game.md shows a whole model for a small
game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Final, Generic, TypeVar, cast

import attrs

S = TypeVar("S")
A = TypeVar("A")

#: :attr:`Chance.seer` of an outcome every seat sees.
PUBLIC: Final = -1
#: :attr:`Chance.seer` of an outcome no seat sees (a card dealt face down).
NOBODY: Final = -2


class Chance(ABC, Generic[S]):
    """One chance node: the next random event, before its outcome is chosen."""

    @property
    def kind(self) -> str:
        """The kind of event (one of the model's :attr:`~ChanceModel.kinds`): the
        information state's tokens tell kinds apart."""
        return "outcome"

    @property
    def seer(self) -> int:
        """Who sees the outcome: a seat, :data:`PUBLIC` or :data:`NOBODY`."""
        return PUBLIC

    @abstractmethod
    def outcomes(self) -> list[tuple[int, float]]:
        """The possible outcomes with their probabilities (summing to 1), in
        increasing order."""

    @abstractmethod
    def choose(self, outcome: int) -> Chance[S] | S:
        """The next chance node of the same event, or the engine's state once every
        outcome of the event is chosen."""

    def describe(self, outcome: int) -> str:
        """``outcome`` for people."""
        return f"{self.kind} {outcome}"


class ChanceModel(ABC, Generic[S, A]):
    """How a game's randomness unfolds as :class:`Chance` nodes."""

    #: The kinds of chance node, and the largest outcome of any plus one.
    kinds: tuple[str, ...] = ("outcome",)
    max_outcomes: int = 1

    @abstractmethod
    def start(self, players: int, variant: str | None) -> Chance[S] | S:
        """The setup of a game: its first chance node (or the first state, if
        nothing in the setup is random)."""

    @abstractmethod
    def after(self, state: S, action: A) -> Chance[S] | S:
        """``action`` taken in ``state`` (a decision): the next state, or the chance
        node that draws what the action draws first."""

    @abstractmethod
    def max_chance_nodes(self, players: int) -> int:
        """A bound on the chance nodes of one game."""

    def normalize(self, state: S) -> S:
        """``state`` with what is not yet decided dropped (a deck's order, say): how
        a state from elsewhere (a referee's game) enters the model."""
        return state

    def shuffle(self, state: S, rng: random.Random) -> S:
        """``state`` with what is not yet decided drawn at random by ``rng`` (a
        deck's order, say): for a playout in which the engine itself draws.
        Default: ``state`` (nothing to draw)."""
        return state

    def resample(self, state: S, seat: int, rng: random.Random) -> S:
        """A state ``seat`` cannot tell from ``state``, its hidden parts dealt again
        at random (for IS-MCTS); :meth:`normalize`-d."""
        raise NotImplementedError(f"{type(self).__name__} cannot resample a state")


class PileChanceModel(ChanceModel[S, A]):
    """A model whose state keeps a face-down pile (a deck) in the order it will be
    drawn, the attribute :attr:`pile` of the state (an attrs value): the order is
    not decided until a draw, so :meth:`normalize` sorts the pile and
    :meth:`shuffle` shuffles it."""

    #: The name of the state's pile (a tuple).
    pile: str = "deck"

    def normalize(self, state: S) -> S:
        """The pile in sorted order: its order is decided draw by draw."""
        return self._with_pile(state, sorted(getattr(state, self.pile)))

    def shuffle(self, state: S, rng: random.Random) -> S:
        """The pile in a random order."""
        pile = list(getattr(state, self.pile))
        rng.shuffle(pile)
        return self._with_pile(state, pile)

    def _with_pile(self, state: S, pile: list[Any]) -> S:
        new: S = attrs.evolve(cast(Any, state), **{self.pile: tuple(pile)})
        return new


def is_chance(node: object) -> bool:
    """True for a :class:`Chance` node (not an engine's state)."""
    return isinstance(node, Chance)


class Tokens:
    """The token ids of a history, as a seat saw it (an OpenSpiel information state):
    one token a step.  0 pads a tensor of them; then, in order: each action (1 +
    its index among ``actions``); each kind of chance outcome the seat saw (the
    kind's base + the outcome); "an outcome went to seat q, unseen" (one per seat,
    and one for an outcome nobody saw); the observing seat (the first token)."""

    def __init__(self, model: ChanceModel[Any, Any], actions: int, seats: int) -> None:
        self.kinds = model.kinds
        self.outcomes = model.max_outcomes
        self.action = 1
        self.chance = self.action + actions
        self.hidden = self.chance + len(self.kinds) * self.outcomes
        self.seats = seats
        self.seat = self.hidden + seats + 1
        self._texts: dict[int, str] = {}
        #: Where each kind of token starts.
        self.bases: dict[str, int] = {
            "action": self.action,
            **{k: self.chance + i * self.outcomes for i, k in enumerate(self.kinds)},
            "hidden": self.hidden,
            "seat": self.seat,
        }

    def of_chance(self, kind: str, outcome: int) -> int:
        return self.bases[kind] + outcome

    def unseen(self, seer: int) -> int:
        return self.hidden + (self.seats if seer == NOBODY else seer)

    def text(self, token: int) -> str:
        """A token for people: ``a12`` (action 12), ``card:7``, ``?>2`` (an outcome
        seat 2 saw), ``seat1:`` (the observer)."""
        text = self._texts.get(token)
        if text is None:
            text = self._texts[token] = self._text(token)
        return text

    def _text(self, token: int) -> str:
        if token >= self.seat:
            return f"seat{token - self.seat}:"
        if token >= self.hidden:
            seat = token - self.hidden
            return "?>nobody" if seat == self.seats else f"?>{seat}"
        if token >= self.chance:
            kind, outcome = divmod(token - self.chance, self.outcomes)
            return f"{self.kinds[kind]}:{outcome}"
        return f"a{token - self.action}"
