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
tajmahal.tikal.rules.IllegalAction: T17: first place the tile you drew
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, TypeVar

from attrs import evolve

# T45: the totals by seat, ranked (a tie is a shared win).
from ..kit.scoring import ranks as ranks
from ..kit.scoring import scores as scores
from .actions import (
    COSTS,
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    CampMove,
    Choose,
    Dig,
    EndTurn,
    Enter,
    Exchange,
    Guard,
    Move,
    Pass,
    Place,
    Uncover,
)
from .components import TOP_LEVEL
from .events import (
    AuctionWon,
    BidMade,
    BidPassed,
    CampBuilt,
    Event,
    FigureEntered,
    FigureMoved,
    GameOver,
    GuardPlaced,
    LevelUncovered,
    Scored,
    ScoringBegan,
    TileChosen,
    TileDrawn,
    TilePlaced,
    TilesRevealed,
    TreasureDug,
    TreasuresExchanged,
    TurnBegan,
    TurnEnded,
)
from .state import (
    ACT,
    ACTION_POINTS,
    AUCTION,
    AUCTION_CAPITAL,
    BASIC,
    BID,
    CHOOSE,
    GONE,
    NORMAL,
    OVER,
    PLACE,
    RESERVE,
    SCORING,
    Auction,
    Round,
    Seat,
    Setup,
    Space,
    State,
    used,
)

#: T34: points for 0, 1, 2 or 3 treasures of one type.
TREASURE_POINTS: Final = (0, 1, 3, 6)
#: T30, T33: at most two levels per temple and two treasures per space in a turn.
PER_TURN: Final = 2


T = TypeVar("T")


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message starts with the rule id."""


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
    state = State(
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
    events: list[Event] = []
    if setup.variant == BASIC:
        return _begin_turn(state, 0, events)
    return _begin_auction_round(state, 0, events)


# --------------------------------------------------------------------------- geometry


def border(state: State, space: int, direction: int) -> int:
    """T25: the stones on both sides of ``space``'s edge in ``direction`` (0 when
    the neighbour is off the board or unexplored)."""
    here = state.spaces[space]
    there_index = state.components.board.neighbours[space][direction]
    if here is None or there_index is None:
        return 0
    there = state.spaces[there_index]
    if there is None:
        return 0
    return here.stones[direction] + there.stones[(direction + 3) % 6]


def direction_to(state: State, origin: int, target: int) -> int | None:
    """The direction from ``origin`` to the adjacent ``target`` (None if not adjacent)."""
    neighbours = state.components.board.neighbours[origin]
    for d in range(6):
        if neighbours[d] == target:
            return d
    return None


def rotated(stones: tuple[int, ...], rotation: int) -> tuple[int, ...]:
    """The stones of a tile turned ``rotation`` sixths: edge d faces d + rotation."""
    return tuple(stones[(d - rotation) % 6] for d in range(6))


def _access(state: State, space: int, stones: tuple[int, ...]) -> bool:
    """T20: a stone leads onto ``space`` from an explored space that is not a volcano."""
    for d, n in enumerate(state.components.board.neighbours[space]):
        if n is None:
            continue
        there = state.spaces[n]
        if (
            there is not None
            and there.kind != "volcano"
            and stones[d] + there.stones[(d + 3) % 6] > 0
        ):
            return True
    return False


def _frontier(state: State) -> list[int]:
    """T19: the unexplored spaces next to the explored area."""
    board = state.components.board
    return [
        s
        for s in board.spaces
        if state.spaces[s] is None
        and any(n is not None and state.spaces[n] is not None for n in board.neighbours[s])
    ]


def _placements(state: State) -> list[Place]:
    """The distinct legal placements of the tile in hand (one rotation per stone
    pattern), by space then rotation; T20's waiver when none gives access."""
    assert state.tile is not None
    tile = state.components.tiles[state.tile]
    frontier = _frontier(state)
    patterns: list[tuple[int, tuple[int, ...]]] = []
    for r in range(6):
        stones = rotated(tile.stones, r)
        if all(stones != p for _, p in patterns):
            patterns.append((r, stones))
    if tile.kind == "volcano":
        return [Place(s, r) for s in frontier for r, _ in patterns]
    found = [Place(s, r) for s in frontier for r, p in patterns if _access(state, s, p)]
    if found:
        return found
    return [Place(s, r) for s in frontier for r, _ in patterns]  # T20: waived


