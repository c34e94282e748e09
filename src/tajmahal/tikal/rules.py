"""The rules of Tikal as pure functions (rule ids of docs/tikal-rules.md).

:func:`new_game` starts a game from a :class:`~tajmahal.tikal.state.Setup`,
:func:`legal_actions` lists what the seat to act may do, :func:`apply` (or
:func:`step`, which also returns the events) plays one action and returns the
next state.  Nothing is mutated.  An action that is not allowed raises
:class:`IllegalAction`, whose message starts with the id of the rule it breaks.

>>> from tajmahal.tikal import Setup, new_game, legal_actions, apply
>>> state = new_game(Setup.random(players=3, seed=7))
>>> state.phase, state.to_act
('place', 0)
>>> apply(state, EndTurn())
Traceback (most recent call last):
...
tajmahal.kit.errors.IllegalAction: T17: first place the tile you drew

Legality is :mod:`tajmahal.tikal.problems`; this module plays what it allows: the
turns, rounds and auctions (the effects of a turn's actions are
:mod:`tajmahal.tikal.effects`).  A step changes a
:class:`~tajmahal.tikal.draft.Draft` of the state and freezes it into one new
:class:`~tajmahal.tikal.state.State` at the end; events are made only by
:func:`step` (``apply`` does not need them).
"""

from __future__ import annotations

from typing import Final

# T45: the totals by seat, ranked (a tie is a shared win).
from ..kit.errors import IllegalAction
from ..kit.scoring import ranks as ranks
from ..kit.scoring import scores as scores
from .actions import (
    Action,
    Bid,
    Choose,
    EndTurn,
    Pass,
    Place,
)
from .draft import Draft, Events, space_of
from .effects import act
from .events import (
    AuctionWon,
    BidMade,
    BidPassed,
    Event,
    GameOver,
    Scored,
    ScoringBegan,
    TileChosen,
    TileDrawn,
    TilePlaced,
    TilesRevealed,
    TurnBegan,
    TurnEnded,
)
from .geometry import VOLCANO, rotated
from .problems import problem
from .state import (
    ACT,
    ACTION_POINTS,
    AUCTION,
    AUCTION_CAPITAL,
    BASIC,
    BID,
    CHOOSE,
    NORMAL,
    OVER,
    PLACE,
    SCORING,
    Auction,
    Round,
    Seat,
    Setup,
    Space,
    State,
)

__all__ = [
    "TREASURE_POINTS",
    "apply",
    "final_order",
    "is_over",
    "new_game",
    "outlook",
    "ranks",
    "scores",
    "scoring",
    "step",
]

#: T34: points for 0, 1, 2 or 3 treasures of one type.
TREASURE_POINTS: Final = (0, 1, 3, 6)
_TEMPLE: Final = "temple"


# --------------------------------------------------------------------------- start


def new_game(setup: Setup) -> State:
    """The state before the first decision (T10-T16, T46-T47)."""
    setup.check()
    c = setup.components
    board = c.board
    spaces: list[Space | None] = [None] * len(board.coords)
    for s in board.start:
        spaces[s.space] = Space(s.kind, s.stones, None, s.value)
    capital = AUCTION_CAPITAL if setup.variant == AUCTION else 0
    seat = Seat(reserve=c.workers, treasures=(0,) * len(c.treasure_types), capital=capital)
    d = Draft(
        State(
            setup=setup,
            spaces=tuple(spaces),
            workers=((0,) * setup.players,) * len(spaces),
            players=(seat,) * setup.players,
            stack=setup.stack,
            supply=setup.treasures,
            levels=c.levels,
            phase=PLACE,
            to_act=0,
        )
    )
    if setup.variant == BASIC:
        _begin_turn(d, 0, None)
    else:
        _begin_auction_round(d, 0, None)
    return d.freeze()


