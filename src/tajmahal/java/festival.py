"""Java's festivals (J62-J73): the cards that qualify, the auction card by card,
and the scoring.

The proposer selects the palace (the festival begins), then lays its cards one
by one; every bidder in turn lays one or more cards (:class:`Lay`, then
:class:`Done`) or passes (:class:`Pass`, and is out) until all have passed.
"""

from __future__ import annotations

from attrs import evolve

from .components import PALACE_VALUES
from .events import CardLaid, Event, FestivalBegan, FestivalScored, Passed
from .geometry import area_of
from .state import ACT, FESTIVAL, NONE, VILLAGE, Festival, State


def required_symbols(state: State) -> tuple[int, ...]:
    """J63: the symbols on the display card."""
    return () if state.display is None else state.components.cards[state.display]


def card_symbols(state: State, card: int, required: tuple[int, ...]) -> int:
    """J68: how many required symbols a card shows."""
    return sum(1 for s in state.components.cards[card] if s in required)


def qualifying(state: State, hand: tuple[int, ...], required: tuple[int, ...]) -> list[int]:
    """J67: the cards of ``hand`` that show a required symbol, ascending."""
    return [c for c in hand if card_symbols(state, c, required)]


def opening(f: Festival) -> bool:
    """J67: the proposer's first bid, before its first card: it must lay one."""
    return f.turn == 0 and not f.laid[0]


def begin(state: State, seat: int, palace: int, events: list[Event]) -> State:
    """J62-J67: the festival in ``palace``: the bidders are the seats with a
    figure in the city, in playing order from the proposer."""
    n = len(state.players)
    present = {state.figures[q] for q in area_of(state, palace, VILLAGE)} - {NONE}
    bidders = tuple(s for s in ((seat + i) % n for i in range(n)) if s in present)
    required = required_symbols(state)
    events.append(FestivalBegan(seat, palace, required, bidders))
    f = Festival(
        palace=palace,
        required=required,
        bidders=bidders,
        laid=((),) * len(bidders),
        passed=(False,) * len(bidders),
        turn=0,
    )
    return evolve(state, phase=FESTIVAL, pending=None, festival=f)


def lay(state: State, seat: int, card: int, events: list[Event]) -> State:
    """J67: ``card`` joins the bid under way."""
    f = state.festival
    assert f is not None
    laid = list(f.laid)
    laid[f.turn] = (*laid[f.turn], card)
    players = list(state.players)
    players[seat] = evolve(players[seat], hand=tuple(c for c in players[seat].hand if c != card))
    events.append(CardLaid(seat, card))
    f = evolve(f, laid=tuple(laid), bid=(*f.bid, card))
    return evolve(state, players=tuple(players), festival=f)


def next_bid(state: State, seat: int, passing: bool, events: list[Event]) -> tuple[State, bool]:
    """J67: the bid under way ends (``passing``: the seat passes and is out); the
    next bidder still in acts.  True when all have passed (the auction is over:
    :func:`score` it)."""
    f = state.festival
    assert f is not None
    passed = list(f.passed)
    if passing:
        passed[f.turn] = True
        events.append(Passed(seat))
    if all(passed):
        return evolve(state, festival=evolve(f, passed=tuple(passed), bid=())), True
    k = len(f.bidders)
    nxt = next(j % k for j in range(f.turn + 1, f.turn + 1 + k) if not passed[j % k])
    f = evolve(f, passed=tuple(passed), turn=nxt, bid=())
    return evolve(state, festival=f, to_act=f.bidders[nxt]), False


def score(state: State, events: list[Event]) -> State:
    """J68-J72: count the symbols, score the winners, discard the cards, turn the
    palace red; the proposer is to act again (its turn ends, J73)."""
    f = state.festival
    assert f is not None
    symbols = [0] * len(state.players)
    for s, cards in zip(f.bidders, f.laid, strict=True):
        symbols[s] = sum(card_symbols(state, c, f.required) for c in cards)
    best = max(symbols)
    winners = tuple(s for s, n in enumerate(symbols) if n == best and best > 0)
    value = state.palace[f.palace]
    i = PALACE_VALUES.index(value)
    points = value // 2 if len(winners) == 1 else state.components.festival_tie[i]
    players = list(state.players)
    for s in winners:
        players[s] = evolve(players[s], festivals=players[s].festivals + points)
    events.append(FestivalScored(f.palace, tuple(symbols), winners, points))
    return evolve(
        state,
        players=tuple(players),
        discard=state.discard + tuple(c for cards in f.laid for c in cards),
        red=tuple(sorted((*state.red, f.palace))),
        festival=None,
        phase=ACT,
        to_act=f.bidders[0],
    )
