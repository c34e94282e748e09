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
tajmahal.kit.errors.IllegalAction: J20: place a land tile before the turn ends
"""

from __future__ import annotations

import random

# J85: the totals by seat, ranked (a tie is a shared win).
from ..kit.errors import IllegalAction
from ..kit.scoring import ranks as ranks
from ..kit.scoring import scores as scores
from . import actions as act
from . import festival
from .actions import RICE_TILE, THREE, TILE_SIZES
from .components import PALACE_VALUES
from .draft import Draft
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
from .land import NO_COST, cheapest, refit
from .problems import problem
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


# --------------------------------------------------------------------------- apply


def apply(state: State, action: act.Action) -> State:
    """The state after ``action``; raises :class:`IllegalAction`."""
    return step(state, action)[0]


def step(state: State, action: act.Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened; raises :class:`IllegalAction`."""
    reason = problem(state, action)
    if reason is not None:
        rule, _, text = reason.partition(": ")
        raise IllegalAction(rule, text)
    seat = state.to_act
    assert seat is not None
    events: list[Event] = []
    after = _decide(state, seat, action, events)
    refit(state, after, _touched(state, action))
    return after, events


def _touched(state: State, action: act.Action) -> list[int]:
    """The positions whose tiles, figures, palace or water ``action`` changes."""
    pending = state.pending
    if pending is None:
        return []
    if isinstance(action, act.Shape):
        return list(action.cells)
    if isinstance(action, act.Value):
        assert pending.position is not None
        return [pending.position]
    if not isinstance(action, act.Select):
        return []
    if state.phase == TARGET:
        assert pending.position is not None
        return [pending.position, action.position]
    a = pending.action
    one = isinstance(a, act.PlaceLand) and TILE_SIZES[a.tile] == 1
    if one or isinstance(a, (act.PlaceWater, act.Deploy, act.Withdraw)):
        return [action.position]
    return []


def _decide(state: State, seat: int, action: act.Action, events: list[Event]) -> State:
    phase = state.phase
    if phase == FESTIVAL:
        return _bid(state, seat, action, events)
    if phase == ACT and isinstance(action, act.EndTurn):
        return _end_turn(state, seat, events)
    d = Draft(state)
    if phase == ACT:
        if isinstance(action, act.TakeCard):
            _take_card(d, seat, action.display, events)
        elif isinstance(action, act.UseToken):
            _use_token(d, seat, events)
        else:
            d.phase, d.pending = POSITION, Pending(action)
            return d.freeze()
        return _done(d)
    pending = state.pending
    assert pending is not None
    a = pending.action
    if phase == POSITION:
        assert isinstance(action, act.Select)
        return _at(d, seat, a, action.position, events)
    origin = pending.position
    assert origin is not None
    if phase == SHAPE:
        assert isinstance(action, act.Shape) and isinstance(a, act.PlaceLand)
        _place_land(d, seat, a.tile, action.cells, origin, events)
    elif phase == TARGET:
        assert isinstance(action, act.Select)
        cost = walk_costs(state, origin, seat)[action.position]
        _walk(d, cost, origin, action.position)
        events.append(FigureMoved(seat, origin, action.position, cost))
        return _done(d, walked=(*state.turn.walked, action.position))
    else:
        assert isinstance(action, act.Value) and isinstance(a, (act.BuildPalace, act.ExtendPalace))
        _palace(d, seat, a, origin, action.value, events)
    return _done(d)


def _at(d: Draft, seat: int, a: act.Action, q: int, events: list[Event]) -> State:
    """The position of the pending action is chosen: the action is complete, or
    its last decision comes next."""
    if isinstance(a, act.PlaceLand):
        if TILE_SIZES[a.tile] > 1:
            d.phase, d.pending = SHAPE, Pending(a, q)
            return d.freeze()
        _place_land(d, seat, a.tile, (q,), q, events)
    elif isinstance(a, act.PlaceWater):
        _place_water(d, seat, q, events)
    elif isinstance(a, act.Deploy):
        _deploy(d, seat, q, events)
    elif isinstance(a, act.Withdraw):
        _withdraw(d, seat, q, events)
    elif isinstance(a, act.Move):
        d.phase, d.pending = TARGET, Pending(a, q)
        return d.freeze()
    elif isinstance(a, (act.BuildPalace, act.ExtendPalace)):
        d.phase, d.pending = VALUE, Pending(a, q)
        return d.freeze()
    else:
        assert isinstance(a, act.HoldFestival)
        return festival.begin(d.freeze(), seat, q, events)
    return _done(d)


