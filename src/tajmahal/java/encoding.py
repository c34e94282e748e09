"""Java for learning programs: a fixed action space and observation tensors
(:mod:`tajmahal.kit.encoding` builds them from what this module declares).

Java's action is factored (:mod:`tajmahal.java.actions`): what, then where, then
how; each decision is one index.  The action space depends on the components
(the board's positions and tile shapes, the palace values, the cards), so
:func:`encoding` builds one per component set:

>>> from tajmahal.java.adapter import JAVA
>>> from tajmahal.java.actions import EndTurn, Select, PlaceLand
>>> enc = JAVA.encoding()
>>> enc.index(PlaceLand("three")), enc.index(EndTurn()), enc.index(Select(0))
(0, 14, 15)
>>> [(g.name, g.stop - g.start) for g in enc.actions.groups]
[('act', 15), ('select', 202), ('shape', 849), ('value', 5), ('lay', 30), ('done', 1), ('pass', 1)]

An observation is what one seat sees (:func:`tajmahal.java.views.view`:
everything but the other hands and the draw pile's order) as a flat ``float32``
vector;
per-seat blocks are relative to the observer.

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, Final

import numpy as np

from ..kit.adapter import ComponentsAdapter
from ..kit.encoding import ActionSpace, BlockSpec, Encoding, Writer
from ..kit.observing import Emit, Field, Items, Observer, Part
from . import actions as act
from .actions import Action
from .chance import JavaChance, max_turns
from .components import DEFAULT_COMPONENTS, PALACE_VALUES, Components
from .state import NONE, PHASES, TERRAINS, VARIANTS, Seat, State

__all__ = ["encoding", "max_decisions"]

#: Divisors of the blocks that hold counts or points, so that values stay near 0..1.
POINT_SCALE: Final = 100.0
HEIGHT_SCALE: Final = 10.0


def max_decisions(players: int, c: Components = DEFAULT_COMPONENTS) -> int:
    """A bound on the decisions of a game: per turn, at most one action per action
    point (the turn's and every token), each of up to 3 decisions, with each figure
    walking at most once between two of them (a walk may cost nothing, J48); two
    cards; one festival, whose bids lay every card and end or pass; the end."""
    actions = (c.action_points + c.action_tokens + 1) * (c.figures + 1)
    festival = 2 * len(c.cards) + 2 * players
    return max_turns(players, c) * (3 * actions + 2 + festival + 1)


def _actions(c: Components) -> Iterator[tuple[str, list[Action]]]:
    board = c.board
    yield "act", list(act.ACT_ACTIONS)
    yield "select", [act.Select(q) for q in range(len(board.coords))]
    yield "shape", [act.Shape(cells) for cells in (*board.pairs, *board.triangles)]
    yield "value", [act.Value(v) for v in PALACE_VALUES]
    yield "lay", [act.Lay(card) for card in range(len(c.cards))]
    yield "done", [act.Done()]
    yield "pass", [act.Pass()]


def _blocks(c: Components, n: int) -> Iterable[BlockSpec]:
    p, k, s = len(c.board.coords), len(c.cards), len(c.symbols)
    points = "points / 100"
    return [
        ("phase", (len(PHASES),), 1, "one-hot: " + ", ".join(PHASES)),
        ("to_act", ("n",), 1, "one-hot, relative seat to act (all 0 once the game is over)"),
        ("ap", (1,), 1, f"action points left / {c.action_points + c.action_tokens}"),
        ("turn", (5,), 2, "the land tile lies, cards taken, a token used, acted, a last turn"),
        ("pending", (len(act.ACT_ACTIONS),), 1, "one-hot: the half-made action (J19)"),
        ("pending_at", (p,), 1, "one-hot: the position chosen for it"),
        ("height", (p,), 1, f"land tiles on the position / {HEIGHT_SCALE:g} (J22)"),
        ("terrain", (p, len(TERRAINS)), 1, "one-hot: " + ", ".join(TERRAINS)),
        ("tile", (p, 3), 1, "one-hot: the size of the top land tile there"),
        ("figure", (p, "n"), 1, "[position, seat]: the seat's figure stands there"),
        ("palace", (p,), 1, "the palace's value there / 10"),
        ("red", (p,), 1, "1: the palace there is red side up (J56)"),
        ("scored_water", (p,), 1, "1: the water area there has scored (J43)"),
        ("built", (p,), 1, "1: a palace built or extended there this turn (J55)"),
        ("walked", (p,), 1, "1: a figure walked there since the last other action"),
        ("supply", (3,), 1, "three-space tiles, water tiles left / their number; ended (J78)"),
        ("palaces_left", (len(PALACE_VALUES),), 1, "palace tiles left by value / their number"),
        ("pile", (1,), 1, f"cards in the draw pile / {k}"),
        ("display", (k,), 1, "one-hot: the display card"),
        ("discard", (k,), 1, "the discards, by card"),
        ("hand", (k,), 1, "the observer's hand, by card"),
        ("hands", ("n",), 1, f"cards in each seat's hand / {k}"),
        ("figures", ("n",), 1, f"figures in the seat's supply / {c.figures}"),
        ("tokens", ("n",), 1, f"action tokens left / {c.action_tokens}"),
        ("tiles", ("n", 3), 1, "own two-space, rice and village tiles left / their number"),
        ("score", ("n", 4), 10, f"{points} by source: water, palaces, festivals, final"),
        ("last_turn", ("n",), 1, "1: the seat still takes its last turn (J79)"),
        ("festival_at", (p,), 1, "one-hot: the palace of the festival under way"),
        ("required", (s,), 1, "the symbols the festival requires (J63)"),
        ("bidder", ("n",), 1, "the seat bids in the festival"),
        ("laid", ("n", k), 1, "[seat, card]: laid in the festival (J67)"),
        ("passed", ("n",), 1, "1: the seat passed in the festival"),
        ("bidding", ("n",), 1, "one-hot: the seat whose bid is under way"),
        ("bid", (k,), 1, "the cards of the bid under way"),
    ]


# The observation in parts (tajmahal.kit.observing), in seat 0's frame: each reads
# a piece of the state that a step leaves alone more often than not. The hand is
# the observing seat's own; the pile is read only as a count.


def _parts(c: Components, n: int) -> tuple[Part[State] | Items[State], ...]:
    k = len(c.cards)
    own = (c.own_twos, c.own_rice, c.own_villages)
    positions = np.arange(len(c.board.coords))

    def turn(state: State, e: Emit) -> None:
        e.one("phase", PHASES.index(state.phase))
        if state.to_act is not None:
            e.one("to_act", state.to_act)
        t = state.turn
        e.put("ap", 0, t.ap / (c.action_points + c.action_tokens))
        for i, value in enumerate((t.land, t.cards, t.token, t.acted, t.last)):
            e.put("turn", i, float(value))
        e.ones("built", t.palaces)
        e.ones("walked", t.walked)
        if state.pending is not None:
            e.one("pending", act.ACT_ACTIONS.index(state.pending.action))
            if state.pending.position is not None:
                e.one("pending_at", state.pending.position)

    def land(state: State, e: Emit) -> None:
        e.dense("height", np.array(state.height, dtype=np.float32) / HEIGHT_SCALE)
        terrain = np.zeros((len(positions), len(TERRAINS)), np.float32)
        terrain[positions, state.terrain] = 1.0
        e.dense("terrain", terrain)
        tile = np.zeros((len(positions), 3), np.float32)
        top = np.array(state.top)
        laid = np.flatnonzero(top != NONE)
        tile[laid, np.array(state.sizes, dtype=np.intp)[top[laid]] - 1] = 1.0
        e.dense("tile", tile)

    def figures(state: State, e: Emit) -> None:
        standing = np.array(state.figures)
        at = np.flatnonzero(standing != NONE)
        e.ones("figure", (at * n + standing[at]).tolist())

    def palaces(state: State, e: Emit) -> None:
        e.dense("palace", np.array(state.palace, dtype=np.float32) / PALACE_VALUES[-1])
        e.ones("red", state.red)
        e.ones("scored_water", state.scored_water)

    def supply(state: State, e: Emit) -> None:
        e.put("supply", 0, state.threes / c.three_tiles)
        e.put("supply", 1, state.water_left / c.water_tiles)
        e.put("supply", 2, float(state.ended))
        for i, (left, start) in enumerate(zip(state.palaces_left, c.palaces, strict=True)):
            e.put("palaces_left", i, left / start if start else 0.0)

    def cards(state: State, e: Emit) -> None:
        e.put("pile", 0, len(state.pile) / k)
        if state.display is not None:
            e.one("display", state.display)
        e.ones("discard", state.discard)

    def seat(q: int, p: Seat, e: Emit) -> None:
        e.put("hands", q, len(p.hand) / k)
        e.put("figures", q, p.supply / c.figures)
        e.put("tokens", q, p.tokens / c.action_tokens if c.action_tokens else 0.0)
        for i, (left, start) in enumerate(zip((p.twos, p.rice, p.villages), own, strict=True)):
            e.put("tiles", q * 3 + i, left / start if start else 0.0)
        for i, part in enumerate((p.water, p.palaces, p.festivals, p.final)):
            e.put("score", q * 4 + i, part / POINT_SCALE)

    def festival(state: State, e: Emit) -> None:
        e.ones("last_turn", state.last_turns)
        f = state.festival
        if f is None:
            return
        e.one("festival_at", f.palace)
        e.ones("required", f.required)
        for i, bidder in enumerate(f.bidders):
            e.one("bidder", bidder)
            e.ones("laid", f.laid[i], bidder * k)
            e.put("passed", bidder, float(f.passed[i]))
        e.one("bidding", f.bidders[f.turn])
        e.ones("bid", f.bid)

    return (
        Part(lambda state: (state.phase, state.to_act, state.turn, state.pending), turn),
        Part(lambda state: (state.height, state.terrain, state.top), land),
        Part(lambda state: state.figures, figures),
        Part(lambda state: (state.palace, state.red, state.scored_water), palaces),
        Part(
            lambda state: (state.threes, state.water_left, state.ended, state.palaces_left),
            supply,
        ),
        Part(lambda state: (len(state.pile), state.display, state.discard), cards),
        Items(lambda state: state.players, (Field.whole(seat),)),
        Part(lambda state: (state.last_turns, state.festival), festival),
    )


def _observe_hand(state: State, seat: int, w: Writer) -> None:
    base = w.offset["hand"]
    w.ones.extend(map(base.__add__, state.players[seat].hand))


@cache
def encoding(game: ComponentsAdapter[Any, State, Action, Any]) -> Encoding[State, Action]:
    """The encoding of ``game`` (its components), built once."""
    c = game.components

    def observer(players: int) -> Observer[State]:
        return Observer(declared.layout(players), _parts(c, players), _observe_hand)

    declared = Encoding[State, Action](
        game,
        ActionSpace(_actions(c)),
        players=lambda state: state.setup.players,
        blocks=lambda players: _blocks(c, players),
        observe=_observe_hand,
        max_decisions=lambda players, variant: max_decisions(players, c),
        chance=JavaChance(c),
        variants=VARIANTS,
        private=("hand",),
        observer=observer,
    )
    return declared
