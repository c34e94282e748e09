"""Tikal for learning programs: a fixed action space and observation tensors
(:mod:`tajmahal.kit.encoding` builds them from what this module declares).

The action space depends on the components (the board's spaces, the tiles, the
treasure types; :mod:`tajmahal.tikal.components`): :func:`encoding` builds one per
component set.  With the default components there are 10,417 actions:

>>> from tajmahal.tikal.adapter import TIKAL
>>> from tajmahal.tikal.actions import EndTurn, Place
>>> enc = TIKAL.encoding()
>>> enc.actions.size, enc.index(Place(0)), enc.index(Place(0, 5)), enc.index(EndTurn())
(10417, 0, 5, 9487)
>>> [(g.name, g.start) for g in enc.actions.groups][:4]
[('place', 0), ('enter', 378), ('move', 504), ('camp_move', 1136)]

An observation is what one seat sees (:func:`tajmahal.tikal.views.view`:
everything but the stack's order within a letter and the face-down treasure
tokens) as a flat ``float32`` vector; per-seat blocks are relative to the observer (row 0 is
the observing seat, row 1 the next one clockwise).

>>> from tajmahal.tikal import Setup, new_game
>>> state = new_game(Setup.random(3, seed=1))
>>> obs = enc.observation(state, 0)
>>> obs.shape, enc.layout(3).part(obs, "phase").tolist()
((1937,), [1.0, 0.0, 0.0, 0.0, 0.0])

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, Final

from ..kit.adapter import ComponentsAdapter
from ..kit.encoding import ActionSpace, BlockSpec, Encoding, Writer
from ..kit.observing import Emit, Field, Items, Observer, Part
from . import actions as act
from .actions import Action
from .chance import TikalChance
from .components import BACKS, TOP_LEVEL, Components
from .legal import PER_TURN
from .rules import TREASURE_POINTS
from .state import (  # the game's phases and constants
    ACT,
    AUCTION,
    AUCTION_CAPITAL,
    BID,
    CHOOSE,
    GONE,
    OVER,
    PLACE,
    RESERVE,
    SCORING,
    VARIANTS,
    Seat,
    Space,
    State,
)

__all__ = ["encoding", "max_decisions", "score_bound"]

PHASES: Final = (PLACE, ACT, BID, CHOOSE, OVER)
KINDS: Final = ("base", "jungle", "temple", "treasure", "volcano")
#: Divisors of the blocks that hold counts or points, so that values stay near 0..1.
POINT_SCALE: Final = 100.0
STACK_SCALE: Final = 10.0
AP_SCALE: Final = 10.0


def score_bound(c: Components) -> int:
    """A bound on any seat's score (and so on a bid, T48): the auction's capital
    plus, in each scoring round (one per volcano and the final one), every temple at
    the top level and three of every treasure (T44, T34)."""
    temples = sum(t.kind == "temple" for t in c.tiles) + sum(
        s.kind == "temple" for s in c.board.start
    )
    rounds = sum(t.kind == "volcano" for t in c.tiles) + 1
    per_round = temples * TOP_LEVEL + len(c.treasure_types) * TREASURE_POINTS[-1]
    return AUCTION_CAPITAL + rounds * per_round


def max_decisions(c: Components, players: int, variant: str | None = None) -> int:
    """A bound on the decisions of a game: each turn (one per tile, and a scoring
    turn per seat in each scoring round) places a tile, spends its 10 AP at 1 AP
    or more an action and ends; in the auction variant each turn adds an auction:
    a strictly rising run of bids (T48), each seat's pass, and the choice of a tile."""
    rounds = sum(t.kind == "volcano" for t in c.tiles) + 1
    turns = len(c.tiles) + rounds * players
    auctions = len(c.tiles) * (score_bound(c) + players + 1) if variant == AUCTION else 0
    return turns * (1 + 10 + 1) + auctions


def _actions(c: Components, players: int) -> Iterator[tuple[str, list[Action]]]:
    spaces = range(len(c.board.coords))
    neighbours = c.board.neighbours
    leaders = (False, True)
    types = range(len(c.treasure_types))
    yield "place", [act.Place(s, r) for s in spaces for r in range(6)]
    yield "enter", [act.Enter(s, lead) for s in spaces for lead in leaders]
    yield "move", [
        act.Move(s, n, lead)
        for s in spaces
        for n in neighbours[s]
        if n is not None
        for lead in leaders
    ]
    yield "camp_move", [
        act.CampMove(a, b, lead) for a in spaces for b in spaces if a != b for lead in leaders
    ]
    yield "uncover", [act.Uncover(s) for s in spaces]
    yield "dig", [act.Dig(s) for s in spaces]
    yield "exchange", [
        act.Exchange(seat, take, give)
        for seat in range(players)
        for take in types
        for give in types
        if take != give
    ]
    yield "build_camp", [act.BuildCamp(s) for s in spaces]
    yield "guard", [act.Guard(s, lead) for s in spaces for lead in leaders]
    yield "end_turn", [act.END_TURN]
    yield "bid", [act.Bid(amount) for amount in range(1, score_bound(c) + 1)]
    yield "pass", [act.PASS]
    yield "choose", [act.Choose(t.id) for t in c.tiles]


