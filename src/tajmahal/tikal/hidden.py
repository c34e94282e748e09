"""Guesses of what no seat of Tikal sees, for searching bots: :func:`determinize`
deals the hidden parts of a :class:`~tajmahal.tikal.views.PlayerView` at random.

Two things are hidden from every seat: the order of the tiles within each back
letter of the stack (everybody sees the backs, T11) and the face-down treasure
tokens, on treasure spaces and in the supply (T14, T21).  Compiled with mypyc with
the engine: a search deals a new guess every iteration.

>>> import random
>>> from tajmahal.tikal import Setup, new_game
>>> from tajmahal.tikal.views import view
>>> state = new_game(Setup.random(players=2, seed=1))
>>> guess = determinize(view(state, 0), random.Random(2))
>>> guess.tile == state.tile and len(guess.stack) == len(state.stack)
True
"""

from __future__ import annotations

import random

from .components import DEFAULT_COMPONENTS, Components
from .draft import space_of, state_of
from .state import Setup, Space, State
from .views import PlayerView


def _shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates with ``rng.random()`` (compiled, cheaper than ``rng.shuffle``)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def hidden_tiles(v: PlayerView, components: Components) -> list[int]:
    """The tiles still in the stack (in no order): every tile not seen elsewhere."""
    seen = {s.tile for s in v.spaces if s is not None and s.tile is not None}
    for t in (v.tile, v.round.volcano if v.round else None):
        if t is not None:
            seen.add(t)
    if v.auction is not None:
        seen.update(v.auction.display)
    return [t.id for t in components.tiles if t.id not in seen]


def determinize(
    v: PlayerView, rng: random.Random, components: Components | None = None
) -> State:
    """A state consistent with ``v``: the stack's tiles shuffled within each back
    letter, and the treasure tokens nobody has seen dealt at random to the treasure
    spaces and the supply."""
    c = components or DEFAULT_COMPONENTS
    by_back: dict[str, list[int]] = {}
    for t in hidden_tiles(v, c):
        by_back.setdefault(c.tiles[t].back, []).append(t)
    for group in by_back.values():
        _shuffle(group, rng)
    stack = tuple([by_back[back].pop() for back in v.stack])
    held = [0] * len(c.treasure_types)
    for p in v.players:
        for kind, n in enumerate(p.treasures):
            held[kind] += n
    tokens = [
        kind for kind in range(len(held)) for _ in range(c.treasure_copies - held[kind])
    ]
    _shuffle(tokens, rng)
    spaces: list[Space | None] = []
    dealt = 0
    for s in v.spaces:
        if s is None:
            spaces.append(None)
            continue
        laid = tuple(tokens[dealt : dealt + s.tokens])
        dealt += s.tokens
        spaces.append(
            space_of(s.kind, s.stones, s.tile, s.value, laid, s.camp, s.guard, s.guard_leader)
        )
    supply = tuple(tokens[dealt : dealt + v.supply])
    return state_of(
        Setup(len(v.players), v.variant, stack, supply, c),
        tuple(spaces),
        v.workers,
        v.players,
        stack,
        supply,
        v.levels,
        v.phase,
        v.to_act,
        v.tile,
        v.ap,
        v.turn,
        v.uncovered,
        v.dug,
        v.round,
        v.auction,
        v.last_placer,
    )