def _done(d: Draft, walked: tuple[int, ...] = ()) -> State:
    """An action of the turn is complete: back to the phase ``act``; ``walked``:
    the figures that walked since the last action that was not a walk (J49)."""
    d.change_turn(acted=True, walked=walked)
    d.phase, d.pending = ACT, None
    return d.freeze()


# --------------------------------------------------------------------------- the actions


def _place_land(
    d: Draft, seat: int, tile: str, cells: tuple[int, ...], anchor: int, events: list[Event]
) -> None:
    """J25-J36: ``tile`` on ``cells``, its village on ``anchor`` (a rice tile: none)."""
    level = d.height[cells[0]] + 1  # J27: the tile rests evenly (checked)
    grid = d.setup.components.board.grid_size
    cost = 1 + sum(1 for q in cells if q >= grid) if level == 1 else 1  # J36
    villages = () if tile == RICE_TILE else (anchor,)
    serial = len(d.sizes)
    height, terrain, top = list(d.height), list(d.terrain), list(d.top)
    for q in cells:
        height[q] = level
        terrain[q] = VILLAGE if q in villages else RICE
        top[q] = serial
    d.height, d.terrain, d.top = tuple(height), tuple(terrain), tuple(top)
    d.sizes = (*d.sizes, len(cells))
    d.change_turn(ap=d.turn.ap - cost, land=True)
    p = d.players[seat]
    if len(cells) == 3:
        d.threes -= 1
        if d.threes == 0:
            d.ended = True  # J78
    elif len(cells) == 2:
        d.change_seat(seat, twos=p.twos - 1)
    elif villages:
        d.change_seat(seat, villages=p.villages - 1)
    else:
        d.change_seat(seat, rice=p.rice - 1)
    events.append(LandPlaced(seat, cells, villages, level, cost))
    _score_water(d, cells, events)


def _place_water(d: Draft, seat: int, q: int, events: list[Event]) -> None:
    """J37-J40."""
    terrain = list(d.terrain)
    terrain[q] = WATER
    d.terrain = tuple(terrain)
    d.water_left -= 1
    d.spend(1)
    events.append(WaterPlaced(seat, q))
    _score_water(d, (q,), events)


def _deploy(d: Draft, seat: int, q: int, events: list[Event]) -> None:
    """J46."""
    cost = d.setup.components.board.edge_cost[q]
    d.spend(cost)
    d.set_figure(q, seat)
    p = d.players[seat]
    d.change_seat(seat, supply=p.supply - 1)
    events.append(FigureDeployed(seat, q, cost))


def _withdraw(d: Draft, seat: int, q: int, events: list[Event]) -> None:
    """J47."""
    cost = d.setup.components.board.edge_cost[q]
    d.spend(cost)
    d.set_figure(q, NONE)
    p = d.players[seat]
    d.change_seat(seat, supply=p.supply + 1)
    events.append(FigureWithdrawn(seat, q, cost))


def _walk(d: Draft, cost: int, origin: int, target: int) -> None:
    """J48-J50: the figure walks the cheapest path, for ``cost`` AP."""
    d.spend(cost)
    figures = list(d.figures)
    figures[origin], figures[target] = NONE, figures[origin]
    d.figures = tuple(figures)


def _score_water(d: Draft, cells: tuple[int, ...], events: list[Event]) -> None:
    """J41-J43: score each water area next to (or on) ``cells`` that is newly
    enclosed by land."""
    nb = d.setup.components.board.neighbours
    terrain, height = d.terrain, d.height
    near = sorted({q for c in cells for q in (c, *nb[c]) if terrain[q] == WATER})
    if not near:
        return
    state = d.freeze()
    seen = set(d.scored_water)
    for start in near:
        if start in seen:
            continue
        area = area_of(state, start, WATER)
        seen.update(area)
        shore = {x for a in area for x in nb[a] if terrain[x] != WATER}
        if any(height[x] == 0 for x in shore):
            continue
        d.scored_water = tuple(sorted((*d.scored_water, *area)))
        winner = highest(state, shore)
        points = d.setup.components.water_points if winner is not None else 0
        if winner is not None:
            p = d.players[winner]
            d.change_seat(winner, water=p.water + points)
        events.append(WaterScored(tuple(sorted(area)), winner, points))


