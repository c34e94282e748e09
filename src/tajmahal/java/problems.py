"""Why an action is not legal now: :func:`problem` (a message starting with the
rule id), phase by phase; what :func:`~tajmahal.java.apply` refuses with.  The
offered decisions are :func:`~tajmahal.java.legal.legal_actions`'s.
"""

from __future__ import annotations

from attrs import evolve

from . import actions as act
from .actions import TILE_SIZES, TILES
from .components import PALACE_VALUES
from .festival import opening, qualifying, required_symbols
from .geometry import area_of, highest, is_land, palace_of, walk_costs
from .land import NO_COST, cheapest, placement, tiles_left
from .legal import (
    ap_problem,
    build_spots,
    can_walk,
    deploy_spots,
    extend_spots,
    festival_spots,
    may_finish,
    palace_values,
    spare,
    values,
    walkers,
    water_spots,
    withdraw_spots,
)
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
    VALUE,
    VILLAGE,
    Pending,
    State,
)


def problem(state: State, action: act.Action) -> str | None:
    """Why ``action`` is not allowed now (a message starting with the rule id), or
    None when it is."""
    seat = state.to_act
    if state.phase == OVER or seat is None:
        return "J85: the game is over"
    phase = state.phase
    if phase == FESTIVAL:
        return _bid_problem(state, seat, action)
    if isinstance(action, (act.Lay, act.Done, act.Pass)):
        return "J67: there is no festival to bid in"
    if phase == ACT:
        if isinstance(action, (act.Select, act.Shape, act.Value)):
            return f"J19: first choose an action of the turn, not {type(action).__name__}"
        return _act_problem(state, seat, action)
    pending = state.pending
    assert pending is not None
    wanted = {POSITION: act.Select, SHAPE: act.Shape, TARGET: act.Select, VALUE: act.Value}[phase]
    if not isinstance(action, wanted):
        return f"J19: finish the action under way first: choose its {phase}"
    if phase == POSITION:
        assert isinstance(action, act.Select)
        return _position_problem(state, seat, pending, action.position)
    if phase == SHAPE:
        assert isinstance(action, act.Shape)
        return _shape_problem(state, pending, action.cells)
    if phase == TARGET:
        assert isinstance(action, act.Select)
        return _target_problem(state, seat, pending, action.position)
    assert isinstance(action, act.Value)
    if action.value not in values(state, pending):
        return _value_problem(state, pending, action.value)
    return None


def _act_problem(state: State, seat: int, action: act.Action) -> str | None:
    t = state.turn
    p = state.players[seat]
    budget = spare(state, seat)
    if isinstance(action, act.PlaceLand):
        return _tile_problem(state, seat, action.tile)
    if isinstance(action, act.UseToken):
        if not p.tokens:
            return "J75: no action token left"
        if t.token:
            return "J75: at most one action token per turn"
        if t.acted and state.setup.variant != ANYTIME:
            return "J77: an action token is used at the start of the turn"
        return None
    if isinstance(action, act.EndTurn):
        return None if may_finish(state, seat) else "J20: place a land tile before the turn ends"
    if isinstance(action, act.TakeCard):
        if t.cards >= 2:
            return "J61: at most two festival cards per turn"
        if action.display and state.display is None:
            return "J61: there is no display card"
        if not action.display and not (state.pile or state.discard):
            return "J61: the draw pile is empty"
        return ap_problem(budget, 1, t.ap)
    if isinstance(action, act.HoldFestival):
        if not may_finish(state, seat):
            return "J21: place the land tile of the turn before the festival"
        required = required_symbols(state)
        if not required:
            return "J61: no display card shows the required symbols"
        if not qualifying(state, p.hand, required):
            return "J67: you hold no card showing a symbol of the display card"
        if not festival_spots(state, seat):
            return "J64: no white palace in a city where you have a figure"
        return None
    if isinstance(action, act.PlaceWater):
        if not state.water_left:
            return "J11: no water tile left"
        if next(water_spots(state), None) is None:
            return "J38: no bare position of the grid is left for water"
        return ap_problem(budget, 1, t.ap)
    if isinstance(action, act.Deploy):
        if not p.supply:
            return "J44: no figure left in the supply"
        edge = state.components.board.edge_cost
        costs = [edge[q] for q in deploy_spots(state, NO_COST)]
        if not costs:
            return "J46: no free land at the edge of the board to enter"
        return ap_problem(budget, min(costs), t.ap)
    if isinstance(action, act.Withdraw):
        edge = state.components.board.edge_cost
        costs = [edge[q] for q in withdraw_spots(state, seat, NO_COST)]
        if not costs:
            return "J47: none of your figures stands at the edge of the board"
        return ap_problem(budget, min(costs), t.ap)
    if isinstance(action, act.Move):
        if next(walkers(state, seat, budget), None) is not None:
            return None
        rested = evolve(state, turn=evolve(state.turn, walked=()))
        if state.turn.walked and next(walkers(rested, seat, budget), None) is not None:
            return "J49: your figures that can walk walked since your last other action"
        return "J48: none of your figures can walk anywhere with the AP you may spend"
    if isinstance(action, (act.BuildPalace, act.ExtendPalace)):
        if budget < 1:
            return ap_problem(budget, 1, t.ap)
        if isinstance(action, act.BuildPalace) and not build_spots(state, seat):
            return "J52: you are highest in no village without palace where a palace fits"
        if isinstance(action, act.ExtendPalace) and not extend_spots(state, seat):
            return "J55: you may extend no palace now (J52: highest figure; once a turn)"
        return None
    return f"unknown action {action!r}"


