"""Why an action is not allowed: :func:`problem`, a message starting with the id of
the rule it breaks (None for an allowed action); :mod:`.legal` lists the allowed
ones, and a property test holds the two to each other.  Compiled with mypyc with
the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kit.svg import plural
from . import actions as act
from .actions import COSTS
from .geometry import CAMP_KINDS, TEMPLE, VOLCANO, border, place_problem, tables

#: T30, T33: at most two levels per temple and two treasures per space in a turn.
from .legal import (
    PER_TURN,
    camps_of,
    figures,
    may_uncover,
    strongest,
    used,
)
from .state import BID, CHOOSE, OVER, PLACE, RESERVE, Space, State


def problem(state: State, action: act.Action) -> str | None:
    """Why ``action`` is not allowed now (a message starting with the rule id), or
    None when it is."""
    seat = state.to_act
    if state.phase == OVER or seat is None:
        return "T45: the game is over"
    phase = state.phase
    if phase == PLACE:
        if not isinstance(action, act.Place):
            return "T17: first place the tile you drew"
        return place_problem(state, action)
    if phase == BID:
        return _bid_problem(state, seat, action)
    if phase == CHOOSE:
        if not isinstance(action, act.Choose):
            return "T49: choose one of the revealed tiles"
        assert state.auction is not None
        if action.tile not in state.auction.display:
            return f"T49: tile {action.tile} is not among the revealed tiles"
        return None
    if isinstance(action, act.EndTurn):
        return None
    if isinstance(action, (act.Place, act.Bid, act.Pass, act.Choose)):
        return f"T17: a turn's actions cost AP; no {type(action).__name__.lower()} now"
    if isinstance(action, act.Move):
        cost: int | str = move_cost(state, action)
    else:
        cost = COSTS.get(type(action), 0)
    if isinstance(cost, str):
        return cost
    if cost > state.ap:
        return f"T18: that costs {cost} AP and only {state.ap} are left"
    return _action_problem(state, seat, action)


def _bid_problem(state: State, seat: int, action: act.Action) -> str | None:
    if isinstance(action, act.Pass):
        return None
    if not isinstance(action, act.Bid):
        return "T48: bid for the next turn, or pass"
    auction = state.auction
    assert auction is not None
    if action.amount < max(1, auction.high + 1):
        return f"T48: a bid must be at least {max(1, auction.high + 1)}"
    if action.amount > state.players[seat].score:
        return f"T48: you cannot bid more than your {plural(state.players[seat].score, 'point')}"
    return None


def _figure_problem(state: State, seat: int, space: int, leader: bool, rule: str) -> str | None:
    if leader:
        if state.players[seat].leader != space:
            return f"{rule}: your leader is not on space {space}"
    elif state.workers[space][seat] == 0:
        return f"{rule}: you have no worker on space {space}"
    return None


def _explored(state: State, space: int) -> Space | None:
    if not 0 <= space < len(state.spaces):
        return None
    return state.spaces[space]


def move_cost(state: State, action: act.Move) -> int | str:
    """T25-T27: the AP a move costs, or why it is not possible."""
    seat = state.to_act
    assert seat is not None
    origin, target = action.origin, action.target
    if not 0 <= origin < len(state.spaces):
        return f"T25: there is no space {origin}"
    figure = _figure_problem(state, seat, origin, action.leader, "T25")
    if figure:
        return figure
    t = tables(state.setup.components)
    if all(n != target for _, n in t.links[origin]):
        return f"T25: space {target} is not next to space {origin}"
    there = state.spaces[target]
    if there is None:
        return f"T27: space {target} is not explored"
    if there.kind == VOLCANO:
        return "T21: nobody may enter a volcano"
    cost = border(state.spaces, t, origin, target)
    if cost == 0:
        return f"T26: no stone on the border of spaces {origin} and {target}"
    return cost


def _action_problem(state: State, seat: int, action: act.Action) -> str | None:
    if isinstance(action, act.Move):
        return None  # checked with its cost
    if isinstance(action, (act.Enter, act.CampMove)):
        return _camp_problem(state, seat, action)
    if isinstance(action, act.Uncover):
        return _uncover_problem(state, seat, action)
    if isinstance(action, act.Dig):
        space = _explored(state, action.space)
        if space is None or not space.tokens:
            return f"T32: space {action.space} holds no treasure"
        count = figures(state, action.space, seat)
        if count == 0:
            return "T32: you need a figure on the treasure space"
        return _limit_problem(state.dug, action.space, count, "T33", "dig up {} treasure(s) here")
    if isinstance(action, act.Exchange):
        return _exchange_problem(state, seat, action)
    if isinstance(action, act.BuildCamp):
        return _build_problem(state, seat, action)
    if isinstance(action, act.Guard):
        return _guard_problem(state, seat, action)
    return f"unknown action {action!r}"


def _limit_problem(
    counts: Sequence[tuple[int, int]], space: int, count: int, rule: str, what: str
) -> str | None:
    """T30, T33: at most one use a figure there, two at most, per space and turn."""
    if used(counts, space) < min(PER_TURN, count):
        return None
    allowed = what.format(min(PER_TURN, count))
    return f"{rule}: with {count} figure(s) there you may {allowed} this turn"


def _camp_problem(state: State, seat: int, action: act.Enter | act.CampMove) -> str | None:
    player = state.players[seat]
    camps = camps_of(tables(state.setup.components), player)
    if isinstance(action, act.Enter):
        if action.space not in camps:
            return "T23: figures come into play on the base camp or one of your camps"
        if action.leader and player.leader != RESERVE:
            return "T23: your leader is not waiting to come into play"
        if not action.leader and player.reserve == 0:
            return "T23: you have no worker left to bring into play"
        return None
    if action.origin not in camps or action.target not in camps:
        return "T24: camp moves go between the base camp and your own camps"
    if action.origin == action.target:
        return "T24: the camp move must go to another camp"
    return _figure_problem(state, seat, action.origin, action.leader, "T24")


def _unguarded_temple_problem(state: State, index: int, rule: str, guarded: str) -> str | None:
    """Why space ``index`` is not an unguarded temple (``rule``: the id of the rule
    that asks for a temple; ``guarded``: the refusal of a guarded one), or None."""
    space = _explored(state, index)
    if space is None or space.kind != TEMPLE:
        return f"{rule}: space {index} is not a temple"
    return None if space.guard is None else guarded


def _uncover_problem(state: State, seat: int, action: act.Uncover) -> str | None:
    temple = _unguarded_temple_problem(
        state, action.space, "T29", "T31: a guarded temple cannot be uncovered"
    )
    if temple is not None:
        return temple
    space = state.spaces[action.space]
    assert space is not None
    count = figures(state, action.space, seat)
    if count == 0:
        return "T29: you need a figure on the temple"
    limit = _limit_problem(
        state.uncovered, action.space, count, "T30", "uncover {} level(s) of this temple"
    )
    if limit is not None:
        return limit
    if not may_uncover(state, space, action.space, count):
        return f"T29: no level {space.value + 1} is left"
    return None


def _exchange_problem(state: State, seat: int, action: act.Exchange) -> str | None:
    if not 0 <= action.seat < len(state.players) or action.seat == seat:
        return "T35: exchange with an opponent"
    types = len(state.setup.components.treasure_types)
    if not (0 <= action.take < types and 0 <= action.give < types):
        return "T35: no such treasure"
    if action.take == action.give:
        return "T37: exchange two different treasures"
    if state.players[seat].treasures[action.give] != 1:
        return "T36: you can only give a treasure you hold a single one of"
    if state.players[action.seat].treasures[action.take] != 1:
        return "T36: you can only take a treasure the opponent holds a single one of"
    return None


def _build_problem(state: State, seat: int, action: act.BuildCamp) -> str | None:
    space = _explored(state, action.space)
    if space is None:
        return f"T38: space {action.space} is not explored"
    if space.kind not in CAMP_KINDS or space.tokens:
        return "T38: camps go on jungle or on a treasure space with no treasure left"
    if space.camp is not None:
        return "T39: a camp already stands there"
    camps = state.setup.components.camps
    if len(state.players[seat].camps) >= camps:
        return f"T39: you have built your {camps} camps"
    return None


def _guard_problem(state: State, seat: int, action: act.Guard) -> str | None:
    temple = _unguarded_temple_problem(
        state, action.space, "T40", "T40: the temple is guarded already"
    )
    if temple is not None:
        return temple
    guards = state.setup.components.guards
    if len(state.players[seat].guards) >= guards:
        return f"T40: you have placed your {guards} guards"
    if not strongest(state, action.space, seat):
        return "T40: you need more strength on the temple than every other expedition"
    return _figure_problem(state, seat, action.space, action.leader, "T40")
