"""Taj Mahal's randomness as explicit chance nodes (:mod:`tajmahal.kit.chance`): the
model that the OpenSpiel game ``python_tajmahal`` (:mod:`tajmahal.openspiel`) drives.

- The setup: the start player, the province tiles (one node per province), the
  bonus tiles (one node per fortress) and the deal, one card at a time: each
  seat's six cards, then the display.
- Every later draw from the deck, one card at a time: a card won with a bonus
  tile (W6), the card of a seat that withdraws without playing (W11), the
  dummy's cards (D2) and each new display (E4).  The deck is unordered until a
  card is drawn from it; when it runs out, the discard pile becomes the deck
  (W12) and the draws continue from it.  A seat's action that draws is applied
  once the chance nodes after it have chosen the cards.

The engine draws inside ``step``, so the model first applies the action once to
learn which cards it draws and from which pile (:func:`plan_draws`: that never
depends on which cards come), lets the chance nodes choose them, then applies the
action with those cards on top of the deck (:func:`realize`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from attrs import evolve, frozen

from ..kit.chance import PUBLIC, Chance, PileChanceModel
from .actions import Action
from .board import DEFAULT_BOARD
from .cards import CARDS, REGULAR_CARDS
from .events import (
    CardDrawn,
    Discarded,
    DummyTurned,
    Event,
    Reshuffled,
    VisitBegan,
    VisitEnded,
)
from .hidden import determinize
from .rules import check_state, new_game, step
from .setups import HAND_SIZE, VISITS, Setup, display_size, place_tiles, variant_for
from .state import State
from .tiles import DEFAULT_BONUS_TILES, BonusTile
from .views import view

__all__ = [
    "CHANCE",
    "DISPLAY",
    "DUMMY",
    "HAND",
    "DrawChance",
    "Plan",
    "Pool",
    "SetupChance",
    "Slot",
    "TajMahalChance",
    "available",
    "plan_draws",
    "realize",
]

#: Bonus tile kinds, as the setup's chance outcomes name them (the order of
#: :data:`tajmahal.tajmahal.encoding.BONUS_KINDS`): the Taj Mahal, +2, a card,
#: then the good tiles by good (C5).
BONUS_KINDS: Final = (
    BonusTile("taj_mahal"),
    BonusTile("points"),
    BonusTile("card"),
    BonusTile("good", "rice"),
    BonusTile("good", "tea"),
    BonusTile("good", "spice"),
    BonusTile("good", "jewels"),
)

# --------------------------------------------------------------------------- draws

HAND: Final = "hand"
DUMMY: Final = "dummy"
DISPLAY: Final = "display"


@frozen
class Slot:
    """One card an action draws: from the deck of ``epoch`` (0: the deck as it is,
    1: the deck after the first reshuffle in this action, ...), for a seat's
    ``HAND`` (``seat``), the ``DUMMY`` or the ``DISPLAY``."""

    epoch: int
    kind: str
    seat: int = PUBLIC


@frozen
class Pool:
    """The cards of one epoch's deck when it starts: ``cards`` that are known now,
    and the cards drawn at the slots ``drawn`` (the action drew them earlier and
    discarded them before the reshuffle: which cards they are is up to the chance
    nodes of those slots)."""

    cards: frozenset[int]
    drawn: tuple[int, ...] = ()

    def of(self, picks: Sequence[int]) -> frozenset[int]:
        """The pool once the cards of its ``drawn`` slots are ``picks[slot]``."""
        if not self.drawn:
            return self.cards
        return self.cards | {picks[i] for i in self.drawn}


@frozen
class Plan:
    """What applying ``action`` draws: its slots in order, and the cards each epoch's
    deck holds when it starts (epoch 0: the deck now; then the discard pile at each
    reshuffle)."""

    action: Action
    slots: tuple[Slot, ...]
    pools: tuple[Pool, ...]

    def pool(self, epoch: int, picks: Sequence[int]) -> frozenset[int]:
        """The cards of ``epoch``'s deck when it starts, given the cards drawn so far
        (at least those of the slots its pool refers to)."""
        return self.pools[epoch].of(picks)


def plan_draws(state: State, action: Action) -> tuple[Plan | None, State]:
    """Apply ``action`` once to learn which cards it draws, from where and for whom.

    Returns ``(None, next_state)`` when it draws nothing (``next_state`` is then the
    true result), else the plan (and a state to throw away).  How many cards an
    action draws and from which pile never depends on which cards come: the
    dummy's stop (D3), the only rule that looks at a drawn card, comes last.
    Which cards a reshuffled pile holds may depend on them, though: a card this
    action drew and discarded (the dummy's, at the end of a visit) is reshuffled,
    so the pool refers to its slot, not to the card this trial happened to draw.
    """
    after, events = step(state, action)
    pools = [Pool(frozenset(state.deck))]
    discard = list(state.discard)
    discarded_draws: list[int] = []  # slots whose cards went to the discard pile
    slot_of: dict[int, int] = {}  # a card this trial drew -> its slot
    slots: list[Slot] = []
    epoch, left = 0, len(state.deck)
    in_display = False
    display_from_old = -1
    for e in events:
        if isinstance(e, Discarded):
            for card in e.cards:
                if card in slot_of:
                    discarded_draws.append(slot_of.pop(card))
                else:
                    discard.append(card)
        elif isinstance(e, Reshuffled):
            if in_display:
                display_from_old = left
            elif left != 0:
                raise AssertionError("a reshuffle before the deck ran out")
            if len(discard) + len(discarded_draws) != e.cards:
                raise AssertionError("the discard pile does not match the reshuffle")
            epoch += 1
            pools.append(Pool(frozenset(discard), tuple(discarded_draws)))
            discard, discarded_draws = [], []
            left = e.cards
        elif isinstance(e, CardDrawn | DummyTurned):
            if e.card is not None:  # the engine's own events: the card is known
                slot_of[e.card] = len(slots)
            kind, seat = (HAND, e.seat) if isinstance(e, CardDrawn) else (DUMMY, PUBLIC)
            slots.append(Slot(epoch, kind, seat))
            left -= 1
        elif isinstance(e, VisitEnded):
            in_display = True
        elif isinstance(e, VisitBegan):
            k = len(e.display)
            if display_from_old >= 0:
                slots += [Slot(epoch - 1, DISPLAY)] * display_from_old
                slots += [Slot(epoch, DISPLAY)] * (k - display_from_old)
                left -= k - display_from_old
            else:
                slots += [Slot(epoch, DISPLAY)] * k
                left -= k
            in_display = False
    if not slots:
        return None, after
    return Plan(action, tuple(slots), tuple(pools)), after


def available(plan: Plan, picks: Sequence[int]) -> list[int]:
    """The cards the next slot of ``plan`` may draw, given the cards drawn so far."""
    slot = plan.slots[len(picks)]
    taken = {c for s, c in zip(plan.slots, picks, strict=False) if s.epoch == slot.epoch}
    return sorted(plan.pool(slot.epoch, picks) - taken)


#: How many reshuffle orders :func:`realize` may try for a dummy's card (see there).
_SEARCH_LIMIT: Final = 20_000


def realize(state: State, plan: Plan, picks: Sequence[int]) -> State:
    """``plan``'s action applied to ``state`` so that its slots draw ``picks``.

    The engine draws from the top of the deck, so the picks go on top in order:
    those from the deck as it is, and those from a later epoch that lie in the
    discard pile now (they would be reshuffled into the deck).  Two kinds of slot
    come last in an action and may need a card that is discarded during the
    action itself: the new display (its cards are set afterwards: nothing in the
    action looks at them) and the dummy's card, followed by nothing but the new
    display's (the engine reshuffles, with the reshuffle count ``r = 0, 1, ...``
    choosing its order, until the dummy turns the chosen card; a last withdrawal
    on an empty deck turns the dummy's card from a pile that holds the seat's own
    discarded cards, then lays out the display).  Afterwards the deck is the rest
    of the last epoch's cards (sorted: its order is not yet decided) and the
    discard pile holds what was discarded after the last reshuffle.
    """
    slots = plan.slots
    if len(picks) != len(slots):
        raise ValueError(f"the plan draws {len(slots)} cards, not {len(picks)}")
    discard = set(state.discard)
    preload: list[int] = []
    moved: set[int] = set()
    display: list[int] = []
    search: int | None = None
    for i, (slot, card) in enumerate(zip(slots, picks, strict=True)):
        if slot.kind == DISPLAY:
            display.append(card)
        elif slot.epoch == 0 or card in discard:
            preload.append(card)
            if slot.epoch:
                moved.add(card)
        elif slot.kind == DUMMY and all(s.kind == DISPLAY for s in slots[i + 1 :]):
            search = card
        else:  # pragma: no cover - plan_draws never makes such a plan
            raise AssertionError(f"slot {i} draws a card discarded during the action")
    rest = sorted(set(state.deck) - set(preload))
    if moved and rest:  # pragma: no cover - a later epoch starts on an empty deck
        raise AssertionError("cards from the discard pile above an unfinished deck")
    ready = evolve(
        state,
        deck=(*preload, *rest),
        discard=tuple(c for c in state.discard if c not in moved),
    )
    if search is None:
        after, events = step(ready, plan.action)
    else:
        for r in range(_SEARCH_LIMIT):
            after, events = step(evolve(ready, reshuffles=r), plan.action)
            if any(isinstance(e, DummyTurned) and e.card == search for e in events):
                break
        else:  # pragma: no cover - the chance is about (1 - 1/96) ** 20000
            raise RuntimeError("no reshuffle order turned the chosen card for the dummy")
    last = slots[-1].epoch
    drawn_last = {c for s, c in zip(slots, picks, strict=True) if s.epoch == last}
    deck = tuple(sorted(plan.pool(last, picks) - drawn_last))
    if last == 0:
        new_discard = after.discard
    else:
        start = next(i for i, s in enumerate(slots) if s.epoch == last)
        new_discard = _discarded_after(events, start)
    fixed = evolve(
        after,
        deck=deck,
        discard=new_discard,
        display=tuple(sorted(display)) if display else after.display,
        reshuffles=state.reshuffles + last,
    )
    check_state(fixed)  # every card in one place: a draw lost or doubled none
    return fixed


def _discarded_after(events: Sequence[Event], start: int) -> tuple[int, ...]:
    """The cards discarded after draw number ``start`` (counting from 0) of an
    action's events; the display's draws count at the end of the visit."""
    drawn = 0
    counting = False
    out: list[int] = []
    for e in events:
        if isinstance(e, CardDrawn | DummyTurned):
            if drawn == start:
                counting = True
            drawn += 1
        elif isinstance(e, VisitEnded) and drawn <= start:
            counting = True
        elif isinstance(e, Discarded) and counting:
            out.extend(e.cards)
    return tuple(out)



# --------------------------------------------------------------------------- the setup

_BOARD: Final = DEFAULT_BOARD
#: The provinces that get tiles 1-11 (all but the final one), and the fortresses
#: that get the 15 square bonus tiles, in the order of their chance nodes (S3, S4).
_TILE_PROVINCES: Final = tuple(
    p for p in range(len(_BOARD.provinces)) if p != _BOARD.final_province
)
_BONUS_CITIES: Final = tuple(c for c in _BOARD.fortresses if c != _BOARD.taj_mahal_city)
_SQUARES: Final = tuple(BONUS_KINDS.index(t) for t in DEFAULT_BONUS_TILES)
_START: Final = 0  # setup outcome 0: the start player
_TILES: Final = 1  # outcomes 1-11: the province tiles
_BONUS: Final = _TILES + len(_TILE_PROVINCES)  # outcomes 12-26: the bonus tiles
_DEAL: Final = _BONUS + len(_BONUS_CITIES)  # then the deal, card by card


def setup_size(players: int) -> int:
    """How many chance nodes the setup has."""
    return _DEAL + HAND_SIZE * players + display_size(players)


@frozen
class SetupChance(Chance[State]):
    """The next chance node of the setup, after the outcomes ``done``."""

    players: int
    done: tuple[int, ...] = ()

    @property
    def kind(self) -> str:
        k = len(self.done)
        if k == _START:
            return "start"
        if k < _BONUS:
            return "tile"
        return "bonus" if k < _DEAL else "card"

    @property
    def seer(self) -> int:
        dealt = len(self.done) - _DEAL
        return dealt // HAND_SIZE if 0 <= dealt < HAND_SIZE * self.players else PUBLIC

    def outcomes(self) -> list[tuple[int, float]]:
        n, done = self.players, self.done
        k = len(done)
        if k == _START:
            return [(s, 1.0 / n) for s in range(n)]
        if k < _BONUS:
            left = sorted(set(range(1, 12)) - set(done[_TILES:k]))
            return [(t, 1.0 / len(left)) for t in left]
        if k < _DEAL:
            counts: dict[int, int] = {}
            for kind in _SQUARES:
                counts[kind] = counts.get(kind, 0) + 1
            for kind in done[_BONUS:k]:
                counts[kind] -= 1
            total = sum(counts.values())
            return [(kind, c / total) for kind, c in sorted(counts.items()) if c]
        left = sorted(set(REGULAR_CARDS) - set(done[_DEAL:k]))
        return [(c, 1.0 / len(left)) for c in left]

    def choose(self, outcome: int) -> Chance[State] | State:
        done = (*self.done, outcome)
        if len(done) < setup_size(self.players):
            return SetupChance(self.players, done)
        return _build(self.players, done)

    def describe(self, outcome: int) -> str:
        k = len(self.done)
        if k == _START:
            return f"seat {outcome} starts"
        if k < _BONUS:
            return f"tile {outcome} on {_BOARD.provinces[_TILE_PROVINCES[k - _TILES]]}"
        if k < _DEAL:
            city = _BOARD.cities[_BONUS_CITIES[k - _BONUS]].name
            return f"bonus tile {BONUS_KINDS[outcome]} on {city}"
        seat = self.seer
        to = "the display" if seat == PUBLIC else f"seat {seat}"
        return f"deal #{outcome} {CARDS[outcome]} to {to}"


def _build(players: int, done: Sequence[int]) -> State:
    """The engine's first state once every setup outcome is known."""
    numbers = done[_TILES:_BONUS]
    squares = tuple(BONUS_KINDS[k] for k in done[_BONUS:_DEAL])
    tiles, bonus = place_tiles(_BOARD, numbers, squares)
    dealt = tuple(done[_DEAL:])
    rest = sorted(set(REGULAR_CARDS) - set(dealt))
    setup = Setup(
        players=players,
        seed=0,
        start_player=done[_START],
        deck=(*dealt, *rest),
        province_tiles=tiles,
        bonus_tiles=bonus,
        board=_BOARD,
        variant=variant_for(players),
    )
    return new_game(setup)