def _tile_problem(state: State, seat: int, tile: str) -> str | None:
    if tile not in TILES:
        return f"J8: the tiles are {', '.join(TILES)}, not {tile!r}"
    if tile not in tiles_left(state, seat):
        return (
            "J7: no three-space tile is left"
            if TILE_SIZES[tile] == 3
            else f"J33: none of your own {tile} tiles is left"
        )
    cost = cheapest(state, tile, state.turn.ap)
    if cost == NO_COST:
        return "J26: this tile fits nowhere on the board now (J27-J31, J36)"
    return ap_problem(state.turn.ap, cost, state.turn.ap)


def _position_problem(state: State, seat: int, pending: Pending, q: int) -> str | None:
    board = state.components.board
    if not 0 <= q < len(board.coords):
        return "J5: no such position"
    a = pending.action
    if isinstance(a, act.PlaceLand):
        return _anchor_problem(state, a.tile, q)
    budget = spare(state, seat)
    if isinstance(a, act.PlaceWater):
        if q >= board.grid_size:
            return "J38: water goes on a position of the grid"
        return None if state.terrain[q] == BARE else "J38: water goes directly on the bare board"
    if isinstance(a, act.Deploy):
        if not board.edge_cost[q]:
            return "J46: a figure enters only at the edge of the board"
        if not is_land(state, q) or state.palace[q]:
            return "J45: a figure stands only on land, not on water or a palace"
        if state.figures[q] != NONE:
            return "J50: one figure per position"
        return ap_problem(budget, board.edge_cost[q], state.turn.ap)
    if isinstance(a, act.Withdraw):
        if state.figures[q] != seat:
            return "J47: withdraw one of your own figures"
        if not board.edge_cost[q]:
            return "J47: a figure leaves only from the edge of the board"
        return ap_problem(budget, board.edge_cost[q], state.turn.ap)
    if isinstance(a, act.Move):
        if state.figures[q] != seat:
            return "J48: move one of your own figures"
        if q in state.turn.walked:
            return "J49: this figure's walk since your last other action is done (one walk)"
        if not can_walk(state, q, seat, budget):
            return "J48: this figure can reach no free position with the AP you may spend"
        return None
    if isinstance(a, act.BuildPalace):
        return _build_problem(state, seat, q) or ap_problem(budget, 1, state.turn.ap)
    if isinstance(a, act.ExtendPalace):
        return _extend_problem(state, seat, q) or ap_problem(budget, 1, state.turn.ap)
    if q not in festival_spots(state, seat):
        if not state.palace[q]:
            return "J64: a festival is held in a palace"
        if q in state.red:
            return "J64: this palace's top tile is red; extend it first"
        return "J65: you need a figure in the city"
    return None


