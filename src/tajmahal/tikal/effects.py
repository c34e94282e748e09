"""What the actions of a turn do (T23-T40), on a :class:`~tajmahal.tikal.draft.Draft`
of the state; :mod:`tajmahal.tikal.legal` has made sure that each is allowed."""

from __future__ import annotations

from . import actions as actions
from .actions import COSTS
from .draft import Draft, Events
from .events import (
    CampBuilt,
    FigureEntered,
    FigureMoved,
    GuardPlaced,
    LevelUncovered,
    TreasureDug,
    TreasuresExchanged,
)
from .geometry import border, tables
from .legal import used
from .state import GONE


def _bump(counts: tuple[tuple[int, int], ...], space: int) -> tuple[tuple[int, int], ...]:
    n = used(counts, space)
    return (*((s, k) for s, k in counts if s != space), (space, n + 1))


def act(d: Draft, seat: int, action: actions.Action, events: Events) -> None:
    if isinstance(action, actions.Move):
        cost = border(d.spaces, tables(d.setup.components), action.origin, action.target)
        d.ap -= cost
        if events is not None:
            events.append(FigureMoved(seat, action.origin, action.target, action.leader, cost))
        _shift(d, seat, action.origin, action.target, action.leader)
        return
    d.ap -= COSTS[type(action)]
    if isinstance(action, actions.Enter):
        if events is not None:
            events.append(FigureEntered(seat, action.space, action.leader))
        if action.leader:
            d.change_seat(seat, leader=action.space)
        else:
            d.change_seat(seat, reserve=d.players[seat].reserve - 1)
            d.add_workers(action.space, seat, 1)
    elif isinstance(action, actions.CampMove):
        if events is not None:
            events.append(FigureMoved(seat, action.origin, action.target, action.leader, 1, True))
        _shift(d, seat, action.origin, action.target, action.leader)
    elif isinstance(action, actions.Uncover):
        _uncover(d, seat, action.space, events)
    elif isinstance(action, actions.Dig):
        _dig(d, seat, action.space, events)
    elif isinstance(action, actions.Exchange):
        _exchange(d, seat, action, events)
    elif isinstance(action, actions.BuildCamp):
        _build(d, seat, action.space, events)
    elif isinstance(action, actions.Guard):
        _guard(d, seat, action, events)
    else:
        raise AssertionError(action)


def _shift(d: Draft, seat: int, origin: int, target: int, leader: bool) -> None:
    if leader:
        d.change_seat(seat, leader=target)
    else:
        d.add_workers(origin, seat, -1)
        d.add_workers(target, seat, 1)


def _uncover(d: Draft, seat: int, index: int, events: Events) -> None:
    space = d.spaces[index]
    assert space is not None
    value = space.value + 1
    levels = list(d.levels)
    levels[value - 2] -= 1
    d.levels = tuple(levels)
    d.uncovered = _bump(d.uncovered, index)
    d.change_space(index, value=value)
    if events is not None:
        events.append(LevelUncovered(seat, index, value))


def _dig(d: Draft, seat: int, index: int, events: Events) -> None:
    space = d.spaces[index]
    assert space is not None
    treasure = space.tokens[-1]
    d.change_space(index, tokens=space.tokens[:-1])
    treasures = list(d.players[seat].treasures)
    treasures[treasure] += 1
    d.change_seat(seat, treasures=tuple(treasures))
    d.dug = _bump(d.dug, index)
    if events is not None:
        events.append(TreasureDug(seat, index, treasure))


def _exchange(d: Draft, seat: int, action: actions.Exchange, events: Events) -> None:
    mine = list(d.players[seat].treasures)
    mine[action.give] -= 1
    mine[action.take] += 1
    theirs = list(d.players[action.seat].treasures)
    theirs[action.take] -= 1
    theirs[action.give] += 1
    d.change_seat(seat, treasures=tuple(mine))
    d.change_seat(action.seat, treasures=tuple(theirs))
    if events is not None:
        events.append(TreasuresExchanged(seat, action.seat, action.take, action.give))


def _build(d: Draft, seat: int, index: int, events: Events) -> None:
    d.change_space(index, camp=seat)
    d.change_seat(seat, camps=(*d.players[seat].camps, index))
    if events is not None:
        events.append(CampBuilt(seat, index))


def _guard(d: Draft, seat: int, action: actions.Guard, events: Events) -> None:
    index = action.space
    p = d.players[seat]
    workers = d.workers[index][seat]
    had_leader = p.leader == index
    removed = workers - (0 if action.leader else 1)
    d.change_seat(
        seat,
        removed=p.removed + removed,
        leader=GONE if had_leader else p.leader,
        guards=(*p.guards, index),
    )
    d.add_workers(index, seat, -workers)
    d.change_space(index, guard=seat, guard_leader=action.leader)
    if events is not None:
        left = had_leader and not action.leader
        events.append(GuardPlaced(seat, index, action.leader, removed, left))
