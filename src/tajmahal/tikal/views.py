"""What a seat may see of a game of Tikal.

Almost all of Tikal is public.  Two things are not: the order of the tiles within
each back letter of the stack (everybody sees the backs, T11) and the face-down
treasure tokens, on treasure spaces and in the supply (T14, T21).  :func:`view`
gives a seat everything else; :func:`tajmahal.tikal.hidden.determinize` deals the
hidden parts at random, consistently with a view, for searching bots.

>>> from tajmahal.tikal import Setup, new_game
>>> state = new_game(Setup.random(players=2, seed=1))
>>> v = view(state, 0)
>>> v.stack[:5], v.supply
(('A', 'A', 'A', 'B', 'B'), 24)
"""

from __future__ import annotations

from attrs import frozen

from ..kit.memo import each
from ..kit.picture import Pictured
from ..kit.slots import like
from .state import Auction, Round, Seat, Space, State


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
class PlayerView(Pictured):
    """A seat's view: the public state of the game (see :class:`~tajmahal.tikal.state.State`)
    with the stack as the backs of its tiles, top first, and the supply as a count."""

    game_name = "tikal"

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


@each
def space_views(space: Space | None) -> SpaceView | None:
    """Each explored space as everyone sees it, its treasure tokens counted (None:
    unexplored)."""
    return None if space is None else like(SpaceView, space, tokens=len(space.tokens))


def view(state: State, seat: int) -> PlayerView:
    """What ``seat`` sees of ``state``: every other field is the state's of its name."""
    tiles = state.components.tiles
    return like(
        PlayerView,
        state,
        seat=seat,
        variant=state.setup.variant,
        spaces=space_views(state.spaces),
        stack=tuple([tiles[t].back for t in state.stack]),
        supply=len(state.supply),
    )
