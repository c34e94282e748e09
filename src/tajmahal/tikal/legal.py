"""What the seat to act may do: :func:`legal_actions`; why an action is not
allowed is :func:`tajmahal.tikal.problems.problem`.

The two are written apart for speed -- ``problem`` names the first rule an action
breaks, :func:`legal_actions` lists the allowed actions straight from the
position, without asking ``problem`` about each candidate -- and a property test
holds them to each other: in every position reached by random play, an action is
listed exactly when ``problem`` allows it (``tests/test_tikal_properties.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import actions as act
from .actions import COSTS, END_TURN, PASS
from .components import TOP_LEVEL
from .geometry import CAMP_KINDS, TEMPLE, VOLCANO, Tables, placements, tables
from .state import ACT, CHOOSE, PLACE, RESERVE, Seat, Space, State

#: T30, T33: at most two levels per temple and two treasures per space in a turn.
PER_TURN: Final = 2
#: The prices of T23-T40.
ENTER: Final = COSTS[act.Enter]
CAMP_MOVE: Final = COSTS[act.CampMove]
UNCOVER: Final = COSTS[act.Uncover]
DIG: Final = COSTS[act.Dig]
EXCHANGE: Final = COSTS[act.Exchange]
BUILD: Final = COSTS[act.BuildCamp]
GUARD: Final = COSTS[act.Guard]


def used(counts: Sequence[tuple[int, int]], space: int) -> int:
    """How often a per-turn limit was used at ``space`` (``uncovered``, ``dug``)."""
    for where, n in counts:
        if where == space:
            return n
    return 0


def figures(state: State, space: int, seat: int) -> int:
    """How many figures (workers and leader) ``seat`` has on ``space``."""
    return state.workers[space][seat] + (1 if state.players[seat].leader == space else 0)


def strength(state: State, space: int, seat: int) -> int:
    """T40/T41: ``seat``'s workers on ``space`` count 1, its leader 3."""
    here = state.workers[space][seat]
    if state.players[seat].leader == space:
        here += state.setup.components.leader_strength
    return here


def strongest(state: State, space: int, seat: int) -> bool:
    """T40: ``seat`` has strength on ``space`` and more than every other seat."""
    mine = strength(state, space, seat)
    if mine == 0:
        return False
    for other in range(len(state.players)):
        if other != seat and strength(state, space, other) >= mine:
            return False
    return True


def camps_of(t: Tables, player: Seat) -> tuple[int, ...]:
    """The base camp and the seat's own camps (T23, T24)."""
    return (t.base_camp, *player.camps)


def may_uncover(state: State, space: Space, index: int, count: int) -> bool:
    """T29-T31 for a temple that is not guarded, with ``count`` figures of the seat on it."""
    return (
        used(state.uncovered, index) < min(PER_TURN, count)
        and space.value < TOP_LEVEL
        and state.levels[space.value - 1] > 0  # the token of value + 1
    )


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State) -> list[act.Action]:
    """What the seat to act may do, in a stable order; in the ACT phase the last is
    always :class:`EndTurn`, in an auction :class:`Pass`."""
    seat = state.to_act
    if seat is None:
        return []
    phase = state.phase
    if phase == ACT:
        return _turn_actions(state, seat)
    if phase == PLACE:
        return placements(state)
    auction = state.auction
    assert auction is not None
    if phase == CHOOSE:
        return [act.Choose(t) for t in auction.display]
    low = max(1, auction.high + 1)
    bids: list[act.Action] = [act.Bid(a) for a in range(low, state.players[seat].score + 1)]
    bids.append(PASS)
    return bids


def _turn_actions(state: State, seat: int) -> list[act.Action]:
    """The ACT phase: entries, moves and camp moves, then what the seat's figures
    allow where they stand (uncover, guard, dig), exchanges, camps, and the end."""
    t = tables(state.setup.components)
    ap = state.ap
    spaces = state.spaces
    workers = state.workers
    player = state.players[seat]
    leader = player.leader
    camps = camps_of(t, player)
    out: list[act.Action] = []
    if ap >= ENTER:
        for s in camps:
            if player.reserve > 0:
                out.append(t.enter[s][0])
            if leader == RESERVE:
                out.append(t.enter[s][1])
    mine = [s for s in range(len(spaces)) if workers[s][seat] > 0 or leader == s]
    for s in mine:
        here = spaces[s]
        assert here is not None
        reachable: list[int] = []
        for i, (d, n) in enumerate(t.links[s]):
            there = spaces[n]
            if there is not None and there.kind != VOLCANO:
                cost = here.stones[d] + there.stones[(d + 3) % 6]
                if 0 < cost <= ap:
                    reachable.append(i)
        in_camp = ap >= CAMP_MOVE and s in camps
        for lead in (False, True):
            if (leader != s) if lead else (workers[s][seat] == 0):
                continue
            moves = t.leader_moves[s] if lead else t.worker_moves[s]
            for i in reachable:
                out.append(moves[i])
            if in_camp:
                for other in camps:
                    if other != s:
                        out.append(t.camp_move(s, other, lead))
    _on_spaces(state, t, seat, mine, out)
    if ap >= EXCHANGE:
        _exchanges(state, t, seat, out)
    if ap >= BUILD and len(player.camps) < t.components.camps:
        for s in range(len(spaces)):
            if _camp_site(spaces[s]):
                out.append(t.build[s])
    out.append(END_TURN)
    return out


def _camp_site(here: Space | None) -> bool:
    """T38-T39: explored jungle, or treasure with no token left, without a camp."""
    return here is not None and here.kind in CAMP_KINDS and not here.tokens and here.camp is None


def _on_spaces(state: State, t: Tables, seat: int, mine: list[int], out: list[act.Action]) -> None:
    """Uncover, guard and dig where ``seat``'s figures stand."""
    ap = state.ap
    player = state.players[seat]
    guards_left = len(player.guards) < t.components.guards
    for s in mine:
        here = state.spaces[s]
        assert here is not None
        workers = state.workers[s][seat]
        has_leader = player.leader == s
        count = workers + (1 if has_leader else 0)
        if here.kind == TEMPLE and here.guard is None:
            if ap >= UNCOVER and may_uncover(state, here, s, count):
                out.append(t.uncover[s])
            if ap >= GUARD and guards_left and strongest(state, s, seat):
                if workers:
                    out.append(t.guard[s][0])
                if has_leader:
                    out.append(t.guard[s][1])
        if here.tokens and ap >= DIG and used(state.dug, s) < min(PER_TURN, count):
            out.append(t.dig[s])


def _exchanges(state: State, t: Tables, seat: int, out: list[act.Action]) -> None:
    """T35-T37: a single of an opponent's for a single of one's own, of another type."""
    singles = [k for k, n in enumerate(state.players[seat].treasures) if n == 1]
    if not singles:
        return
    for other, rival in enumerate(state.players):
        if other == seat:
            continue
        for take, n in enumerate(rival.treasures):
            if n == 1:
                row = t.exchange[other][take]
                for give in singles:
                    if give != take:
                        out.append(row[give])


# --------------------------------------------------------------------------- problems
