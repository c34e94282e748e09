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
from typing import Final, Generic, TypeVar

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


def is_chance(node: object) -> bool:
    """True for a :class:`Chance` node (not an engine's state)."""
    return isinstance(node, Chance)