# --------------------------------------------------------------------------- the model


@frozen
class DrawChance(Chance[State]):
    """The next card that ``plan``'s action, taken in ``state``, draws; ``picks`` are
    the cards its earlier slots drew."""

    state: State
    plan: Plan
    picks: tuple[int, ...] = ()
    kind: str = "card"

    @property
    def slot(self) -> Slot:
        return self.plan.slots[len(self.picks)]

    @property
    def seer(self) -> int:
        slot = self.slot
        return slot.seat if slot.kind == HAND else PUBLIC

    def outcomes(self) -> list[tuple[int, float]]:
        cards = available(self.plan, self.picks)
        return [(c, 1.0 / len(cards)) for c in cards]

    def choose(self, outcome: int) -> Chance[State] | State:
        picks = (*self.picks, outcome)
        if len(picks) < len(self.plan.slots):
            return evolve(self, picks=picks)
        return realize(self.state, self.plan, picks)

    def describe(self, outcome: int) -> str:
        slot = self.slot
        to = {HAND: f"seat {slot.seat}", DUMMY: "the dummy", DISPLAY: "the display"}[slot.kind]
        return f"draw #{outcome} {CARDS[outcome]} for {to}"


class TajMahalChance(PileChanceModel[State, Action]):
    """Taj Mahal's chance model (the module docstring): outcomes are card ids, seats,
    province tile numbers and bonus tile kinds, all below 96."""

    kinds = ("card", "start", "tile", "bonus")
    max_outcomes = len(REGULAR_CARDS)

    def start(self, players: int, variant: str | None) -> Chance[State] | State:
        if not 2 <= players <= 5:
            raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
        if variant and variant != variant_for(players):
            raise ValueError(f"{players} players play the {variant_for(players)!r} variant")
        return SetupChance(players)

    def after(self, state: State, action: Action) -> Chance[State] | State:
        plan, after = plan_draws(state, action)
        return after if plan is None else DrawChance(state, plan)

    def max_chance_nodes(self, players: int) -> int:
        """The setup, the deal, the displays, a card for each withdrawal without a
        play, the 15 bonus tiles, the dummy's cards."""
        later = (VISITS - 1) * display_size(players) + VISITS * players + len(_BONUS_CITIES)
        dummy = VISITS * (84 + players) if players == 2 else 0
        return setup_size(players) + later + dummy

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        """The cards ``seat`` cannot see dealt again (:func:`tajmahal.determinize`)."""
        return self.normalize(determinize(view(state, seat), rng))


#: The model the OpenSpiel game uses.
CHANCE: Final = TajMahalChance()
