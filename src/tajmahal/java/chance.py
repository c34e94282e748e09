"""Java's randomness as explicit chance nodes (:mod:`tajmahal.kit.chance`): the model
that the OpenSpiel game ``python_java`` (:mod:`tajmahal.openspiel`) drives.

Only the festival cards are random (J13-J14, J61); the board is public.

- The setup: each seat's three cards (J13; seen by that seat only), then the
  display card, one card a chance node, uniform over the cards not yet dealt.
  The draw pile has no order until a card is drawn from it.
- A card taken (J61): the top of the draw pile, to the taker's hand (seen by it
  only), or the display card (public) and a new display card from the pile; and
  the display slot refilled when it was empty.  Each card drawn is a chance node,
  uniform over the pile's cards not drawn yet; when the pile is empty, over the
  discards, which become the pile (J61, decision).

No rule looks at a drawn card during the decision that draws it, so the model
applies the decision with the engine's own draws and then relabels the cards:
each card the engine drew becomes the card the chance nodes chose, and the other
way round (both lay in the same pile).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from attrs import evolve, frozen

from ..kit.chance import PUBLIC, Chance, PileChanceModel
from .actions import Action, TakeCard
from .components import DEFAULT_COMPONENTS, Components
from .events import CardTaken
from .hidden import determinize
from .rules import new_game, step
from .state import START, VARIANTS, Setup, State
from .views import view

__all__ = ["DealChance", "DrawChance", "JavaChance", "check", "max_turns", "relabel"]

CARD: Final = "card"


def max_turns(players: int, c: Components = DEFAULT_COMPONENTS) -> int:
    """A bound on the turns of a game: every turn lays a land tile (J20) until the
    last three-space tile lies or none fits (J78), then a last turn each (J79)."""
    own = c.own_twos + c.own_rice + c.own_villages
    return c.three_tiles + players * own + players


@frozen
class DealChance(Chance[State]):
    """The deal (J13-J14): the next card, after the cards ``dealt`` (each seat's
    hand in turn, then the display card)."""

    players: int
    variant: str
    components: Components
    dealt: tuple[int, ...] = ()
    kind: str = CARD

    @property
    def hand_size(self) -> int:
        return self.components.starting_cards

    @property
    def cards(self) -> int:
        return len(self.components.cards)

    @property
    def seer(self) -> int:
        k = len(self.dealt)
        return k // self.hand_size if k < self.players * self.hand_size else PUBLIC

    def outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(self.cards)) - set(self.dealt))
        return [(c, 1.0 / len(left)) for c in left]

    def choose(self, outcome: int) -> Chance[State] | State:
        dealt = (*self.dealt, outcome)
        if len(dealt) < self.players * self.hand_size + 1:
            return evolve(self, dealt=dealt)
        rest = sorted(set(range(self.cards)) - set(dealt))
        deck = (*dealt, *rest)
        return new_game(Setup(self.players, self.variant, deck, 0, self.components))

    def describe(self, outcome: int) -> str:
        seat = self.seer
        return f"deal card {outcome} to " + ("the display" if seat == PUBLIC else f"seat {seat}")


def pools(state: State, draws: int) -> list[frozenset[int]]:
    """The cards each of ``draws`` draws may come from: the draw pile while it lasts,
    then the discards (reshuffled into the pile, J61)."""
    pile, discard = frozenset(state.pile), frozenset(state.discard)
    return [pile if i < len(pile) else discard for i in range(draws)]


@frozen
class DrawChance(Chance[State]):
    """The next card ``action`` (a :class:`~tajmahal.java.actions.TakeCard`), taken in
    ``state``, draws: ``seers[i]`` sees the ``i``-th (the taker: to its hand;
    everyone: the display); ``picks`` are the cards drawn so far."""

    state: State
    action: Action
    seers: tuple[int, ...]
    picks: tuple[int, ...] = ()
    kind: str = CARD

    @property
    def seer(self) -> int:
        return self.seers[len(self.picks)]

    def outcomes(self) -> list[tuple[int, float]]:
        i = len(self.picks)
        pool = pools(self.state, len(self.seers))[i]
        cards = sorted(pool - set(self.picks[: i]))
        return [(c, 1.0 / len(cards)) for c in cards]

    def choose(self, outcome: int) -> Chance[State] | State:
        picks = (*self.picks, outcome)
        if len(picks) < len(self.seers):
            return evolve(self, picks=picks)
        after, events = step(self.state, self.action)
        return relabel(after, drawn(self.state, events), picks)

    def describe(self, outcome: int) -> str:
        to = "the display" if self.seer == PUBLIC else f"seat {self.seer}'s hand"
        return f"draw card {outcome} to {to}"


def drawn(before: State, events: Sequence[object]) -> tuple[int, ...]:
    """The cards a decision taken in ``before`` drew, by its events, in order: a card
    from the pile to the taker's hand, then a new display card (after the display
    card was taken, or into an empty display slot)."""
    out: list[int] = []
    display = before.display
    for e in events:
        if isinstance(e, CardTaken):
            if not e.display and e.card is not None:
                out.append(e.card)
            if e.new_display is not None and (e.display or display is None):
                out.append(e.new_display)
            display = e.new_display
    return tuple(out)


def relabel(state: State, engine: Sequence[int], chosen: Sequence[int]) -> State:
    """``state`` with the cards the engine drew (``engine``) renamed to the ones the
    chance nodes chose, and those to the engine's (the pile, in id order, keeps the
    rest: its order is not decided)."""
    swap = dict(zip(engine, chosen, strict=True))
    back = [c for c in chosen if c not in swap]
    swap |= dict(zip(back, [c for c in engine if c not in chosen], strict=True))

    def name(card: int) -> int:
        return swap.get(card, card)

    players = tuple(evolve(p, hand=tuple(sorted(name(c) for c in p.hand))) for p in state.players)
    display = None if state.display is None else name(state.display)
    return evolve(
        state, players=players, display=display, pile=tuple(sorted(name(c) for c in state.pile))
    )


class JavaChance(PileChanceModel[State, Action]):
    """Java's chance model (the module docstring): outcomes are card ids."""

    kinds = (CARD,)
    pile = "pile"

    def __init__(self, components: Components) -> None:
        self.components = components
        self.max_outcomes = self.cards = len(components.cards)
        self.hand_size = components.starting_cards

    def start(self, players: int, variant: str | None) -> Chance[State] | State:
        if not 2 <= players <= 4:
            raise ValueError(f"J1: Java is for 2-4 players, not {players}")
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        return DealChance(players, variant or START, self.components)

    def after(self, state: State, action: Action) -> Chance[State] | State:
        if not isinstance(action, TakeCard):
            return step(state, action)[0]
        after, events = step(state, action)
        cards = drawn(state, events)
        if not cards:
            return after
        seat = state.to_act
        assert seat is not None
        seers = [PUBLIC] * len(cards)
        if not action.display:
            seers[0] = seat  # the pile's top card, to the taker's hand
        return DrawChance(state, action, tuple(seers))

    def max_chance_nodes(self, players: int) -> int:
        """The deal, and every card drawn: a bound is the cards a game may take, two a
        turn (J61), over the turns :func:`max_turns` allows."""
        return players * self.hand_size + 1 + 2 * 2 * max_turns(players, self.components)

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        """The cards ``seat`` has not seen dealt again (:func:`.hidden.determinize`)."""
        return self.normalize(determinize(view(state, seat), rng, state.components))


def check(state: State) -> None:
    """Raises AssertionError unless every festival card is in exactly one place."""
    places = [*state.pile, *state.discard, *(c for p in state.players for c in p.hand)]
    if state.display is not None:
        places.append(state.display)
    if state.festival is not None:
        places += [c for cards in state.festival.laid for c in cards]
    if sorted(places) != list(range(len(state.components.cards))):
        raise AssertionError("a draw lost or doubled a card")