def _scales(c: Components) -> tuple[int, int]:
    """The most stones on an edge and the most masks on a tile (the divisors of the
    ``stones`` and ``tokens`` blocks)."""
    edges = [*(t.stones for t in c.tiles), *(s.stones for s in c.board.start)]
    return max(max(e) for e in edges) or 1, max(t.masks for t in c.tiles) or 1


def _blocks(c: Components, n: int) -> Iterable[BlockSpec]:
    s, t, k = len(c.board.coords), len(c.tiles), len(c.treasure_types)
    stones, masks = _scales(c)
    points = score_bound(c) / POINT_SCALE
    return [
        ("phase", (len(PHASES),), 1, "one-hot: place, act, bid, choose, over"),
        ("scoring_turn", (1,), 1, "1 in a scoring turn (T42)"),
        ("to_act", ("n",), 1, "one-hot, relative seat to act (all 0 once the game is over)"),
        ("ap", (1,), 1, f"action points left / {AP_SCALE:g}"),
        ("tile", (t,), 1, "one-hot: the tile to place"),
        ("stack", (len(BACKS),), 1, f"tiles left in the stack by back letter / {STACK_SCALE:g}"),
        ("supply", (1,), 1, "face-down treasure tokens in the supply / all tokens"),
        ("levels", (len(c.levels),), 1, "level tokens left by value 2-10 / their number"),
        ("kind", (s, len(KINDS)), 1, "[space, kind]: base, jungle, temple, treasure, volcano"),
        ("stones", (s, 6), 1, f"[space, direction]: stones on the edge as laid / {stones}"),
        ("value", (s,), 1, f"the temple's value / {TOP_LEVEL}"),
        ("tokens", (s,), 1, f"face-down treasure tokens on the space / {masks}"),
        ("camp", (s, "n"), 1, "[space, seat]: the seat's camp stands there"),
        ("guard", (s, "n"), 1, "[space, seat]: the seat guards the temple"),
        ("guard_leader", (s,), 1, "1: the guard is a leader"),
        ("workers", (s, "n"), 1, f"[space, seat]: the seat's workers there / {c.workers}"),
        ("leader", (s, "n"), 1, "[space, seat]: the seat's leader stands there"),
        ("uncovered", (s,), PER_TURN, "levels uncovered there this turn (T30)"),
        ("dug", (s,), PER_TURN, "treasures dug up there this turn (T33)"),
        ("reserve", ("n",), 1, f"workers not yet in play / {c.workers}"),
        ("removed", ("n",), 1, f"workers removed by a guard / {c.workers}"),
        ("leader_state", ("n", 3), 1, "one-hot: the leader waits, is on the board, is gone"),
        ("camps", ("n",), 1, f"camps built / {c.camps}"),
        ("guards", ("n",), 1, f"guards placed / {c.guards}"),
        ("treasures", ("n", k), 3, "treasures held, by type"),
        (
            "points",
            ("n", 3),
            points,
            f"temple points, treasure points, score / {POINT_SCALE:g} (the capital of the "
            "auction variant, T46, is the score less the others: it may be below 0)",
        ),
        ("scoring_due", ("n",), 1, "1: the seat still takes its turn in this scoring round"),
        ("volcano", (1,), 1, "1: a drawn volcano waits for the scoring round to end (T43)"),
        ("last_placer", ("n",), 1, "one-hot: the seat that placed the last tile"),
        ("revealed", (t,), 1, "auction: the revealed tiles not yet chosen (T47)"),
        ("had_turn", ("n",), 1, "auction: the seat had its turn this round (T49)"),
        ("opener", ("n",), 1, "auction: one-hot, the seat that opened this auction"),
        ("high_bid", (1,), points, f"auction: the highest bid / {POINT_SCALE:g}"),
        ("bidder", ("n",), 1, "auction: one-hot, the highest bidder"),
        ("passed", ("n",), 1, "auction: the seat passed in this auction"),
    ]


# The observation in parts (tajmahal.kit.observing), in seat 0's frame: each reads
# a piece of the state that a step leaves alone more often than not. Nothing in
# Tikal is any one seat's: what no seat sees (the stack's order within a letter,
# the face-down tokens) is read only as counts.


