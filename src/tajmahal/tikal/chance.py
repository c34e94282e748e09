"""Tikal's randomness as explicit chance nodes (:mod:`tajmahal.kit.chance`): the model
that the OpenSpiel game ``python_tikal`` (:mod:`tajmahal.openspiel`) drives.

Two things in Tikal are random, and nothing else is hidden (``views``):

- the tiles: shuffled within each back letter (T11).  A drawn tile (T17; the first
  one at the start) and each tile an auction round reveals (T47) is a chance node
  whose outcomes are the tiles of that back letter still in the stack, each as
  likely;
- the treasure tokens: face down in the supply and on the treasure spaces (T14,
  T21).  Nobody sees one before it is dug up, so a dig (T32) is a chance node whose
  outcomes are the treasure types, each as likely as its share of the tokens
  still face down anywhere.

The model applies a decision once to learn what it draws (a dig, then the next
turn's tile, say), lets the chance nodes choose, then puts the chosen tiles on top
of the stack and the chosen token on top of the space and applies the decision
for real.  What is still face down keeps no order that matters: a state's stack
is sorted within each back letter, and the supply by type.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from attrs import evolve, frozen

from ..kit.chance import Chance, ChanceModel
from .actions import Action
from .components import Components
from .events import Event, TileDrawn, TilesRevealed, TreasureDug
from .hidden import determinize
from .rules import new_game, step
from .state import BASIC, VARIANTS, Setup, Space, State, all_treasures
from .views import view

__all__ = ["Draw", "DrawChance", "TikalChance", "check", "face_down", "plan", "rig"]

TILE: Final = "tile"
TREASURE: Final = "treasure"


@frozen
class Draw:
    """One random thing a decision draws: a ``TILE`` from the stack's position
    ``index`` (0 is the top), or the top ``TREASURE`` token of the space ``index``."""

    kind: str
    index: int


def plan(state: State, action: Action) -> tuple[tuple[Draw, ...], State]:
    """Apply ``action`` once: what it draws, in order, and the resulting state (the
    true one if it draws nothing).  How many tiles and tokens a decision draws never
    depends on which ones come."""
    after, events = step(state, action)
    draws: list[Draw] = []
    for e in events:
        if isinstance(e, TreasureDug):
            draws.append(Draw(TREASURE, e.space))
        elif isinstance(e, TileDrawn):
            draws.append(Draw(TILE, 0))
        elif isinstance(e, TilesRevealed):
            draws += [Draw(TILE, i) for i in range(len(e.tiles))]
    return tuple(draws), after


def plan_start(setup: Setup) -> tuple[tuple[Draw, ...], State]:
    """What a game's start draws (its first tile, or the first auction round's
    tiles), and the state it starts in."""
    first = new_game(setup)
    count = 1 if setup.variant == BASIC else len(first.auction.display if first.auction else ())
    return tuple(Draw(TILE, i) for i in range(count)), first


def tile_outcomes(
    c: Components, stack: Sequence[int], index: int, picks: Sequence[int]
) -> list[int]:
    """The tiles the stack's position ``index`` may hold: those of its back letter
    still in the stack, less the ones chosen for the positions above it."""
    back = c.tiles[stack[index]].back
    return sorted(t for t in stack if c.tiles[t].back == back and t not in picks)


def face_down(state: State) -> Counter[int]:
    """The treasure tokens nobody has seen, by type: the supply and every space's."""
    counts = Counter(state.supply)
    for space in state.spaces:
        if space is not None:
            counts.update(space.tokens)
    return counts


def rig(state: State, draws: Sequence[Draw], picks: Sequence[int]) -> State:
    """``state`` with the face-down things arranged so that ``draws`` draw ``picks``:
    the chosen tiles on top of the stack (the rest sorted within their letters), a
    chosen token on top of its space (swapped with one of its type from elsewhere)."""
    tiles = [p for d, p in zip(draws, picks, strict=True) if d.kind == TILE]
    if tiles:
        state = evolve(state, stack=_stack(state.components, tiles, state.stack))
    for d, p in zip(draws, picks, strict=True):
        if d.kind == TREASURE:
            state = _token_on_top(state, d.index, p)
    return state


def _stack(c: Components, top: Sequence[int], stack: Sequence[int]) -> tuple[int, ...]:
    rest = sorted((t for t in stack if t not in top), key=lambda t: (c.tiles[t].back, t))
    return (*top, *rest)


def _token_on_top(state: State, index: int, kind: int) -> State:
    space = state.spaces[index]
    assert space is not None and space.tokens
    top = space.tokens[-1]
    if top == kind:
        return state
    spaces = list(state.spaces)
    own = list(space.tokens)
    if kind in own[:-1]:  # lower in the same pile
        own[own.index(kind)], own[-1] = top, kind
        spaces[index] = evolve(space, tokens=tuple(own))
        return evolve(state, spaces=tuple(spaces))
    own[-1] = kind
    spaces[index] = evolve(space, tokens=tuple(own))
    for i, other in enumerate(spaces):
        if i != index and other is not None and kind in other.tokens:
            pile = list(other.tokens)
            pile[pile.index(kind)] = top
            spaces[i] = evolve(other, tokens=tuple(pile))
            return evolve(state, spaces=tuple(spaces))
    supply = list(state.supply)
    supply[supply.index(kind)] = top  # a ValueError if no such token is face down
    return evolve(state, spaces=tuple(spaces), supply=tuple(sorted(supply)))


