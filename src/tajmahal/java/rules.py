"""Java's rules: :func:`new_game`, :func:`step` and :func:`apply` (pure: a new
state, the old one untouched), with the rule ids of docs/java-rules.md; the legal
decisions are in :mod:`tajmahal.java.legal`.  An illegal action raises
:class:`IllegalAction` whose message starts with the id of the rule it breaks.

>>> from tajmahal.java import Setup, new_game, apply, EndTurn
>>> state = new_game(Setup.random(players=2, seed=1))
>>> state.turn.ap, state.to_act
(6, 0)
>>> apply(state, EndTurn())
Traceback (most recent call last):
...
tajmahal.java.rules.IllegalAction: J20: place a land tile before the turn ends
"""

from __future__ import annotations

import random

from attrs import evolve

from . import festival
from .actions import (
    RICE_TILE,
    TILE_SIZES,
    Action,
    BuildPalace,
    Deploy,
    EndTurn,
    ExtendPalace,
    HoldFestival,
    Lay,
    Move,
    Pass,
    PlaceLand,
    PlaceWater,
    Select,
    Shape,
    TakeCard,
    UseToken,
    Value,
    Withdraw,
)
from .components import PALACE_VALUES
from .events import (
    CardTaken,
    Event,
    FigureDeployed,
    FigureMoved,
    FigureWithdrawn,
    FinalScored,
    GameOver,
    LandPlaced,
    PalaceBuilt,
    PileReshuffled,
    TokenUsed,
    TurnBegan,
    TurnEnded,
    WaterPlaced,
    WaterScored,
)
from .geometry import area_of, highest, palace_of, tiers, villages, walk_costs
from .land import NO_COST, cheapest, land_problem
from .legal import problem
from .state import (
    ACT,
    BARE,
    FESTIVAL,
    NONE,
    OVER,
    POSITION,
    RICE,
    SHAPE,
    TARGET,
    VALUE,
    VILLAGE,
    WATER,
    Pending,
    Seat,
    Setup,
    State,
    Turn,
)


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message starts with the rule id."""


# --------------------------------------------------------------------------- start


def new_game(setup: Setup) -> State:
    """The state before the first decision (J13-J16)."""
    setup.check()
    c = setup.components
    n = len(c.board.coords)
    deck = list(setup.deck)
    hands = [
        tuple(deck[i * c.starting_cards : (i + 1) * c.starting_cards]) for i in range(setup.players)
    ]
    rest = deck[setup.players * c.starting_cards :]
    seats = tuple(
        Seat(c.figures, c.action_tokens, c.own_twos, c.own_rice, c.own_villages, tuple(sorted(h)))
        for h in hands
    )
    terrain = [BARE] * n
    for t in c.board.tanks:
        terrain[t] = WATER
    return State(
        setup=setup,
        height=(0,) * n,
        terrain=tuple(terrain),
        top=(NONE,) * n,
        sizes=(),
        figures=(NONE,) * n,
        palace=(0,) * n,
        red=(),
        scored_water=(),
        players=seats,
        threes=c.three_tiles,
        water_left=c.water_tiles,
        palaces_left=c.palaces,
        pile=tuple(rest[1:]),
        display=rest[0],
        discard=(),
        phase=ACT,
        to_act=0,
        turn=Turn(ap=c.action_points),
    )


def is_over(state: State) -> bool:
    return state.phase == OVER


def scores(state: State) -> list[int]:
    return [p.score for p in state.players]


def ranks(totals: list[int]) -> list[int]:
    """J85: 1 is best; equal totals share a rank (a shared win)."""
    return [1 + sum(o > t for o in totals) for t in totals]


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalAction`."""
    return step(state, action)[0]