# --------------------------------------------------------------------------- play


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalAction`."""
    return _play(state, action, None)


def step(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened; raises :class:`IllegalAction`."""
    events: list[Event] = []
    return _play(state, action, events), events


def _play(state: State, action: Action, events: Events) -> State:
    reason = problem(state, action)
    if reason is not None:
        rule, _, text = reason.partition(": ")
        raise IllegalAction(rule, text)
    d = Draft(state)
    seat = state.to_act
    assert seat is not None
    if isinstance(action, Place):
        _place(d, seat, action, events)
    elif isinstance(action, (Bid, Pass)):
        _bid(d, seat, action, events)
    elif isinstance(action, Choose):
        _choose(d, seat, action, events)
    elif isinstance(action, EndTurn):
        _end_turn(d, seat, events)
    else:
        act(d, seat, action, events)
        if d.ap == 0:
            _end_turn(d, seat, events)
    return d.freeze()


def _place(d: Draft, seat: int, action: Place, events: Events) -> None:
    tile_id = d.tile
    assert tile_id is not None
    tile = d.setup.components.tiles[tile_id]
    tokens = d.supply[: tile.masks]  # T21 (the supply may run short)
    laid = rotated(tile.stones, action.rotation)
    d.set_space(
        action.space, space_of(tile.kind, laid, tile_id, tile.value, tokens, None, None, False)
    )
    d.supply = d.supply[len(tokens) :]
    d.tile = None
    d.last_placer = seat
    if events is not None:
        events.append(TilePlaced(seat, tile_id, action.space, action.rotation, len(tokens)))
    _begin_actions(d, seat, NORMAL, events)


# --------------------------------------------------------------------------- turns


def _begin_actions(d: Draft, seat: int, kind: str, events: Events) -> None:
    if events is not None:
        events.append(TurnBegan(seat, kind))
    d.phase = ACT
    d.to_act = seat
    d.ap = ACTION_POINTS
    d.turn = kind
    d.uncovered = ()
    d.dug = ()


def _begin_turn(d: Draft, seat: int, events: Events) -> None:
    """T17 (basic game): ``seat`` draws the top tile; T45 when none is left."""
    if not d.stack:
        _begin_final(d, seat, events)
        return
    tile = d.stack[0]
    d.stack = d.stack[1:]
    if events is not None:
        events.append(TileDrawn(seat, tile))
    _took_tile(d, seat, tile, events)


def _took_tile(d: Draft, seat: int, tile: int, events: Events) -> None:
    if d.setup.components.tiles[tile].kind == VOLCANO:  # T42, T55
        n = len(d.players)
        order = tuple((seat + i) % n for i in range(n))
        if events is not None:
            events.append(ScoringBegan(order, tile))
        d.round = Round(order, seat, tile)
        d.tile = None
        _begin_actions(d, seat, SCORING, events)
        return
    d.phase = PLACE
    d.to_act = seat
    d.tile = tile
    d.ap = 0


def _begin_final(d: Draft, first: int, events: Events) -> None:
    """T45: the final scoring round, starting with ``first`` (T56: by score in the
    auction game)."""
    order = _final_order(d.setup.variant, d.players, d.last_placer, first)
    if events is not None:
        events.append(ScoringBegan(order, None))
    d.round = Round(order)
    d.auction = None
    _begin_actions(d, order[0], SCORING, events)


def final_order(state: State, first: int) -> tuple[int, ...]:
    """The order of the final scoring round: clockwise from ``first`` (T45), or in
    the auction game by score, lowest first, ties nearest clockwise after the last
    placer, who counts as farthest (T56)."""
    return _final_order(state.setup.variant, state.players, state.last_placer, first)


def _final_order(
    variant: str, players: tuple[Seat, ...], last_placer: int | None, first: int
) -> tuple[int, ...]:
    n = len(players)
    if variant != AUCTION:
        return tuple((first + i) % n for i in range(n))
    last = last_placer if last_placer is not None else n - 1
    return tuple(sorted(range(n), key=lambda s: (players[s].score, (s - last - 1) % n)))


def _end_turn(d: Draft, seat: int, events: Events) -> None:
    if events is not None:
        events.append(TurnEnded(seat, d.ap))
    d.ap = 0
    d.uncovered = ()
    d.dug = ()
    if d.turn == SCORING:
        _score(d, seat, events)
        scoring_round = d.round
        assert scoring_round is not None
        rest = scoring_round.order[1:]
        if rest:
            d.round = Round(rest, scoring_round.trigger, scoring_round.volcano)
            _begin_actions(d, rest[0], SCORING, events)
        elif scoring_round.trigger is None:
            _game_over(d, events)
        else:  # T43: the volcano goes on the board now
            d.round = None
            d.phase = PLACE
            d.to_act = scoring_round.trigger
            d.tile = scoring_round.volcano
            d.turn = NORMAL
        return
    n = len(d.players)
    if d.setup.variant == BASIC:
        _begin_turn(d, (seat + 1) % n, events)
        return
    auction = d.auction
    assert auction is not None
    done = list(auction.done)
    done[seat] = True
    d.auction = Auction(
        auction.display, tuple(done), auction.opener, auction.high, auction.bidder, auction.passed
    )
    _open_auction(d, (seat + 1) % n, seat, events)


def _score(d: Draft, seat: int, events: Events) -> None:
    temples, treasures = _scoring(d.spaces, d.workers, d.players, seat, d.setup)
    p = d.players[seat]
    d.change_seat(
        seat,
        temple_points=p.temple_points + temples,
        treasure_points=p.treasure_points + treasures,
    )
    if events is not None:
        events.append(Scored(seat, temples, treasures, d.players[seat].score))


def scoring(state: State, seat: int) -> tuple[int, int]:
    """T44: what ``seat`` scores now: the temples it guards or holds the majority of
    (strictly the most strength, leader 3; a tie scores for nobody), and its
    treasures (1, 3, 6 for one, two, three of a type)."""
    return _scoring(state.spaces, state.workers, state.players, seat, state.setup)


def outlook(state: State) -> list[int]:
    """T44: what each seat would score at a scoring round now."""
    return [sum(scoring(state, seat)) for seat in range(len(state.players))]


def _scoring(
    spaces: tuple[Space | None, ...],
    workers: tuple[tuple[int, ...], ...],
    players: tuple[Seat, ...],
    seat: int,
    setup: Setup,
) -> tuple[int, int]:
    leader_strength = setup.components.leader_strength
    temples = 0
    n = len(players)
    for index, space in enumerate(spaces):
        if space is None or space.kind != _TEMPLE:
            continue
        if space.guard is not None:
            temples += space.value if space.guard == seat else 0
            continue
        row = workers[index]
        best = 0
        mine = 0
        for other in range(n):
            strength = row[other] + (leader_strength if players[other].leader == index else 0)
            if other == seat:
                mine = strength
            elif strength > best:
                best = strength
        if mine > best:
            temples += space.value
    treasures = sum(TREASURE_POINTS[k] for k in players[seat].treasures)
    return temples, treasures


def _game_over(d: Draft, events: Events) -> None:
    d.phase = OVER
    d.to_act = None
    d.round = None
    if events is not None:
        totals = [p.score for p in d.players]
        events.append(GameOver(tuple(totals), tuple(ranks(totals))))


# --------------------------------------------------------------------------- auction


def _begin_auction_round(d: Draft, opener: int, events: Events) -> None:
    """T47: reveal a tile per player; T45/T56 when the stack is empty."""
    n = len(d.players)
    if not d.stack:
        _begin_final(d, opener, events)
        return
    display = d.stack[:n]
    if events is not None:
        events.append(TilesRevealed(display))
    d.stack = d.stack[n:]
    d.auction = Auction(display, (False,) * n, opener, passed=(False,) * n)
    _open_auction(d, opener, None, events)


def _open_auction(d: Draft, start: int, last: int | None, events: Events) -> None:
    """T50-T54: the nearest seat from ``start`` clockwise without a turn this round
    opens the next auction; the round ends when all have had a turn (or no tile is
    left); ``last`` took the turn before."""
    auction = d.auction
    assert auction is not None
    n = len(d.players)
    waiting = [(start + i) % n for i in range(n) if not auction.done[(start + i) % n]]
    if not waiting or not auction.display:
        d.auction = None
        _begin_auction_round(d, (last + 1) % n if last is not None else start, events)  # T54
        return
    d.auction = Auction(auction.display, auction.done, waiting[0], 0, None, (False,) * n)
    if len(waiting) == 1:  # T52: the last turn of a round is free
        _win_auction(d, waiting[0], 0, events)
        return
    d.phase = BID
    d.to_act = waiting[0]
    d.ap = 0


def _bid(d: Draft, seat: int, action: Bid | Pass, events: Events) -> None:
    a = d.auction
    assert a is not None
    if isinstance(action, Bid):
        a = Auction(a.display, a.done, a.opener, action.amount, seat, a.passed)
        if events is not None:
            events.append(BidMade(seat, action.amount))
    else:
        passed = list(a.passed)
        passed[seat] = True
        a = Auction(a.display, a.done, a.opener, a.high, a.bidder, tuple(passed))
        if events is not None:
            events.append(BidPassed(seat))
    d.auction = a
    n = len(d.players)
    for i in range(1, n + 1):
        other = (seat + i) % n
        if not a.done[other] and not a.passed[other] and other != a.bidder:
            d.to_act = other
            return
    if a.bidder is not None:  # T48: everybody else passed
        _win_auction(d, a.bidder, a.high, events)
    else:
        _win_auction(d, a.opener, 0, events)  # T51


def _win_auction(d: Draft, seat: int, bid: int, events: Events) -> None:
    """T49: the winner pays and chooses a tile."""
    d.change_seat(seat, capital=d.players[seat].capital - bid)
    if events is not None:
        events.append(AuctionWon(seat, bid))
    d.phase = CHOOSE
    d.to_act = seat


def _choose(d: Draft, seat: int, action: Choose, events: Events) -> None:
    a = d.auction
    assert a is not None
    display = list(a.display)
    display.remove(action.tile)
    if events is not None:
        events.append(TileChosen(seat, action.tile))
    d.auction = Auction(tuple(display), a.done, a.opener, a.high, a.bidder, a.passed)
    _took_tile(d, seat, action.tile, events)


# --------------------------------------------------------------------------- results


def is_over(state: State) -> bool:
    return state.phase == OVER