# --------------------------------------------------------------------------- checks


def _figure_problem(state: State, seat: int, space: int, leader: bool, rule: str) -> str | None:
    if leader:
        if state.players[seat].leader != space:
            return f"{rule}: your leader is not on space {space}"
    elif state.workers[space][seat] == 0:
        return f"{rule}: you have no worker on space {space}"
    return None


def _camps(state: State, seat: int) -> tuple[int, ...]:
    """The base camp and ``seat``'s own camps (T23, T24)."""
    return (state.components.board.base_camp, *state.players[seat].camps)


def _explored(state: State, space: int) -> Space | None:
    if not 0 <= space < len(state.spaces):
        return None
    return state.spaces[space]


def problem(state: State, action: Action) -> str | None:
    """Why ``action`` is not allowed now (a message starting with the rule id), or
    None when it is."""
    if state.phase == OVER or state.to_act is None:
        return "T45: the game is over"
    seat = state.to_act
    if state.phase == PLACE:
        if not isinstance(action, Place):
            return "T17: first place the tile you drew"
        return _place_problem(state, action)
    if state.phase == BID:
        if isinstance(action, Pass):
            return None
        if not isinstance(action, Bid):
            return "T48: bid for the next turn, or pass"
        auction = state.auction
        assert auction is not None
        if action.amount < max(1, auction.high + 1):
            return f"T48: a bid must be at least {max(1, auction.high + 1)}"
        if action.amount > state.players[seat].score:
            return f"T48: you cannot bid more than your {state.players[seat].score} points"
        return None
    if state.phase == CHOOSE:
        if not isinstance(action, Choose):
            return "T49: choose one of the revealed tiles"
        assert state.auction is not None
        if action.tile not in state.auction.display:
            return f"T49: tile {action.tile} is not among the revealed tiles"
        return None
    # ACT
    if isinstance(action, EndTurn):
        return None
    if isinstance(action, (Place, Bid, Pass, Choose)):
        return f"T17: a turn's actions cost AP; no {type(action).__name__.lower()} now"
    cost: int | str = COSTS.get(type(action), 0)
    if isinstance(action, Move):
        cost = _move_cost(state, action)
    if isinstance(cost, str):
        return cost
    if cost > state.ap:
        return f"T18: that costs {cost} AP and only {state.ap} are left"
    return _action_problem(state, seat, action)


def _place_problem(state: State, action: Place) -> str | None:
    if not 0 <= action.rotation < 6:
        return f"T20: a rotation is 0 to 5, not {action.rotation}"
    if not 0 <= action.space < len(state.spaces):
        return f"T19: there is no space {action.space}"
    if state.spaces[action.space] is not None:
        return f"T19: space {action.space} is already explored"
    allowed = _placements(state)
    if action in allowed:
        return None
    assert state.tile is not None
    stones = rotated(state.components.tiles[state.tile].stones, action.rotation)
    same = [
        p
        for p in allowed
        if p.space == action.space
        and rotated(state.components.tiles[state.tile].stones, p.rotation) == stones
    ]
    if same:
        return (
            f"T20: rotation {action.rotation} lays the same stones as rotation "
            f"{same[0].rotation}; give that one"
        )
    if action.space not in _frontier(state):
        return f"T19: space {action.space} is not next to the explored area"
    return f"T20: no stone leads onto space {action.space} with rotation {action.rotation}"


def _move_cost(state: State, action: Move | CampMove) -> int | str:
    """T25-T27: the AP a move costs, or why it is not possible."""
    seat = state.to_act
    assert seat is not None
    problem = (
        _figure_problem(state, seat, action.origin, action.leader, "T25")
        if (0 <= action.origin < len(state.spaces))
        else f"T25: there is no space {action.origin}"
    )
    if problem:
        return problem
    d = direction_to(state, action.origin, action.target)
    if d is None:
        return f"T25: space {action.target} is not next to space {action.origin}"
    target = state.spaces[action.target]
    if target is None:
        return f"T27: space {action.target} is not explored"
    if target.kind == "volcano":
        return "T21: nobody may enter a volcano"
    cost = border(state, action.origin, d)
    if cost == 0:
        return f"T26: no stone on the border of spaces {action.origin} and {action.target}"
    return cost


