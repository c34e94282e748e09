"""Which decisions are legal now: :func:`legal_actions`, phase by phase, and the
positions, targets and values each half-made action may take (why an action is
not legal: :mod:`tajmahal.java.problems`).

The phase ``act`` offers an action of J19 only when it can be completed (some
position, shape, target or value is legal for it), so a decision never leads
into a dead end.  While the turn owes its land tile (J20), every other action
must leave the AP of the cheapest placement (``spare``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from . import actions as act
from .components import PALACE_VALUES
from .festival import opening, qualifying, required_symbols
from .geometry import area_of, highest, is_land, palace_of, walk_costs, walk_targets
from .land import NO_COST, anchors, cheapest, cheapest_land, shapes_at, tiles_left
from .state import (
    ACT,
    ANYTIME,
    BARE,
    FESTIVAL,
    NONE,
    OVER,
    POSITION,
    SHAPE,
    TARGET,
    VILLAGE,
    Pending,
    State,
)

# Shared instances (actions are immutable values): no allocation per decision.
_DONE: Final = act.Done()
_PASS: Final = act.Pass()
_VALUES: Final = {v: act.Value(v) for v in PALACE_VALUES}
_SELECT: list[act.Select] = []
_LAY: list[act.Lay] = []


def select(position: int) -> act.Select:
    """The shared :class:`Select` of ``position``."""
    while len(_SELECT) <= position:
        _SELECT.append(act.Select(len(_SELECT)))
    return _SELECT[position]


def lay_card(card: int) -> act.Lay:
    """The shared :class:`Lay` of ``card``."""
    while len(_LAY) <= card:
        _LAY.append(act.Lay(len(_LAY)))
    return _LAY[card]


# --------------------------------------------------------------------------- AP (J18, J20)


def land_owed(state: State, seat: int) -> int:
    """J20: the AP the turn must keep for its land tile (0 when none is owed: the
    tile lies, it is a last turn, or no land tile can be laid at all)."""
    t = state.turn
    if t.land or t.last:
        return 0
    cost = cheapest_land(state, seat)
    return 0 if cost == NO_COST else cost


def may_finish(state: State, seat: int) -> bool:
    """J20-J21: the turn may end (or hold its festival): the land tile lies, or no
    land tile can be laid now (the obligation lapses, decision)."""
    owed = land_owed(state, seat)
    return owed == 0 or owed > state.turn.ap


def spare(state: State, seat: int) -> int:
    """J18, J20 (decision): the AP an action other than the land tile may spend:
    all but those of the cheapest placement while the tile is owed and affordable
    (an owed tile the AP left cannot pay lapses: no reserve then)."""
    return _spare(state.turn.ap, land_owed(state, seat))


def _spare(ap: int, owed: int) -> int:
    return ap - owed if owed <= ap else ap


def ap_problem(spare: int, cost: int, ap: int) -> str | None:
    if cost > ap:
        return f"J18: this costs {cost} AP, {ap} left"
    if cost > spare:
        return "J20: keep the AP for the land tile this turn owes"
    return None


# --------------------------------------------------------------------------- where


def water_spots(state: State) -> Iterator[int]:
    """J38: the bare grid positions."""
    terrain = state.terrain
    for q in range(state.components.board.grid_size):
        if terrain[q] == BARE:
            yield q


def deploy_spots(state: State, budget: int) -> Iterator[int]:
    """J45-J46, J50: free land at the edge, reached for at most ``budget`` AP."""
    board = state.components.board
    edge, figures, palace = board.edge_cost, state.figures, state.palace
    for q in board.edges:
        if edge[q] <= budget and figures[q] == NONE and not palace[q] and is_land(state, q):
            yield q


def withdraw_spots(state: State, seat: int, budget: int) -> Iterator[int]:
    """J47: the seat's figures at the edge, taken off for at most ``budget`` AP."""
    edge = state.components.board.edge_cost
    for q, s in enumerate(state.figures):
        if s == seat and edge[q] and edge[q] <= budget:
            yield q


def walkers(state: State, seat: int, budget: int) -> Iterator[int]:
    """J48-J49: the seat's figures that can walk somewhere for at most ``budget`` AP
    (not one that walked since the turn's last other action)."""
    walked = state.turn.walked
    for q, s in enumerate(state.figures):
        if s == seat and q not in walked and can_walk(state, q, seat, budget):
            yield q


def can_walk(state: State, origin: int, seat: int, budget: int) -> bool:
    """J48-J50: whether the figure on ``origin`` reaches a free position for at
    most ``budget`` AP (a free neighbour answers at once)."""
    terrain, figures, palace = state.terrain, state.figures, state.palace
    here = terrain[origin]
    for q in state.components.board.neighbours[origin]:
        t = terrain[q]
        free = figures[q] == NONE and not palace[q]
        if free and (t == here or (budget >= 1 and is_land(state, q))):
            return True
    return any(figures[q] == NONE for q in walk_costs(state, origin, seat, budget))


def _seat_villages(state: State, seat: int) -> list[list[int]]:
    """The villages (and cities) where ``seat`` has a figure."""
    seen: set[int] = set()
    out = []
    for q, s in enumerate(state.figures):
        if s == seat and state.terrain[q] == VILLAGE and q not in seen:
            area = area_of(state, q, VILLAGE)
            seen.update(area)
            out.append(area)
    return out


def palace_values(state: State, size: int, current: int) -> list[int]:
    """J54-J55, J58: the values a palace of a village of ``size`` spaces may take
    on top of ``current`` (0: a new palace) with the tiles left."""
    stock = state.palaces_left
    return [v for i, v in enumerate(PALACE_VALUES) if stock[i] and current < v <= size]


