"""Java's judgement for the built-in bots: what a position is worth to each seat,
which positions of a decision look best first, festival bids, and the playout
policy.  Compiled with mypyc (the bots call it at every step of every playout).

The worth (:func:`evaluate`) is in points, relative to the best rival: the points
scored, a share of what the final scoring would give now (J80-J82), the villages
where the seat alone could build a palace (J52), and small terms for figures on
the board, festival cards and action tokens.
"""

from __future__ import annotations

from typing import Final

from .actions import Action, EndTurn, Lay, Select
from .festival import card_symbols, opening, required_symbols
from .geometry import palace_of, tiers, villages
from .state import ACT, POSITION, TARGET, VILLAGE, State

#: Worth of parts of a position (points).
FIRST: Final = 0.6  # share of a city's value for first place now
SECOND: Final = 0.3
VILLAGE_LEAD: Final = 0.25  # per space (up to 10) of a village without palace the seat leads
ON_BOARD: Final = 0.4  # a figure on the board
CARD: Final = 0.4  # a festival card (up to 5)
TOKEN: Final = 0.3  # an action token not yet used (less than the AP it buys)
#: How many positions of a decision the bots look at, best first.
NEAR: Final = 10  # next to the seat's figures
FAR: Final = 4  # elsewhere


def _own_worth(
    state: State, seat: int, towns: list[list[int]], tier_lists: list[list[list[int]]]
) -> float:
    p = state.players[seat]
    total = float(p.score)
    for village, t in zip(towns, tier_lists, strict=True):
        where = palace_of(state, village)
        if where is None:
            if t and t[0] == [seat]:
                total += VILLAGE_LEAD * min(len(village), 10)
            continue
        if p.scored:
            continue
        value = state.palace[where]
        alone = len(t) == 1 and len(t[0]) == 1  # J82: nobody is second
        for place, tier in enumerate(t[:2]):
            if seat in tier and not (place == 1 and alone):
                total += (FIRST if place == 0 else SECOND) * value
    total += ON_BOARD * sum(1 for s in state.figures if s == seat)
    total += CARD * min(len(p.hand), 5) + TOKEN * p.tokens
    return total


def evaluate(state: State) -> list[float]:
    """Each seat's worth minus its best rival's, by seat."""
    towns = villages(state)
    tier_lists = [tiers(state, v) for v in towns]
    values = [_own_worth(state, s, towns, tier_lists) for s in range(len(state.players))]
    out = []
    for s, v in enumerate(values):
        out.append(v - max(w for o, w in enumerate(values) if o != s))
    return out


def worth(state: State, seat: int) -> float:
    """``seat``'s worth minus its best rival's."""
    return evaluate(state)[seat]


def festival_value(state: State, palace: int) -> float:
    """What opening a festival in ``palace`` is worth to the seat to act: half the
    palace's value (J69), times its chance to win the auction, guessed from its
    symbols against the largest rival hand."""
    seat = state.to_act
    assert seat is not None
    required = required_symbols(state)
    mine = sum(card_symbols(state, c, required) for c in state.players[seat].hand)
    rivals = max((len(p.hand) for s, p in enumerate(state.players) if s != seat), default=0)
    chance = 0.9 if mine > rivals else 0.5 if mine == rivals else 0.2
    return chance * state.palace[palace] / 2


def bid_choice(state: State, legal: list[Action]) -> int:
    """J67: the card with the most required symbols, one at a time, while the seat
    does not lead, in palaces of 4 or more (and always in the proposer's opening);
    otherwise the end of the bid or a pass (always last)."""
    f = state.festival
    seat = state.to_act
    assert f is not None and seat is not None
    count = [sum(card_symbols(state, c, f.required) for c in cards) for cards in f.laid]
    mine = count[f.bidders.index(seat)]
    others = max((n for s, n in zip(f.bidders, count, strict=True) if s != seat), default=0)
    best, choice = -1, -1
    for i, a in enumerate(legal):
        if isinstance(a, Lay):
            n = card_symbols(state, a.card, f.required)
            if n > best:
                best, choice = n, i
    first = opening(f)
    if choice >= 0 and (first or (mine <= others and state.palace[f.palace] >= 4)):
        return choice
    return len(legal) - 1


def ordered(state: State, legal: list[Action], near: int = NEAR, far: int = FAR) -> list[int]:
    """Indices of ``legal`` best first for a search: in the phase ``act``, ending
    the turn first (so that a search widening its nodes slowly values a line by
    stopping before it values it by random play); at most :data:`NEAR` +
    :data:`FAR` positions: next to the seat's figures (the higher the better)
    before the others; other decisions keep their order."""
    if state.phase == ACT:
        n = len(legal)
        return [n - 1, *range(n - 1)] if isinstance(legal[-1], EndTurn) else list(range(n))
    if state.phase != POSITION and state.phase != TARGET:
        return list(range(len(legal)))
    seat = state.to_act
    nb = state.components.board.neighbours
    figures, height, terrain = state.figures, state.height, state.terrain
    close: list[tuple[int, int]] = []
    elsewhere: list[int] = []
    for i, a in enumerate(legal):
        assert isinstance(a, Select)
        q = a.position
        mine = 0
        for n in nb[q]:
            if figures[n] == seat:
                mine += 1
        if mine or figures[q] == seat:
            score = 4 * mine + height[q] + (2 if terrain[q] == VILLAGE else 0)
            close.append((-score, i))
        else:
            elsewhere.append(i)
    close.sort()
    out = [i for _, i in close[:near]]
    step = max(1, len(elsewhere) // far) if elsewhere and far else 1
    out.extend(elsewhere[::step][:far])
    return out


def owner(state: State) -> int | None:
    """Whose turn it is: the seat to act, or the proposer of a festival under way."""
    f = state.festival
    return f.bidders[0] if f is not None else state.to_act


__all__ = [
    "bid_choice",
    "evaluate",
    "festival_value",
    "ordered",
    "owner",
    "worth",
]