def _parts(c: Components, n: int) -> tuple[Part[State] | Items[State], ...]:
    kinds = len(KINDS)
    treasures = len(c.treasure_types)
    stones, masks = _scales(c)
    backs = [c.tiles[t].back for t in range(len(c.tiles))]

    def turn(state: State, e: Emit) -> None:
        e.one("phase", PHASES.index(state.phase))
        e.put("scoring_turn", 0, float(state.turn == SCORING and state.phase == ACT))
        if state.to_act is not None:
            e.one("to_act", state.to_act)
        e.put("ap", 0, state.ap / AP_SCALE)
        if state.tile is not None:
            e.one("tile", state.tile)

    def pool(state: State, e: Emit) -> None:
        letters = [backs[t] for t in state.stack]
        for i, back in enumerate(BACKS):
            e.put("stack", i, letters.count(back) / STACK_SCALE)
        e.put("supply", 0, len(state.supply) / c.treasure_tokens)
        for i, (left, start) in enumerate(zip(state.levels, c.levels, strict=True)):
            e.put("levels", i, left / start if start else 0.0)

    def space(index: int, here: Space | None, e: Emit) -> None:
        if here is None:
            return
        e.one("kind", index * kinds + KINDS.index(here.kind))
        for d, count in enumerate(here.stones):
            e.put("stones", index * 6 + d, count / stones)
        e.put("value", index, here.value / TOP_LEVEL)
        e.put("tokens", index, len(here.tokens) / masks)
        if here.camp is not None:
            e.one("camp", index * n + here.camp)
        if here.guard is not None:
            e.one("guard", index * n + here.guard)
            e.put("guard_leader", index, float(here.guard_leader))

    def workers(index: int, counts: tuple[int, ...], e: Emit) -> None:
        for seat, count in enumerate(counts):
            e.put("workers", index * n + seat, count / c.workers)

    def this_turn(state: State, e: Emit) -> None:
        for index, count in state.uncovered:
            e.put("uncovered", index, count)
        for index, count in state.dug:
            e.put("dug", index, count)

    def seat(q: int, p: Seat, e: Emit) -> None:
        if p.leader >= 0:
            e.one("leader", p.leader * n + q)
        e.put("reserve", q, p.reserve / c.workers)
        e.put("removed", q, p.removed / c.workers)
        e.one("leader_state", q * 3 + (0 if p.leader == RESERVE else 2 if p.leader == GONE else 1))
        e.put("camps", q, len(p.camps) / c.camps)
        e.put("guards", q, len(p.guards) / c.guards)
        for kind, count in enumerate(p.treasures):
            e.put("treasures", q * treasures + kind, count)
        for i, part in enumerate((p.temple_points, p.treasure_points, p.score)):
            e.put("points", q * 3 + i, part / POINT_SCALE)

    def scoring(state: State, e: Emit) -> None:
        if state.round is not None:
            e.ones("scoring_due", state.round.order)
            e.put("volcano", 0, float(state.round.volcano is not None))
        if state.last_placer is not None:
            e.one("last_placer", state.last_placer)

    def auction(state: State, e: Emit) -> None:
        a = state.auction
        if a is None:
            return
        e.ones("revealed", a.display)
        for q in range(n):
            e.put("had_turn", q, float(a.done[q]))
            e.put("passed", q, float(a.passed[q]))
        e.one("opener", a.opener)
        e.put("high_bid", 0, a.high / POINT_SCALE)
        if a.bidder is not None:
            e.one("bidder", a.bidder)

    return (
        Part(lambda state: (state.phase, state.turn, state.to_act, state.ap, state.tile), turn),
        Part(lambda state: (state.stack, state.supply, state.levels), pool),
        Items(lambda state: state.spaces, (Field.whole(space),)),
        Items(lambda state: state.workers, (Field.whole(workers),)),
        Part(lambda state: (state.uncovered, state.dug), this_turn),
        Items(lambda state: state.players, (Field.whole(seat),)),
        Part(lambda state: (state.round, state.last_placer), scoring),
        Part(lambda state: state.auction, auction),
    )


def _nothing_private(state: State, seat: int, writer: Writer) -> None:
    """Nothing in Tikal is one seat's alone."""


@cache
def encoding(game: ComponentsAdapter[Any, State, Action, Any]) -> Encoding[State, Action]:
    """The encoding of ``game`` (its components), built once."""
    c = game.components

    def observer(players: int) -> Observer[State]:
        return Observer(declared.layout(players), _parts(c, players), _nothing_private)

    declared = Encoding[State, Action](
        game,
        ActionSpace(_actions(c, game.max_players)),
        players=lambda state: state.setup.players,
        blocks=lambda players: _blocks(c, players),
        observe=_nothing_private,
        max_decisions=lambda players, variant: max_decisions(c, players, variant),
        chance=TikalChance(c),
        variants=VARIANTS,
        observer=observer,
    )
    return declared