@frozen
class DrawChance(Chance[State]):
    """The next thing ``action``, taken in ``state``, draws (``action`` None: the
    setup, whose first tiles ``state``'s stack holds); ``picks`` are what the
    earlier ``draws`` drew."""

    state: State
    action: Action | None
    draws: tuple[Draw, ...]
    picks: tuple[int, ...] = ()

    @property
    def draw(self) -> Draw:
        return self.draws[len(self.picks)]

    @property
    def kind(self) -> str:
        return self.draw.kind

    def outcomes(self) -> list[tuple[int, float]]:
        draw = self.draw
        if draw.kind == TREASURE:
            counts = face_down(self.state)
            total = sum(counts.values())
            return [(k, n / total) for k, n in sorted(counts.items())]
        chosen = [p for d, p in zip(self.draws, self.picks, strict=False) if d.kind == TILE]
        tiles = tile_outcomes(self.state.components, self.state.stack, draw.index, chosen)
        return [(t, 1.0 / len(tiles)) for t in tiles]

    def choose(self, outcome: int) -> Chance[State] | State:
        picks = (*self.picks, outcome)
        if len(picks) < len(self.draws):
            return evolve(self, picks=picks)
        ready = rig(self.state, self.draws, picks)
        if self.action is None:
            return new_game(evolve(ready.setup, stack=ready.stack))
        after, events = step(ready, self.action)
        if drawn(events) != picks:  # pragma: no cover - plan() promises it
            raise AssertionError(f"the engine drew {drawn(events)}, not {picks}")
        return evolve(after, supply=tuple(sorted(after.supply)))

    def describe(self, outcome: int) -> str:
        c = self.state.components
        if self.draw.kind == TREASURE:
            return f"dig up {c.treasure_types[outcome]}"
        tile = c.tiles[outcome]
        return f"tile {outcome} ({tile.back}: {tile.kind})"


def drawn(events: Sequence[Event]) -> tuple[int, ...]:
    """The tiles and treasure types ``events`` drew, in order."""
    out: list[int] = []
    for e in events:
        if isinstance(e, TreasureDug):
            out.append(e.treasure)
        elif isinstance(e, TileDrawn):
            out.append(e.tile)
        elif isinstance(e, TilesRevealed):
            out += e.tiles
    return tuple(out)


class TikalChance(ChanceModel[State, Action]):
    """Tikal's chance model (the module docstring): outcomes are tile ids and
    treasure types."""

    kinds = (TILE, TREASURE)

    def __init__(self, components: Components) -> None:
        self.components = components
        self.max_outcomes = max(len(components.tiles), len(components.treasure_types))

    def start(self, players: int, variant: str | None) -> Chance[State] | State:
        """The setup: the stack in id order within its letters and the supply by
        type (nothing is seen yet), then the first tile (basic) or the first round's
        tiles (auction) as chance nodes."""
        if not 2 <= players <= 4:
            raise ValueError(f"T1: Tikal is for 2-4 players, not {players}")
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        c = self.components
        stack = _stack(c, (), range(len(c.tiles)))
        setup = Setup(players, variant or BASIC, stack, all_treasures(c), c)
        draws, first = plan_start(setup)
        # The state holds the stack the chance nodes draw the first tiles from.
        return DrawChance(evolve(first, stack=stack), None, draws)

    def after(self, state: State, action: Action) -> Chance[State] | State:
        draws, after = plan(state, action)
        return DrawChance(state, action, draws) if draws else after

    def max_chance_nodes(self, players: int) -> int:
        """Every tile drawn or revealed once, every token dug up once."""
        return len(self.components.tiles) + self.components.treasure_tokens

    def normalize(self, state: State) -> State:
        """The stack sorted within its letters, the supply by type."""
        return evolve(
            state,
            stack=_stack(state.components, (), state.stack),
            supply=tuple(sorted(state.supply)),
        )

    def shuffle(self, state: State, rng: random.Random) -> State:
        """The stack shuffled within each back letter (T11), and the face-down tokens
        dealt again to the supply and the treasure spaces, as many to each."""
        c = state.components
        stack: list[int] = []
        for back in sorted({c.tiles[t].back for t in state.stack}):
            group = [t for t in state.stack if c.tiles[t].back == back]
            rng.shuffle(group)
            stack += group
        tokens = list(face_down(state).elements())
        rng.shuffle(tokens)
        spaces: list[Space | None] = []
        for space in state.spaces:
            if space is not None and space.tokens:
                k = len(space.tokens)
                space, tokens = evolve(space, tokens=tuple(tokens[:k])), tokens[k:]
            spaces.append(space)
        return evolve(state, stack=tuple(stack), spaces=tuple(spaces), supply=tuple(tokens))

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        """The stack's order and the face-down tokens dealt again
        (:func:`tajmahal.tikal.hidden.determinize`)."""
        return self.normalize(determinize(view(state, seat), rng, state.components))


def check(state: State) -> None:
    """Raises AssertionError unless every tile and token is in exactly one place."""
    c = state.components
    tiles = [*state.stack, *(s.tile for s in state.spaces if s is not None and s.tile is not None)]
    if state.tile is not None:
        tiles.append(state.tile)
    if state.round is not None and state.round.volcano is not None:
        tiles.append(state.round.volcano)
    if state.auction is not None:
        tiles += state.auction.display
    if sorted(tiles) != list(range(len(c.tiles))):
        raise AssertionError("a draw lost or doubled a tile")
    tokens = face_down(state)
    for p in state.players:
        tokens.update({k: n for k, n in enumerate(p.treasures) if n})
    if any(tokens[k] != c.treasure_copies for k in range(len(c.treasure_types))):
        raise AssertionError("a dig lost or doubled a treasure token")