def _action_problem(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    c = state.components
    if isinstance(action, Enter):
        if action.space not in _camps(state, seat):
            return "T23: figures come into play on the base camp or one of your camps"
        if action.leader and player.leader != RESERVE:
            return "T23: your leader is not waiting to come into play"
        if not action.leader and player.reserve == 0:
            return "T23: you have no worker left to bring into play"
        return None
    if isinstance(action, Move):
        return None  # checked with its cost
    if isinstance(action, CampMove):
        camps = _camps(state, seat)
        if action.origin not in camps or action.target not in camps:
            return "T24: camp moves go between the base camp and your own camps"
        if action.origin == action.target:
            return "T24: the camp move must go to another camp"
        return _figure_problem(state, seat, action.origin, action.leader, "T24")
    if isinstance(action, Uncover):
        space = _explored(state, action.space)
        if space is None or space.kind != "temple":
            return f"T29: space {action.space} is not a temple"
        if space.guard is not None:
            return "T31: a guarded temple cannot be uncovered"
        figures = state.figures(action.space, seat)
        if figures == 0:
            return "T29: you need a figure on the temple"
        if used(state.uncovered, action.space) >= min(PER_TURN, figures):
            return (
                f"T30: with {figures} figure(s) there you may uncover "
                f"{min(PER_TURN, figures)} level(s) of this temple this turn"
            )
        if space.value >= TOP_LEVEL or state.levels[space.value + 1 - 2] == 0:
            return f"T29: no level {space.value + 1} is left"
        return None
    if isinstance(action, Dig):
        space = _explored(state, action.space)
        if space is None or not space.tokens:
            return f"T32: space {action.space} holds no treasure"
        figures = state.figures(action.space, seat)
        if figures == 0:
            return "T32: you need a figure on the treasure space"
        if used(state.dug, action.space) >= min(PER_TURN, figures):
            return (
                f"T33: with {figures} figure(s) there you may dig up "
                f"{min(PER_TURN, figures)} treasure(s) here this turn"
            )
        return None
    if isinstance(action, Exchange):
        if not 0 <= action.seat < len(state.players) or action.seat == seat:
            return "T35: exchange with an opponent"
        types = len(c.treasure_types)
        if not (0 <= action.take < types and 0 <= action.give < types):
            return "T35: no such treasure"
        if action.take == action.give:
            return "T37: exchange two different treasures"
        if player.treasures[action.give] != 1:
            return "T36: you can only give a treasure you hold a single one of"
        if state.players[action.seat].treasures[action.take] != 1:
            return "T36: you can only take a treasure the opponent holds a single one of"
        return None
    if isinstance(action, BuildCamp):
        space = _explored(state, action.space)
        if space is None:
            return f"T38: space {action.space} is not explored"
        if space.kind not in ("jungle", "treasure") or space.tokens:
            return "T38: camps go on jungle or on a treasure space with no treasure left"
        if space.camp is not None:
            return "T39: a camp already stands there"
        if len(player.camps) >= c.camps:
            return f"T39: you have built your {c.camps} camps"
        return None
    if isinstance(action, Guard):
        space = _explored(state, action.space)
        if space is None or space.kind != "temple":
            return f"T40: space {action.space} is not a temple"
        if space.guard is not None:
            return "T40: the temple is guarded already"
        if len(player.guards) >= c.guards:
            return f"T40: you have placed your {c.guards} guards"
        mine = state.strength(action.space, seat)
        if (
            any(
                state.strength(action.space, other) >= mine
                for other in range(len(state.players))
                if other != seat
            )
            or mine == 0
        ):
            return "T40: you need more strength on the temple than every other expedition"
        return _figure_problem(state, seat, action.space, action.leader, "T40")
    return f"unknown action {action!r}"


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State) -> list[Action]:
    """What the seat to act may do, in a stable order; in the ACT phase the last is
    always :class:`EndTurn`, in an auction :class:`Pass`."""
    if state.to_act is None:
        return []
    if state.phase == PLACE:
        return list(_placements(state))
    if state.phase == CHOOSE:
        assert state.auction is not None
        return [Choose(t) for t in state.auction.display]
    if state.phase == BID:
        assert state.auction is not None
        low = max(1, state.auction.high + 1)
        return [*(Bid(a) for a in range(low, state.players[state.to_act].score + 1)), PASS]
    return [a for a in _candidates(state) if problem(state, a) is None] + [END_TURN]