def build_spots(state: State, seat: int, towns: list[list[int]] | None = None) -> list[int]:
    """J51-J54: the free village positions of villages without palace where the
    seat is strictly highest and a palace value fits (``towns``: the seat's
    villages, if known)."""
    out: list[int] = []
    for village in _seat_villages(state, seat) if towns is None else towns:
        if (
            palace_of(state, village) is None
            and palace_values(state, len(village), 0)
            and highest(state, village) == seat
        ):
            out.extend(q for q in village if state.figures[q] == NONE)
    return sorted(out)


def extend_spots(state: State, seat: int, towns: list[list[int]] | None = None) -> list[int]:
    """J55: the palaces the seat may extend now."""
    out = []
    for city in _seat_villages(state, seat) if towns is None else towns:
        where = palace_of(state, city)
        if (
            where is not None
            and where not in state.turn.palaces
            and palace_values(state, len(city), state.palace[where])
            and highest(state, city) == seat
        ):
            out.append(where)
    return sorted(out)


def festival_spots(state: State, seat: int, towns: list[list[int]] | None = None) -> list[int]:
    """J64-J65: the white palaces of cities where the seat has a figure."""
    out = []
    for city in _seat_villages(state, seat) if towns is None else towns:
        where = palace_of(state, city)
        if where is not None and where not in state.red:
            out.append(where)
    return sorted(out)


def positions(state: State, seat: int, pending: Pending) -> list[int]:
    """The positions the pending action may happen at, ascending."""
    a = pending.action
    ap = state.turn.ap
    if isinstance(a, act.PlaceLand):
        return anchors(state, a.tile, ap)
    budget = spare(state, seat)
    if isinstance(a, act.PlaceWater):
        return list(water_spots(state))
    if isinstance(a, act.Deploy):
        return list(deploy_spots(state, budget))
    if isinstance(a, act.Withdraw):
        return list(withdraw_spots(state, seat, budget))
    if isinstance(a, act.Move):
        return list(walkers(state, seat, budget))
    if isinstance(a, act.BuildPalace):
        return build_spots(state, seat)
    if isinstance(a, act.ExtendPalace):
        return extend_spots(state, seat)
    return festival_spots(state, seat)


def values(state: State, pending: Pending) -> list[int]:
    """The values of the pending palace tile."""
    q = pending.position
    assert q is not None
    return palace_values(state, len(area_of(state, q, VILLAGE)), state.palace[q])


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State) -> list[act.Action]:
    """The legal decisions of the seat to act, in a stable order (never empty while
    the game runs): in ``act``, :class:`EndTurn` comes last when it is allowed; in
    ``festival``, :class:`Done` or :class:`Pass` comes last (but in the proposer's
    opening bid, which must lay a card)."""
    seat = state.to_act
    if seat is None or state.phase == OVER:
        return []
    phase = state.phase
    if phase == ACT:
        return act_actions(state, seat)
    if phase == FESTIVAL:
        return bid_actions(state, seat)
    pending = state.pending
    assert pending is not None
    if phase == POSITION:
        return [select(q) for q in positions(state, seat, pending)]
    q = pending.position
    assert q is not None
    if phase == SHAPE:
        assert isinstance(pending.action, act.PlaceLand)
        return [act.Shape(c) for c in shapes_at(state, pending.action.tile, q, state.turn.ap)]
    if phase == TARGET:
        return [select(t) for t in walk_targets(state, q, seat, spare(state, seat))]
    return [_VALUES[v] for v in values(state, pending)]


def act_actions(state: State, seat: int) -> list[act.Action]:
    """J19: the actions of the turn that can be completed now, and its end."""
    t = state.turn
    p = state.players[seat]
    out: list[act.Action] = []
    for tile in tiles_left(state, seat):
        if cheapest(state, tile, t.ap) <= t.ap:
            out.append(act.PLACE_LAND[tile])
    owed = land_owed(state, seat)
    budget = _spare(t.ap, owed)
    if budget >= 1:
        if state.water_left and next(water_spots(state), None) is not None:
            out.append(act.PLACE_WATER)
        if p.supply and next(deploy_spots(state, budget), None) is not None:
            out.append(act.DEPLOY)
    if next(withdraw_spots(state, seat, budget), None) is not None:
        out.append(act.WITHDRAW)
    if next(walkers(state, seat, budget), None) is not None:
        out.append(act.MOVE)
    towns = _seat_villages(state, seat)
    if budget >= 1:
        if build_spots(state, seat, towns):
            out.append(act.BUILD_PALACE)
        if extend_spots(state, seat, towns):
            out.append(act.EXTEND_PALACE)
        if t.cards < 2:
            if state.display is not None:
                out.append(act.TAKE_DISPLAY)
            if state.pile or state.discard:
                out.append(act.TAKE_PILE)
    if p.tokens and not t.token and (state.setup.variant == ANYTIME or not t.acted):
        out.append(act.USE_TOKEN)
    if owed == 0 or owed > t.ap:  # may_finish
        required = required_symbols(state)
        if required and qualifying(state, p.hand, required) and festival_spots(state, seat, towns):
            out.append(act.HOLD_FESTIVAL)
        out.append(act.END_TURN)
    return out


def bid_actions(state: State, seat: int) -> list[act.Action]:
    """J67: a card of the hand that shows a required symbol; then the end of the
    bid (after a card) or a pass (before one; not in the proposer's opening)."""
    f = state.festival
    assert f is not None
    out: list[act.Action] = [
        lay_card(c) for c in qualifying(state, state.players[seat].hand, f.required)
    ]
    if f.bid:
        out.append(_DONE)
    elif not opening(f):
        out.append(_PASS)
    return out
