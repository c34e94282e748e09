"""Java's rules: :func:`new_game`, :func:`legal_actions`, :func:`step` and
:func:`apply` (pure: a new state, the old one untouched), with the rule ids of
docs/java-rules.md.  An illegal action raises :class:`IllegalAction` whose message
starts with the id of the rule it breaks.

>>> from tajmahal.java import Setup, new_game, legal_actions, apply, EndTurn
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
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import product

from attrs import evolve

from .actions import (
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
    TakeCard,
    UseToken,
    Withdraw,
)
from .components import PALACE_VALUES
from .events import (
    CardsLaid,
    CardTaken,
    Event,
    FestivalBegan,
    FestivalScored,
    FigureDeployed,
    FigureMoved,
    FigureWithdrawn,
    FinalScored,
    GameOver,
    LandPlaced,
    PalaceBuilt,
    Passed,
    PileReshuffled,
    TokenUsed,
    TurnBegan,
    TurnEnded,
    WaterPlaced,
    WaterScored,
)
from .state import (
    ACT,
    ANYTIME,
    BARE,
    FESTIVAL,
    NONE,
    OVER,
    RICE,
    VILLAGE,
    WATER,
    Festival,
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


# --------------------------------------------------------------------------- geometry


def is_land(state: State, p: int) -> bool:
    return state.terrain[p] in (RICE, VILLAGE)


def area_of(state: State, start: int, terrain: int) -> frozenset[int]:
    """The connected group of ``terrain`` positions around ``start`` (J23, J41):
    hex adjacency only, whatever the heights."""
    nb = state.components.board.neighbours
    seen = {start}
    todo = [start]
    while todo:
        p = todo.pop()
        for q in nb[p]:
            if q not in seen and state.terrain[q] == terrain:
                seen.add(q)
                todo.append(q)
    return frozenset(seen)


def villages(state: State) -> list[frozenset[int]]:
    """J23: every village (connected village positions, palace positions included)."""
    seen: set[int] = set()
    out = []
    for p, t in enumerate(state.terrain):
        if t == VILLAGE and p not in seen:
            area = area_of(state, p, VILLAGE)
            seen |= area
            out.append(area)
    return out


def palace_of(state: State, village: Iterable[int]) -> int | None:
    """The position of the palace in a village (J23: at most one), None if none."""
    for p in village:
        if state.palace[p]:
            return p
    return None


def rank_key(levels: list[int]) -> tuple[int, ...]:
    """J24: compared lexicographically; a missing figure ranks below any level
    (Python compares a longer tuple with an equal prefix as greater)."""
    return tuple(levels)


def tiers(state: State, area: Iterable[int]) -> list[list[int]]:
    """J24: the seats with figures on ``area`` from first place down; undecidable
    ties share a tier."""
    levels = state.levels(frozenset(area))
    keys = sorted({rank_key(lv) for lv in levels if lv}, reverse=True)
    return [[s for s, lv in enumerate(levels) if lv and rank_key(lv) == k] for k in keys]


def highest(state: State, area: Iterable[int]) -> int | None:
    """J43, J52: the seat alone in first place on ``area``, None if nobody is."""
    t = tiers(state, area)
    return t[0][0] if t and len(t[0]) == 1 else None


def walk_costs(state: State, origin: int, seat: int) -> dict[int, int]:
    """J48-J50: the cheapest cost from ``origin`` to each position a figure of
    ``seat`` may reach (1 AP per change between rice and village; no water, palace,
    bare board or other players' figures on the way)."""
    nb = state.components.board.neighbours
    terrain, figures, palace = state.terrain, state.figures, state.palace
    cost = {origin: 0}
    todo: deque[tuple[int, int]] = deque([(0, origin)])
    while todo:
        d, p = todo.popleft()
        if d > cost[p]:
            continue
        for q in nb[p]:
            tq = terrain[q]
            if tq not in (RICE, VILLAGE) or palace[q] or figures[q] not in (NONE, seat):
                continue
            step = int(tq != terrain[p])
            if d + step < cost.get(q, 99):
                cost[q] = d + step
                if step:
                    todo.append((d + step, q))
                else:
                    todo.appendleft((d, q))
    return cost


# --------------------------------------------------------------------------- land tiles


def _land_kinds(state: State, seat: int) -> list[tuple[int, tuple[bool, ...]]]:
    """Sizes the seat may lay now with the village patterns available (J33)."""
    p = state.players[seat]
    out: list[tuple[int, tuple[bool, ...]]] = []
    if p.rice:
        out.append((1, (False,)))
    if p.villages:
        out.append((1, (True,)))
    if p.twos:
        out += [(2, (True, False)), (2, (False, True))]
    if state.threes:
        out += [(3, (True, False, False)), (3, (False, True, False)), (3, (False, False, True))]
    return out


def land_problem(state: State, cells: tuple[int, ...]) -> tuple[str | None, int, int]:
    """Whether a land tile of ``len(cells)`` spaces may lie on ``cells`` (apart from
    AP and J30): (a problem or None, the level it lies at, its AP cost)."""
    board = state.components.board
    if not any(board.in_grid(p) for p in cells):
        return "J36: at least one space of a tile must lie inside the grid", 0, 0
    for p in cells:
        if state.figures[p] != NONE:
            return "J31: a land tile may not cover a figure", 0, 0
        if state.palace[p]:
            return "J31: a land tile may not cover a palace", 0, 0
        if state.terrain[p] == WATER:
            return "J31: a land tile may not cover water", 0, 0
    h = state.height[cells[0]]
    if any(state.height[p] != h for p in cells):
        return "J27: a tile must rest evenly on the board or on tiles", 0, 0
    cost = 1
    if h == 0:
        cost += sum(not board.in_grid(p) for p in cells)
    else:
        below = {state.top[p] for p in cells}
        if len(below) == 1 and state.sizes[next(iter(below))] == len(cells):
            return "J28: a tile may not cover a tile of its size exactly", 0, 0
        if len(cells) >= 2 and len(below) < 2:
            return "J28: a tile of 2 or 3 spaces must lie on at least two tiles", 0, 0
    return None, h + 1, cost


def joins_cities(state: State, cells: tuple[int, ...], village_cells: tuple[int, ...]) -> bool:
    """J30: whether the tile would join two cities into one village."""
    if not village_cells:
        return False
    terrain = list(state.terrain)
    for p in cells:
        terrain[p] = VILLAGE if p in village_cells else RICE
    nb = state.components.board.neighbours
    seen = set(village_cells)
    todo = list(village_cells)
    palaces = 0
    while todo:
        p = todo.pop()
        palaces += bool(state.palace[p])
        for q in nb[p]:
            if q not in seen and terrain[q] == VILLAGE:
                seen.add(q)
                todo.append(q)
    return palaces > 1


def _near_palace(state: State, village_cells: tuple[int, ...]) -> bool:
    nb = state.components.board.neighbours
    return any(state.terrain[q] == VILLAGE for p in village_cells for q in nb[p])


def land_placements(state: State, seat: int, budget: int) -> Iterator[PlaceLand]:
    """Every legal land tile placement costing at most ``budget`` AP (J25-J36)."""
    board = state.components.board
    kinds = _land_kinds(state, seat)
    by_size: dict[int, list[tuple[bool, ...]]] = {}
    for size, pattern in kinds:
        by_size.setdefault(size, []).append(pattern)
    any_palace = any(state.palace)
    shapes: dict[int, Iterable[tuple[int, ...]]] = {
        1: ((p,) for p in range(board.grid_size)),
        2: board.pairs,
        3: board.triangles,
    }
    for size, patterns in sorted(by_size.items()):
        for cells in shapes[size]:
            reason, _, cost = land_problem(state, cells)
            if reason is not None or cost > budget:
                continue
            for pattern in patterns:
                vs = tuple(p for p, v in zip(cells, pattern, strict=True) if v)
                if any_palace and vs and _near_palace(state, vs) and joins_cities(state, cells, vs):
                    continue
                yield PlaceLand(cells, vs)


def cheapest_land(state: State, seat: int, size: int | None = None) -> int | None:
    """The AP of the cheapest legal land tile placement of ``seat`` (of ``size``
    spaces, if given) whatever the AP left, None if there is none."""
    best: int | None = None
    for action in land_placements(state, seat, 99):
        if size is not None and len(action.cells) != size:
            continue
        cost = land_problem(state, action.cells)[2]
        if cost == 1:
            return 1
        best = cost if best is None else min(best, cost)
    return best


def _land_owed(state: State, seat: int) -> int:
    """J20: the AP the turn must keep for its land tile (0 when none is owed: the
    tile lies, it is a last turn, or no land tile can be laid at all)."""
    t = state.turn
    if t.land or t.last or not _land_kinds(state, seat):
        return 0
    return cheapest_land(state, seat) or 0


def _may_finish(state: State, seat: int) -> bool:
    """J20-J21: the turn may end (or hold its festival): the land tile lies, or no
    land tile can be laid now (the obligation lapses, decision)."""
    owed = _land_owed(state, seat)
    return owed == 0 or owed > state.turn.ap


def _reserve(state: State, seat: int) -> int:
    """J20 (decision): while the land tile is owed, other actions must leave the AP
    of the cheapest placement."""
    return _land_owed(state, seat)


# --------------------------------------------------------------------------- cards


def required_symbols(state: State) -> tuple[int, ...]:
    """J63: the symbols on the display card."""
    return () if state.display is None else state.components.cards[state.display]


def card_symbols(state: State, card: int, required: tuple[int, ...]) -> int:
    """J68: how many required symbols a card shows."""
    return sum(s in required for s in state.components.cards[card])


def lays(state: State, hand: tuple[int, ...], required: tuple[int, ...]) -> list[tuple[int, ...]]:
    """J67: every non-empty choice of qualifying cards from ``hand`` (cards with the
    same symbols are interchangeable: one choice per count of each kind)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for card in sorted(hand):
        if card_symbols(state, card, required):
            groups.setdefault(state.components.cards[card], []).append(card)
    kinds = sorted(groups)
    out = []
    for counts in product(*(range(len(groups[k]) + 1) for k in kinds)):
        cards = tuple(sorted(c for k, n in zip(kinds, counts, strict=True) for c in groups[k][:n]))
        if cards:
            out.append(cards)
    return out


# --------------------------------------------------------------------------- legality


def legal_actions(state: State) -> list[Action]:
    """The legal actions of the seat to act, in a stable order (never empty while
    the game runs): in a turn, :class:`EndTurn` comes last when it is allowed; in a
    festival, :class:`Pass` comes last."""
    seat = state.to_act
    if seat is None or state.phase == OVER:
        return []
    if state.phase == FESTIVAL:
        f = state.festival
        assert f is not None
        bids: list[Action] = [Lay(cs) for cs in lays(state, state.players[seat].hand, f.required)]
        return [*bids, Pass()]
    return list(_turn_actions(state, seat))


def _turn_actions(state: State, seat: int) -> Iterator[Action]:
    c = state.components
    board = c.board
    t = state.turn
    p = state.players[seat]
    spare = t.ap - _reserve(state, seat)
    if p.tokens and not t.token and (state.setup.variant == ANYTIME or not t.acted):
        yield UseToken()
    yield from land_placements(state, seat, t.ap)
    if spare >= 1 and state.water_left:
        for q in range(board.grid_size):
            if state.terrain[q] == BARE:
                yield PlaceWater(q)
    if p.supply:
        for q, cost in enumerate(board.edge_cost):
            if (
                cost
                and cost <= spare
                and is_land(state, q)
                and state.figures[q] == NONE
                and not state.palace[q]
            ):
                yield Deploy(q)
    mine = [q for q, s in enumerate(state.figures) if s == seat]
    for q in mine:
        cost = board.edge_cost[q]
        if cost and cost <= spare:
            yield Withdraw(q)
    for q in mine:
        if q in t.walked:
            continue
        for target, cost in sorted(walk_costs(state, q, seat).items()):
            if target != q and cost <= spare and state.figures[target] == NONE:
                yield Move(q, target)
    if spare >= 1:
        yield from _palace_actions(state, seat)
    if t.cards < 2 and spare >= 1:
        if state.display is not None:
            yield TakeCard(True)
        if state.pile or state.discard:
            yield TakeCard(False)
    if _may_finish(state, seat):
        required = required_symbols(state)
        if required:
            for village in villages(state):
                where = palace_of(state, village)
                if (
                    where is not None
                    and where not in state.red
                    and any(state.figures[q] == seat for q in village)
                ):
                    for cards in lays(state, p.hand, required):
                        yield HoldFestival(where, cards)
        yield EndTurn()


def _palace_actions(state: State, seat: int) -> Iterator[Action]:
    """J51-J58."""
    stock = state.palaces_left
    for village in villages(state):
        if highest(state, village) != seat:
            continue
        size = len(village)
        where = palace_of(state, village)
        if where is None:
            values = [v for i, v in enumerate(PALACE_VALUES) if stock[i] and v <= size]
            for q in sorted(village):
                if state.figures[q] == NONE:
                    for v in values:
                        yield BuildPalace(q, v)
        elif where not in state.turn.palaces:
            current = state.palace[where]
            for i, v in enumerate(PALACE_VALUES):
                if stock[i] and current < v <= size:
                    yield ExtendPalace(where, v)


def problem(state: State, action: Action) -> str | None:
    """Why ``action`` is not allowed now (a message starting with the rule id), or
    None when it is."""
    if state.phase == OVER or state.to_act is None:
        return "J85: the game is over"
    seat = state.to_act
    if state.phase == FESTIVAL:
        return _festival_problem(state, seat, action)
    if isinstance(action, (Lay, Pass)):
        return "J67: there is no festival to bid in"
    t = state.turn
    p = state.players[seat]
    spare = t.ap - _reserve(state, seat)
    if isinstance(action, PlaceLand):
        return _place_land_problem(state, seat, action)
    if isinstance(action, UseToken):
        if not p.tokens:
            return "J75: no action token left"
        if t.token:
            return "J75: at most one action token per turn"
        if t.acted and state.setup.variant != ANYTIME:
            return "J77: an action token is used at the start of the turn"
        return None
    if isinstance(action, EndTurn):
        return None if _may_finish(state, seat) else "J20: place a land tile before the turn ends"
    if isinstance(action, HoldFestival):
        return _hold_problem(state, seat, action)
    board = state.components.board
    if isinstance(action, PlaceWater):
        q = action.position
        if not 0 <= q < board.grid_size:
            return "J38: water goes on a position of the grid"
        if state.terrain[q] != BARE:
            return "J38: water goes directly on the bare board"
        if not state.water_left:
            return "J11: no water tile left"
        return _ap(spare, 1, t.ap)
    if isinstance(action, Deploy):
        q = action.position
        if not 0 <= q < len(board.coords) or not board.edge_cost[q]:
            return "J46: a figure enters only at the edge of the board"
        if not is_land(state, q) or state.palace[q]:
            return "J45: a figure stands only on land, not on water or a palace"
        if state.figures[q] != NONE:
            return "J50: one figure per position"
        if not p.supply:
            return "J44: no figure left in the supply"
        return _ap(spare, board.edge_cost[q], t.ap)
    if isinstance(action, Withdraw):
        q = action.position
        if not 0 <= q < len(board.coords) or state.figures[q] != seat:
            return "J47: withdraw one of your own figures"
        if not board.edge_cost[q]:
            return "J47: a figure leaves only from the edge of the board"
        return _ap(spare, board.edge_cost[q], t.ap)
    if isinstance(action, Move):
        o = action.origin
        if not 0 <= o < len(board.coords) or state.figures[o] != seat:
            return "J48: move one of your own figures"
        if o in t.walked:
            return "J49: this figure's walk since your last other action is done (one walk)"
        if not 0 <= action.target < len(board.coords) or action.target == o:
            return "J48: move to another position"
        if state.figures[action.target] != NONE:
            return "J50: a figure may not end on an occupied position"
        cost = walk_costs(state, o, seat).get(action.target)
        if cost is None:
            return "J48: no path over land free of other figures, water and palaces"
        return _ap(spare, cost, t.ap)
    if isinstance(action, BuildPalace):
        return _build_problem(state, seat, action, spare)
    if isinstance(action, ExtendPalace):
        return _extend_problem(state, seat, action, spare)
    if isinstance(action, TakeCard):
        if t.cards >= 2:
            return "J61: at most two festival cards per turn"
        if action.display and state.display is None:
            return "J61: there is no display card"
        if not action.display and not (state.pile or state.discard):
            return "J61: the draw pile is empty"
        return _ap(spare, 1, t.ap)
    return f"unknown action {action!r}"


def _ap(spare: int, cost: int, ap: int) -> str | None:
    if cost > ap:
        return f"J18: this costs {cost} AP, {ap} left"
    if cost > spare:
        return "J20: keep the AP for the land tile this turn owes"
    return None


def _place_land_problem(state: State, seat: int, action: PlaceLand) -> str | None:
    cells, vs = action.cells, action.villages
    n = len(state.components.board.coords)
    if not 1 <= len(cells) <= 3 or list(cells) != sorted(set(cells)):
        return "J8: a land tile covers 1, 2 or 3 distinct positions, listed in order"
    if any(not 0 <= q < n for q in cells) or any(v not in cells for v in vs):
        return "J5: no such position"
    board = state.components.board
    size = len(cells)
    if size == 2 and cells not in board.pairs:
        return "J8: the spaces of a two-space tile are neighbours"
    if size == 3 and cells not in board.triangles:
        return "J8: the spaces of a three-space tile are three mutual neighbours"
    if size > 1 and len(vs) != 1:
        return "J8: a tile of 2 or 3 spaces shows exactly one village"
    p = state.players[seat]
    if size == 1 and not (p.villages if vs else p.rice):
        return "J33: none of your one-space tiles of that kind is left"
    if size == 2 and not p.twos:
        return "J33: none of your two-space tiles is left"
    if size == 3 and not state.threes:
        return "J7: no three-space tile is left"
    reason, _, cost = land_problem(state, cells)
    if reason is not None:
        return reason
    if joins_cities(state, cells, vs):
        return "J30: a land tile may not join two cities"
    return _ap(state.turn.ap, cost, state.turn.ap)


def _build_problem(state: State, seat: int, action: BuildPalace, spare: int) -> str | None:
    q, value = action.position, action.value
    if not 0 <= q < len(state.terrain) or state.terrain[q] != VILLAGE:
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
    return _value_problem(state, value, len(village), 0) or _ap(spare, 1, state.turn.ap)


def _extend_problem(state: State, seat: int, action: ExtendPalace, spare: int) -> str | None:
    q = action.position
    if not 0 <= q < len(state.palace) or not state.palace[q]:
        return "J55: no palace there to extend"
    if q in state.turn.palaces:
        return "J55: a palace changes at most once a turn, not in the turn it was built"
    city = area_of(state, q, VILLAGE)
    if highest(state, city) != seat:
        return "J52: only the owner of the highest figure in the city may extend"
    return _value_problem(state, action.value, len(city), state.palace[q]) or _ap(
        spare, 1, state.turn.ap
    )


def _value_problem(state: State, value: int, size: int, current: int) -> str | None:
    if value not in PALACE_VALUES:
        return "J54: palace values are 2, 4, 6, 8 and 10"
    if value <= current:
        return "J55: an extension has a higher value"
    if value > size:
        return f"J54: a palace may not be worth more than its village's {size} spaces"
    if not state.palaces_left[PALACE_VALUES.index(value)]:
        return f"J58: no palace tile of value {value} is left"
    return None


def _cards_problem(state: State, seat: int, cards: tuple[int, ...], rule: str) -> str | None:
    hand = state.players[seat].hand
    if not cards or len(set(cards)) != len(cards) or any(c not in hand for c in cards):
        return f"{rule}: lay one or more different cards from your hand"
    f = state.festival
    required = f.required if f is not None else required_symbols(state)
    if any(not card_symbols(state, c, required) for c in cards):
        return f"{rule}: every card laid must show a required symbol"
    return None


def _hold_problem(state: State, seat: int, action: HoldFestival) -> str | None:
    q = action.palace
    if not 0 <= q < len(state.palace) or not state.palace[q]:
        return "J64: a festival is held in a palace"
    if q in state.red:
        return "J64: this palace's top tile is red; extend it first"
    if state.display is None:
        return "J61: no display card shows the required symbols"
    if not any(state.figures[x] == seat for x in area_of(state, q, VILLAGE)):
        return "J65: you need a figure in the city"
    if not _may_finish(state, seat):
        return "J21: place the land tile of the turn before the festival"
    return _cards_problem(state, seat, action.cards, "J67")


def _festival_problem(state: State, seat: int, action: Action) -> str | None:
    if isinstance(action, Pass):
        return None
    if not isinstance(action, Lay):
        return "J67: lay cards or pass in the festival"
    return _cards_problem(state, seat, action.cards, "J67")


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
    if isinstance(action, (Lay, Pass)):
        return _bid(state, seat, action, events), events
    if isinstance(action, EndTurn):
        return _end_turn(state, seat, events), events
    if isinstance(action, HoldFestival):
        return _hold(state, seat, action, events), events
    t = state.turn
    walked: tuple[int, ...] = ()
    if isinstance(action, PlaceLand):
        state = _place_land(state, seat, action, events)
    elif isinstance(action, PlaceWater):
        state = _spend(state, 1)
        terrain = list(state.terrain)
        terrain[action.position] = WATER
        state = evolve(state, terrain=tuple(terrain), water_left=state.water_left - 1)
        events.append(WaterPlaced(seat, action.position))
        state = _score_water(state, events)
    elif isinstance(action, Deploy):
        cost = state.components.board.edge_cost[action.position]
        state = _set_figure(_spend(state, cost), action.position, seat)
        state = _seat(state, seat, supply=state.players[seat].supply - 1)
        events.append(FigureDeployed(seat, action.position, cost))
    elif isinstance(action, Withdraw):
        cost = state.components.board.edge_cost[action.position]
        state = _set_figure(_spend(state, cost), action.position, NONE)
        state = _seat(state, seat, supply=state.players[seat].supply + 1)
        events.append(FigureWithdrawn(seat, action.position, cost))
    elif isinstance(action, Move):
        cost = walk_costs(state, action.origin, seat)[action.target]
        state = _set_figure(_spend(state, cost), action.origin, NONE)
        state = _set_figure(state, action.target, seat)
        walked = (*tuple(w for w in t.walked if w != action.origin), action.target)
        events.append(FigureMoved(seat, action.origin, action.target, cost))
    elif isinstance(action, (BuildPalace, ExtendPalace)):
        state = _palace(state, seat, action, events)
    elif isinstance(action, TakeCard):
        state = _take_card(state, seat, action, events)
    elif isinstance(action, UseToken):
        left = state.players[seat].tokens - 1
        state = _seat(state, seat, tokens=left)
        state = evolve(state, turn=evolve(state.turn, ap=state.turn.ap + 1, token=True))
        events.append(TokenUsed(seat, left))
    return evolve(state, turn=evolve(state.turn, acted=True, walked=walked)), events


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


def _place_land(state: State, seat: int, action: PlaceLand, events: list[Event]) -> State:
    _, level, cost = land_problem(state, action.cells)
    serial = len(state.sizes)
    height, terrain, top = list(state.height), list(state.terrain), list(state.top)
    for q in action.cells:
        height[q] = level
        terrain[q] = VILLAGE if q in action.villages else RICE
        top[q] = serial
    state = _spend(state, cost)
    state = evolve(
        state,
        height=tuple(height),
        terrain=tuple(terrain),
        top=tuple(top),
        sizes=(*state.sizes, len(action.cells)),
        turn=evolve(state.turn, land=True),
    )
    p = state.players[seat]
    size = len(action.cells)
    if size == 3:
        state = evolve(state, threes=state.threes - 1)
        if state.threes == 0 and not state.ended:
            state = evolve(state, ended=True)  # J78
    elif size == 2:
        state = _seat(state, seat, twos=p.twos - 1)
    elif action.villages:
        state = _seat(state, seat, villages=p.villages - 1)
    else:
        state = _seat(state, seat, rice=p.rice - 1)
    events.append(LandPlaced(seat, action.cells, action.villages, level, cost))
    return _score_water(state, events)


def _score_water(state: State, events: list[Event]) -> State:
    """J41-J43: score each water area that is newly enclosed by land."""
    nb = state.components.board.neighbours
    seen = set(state.scored_water)
    scored = list(state.scored_water)
    for q, t in enumerate(state.terrain):
        if t != WATER or q in seen:
            continue
        area = area_of(state, q, WATER)
        seen |= area
        shore = {x for a in area for x in nb[a] if x not in area}
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
    state: State, seat: int, action: BuildPalace | ExtendPalace, events: list[Event]
) -> State:
    q, value = action.position, action.value
    palace = list(state.palace)
    palace[q] = value
    stock = list(state.palaces_left)
    stock[PALACE_VALUES.index(value)] -= 1
    t = state.turn
    points = value // 2  # J57
    state = evolve(
        _spend(state, 1),
        palace=tuple(palace),
        palaces_left=tuple(stock),
        red=tuple(r for r in state.red if r != q),  # J56: a new tile lies white side up
        turn=evolve(t, palaces=(*t.palaces, q)),
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


def _take_card(state: State, seat: int, action: TakeCard, events: list[Event]) -> State:
    state = _refill(_spend(state, 1), events)
    if action.display:
        card = state.display
        assert card is not None
        state = _refill(state, events)
        display = state.pile[0] if state.pile else None
        state = evolve(state, display=display, pile=state.pile[1:])
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
    events.append(CardTaken(seat, action.display, card, state.display))
    return state


def _hold(state: State, seat: int, action: HoldFestival, events: list[Event]) -> State:
    city = area_of(state, action.palace, VILLAGE)
    n = len(state.players)
    present = {state.figures[q] for q in city} - {NONE}
    bidders = tuple(s for s in ((seat + i) % n for i in range(n)) if s in present)
    required = required_symbols(state)
    events.append(FestivalBegan(seat, action.palace, required, bidders))
    f = Festival(
        palace=action.palace,
        required=required,
        bidders=bidders,
        laid=((),) * len(bidders),
        passed=(False,) * len(bidders),
        turn=0,
    )
    state = evolve(state, phase=FESTIVAL, festival=f)
    return _bid(state, seat, Lay(action.cards), events)


def _bid(state: State, seat: int, action: Lay | Pass, events: list[Event]) -> State:
    f = state.festival
    assert f is not None
    i = f.turn
    laid, passed = list(f.laid), list(f.passed)
    if isinstance(action, Lay):
        cards = tuple(sorted(action.cards))
        laid[i] = tuple(sorted(laid[i] + cards))
        hand = tuple(c for c in state.players[seat].hand if c not in cards)
        state = _seat(state, seat, hand=hand)
        events.append(CardsLaid(seat, cards))
    else:
        passed[i] = True
        events.append(Passed(seat))
    if all(passed):
        return _festival_scored(state, evolve(f, laid=tuple(laid), passed=tuple(passed)), events)
    k = len(f.bidders)
    nxt = next(j % k for j in range(i + 1, i + 1 + k) if not passed[j % k])
    f = evolve(f, laid=tuple(laid), passed=tuple(passed), turn=nxt)
    return evolve(state, festival=f, to_act=f.bidders[nxt])


def _festival_scored(state: State, f: Festival, events: list[Event]) -> State:
    """J68-J71: count the symbols, score the winners, discard the cards, turn the
    palace red, end the proposer's turn (J73)."""
    symbols = [0] * len(state.players)
    for s, cards in zip(f.bidders, f.laid, strict=True):
        symbols[s] = sum(card_symbols(state, c, f.required) for c in cards)
    best = max(symbols)
    winners = tuple(s for s, n in enumerate(symbols) if n == best and best > 0)
    value = state.palace[f.palace]
    i = PALACE_VALUES.index(value)
    points = value // 2 if len(winners) == 1 else state.components.festival_tie[i]
    for s in winners:
        state = _seat(state, s, festivals=state.players[s].festivals + points)
    events.append(FestivalScored(f.palace, tuple(symbols), winners, points))
    discard = state.discard + tuple(c for cards in f.laid for c in cards)
    state = evolve(
        state,
        discard=discard,
        red=tuple(sorted((*state.red, f.palace))),
        festival=None,
        phase=ACT,
        to_act=f.bidders[0],
    )
    return _end_turn(state, f.bidders[0], events)


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
    events.append(TurnEnded(seat, state.turn.ap))
    if not state.ended and state.threes and cheapest_land(state, seat, 3) is None:
        state = evolve(state, ended=True)  # J78 (decision): the supply cannot run out
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
        return evolve(state, phase=OVER, to_act=None, last_turns=(), festival=None)
    if state.ended:
        nxt, last_turns = last_turns[0], last_turns[1:]
        last = True
    else:
        nxt, last = (seat + 1) % n, False
    ap = state.components.action_points
    events.append(TurnBegan(nxt, ap, last))
    return evolve(state, phase=ACT, to_act=nxt, turn=Turn(ap=ap, last=last), last_turns=last_turns)