def _candidates(state: State) -> Iterator[Action]:
    """The actions worth asking :func:`problem` about: every one that could be legal
    (those whose space, kind or price rules them out at a glance are skipped)."""
    seat = state.to_act
    assert seat is not None
    player = state.players[seat]
    ap = state.ap
    camps = _camps(state, seat)
    for space in camps:
        yield Enter(space)
        yield Enter(space, leader=True)
    board = state.components.board
    occupied = [s for s in board.spaces if state.workers[s][seat]]
    leader = player.leader if player.leader >= 0 else None
    mine = sorted({*occupied, *([leader] if leader is not None else [])})
    for space in mine:
        for lead in (False, True):
            if (lead and leader != space) or (not lead and not state.workers[space][seat]):
                continue
            for n in board.neighbours[space]:
                if n is not None and state.spaces[n] is not None:
                    yield Move(space, n, lead)
            if space in camps:
                for other in camps:
                    if other != space:
                        yield CampMove(space, other, lead)
    for space in mine:
        here = state.spaces[space]
        assert here is not None
        if here.kind == "temple" and here.guard is None:
            if ap >= COSTS[Uncover]:
                yield Uncover(space)
            if ap >= COSTS[Guard]:
                yield Guard(space)
                yield Guard(space, leader=True)
        if here.tokens and ap >= COSTS[Dig]:
            yield Dig(space)
    singles = [t for t, n in enumerate(player.treasures) if n == 1]
    if singles and ap >= COSTS[Exchange]:
        for other, rival in enumerate(state.players):
            if other != seat:
                for take, n in enumerate(rival.treasures):
                    if n == 1:
                        for give in singles:
                            yield Exchange(other, take, give)
    if ap >= COSTS[BuildCamp]:
        for space in board.spaces:
            here = state.spaces[space]
            if here is not None and here.kind in ("jungle", "treasure") and here.camp is None:
                yield BuildCamp(space)


