"""What a seat may see of a game of Tikal, and guesses of the rest.

Almost all of Tikal is public.  Two things are not: the order of the tiles within
each back letter of the stack (everybody sees the backs, T11) and the face-down
treasure tokens, on treasure spaces and in the supply (T14, T21).  :func:`view`
gives a seat everything else; :func:`determinize` deals the hidden parts at random,
consistently with a view, for searching bots.

>>> from tajmahal.tikal import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> v = view(state, 0)
>>> v.stack[:5], v.supply
(('A', 'A', 'A', 'B', 'B'), 24)
>>> guess = determinize(v, random.Random(2))
>>> guess.tile == state.tile and len(guess.stack) == len(state.stack)
True
"""

from __future__ import annotations

import random
from collections import Counter

from attrs import evolve, frozen

from ..kit.picture import Pictured
from .components import Components
from .state import Auction, Round, Seat, Setup, Space, State


@frozen
class SpaceView:
    """An explored space as everyone sees it: its treasure tokens are only counted."""

    kind: str
    stones: tuple[int, ...]
    tile: int | None
    value: int
    tokens: int
    camp: int | None
    guard: int | None
    guard_leader: bool


@frozen
class TikalView(Pictured):
    """A seat's view: the public state of the game (see :class:`~tajmahal.tikal.state.State`)
    with the stack as the backs of its tiles, top first, and the supply as a count."""

    seat: int
    variant: str
    players: tuple[Seat, ...]
    spaces: tuple[SpaceView | None, ...]
    workers: tuple[tuple[int, ...], ...]
    stack: tuple[str, ...]
    supply: int
    levels: tuple[int, ...]
    phase: str
    to_act: int | None
    tile: int | None
    ap: int
    turn: str
    uncovered: tuple[tuple[int, int], ...]
    dug: tuple[tuple[int, int], ...]
    round: Round | None
    auction: Auction | None
    last_placer: int | None


def _space_view(space: Space | None) -> SpaceView | None:
    if space is None:
        return None
    return SpaceView(
        space.kind,
        space.stones,
        space.tile,
        space.value,
        len(space.tokens),
        space.camp,
        space.guard,
        space.guard_leader,
    )


def view(state: State, seat: int) -> TikalView:
    """What ``seat`` sees of ``state``."""
    tiles = state.components.tiles
    return TikalView(
        seat=seat,
        variant=state.setup.variant,
        players=state.players,
        spaces=tuple(_space_view(s) for s in state.spaces),
        workers=state.workers,
        stack=tuple(tiles[t].back for t in state.stack),
        supply=len(state.supply),
        levels=state.levels,
        phase=state.phase,
        to_act=state.to_act,
        tile=state.tile,
        ap=state.ap,
        turn=state.turn,
        uncovered=state.uncovered,
        dug=state.dug,
        round=state.round,
        auction=state.auction,
        last_placer=state.last_placer,
    )


def hidden_tiles(v: TikalView, components: Components) -> list[int]:
    """The tiles still in the stack (in no order): every tile not seen elsewhere."""
    seen = {s.tile for s in v.spaces if s is not None and s.tile is not None}
    for t in (v.tile, v.round.volcano if v.round else None):
        if t is not None:
            seen.add(t)
    if v.auction is not None:
        seen.update(v.auction.display)
    return [t.id for t in components.tiles if t.id not in seen]


def determinize(v: TikalView, rng: random.Random, components: Components | None = None) -> State:
    """A state consistent with ``v``: the stack's tiles shuffled within each back
    letter, and the treasure tokens nobody has seen dealt at random to the treasure
    spaces and the supply."""
    from .components import DEFAULT_COMPONENTS

    c = components or DEFAULT_COMPONENTS
    by_back: dict[str, list[int]] = {}
    for t in hidden_tiles(v, c):
        by_back.setdefault(c.tiles[t].back, []).append(t)
    for group in by_back.values():
        rng.shuffle(group)
    stack = tuple(by_back[back].pop() for back in v.stack)
    held: Counter[int] = Counter()
    for p in v.players:
        for kind, n in enumerate(p.treasures):
            held[kind] += n
    tokens = [
        kind for kind in range(len(c.treasure_types)) for _ in range(c.treasure_copies - held[kind])
    ]
    rng.shuffle(tokens)
    spaces: list[Space | None] = []
    for s in v.spaces:
        if s is None:
            spaces.append(None)
            continue
        laid, tokens = tuple(tokens[: s.tokens]), tokens[s.tokens :]
        spaces.append(
            Space(s.kind, s.stones, s.tile, s.value, laid, s.camp, s.guard, s.guard_leader)
        )
    supply = tuple(tokens[: v.supply])
    setup = Setup(len(v.players), v.variant, stack, supply, c)
    state = State(
        setup=setup,
        spaces=tuple(spaces),
        workers=v.workers,
        players=v.players,
        stack=stack,
        supply=supply,
        levels=v.levels,
        phase=v.phase,
        to_act=v.to_act,
    )
    return evolve(
        state,
        tile=v.tile,
        ap=v.ap,
        turn=v.turn,
        uncovered=v.uncovered,
        dug=v.dug,
        round=v.round,
        auction=v.auction,
        last_placer=v.last_placer,
    )