def step(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened; raises :class:`IllegalAction`."""
    reason = problem(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    seat = state.to_act
    assert seat is not None
    events: list[Event] = []
    phase = state.phase
    if phase == FESTIVAL:
        return _bid(state, seat, action, events), events
    if phase == ACT:
        if isinstance(action, EndTurn):
            return _end_turn(state, seat, events), events
        if isinstance(action, TakeCard):
            return _done(_take_card(state, seat, action.display, events)), events
        if isinstance(action, UseToken):
            return _done(_use_token(state, seat, events)), events
        return evolve(state, phase=POSITION, pending=Pending(action)), events
    pending = state.pending
    assert pending is not None
    a = pending.action
    if phase == POSITION:
        assert isinstance(action, Select)
        return _at(state, seat, a, action.position, events), events
    origin = pending.position
    assert origin is not None
    if phase == SHAPE:
        assert isinstance(action, Shape) and isinstance(a, PlaceLand)
        return _done(_place_land(state, seat, a.tile, action.cells, origin, events)), events
    if phase == TARGET:
        assert isinstance(action, Select)
        return _walk(state, seat, origin, action.position, events), events
    assert isinstance(action, Value) and isinstance(a, (BuildPalace, ExtendPalace))
    return _done(_palace(state, seat, a, origin, action.value, events)), events


def _at(state: State, seat: int, a: Action, q: int, events: list[Event]) -> State:
    """The position of the pending action is chosen: the action is complete, or
    its last decision comes next."""
    if isinstance(a, PlaceLand):
        if TILE_SIZES[a.tile] == 1:
            return _done(_place_land(state, seat, a.tile, (q,), q, events))
        return evolve(state, phase=SHAPE, pending=Pending(a, q))
    if isinstance(a, PlaceWater):
        return _done(_place_water(state, seat, q, events))
    if isinstance(a, Deploy):
        return _done(_deploy(state, seat, q, events))
    if isinstance(a, Withdraw):
        return _done(_withdraw(state, seat, q, events))
    if isinstance(a, Move):
        return evolve(state, phase=TARGET, pending=Pending(a, q))
    if isinstance(a, (BuildPalace, ExtendPalace)):
        return evolve(state, phase=VALUE, pending=Pending(a, q))
    assert isinstance(a, HoldFestival)
    return festival.begin(state, seat, q, events)


def _done(state: State, walked: tuple[int, ...] = ()) -> State:
    """An action of the turn is complete: back to the phase ``act``; ``walked``:
    the figure that just walked (J49)."""
    turn = evolve(state.turn, acted=True, walked=walked)
    return evolve(state, phase=ACT, pending=None, turn=turn)


def _spend(state: State, cost: int) -> State:
    return evolve(state, turn=evolve(state.turn, ap=state.turn.ap - cost))


def _seat(state: State, seat: int, **changes: object) -> State:
    players = list(state.players)
    players[seat] = evolve(players[seat], **changes)  # type: ignore[arg-type]
    return evolve(state, players=tuple(players))


def _set_figure(state: State, position: int, seat: int) -> State:
    figures = list(state.figures)
    figures[position] = seat
    return evolve(state, figures=tuple(figures))


# --------------------------------------------------------------------------- the actions


def _place_land(
    state: State, seat: int, tile: str, cells: tuple[int, ...], anchor: int, events: list[Event]
) -> State:
    """J25-J36: ``tile`` on ``cells``, its village on ``anchor`` (a rice tile: none)."""
    _, level, cost = land_problem(state, cells)
    villages = () if tile == RICE_TILE else (anchor,)
    serial = len(state.sizes)
    height, terrain, top = list(state.height), list(state.terrain), list(state.top)
    for q in cells:
        height[q] = level
        terrain[q] = VILLAGE if q in villages else RICE
        top[q] = serial
    state = evolve(
        _spend(state, cost),
        height=tuple(height),
        terrain=tuple(terrain),
        top=tuple(top),
        sizes=(*state.sizes, len(cells)),
    )
    state = evolve(state, turn=evolve(state.turn, land=True))
    p = state.players[seat]
    if len(cells) == 3:
        state = evolve(state, threes=state.threes - 1)
        if state.threes == 0 and not state.ended:
            state = evolve(state, ended=True)  # J78
    elif len(cells) == 2:
        state = _seat(state, seat, twos=p.twos - 1)
    elif villages:
        state = _seat(state, seat, villages=p.villages - 1)
    else:
        state = _seat(state, seat, rice=p.rice - 1)
    events.append(LandPlaced(seat, cells, villages, level, cost))
    return _score_water(state, cells, events)


def _place_water(state: State, seat: int, q: int, events: list[Event]) -> State:
    """J37-J40."""
    terrain = list(state.terrain)
    terrain[q] = WATER
    state = evolve(_spend(state, 1), terrain=tuple(terrain), water_left=state.water_left - 1)
    events.append(WaterPlaced(seat, q))
    return _score_water(state, (q,), events)


def _deploy(state: State, seat: int, q: int, events: list[Event]) -> State:
    """J46."""
    cost = state.components.board.edge_cost[q]
    state = _set_figure(_spend(state, cost), q, seat)
    state = _seat(state, seat, supply=state.players[seat].supply - 1)
    events.append(FigureDeployed(seat, q, cost))
    return state


def _withdraw(state: State, seat: int, q: int, events: list[Event]) -> State:
    """J47."""
    cost = state.components.board.edge_cost[q]
    state = _set_figure(_spend(state, cost), q, NONE)
    state = _seat(state, seat, supply=state.players[seat].supply + 1)
    events.append(FigureWithdrawn(seat, q, cost))
    return state


def _walk(state: State, seat: int, origin: int, target: int, events: list[Event]) -> State:
    """J48-J50: the cheapest path; the figure may walk again after another action (J49)."""
    cost = walk_costs(state, origin, seat)[target]
    state = _set_figure(_set_figure(_spend(state, cost), origin, NONE), target, seat)
    events.append(FigureMoved(seat, origin, target, cost))
    return _done(state, walked=(target,))


def _score_water(state: State, cells: tuple[int, ...], events: list[Event]) -> State:
    """J41-J43: score each water area next to (or on) ``cells`` that is newly
    enclosed by land."""
    nb = state.components.board.neighbours
    seen = set(state.scored_water)
    scored = list(state.scored_water)
    for start in sorted({q for c in cells for q in (c, *nb[c]) if state.terrain[q] == WATER}):
        if start in seen:
            continue
        area = area_of(state, start, WATER)
        seen.update(area)
        shore = {x for a in area for x in nb[a] if state.terrain[x] != WATER}
        if any(state.height[x] == 0 for x in shore):
            continue
        scored.extend(area)
        winner = highest(state, shore)
        points = state.components.water_points if winner is not None else 0
        if winner is not None:
            state = _seat(state, winner, water=state.players[winner].water + points)
        events.append(WaterScored(tuple(sorted(area)), winner, points))
    return evolve(state, scored_water=tuple(sorted(scored)))


def _palace(
    state: State,
    seat: int,
    action: BuildPalace | ExtendPalace,
    q: int,
    value: int,
    events: list[Event],
) -> State:
    """J51-J57: 1 AP; the tile lies white side up and scores half its value."""
    palace = list(state.palace)
    palace[q] = value
    stock = list(state.palaces_left)
    stock[PALACE_VALUES.index(value)] -= 1
    points = value // 2  # J57
    turn = state.turn
    state = evolve(
        state,
        palace=tuple(palace),
        palaces_left=tuple(stock),
        red=tuple(r for r in state.red if r != q),  # J56: a new tile lies white side up
        turn=evolve(turn, ap=turn.ap - 1, palaces=(*turn.palaces, q)),  # J19: 1 AP
    )
    state = _seat(state, seat, palaces=state.players[seat].palaces + points)
    events.append(PalaceBuilt(seat, q, value, points, isinstance(action, ExtendPalace)))
    return state


def _refill(state: State, events: list[Event]) -> State:
    """J61 (decision): an empty draw pile is the discards, shuffled."""
    if state.pile or not state.discard:
        return state
    cards = list(state.discard)
    random.Random(f"{state.setup.seed}:{state.reshuffles}").shuffle(cards)
    events.append(PileReshuffled(len(cards)))
    return evolve(state, pile=tuple(cards), discard=(), reshuffles=state.reshuffles + 1)


def _take_card(state: State, seat: int, display: bool, events: list[Event]) -> State:
    """J61: 1 AP, at most 2 a turn."""
    state = _refill(_spend(state, 1), events)
    if display:
        card = state.display
        assert card is not None
        state = _refill(state, events)
        shown = state.pile[0] if state.pile else None
        state = evolve(state, display=shown, pile=state.pile[1:])
    else:
        card = state.pile[0]
        state = evolve(state, pile=state.pile[1:])
    if state.display is None:  # J61 (decision): the display slot is refilled when it can be
        state = _refill(state, events)
        if state.pile:
            state = evolve(state, display=state.pile[0], pile=state.pile[1:])
    hand = tuple(sorted((*state.players[seat].hand, card)))
    state = _seat(state, seat, hand=hand)
    state = evolve(state, turn=evolve(state.turn, cards=state.turn.cards + 1))
    events.append(CardTaken(seat, display, card, state.display))
    return state


def _use_token(state: State, seat: int, events: list[Event]) -> State:
    """J75-J77: +1 AP."""
    left = state.players[seat].tokens - 1
    state = _seat(state, seat, tokens=left)
    events.append(TokenUsed(seat, left))
    return evolve(state, turn=evolve(state.turn, ap=state.turn.ap + 1, token=True))


def _bid(state: State, seat: int, action: Action, events: list[Event]) -> State:
    """J67-J73: a card, the end of a bid or a pass; the last pass scores the
    festival and ends the proposer's turn."""
    if isinstance(action, Lay):
        return festival.lay(state, seat, action.card, events)
    state, over = festival.next_bid(state, seat, isinstance(action, Pass), events)
    if not over:
        return state
    state = festival.score(state, events)
    assert state.to_act is not None
    return _end_turn(state, state.to_act, events)


# --------------------------------------------------------------------------- the end


def final_scoring(state: State, seat: int) -> tuple[tuple[tuple[int, int, int], ...], int]:
    """J80-J84: the seat's places and points in every city: first place scores the
    palace value, second place half (J82: after a shared first place, the next tier
    is second; a seat alone in a city gives no second place)."""
    out = []
    for village in villages(state):
        where = palace_of(state, village)
        if where is None:
            continue
        value = state.palace[where]
        for place, tier in enumerate(tiers(state, village)[:2]):
            if seat in tier:
                points = value if place == 0 else value // 2
                out.append((where, place + 1, points))
    return tuple(sorted(out)), sum(x[2] for x in out)


def _end_turn(state: State, seat: int, events: list[Event]) -> State:
    """J18: the turn ends; J78-J79: after the trigger, each seat's own final
    scoring and the last turns; J85: the end of the game."""
    events.append(TurnEnded(seat, state.turn.ap))
    if not state.ended and state.threes and cheapest(state, "three", NO_COST) == NO_COST:
        state = evolve(state, ended=True)  # J78 (decision): no three-space tile fits
    n = len(state.players)
    last_turns = state.last_turns
    if state.turn.last or (state.ended and not state.players[seat].scored):
        cities, points = final_scoring(state, seat)
        state = _seat(state, seat, final=points, scored=True)
        events.append(FinalScored(seat, cities, points))
        if not state.turn.last:  # J78: the trigger; J79: the others follow in order
            last_turns = tuple((seat + i) % n for i in range(1, n))
    if state.ended and not last_turns:
        totals = scores(state)
        events.append(GameOver(tuple(totals), tuple(ranks(totals))))
        return evolve(state, phase=OVER, to_act=None, last_turns=(), festival=None, pending=None)
    if state.ended:
        nxt, last_turns = last_turns[0], last_turns[1:]
        last = True
    else:
        nxt, last = (seat + 1) % n, False
    ap = state.components.action_points
    events.append(TurnBegan(nxt, ap, last))
    return evolve(state, phase=ACT, to_act=nxt, turn=Turn(ap=ap, last=last), last_turns=last_turns)