# --------------------------------------------------------------------------- play


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalAction`."""
    return step(state, action)[0]


def step(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened; raises :class:`IllegalAction`."""
    reason = problem(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    events: list[Event] = []
    seat = state.to_act
    assert seat is not None
    if isinstance(action, Place):
        state = _place(state, seat, action, events)
    elif isinstance(action, (Bid, Pass)):
        state = _bid(state, seat, action, events)
    elif isinstance(action, Choose):
        state = _choose(state, seat, action, events)
    elif isinstance(action, EndTurn):
        state = _end_turn(state, seat, events)
    else:
        state = _act(state, seat, action, events)
        if state.ap == 0:
            state = _end_turn(state, seat, events)
    return state, events


def _replace(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _set_seat(state: State, seat: int, player: Seat) -> State:
    players = list(state.players)
    players[seat] = player
    return evolve(state, players=tuple(players))


def _set_space(state: State, index: int, space: Space) -> State:
    spaces = list(state.spaces)
    spaces[index] = space
    return evolve(state, spaces=tuple(spaces))


def _add_workers(state: State, space: int, seat: int, delta: int) -> State:
    row = list(state.workers[space])
    row[seat] += delta
    workers = list(state.workers)
    workers[space] = tuple(row)
    return evolve(state, workers=tuple(workers))


def _bump(counts: tuple[tuple[int, int], ...], space: int) -> tuple[tuple[int, int], ...]:
    n = used(counts, space)
    return (*((s, k) for s, k in counts if s != space), (space, n + 1))


def _act(state: State, seat: int, action: Action, events: list[Event]) -> State:
    player = state.players[seat]
    if isinstance(action, Move):
        cost = _move_cost(state, action)
        assert isinstance(cost, int)
        state = evolve(state, ap=state.ap - cost)
        events.append(FigureMoved(seat, action.origin, action.target, action.leader, cost))
        return _shift(state, seat, action.origin, action.target, action.leader)
    state = evolve(state, ap=state.ap - COSTS[type(action)])
    if isinstance(action, Enter):
        events.append(FigureEntered(seat, action.space, action.leader))
        if action.leader:
            return _set_seat(state, seat, evolve(player, leader=action.space))
        state = _set_seat(state, seat, evolve(player, reserve=player.reserve - 1))
        return _add_workers(state, action.space, seat, 1)
    if isinstance(action, CampMove):
        events.append(FigureMoved(seat, action.origin, action.target, action.leader, 1, True))
        return _shift(state, seat, action.origin, action.target, action.leader)
    if isinstance(action, Uncover):
        space = state.spaces[action.space]
        assert space is not None
        value = space.value + 1
        levels = _replace(state.levels, value - 2, state.levels[value - 2] - 1)
        state = evolve(state, levels=levels, uncovered=_bump(state.uncovered, action.space))
        events.append(LevelUncovered(seat, action.space, value))
        return _set_space(state, action.space, evolve(space, value=value))
    if isinstance(action, Dig):
        space = state.spaces[action.space]
        assert space is not None
        treasure = space.tokens[-1]
        state = _set_space(state, action.space, evolve(space, tokens=space.tokens[:-1]))
        treasures = _replace(player.treasures, treasure, player.treasures[treasure] + 1)
        state = _set_seat(state, seat, evolve(player, treasures=treasures))
        events.append(TreasureDug(seat, action.space, treasure))
        return evolve(state, dug=_bump(state.dug, action.space))
    if isinstance(action, Exchange):
        rival = state.players[action.seat]
        mine = list(player.treasures)
        mine[action.give] -= 1
        mine[action.take] += 1
        theirs = list(rival.treasures)
        theirs[action.take] -= 1
        theirs[action.give] += 1
        state = _set_seat(state, seat, evolve(player, treasures=tuple(mine)))
        state = _set_seat(state, action.seat, evolve(rival, treasures=tuple(theirs)))
        events.append(TreasuresExchanged(seat, action.seat, action.take, action.give))
        return state
    if isinstance(action, BuildCamp):
        space = state.spaces[action.space]
        assert space is not None
        state = _set_space(state, action.space, evolve(space, camp=seat))
        events.append(CampBuilt(seat, action.space))
        return _set_seat(state, seat, evolve(player, camps=(*player.camps, action.space)))
    if isinstance(action, Guard):
        space = state.spaces[action.space]
        assert space is not None
        workers = state.workers[action.space][seat]
        had_leader = player.leader == action.space
        removed = workers - (0 if action.leader else 1)
        player = evolve(
            player,
            removed=player.removed + removed,
            leader=GONE if had_leader else player.leader,
            guards=(*player.guards, action.space),
        )
        state = _set_seat(state, seat, player)
        state = _add_workers(state, action.space, seat, -workers)
        events.append(
            GuardPlaced(
                seat, action.space, action.leader, removed, had_leader and not action.leader
            )
        )
        return _set_space(
            state, action.space, evolve(space, guard=seat, guard_leader=action.leader)
        )
    raise AssertionError(action)


def _shift(state: State, seat: int, origin: int, target: int, leader: bool) -> State:
    if leader:
        return _set_seat(state, seat, evolve(state.players[seat], leader=target))
    return _add_workers(_add_workers(state, origin, seat, -1), target, seat, 1)


def _place(state: State, seat: int, action: Place, events: list[Event]) -> State:
    assert state.tile is not None
    tile = state.components.tiles[state.tile]
    tokens = state.supply[: tile.masks]  # T21 (the supply may run short)
    space = Space(tile.kind, rotated(tile.stones, action.rotation), tile.id, tile.value, tokens)
    state = _set_space(state, action.space, space)
    state = evolve(state, supply=state.supply[len(tokens) :], tile=None, last_placer=seat)
    events.append(TilePlaced(seat, tile.id, action.space, action.rotation, len(tokens)))
    return _begin_actions(state, seat, NORMAL, events)


def _begin_actions(state: State, seat: int, kind: str, events: list[Event]) -> State:
    events.append(TurnBegan(seat, kind))
    return evolve(state, phase=ACT, to_act=seat, ap=ACTION_POINTS, turn=kind, uncovered=(), dug=())


def _begin_turn(state: State, seat: int, events: list[Event]) -> State:
    """T17 (basic game): ``seat`` draws the top tile; T45 when none is left."""
    if not state.stack:
        return _begin_final(state, seat, events)
    tile = state.stack[0]
    state = evolve(state, stack=state.stack[1:])
    events.append(TileDrawn(seat, tile))
    return _took_tile(state, seat, tile, events)


def _took_tile(state: State, seat: int, tile: int, events: list[Event]) -> State:
    if state.components.tiles[tile].kind == "volcano":  # T42, T55
        n = len(state.players)
        order = tuple((seat + i) % n for i in range(n))
        events.append(ScoringBegan(order, tile))
        state = evolve(state, round=Round(order, seat, tile), tile=None)
        return _begin_actions(state, seat, SCORING, events)
    return evolve(state, phase=PLACE, to_act=seat, tile=tile, ap=0)


def _begin_final(state: State, first: int, events: list[Event]) -> State:
    """T45: the final scoring round, starting with ``first``; T56: in the auction
    game the order is by score, lowest first, ties nearest clockwise after the last
    placer (who counts as farthest)."""
    order = final_order(state, first)
    events.append(ScoringBegan(order, None))
    state = evolve(state, round=Round(order), auction=None)
    return _begin_actions(state, order[0], SCORING, events)


def final_order(state: State, first: int) -> tuple[int, ...]:
    """The order of the final scoring round: clockwise from ``first`` (T45), or in
    the auction game by score, lowest first, ties nearest clockwise after the last
    placer, who counts as farthest (T56)."""
    n = len(state.players)
    if state.setup.variant != AUCTION:
        return tuple((first + i) % n for i in range(n))
    last = state.last_placer if state.last_placer is not None else n - 1
    return tuple(sorted(range(n), key=lambda s: (state.players[s].score, (s - last - 1) % n)))


def _end_turn(state: State, seat: int, events: list[Event]) -> State:
    events.append(TurnEnded(seat, state.ap))
    state = evolve(state, ap=0, uncovered=(), dug=())
    if state.turn == SCORING:
        state = _score(state, seat, events)
        scoring_round = state.round
        assert scoring_round is not None
        rest = scoring_round.order[1:]
        if rest:
            state = evolve(state, round=evolve(scoring_round, order=rest))
            return _begin_actions(state, rest[0], SCORING, events)
        if scoring_round.trigger is None:
            return _game_over(state, events)
        trigger, volcano = scoring_round.trigger, scoring_round.volcano
        state = evolve(state, round=None)  # T43: the volcano goes on the board now
        return evolve(state, phase=PLACE, to_act=trigger, tile=volcano, turn=NORMAL)
    n = len(state.players)
    if state.setup.variant == BASIC:
        return _begin_turn(state, (seat + 1) % n, events)
    auction = state.auction
    assert auction is not None
    auction = evolve(auction, done=_replace(auction.done, seat, True))
    return _open_auction(evolve(state, auction=auction), (seat + 1) % n, seat, events)


def _score(state: State, seat: int, events: list[Event]) -> State:
    temples, treasures = scoring(state, seat)
    player = state.players[seat]
    player = evolve(
        player,
        temple_points=player.temple_points + temples,
        treasure_points=player.treasure_points + treasures,
    )
    events.append(Scored(seat, temples, treasures, player.score))
    return _set_seat(state, seat, player)


def scoring(state: State, seat: int) -> tuple[int, int]:
    """T44: what ``seat`` scores now: the temples it guards or holds the majority of
    (strictly the most strength, leader 3; a tie scores for nobody), and its
    treasures (1, 3, 6 for one, two, three of a type)."""
    temples = 0
    n = len(state.players)
    for index, space in enumerate(state.spaces):
        if space is None or space.kind != "temple":
            continue
        if space.guard is not None:
            temples += space.value if space.guard == seat else 0
            continue
        mine = state.strength(index, seat)
        if mine > 0 and all(state.strength(index, o) < mine for o in range(n) if o != seat):
            temples += space.value
    treasures = sum(TREASURE_POINTS[k] for k in state.players[seat].treasures)
    return temples, treasures


def _game_over(state: State, events: list[Event]) -> State:
    state = evolve(state, phase=OVER, to_act=None, round=None)
    totals = scores(state)
    events.append(GameOver(tuple(totals), tuple(ranks(totals))))
    return state


# --------------------------------------------------------------------------- auction


def _begin_auction_round(state: State, opener: int, events: list[Event]) -> State:
    """T47: reveal a tile per player; T45/T56 when the stack is empty."""
    n = len(state.players)
    if not state.stack:
        return _begin_final(state, opener, events)
    display = state.stack[:n]
    events.append(TilesRevealed(display))
    auction = Auction(display, (False,) * n, opener, passed=(False,) * n)
    state = evolve(state, stack=state.stack[n:], auction=auction)
    return _open_auction(state, opener, None, events)


def _open_auction(state: State, start: int, last: int | None, events: list[Event]) -> State:
    """T50-T54: the nearest seat from ``start`` clockwise without a turn this round
    opens the next auction; the round ends when all have had a turn (or no tile is
    left); ``last`` took the turn before."""
    auction = state.auction
    assert auction is not None
    n = len(state.players)
    waiting = [(start + i) % n for i in range(n) if not auction.done[(start + i) % n]]
    if not waiting or not auction.display:
        opener = (last + 1) % n if last is not None else start  # T54
        return _begin_auction_round(evolve(state, auction=None), opener, events)
    auction = evolve(auction, opener=waiting[0], high=0, bidder=None, passed=(False,) * n)
    state = evolve(state, auction=auction)
    if len(waiting) == 1:  # T52: the last turn of a round is free
        return _win_auction(state, waiting[0], 0, events)
    return evolve(state, phase=BID, to_act=waiting[0], ap=0)


def _bid(state: State, seat: int, action: Bid | Pass, events: list[Event]) -> State:
    auction = state.auction
    assert auction is not None
    if isinstance(action, Bid):
        auction = evolve(auction, high=action.amount, bidder=seat)
        events.append(BidMade(seat, action.amount))
    else:
        events.append(BidPassed(seat))
        auction = evolve(auction, passed=_replace(auction.passed, seat, True))
    state = evolve(state, auction=auction)
    n = len(state.players)
    for i in range(1, n + 1):
        other = (seat + i) % n
        if not auction.done[other] and not auction.passed[other] and other != auction.bidder:
            return evolve(state, to_act=other)
    if auction.bidder is not None:  # T48: everybody else passed
        return _win_auction(state, auction.bidder, auction.high, events)
    return _win_auction(state, auction.opener, 0, events)  # T51


def _win_auction(state: State, seat: int, bid: int, events: list[Event]) -> State:
    """T49: the winner pays and chooses a tile."""
    player = state.players[seat]
    state = _set_seat(state, seat, evolve(player, capital=player.capital - bid))
    events.append(AuctionWon(seat, bid))
    return evolve(state, phase=CHOOSE, to_act=seat)


def _choose(state: State, seat: int, action: Choose, events: list[Event]) -> State:
    auction = state.auction
    assert auction is not None
    display = list(auction.display)
    display.remove(action.tile)
    events.append(TileChosen(seat, action.tile))
    state = evolve(state, auction=evolve(auction, display=tuple(display)))
    return _took_tile(state, seat, action.tile, events)


# --------------------------------------------------------------------------- results


def is_over(state: State) -> bool:
    return state.phase == OVER