def _palace(
    d: Draft,
    seat: int,
    action: act.BuildPalace | act.ExtendPalace,
    q: int,
    value: int,
    events: list[Event],
) -> None:
    """J51-J57: 1 AP; the tile lies white side up and scores half its value."""
    palace = list(d.palace)
    palace[q] = value
    d.palace = tuple(palace)
    stock = list(d.palaces_left)
    stock[PALACE_VALUES.index(value)] -= 1
    d.palaces_left = tuple(stock)
    d.red = tuple(r for r in d.red if r != q)  # J56: a new tile lies white side up
    d.change_turn(ap=d.turn.ap - 1, palaces=(*d.turn.palaces, q))  # J19: 1 AP
    points = value // 2  # J57
    p = d.players[seat]
    d.change_seat(seat, palaces=p.palaces + points)
    events.append(PalaceBuilt(seat, q, value, points, isinstance(action, act.ExtendPalace)))


def _refill(d: Draft, events: list[Event]) -> None:
    """J61 (decision): an empty draw pile is the discards, shuffled."""
    if d.pile or not d.discard:
        return
    cards = list(d.discard)
    random.Random(f"{d.setup.seed}:{d.reshuffles}").shuffle(cards)
    events.append(PileReshuffled(len(cards)))
    d.pile, d.discard, d.reshuffles = tuple(cards), (), d.reshuffles + 1


def _take_card(d: Draft, seat: int, display: bool, events: list[Event]) -> None:
    """J61: 1 AP, at most 2 a turn."""
    d.change_turn(ap=d.turn.ap - 1, cards=d.turn.cards + 1)
    _refill(d, events)
    if display:
        card = d.display
        assert card is not None
        _refill(d, events)
        d.display = d.pile[0] if d.pile else None
        d.pile = d.pile[1:]
    else:
        card = d.pile[0]
        d.pile = d.pile[1:]
    if d.display is None:  # J61 (decision): the display slot is refilled when it can be
        _refill(d, events)
        if d.pile:
            d.display, d.pile = d.pile[0], d.pile[1:]
    p = d.players[seat]
    d.change_seat(seat, hand=tuple(sorted((*p.hand, card))))
    events.append(CardTaken(seat, display, card, d.display))


def _use_token(d: Draft, seat: int, events: list[Event]) -> None:
    """J75-J77: +1 AP."""
    p = d.players[seat]
    d.change_seat(seat, tokens=p.tokens - 1)
    events.append(TokenUsed(seat, p.tokens - 1))
    d.change_turn(ap=d.turn.ap + 1, token=True)


def _bid(state: State, seat: int, action: act.Action, events: list[Event]) -> State:
    """J67-J73: a card, the end of a bid or a pass; the last pass scores the
    festival and ends the proposer's turn."""
    if isinstance(action, act.Lay):
        return festival.lay(state, seat, action.card, events)
    state, over = festival.next_bid(state, seat, isinstance(action, act.Pass), events)
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
    d = Draft(state)
    if not d.ended and d.threes and cheapest(state, THREE, NO_COST) == NO_COST:
        d.ended = True  # J78 (decision): no three-space tile fits
    n = len(d.players)
    if state.turn.last or (d.ended and not d.players[seat].scored):
        cities, points = final_scoring(state, seat)
        d.change_seat(seat, final=points, scored=True)
        events.append(FinalScored(seat, cities, points))
        if not state.turn.last:  # J78: the trigger; J79: the others follow in order
            d.last_turns = tuple((seat + i) % n for i in range(1, n))
    d.festival, d.pending, d.phase = None, None, ACT
    if d.ended and not d.last_turns:
        totals = [p.score for p in d.players]
        events.append(GameOver(tuple(totals), tuple(ranks(totals))))
        d.phase, d.to_act = OVER, None
        return d.freeze()
    if d.ended:
        nxt, d.last_turns = d.last_turns[0], d.last_turns[1:]
    else:
        nxt = (seat + 1) % n
    ap = d.setup.components.action_points
    last = d.ended
    events.append(TurnBegan(nxt, ap, last))
    d.to_act, d.turn = nxt, Turn(ap, last=last)
    return d.freeze()