def _anchor_problem(state: State, tile: str, q: int) -> str | None:
    size = TILE_SIZES[tile]
    shapes = state.components.board.shapes[size][q]
    if not shapes:
        return "J36: at least one space of a tile must lie inside the grid"
    ap = state.turn.ap
    first: str | None = None
    for cells in shapes:
        reason, cost = placement(state, tile, q, cells)
        reason = reason or ap_problem(ap, cost, ap)
        if reason is None:
            return None
        first = first or reason
    return first


def _shape_problem(state: State, pending: Pending, cells: tuple[int, ...]) -> str | None:
    a, q = pending.action, pending.position
    assert isinstance(a, act.PlaceLand) and q is not None
    size = TILE_SIZES[a.tile]
    if cells not in state.components.board.shapes[size][q]:
        what = "two neighbours" if size == 2 else "three mutual neighbours"
        return f"J8: the tile's spaces are {what}, sorted, one of them {q} (its village)"
    reason, cost = placement(state, a.tile, q, cells)
    return reason or ap_problem(state.turn.ap, cost, state.turn.ap)


def _target_problem(state: State, seat: int, pending: Pending, q: int) -> str | None:
    origin = pending.position
    assert origin is not None
    if not 0 <= q < len(state.figures) or q == origin:
        return "J48: move to another position"
    if state.figures[q] != NONE:
        return "J50: a figure may not end on an occupied position"
    cost = walk_costs(state, origin, seat).get(q)
    if cost is None:
        return "J48: no path over land free of other figures, water and palaces"
    return ap_problem(spare(state, seat), cost, state.turn.ap)


def _build_problem(state: State, seat: int, q: int) -> str | None:
    if state.terrain[q] != VILLAGE:
        return "J51: a palace goes on a village position"
    if state.palace[q]:
        return "J55: a palace stands there already; extend it"
    if state.figures[q] != NONE:
        return "J53: a palace goes on a free position"
    village = area_of(state, q, VILLAGE)
    if palace_of(state, village) is not None:
        return "J23: a village holds at most one palace"
    if highest(state, village) != seat:
        return "J52: only the owner of the highest figure in the village may build"
    if not palace_values(state, len(village), 0):
        return f"J54: no palace tile left that fits a village of {len(village)} spaces"
    return None


def _extend_problem(state: State, seat: int, q: int) -> str | None:
    if not state.palace[q]:
        return "J55: no palace there to extend"
    if q in state.turn.palaces:
        return "J55: a palace changes at most once a turn, not in the turn it was built"
    city = area_of(state, q, VILLAGE)
    if highest(state, city) != seat:
        return "J52: only the owner of the highest figure in the city may extend"
    if not palace_values(state, len(city), state.palace[q]):
        return f"J54: no higher palace tile left that fits a city of {len(city)} spaces"
    return None


def _value_problem(state: State, pending: Pending, value: int) -> str:
    q = pending.position
    assert q is not None
    size = len(area_of(state, q, VILLAGE))
    if value not in PALACE_VALUES:
        return "J54: palace values are 2, 4, 6, 8 and 10"
    if value <= state.palace[q]:
        return "J55: an extension has a higher value"
    if value > size:
        return f"J54: a palace may not be worth more than its village's {size} spaces"
    return f"J58: no palace tile of value {value} is left"


def _bid_problem(state: State, seat: int, action: act.Action) -> str | None:
    f = state.festival
    assert f is not None
    if isinstance(action, act.Lay):
        if action.card not in state.players[seat].hand:
            return "J67: lay a card from your hand"
        if action.card not in qualifying(state, (action.card,), f.required):
            return "J67: every card laid must show a required symbol"
        return None
    if isinstance(action, act.Done):
        return None if f.bid else "J67: lay a card first, or pass"
    if isinstance(action, act.Pass):
        if f.bid:
            return "J67: you laid cards in this bid: it is done (Done), not passed"
        return "J67: the proposer opens with at least one card" if opening(f) else None
    return "J67: lay a card, end your bid or pass in the festival"
