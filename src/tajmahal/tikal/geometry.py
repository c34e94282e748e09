"""The board in play: borders and their stones (T20, T25-T26), the frontier and the
placements of a tile (T19-T21), and every action of a set of components built once.

The engine never makes an action object while it plays: :func:`tables` holds, for
the components of a game, each move, entry, placement ... as a shared value
(actions are compared by content, so a shared one is as good as a new one), and
:func:`~tajmahal.tikal.legal.legal_actions` picks from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import actions as act
from .components import Components
from .state import Space, State

VOLCANO: Final = "volcano"
TEMPLE: Final = "temple"
#: T38: the kinds of space a camp may stand on (a treasure space once it is empty).
CAMP_KINDS: Final = ("jungle", "treasure")


class Tables:
    """What the engine looks up for one set of components: each space's neighbours
    (``links``: the directions and spaces next to it), the distinct turns of each
    tile (T20), and every action on a space, by space."""

    def __init__(self, c: Components) -> None:
        board = c.board
        spaces = range(len(board.coords))
        self.components = c
        self.base_camp: int = board.base_camp
        self.links: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((d, n) for d, n in enumerate(board.neighbours[s]) if n is not None)
            for s in spaces
        )
        self.worker_moves: tuple[tuple[act.Move, ...], ...] = tuple(
            tuple(act.Move(s, n, False) for _, n in self.links[s]) for s in spaces
        )
        self.leader_moves: tuple[tuple[act.Move, ...], ...] = tuple(
            tuple(act.Move(s, n, True) for _, n in self.links[s]) for s in spaces
        )
        self.enter: tuple[tuple[act.Enter, act.Enter], ...] = tuple(
            (act.Enter(s, False), act.Enter(s, True)) for s in spaces
        )
        self.uncover: tuple[act.Uncover, ...] = tuple(act.Uncover(s) for s in spaces)
        self.dig: tuple[act.Dig, ...] = tuple(act.Dig(s) for s in spaces)
        self.build: tuple[act.BuildCamp, ...] = tuple(act.BuildCamp(s) for s in spaces)
        self.guard: tuple[tuple[act.Guard, act.Guard], ...] = tuple(
            (act.Guard(s, False), act.Guard(s, True)) for s in spaces
        )
        self.place: tuple[tuple[act.Place, ...], ...] = tuple(
            tuple(act.Place(s, r) for r in range(6)) for s in spaces
        )
        kinds = range(len(c.treasure_types))
        self.exchange: tuple[tuple[tuple[act.Exchange, ...], ...], ...] = tuple(
            tuple(tuple(act.Exchange(seat, take, give) for give in kinds) for take in kinds)
            for seat in range(4)
        )
        self.turns: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
            distinct_turns(t.stones) for t in c.tiles
        )
        self.volcano: tuple[bool, ...] = tuple(t.kind == VOLCANO for t in c.tiles)
        self._camp_moves: dict[tuple[int, int, bool], act.CampMove] = {}

    def camp_move(self, origin: int, target: int, leader: bool) -> act.CampMove:
        """T24: a camp move, made the first time it is asked for (camps are few)."""
        key = (origin, target, leader)
        found = self._camp_moves.get(key)
        if found is None:
            found = self._camp_moves[key] = act.CampMove(origin, target, leader)
        return found


_TABLES: Final[dict[int, Tables]] = {}


def tables(c: Components) -> Tables:
    """The tables of ``c``, built on first use."""
    found = _TABLES.get(id(c))
    if found is None or found.components is not c:
        found = _TABLES[id(c)] = Tables(c)
    return found


def rotated(stones: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The stones of a tile turned ``rotation`` sixths: edge d faces d + rotation."""
    return tuple(stones[(d - rotation) % 6] for d in range(6))


def distinct_turns(stones: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """T20: (rotation, stones as laid) for each rotation that lays a different pattern
    than every lower one."""
    found: list[tuple[int, tuple[int, ...]]] = []
    for r in range(6):
        laid = rotated(stones, r)
        if all(laid != p for _, p in found):
            found.append((r, laid))
    return tuple(found)


def border(spaces: Sequence[Space | None], t: Tables, space: int, target: int) -> int:
    """T25: the stones on both sides of the border of the adjacent explored spaces
    ``space`` and ``target`` (0 when they are not adjacent or not both explored)."""
    here = spaces[space]
    there = spaces[target]
    if here is None or there is None:
        return 0
    for d, n in t.links[space]:
        if n == target:
            return here.stones[d] + there.stones[(d + 3) % 6]
    return 0


def has_access(spaces: Sequence[Space | None], t: Tables, space: int, laid: Sequence[int]) -> bool:
    """T20: a stone leads onto ``space`` (its tile laid with stones ``laid``) from an
    explored space that is not a volcano."""
    for d, n in t.links[space]:
        there = spaces[n]
        if there is not None and there.kind != VOLCANO and laid[d] + there.stones[(d + 3) % 6]:
            return True
    return False


def frontier(spaces: Sequence[Space | None], t: Tables) -> list[int]:
    """T19: the unexplored spaces next to the explored area, by index."""
    found: list[int] = []
    for s in range(len(spaces)):
        if spaces[s] is None:
            for _, n in t.links[s]:
                if spaces[n] is not None:
                    found.append(s)
                    break
    return found


def placements(state: State) -> list[act.Action]:
    """The distinct legal placements of the tile in hand (one rotation per stone
    pattern), by space then rotation; T20's waiver when none gives access."""
    tile = state.tile
    assert tile is not None
    c = state.setup.components
    t = tables(c)
    spaces = state.spaces
    turns = t.turns[tile]
    found: list[act.Action] = []
    volcano = c.tiles[tile].kind == VOLCANO
    open_spaces = frontier(spaces, t)
    for s in open_spaces:
        row = t.place[s]
        for r, laid in turns:
            if volcano or has_access(spaces, t, s, laid):
                found.append(row[r])
    if found:
        return found
    return [t.place[s][r] for s in open_spaces for r, _ in turns]  # T20: waived


def place_problem(state: State, action: act.Place) -> str | None:
    """Why the tile in hand may not go where ``action`` says (T19-T20), or None."""
    space, rotation = action.space, action.rotation
    spaces = state.spaces
    if not 0 <= rotation < 6:
        return f"T20: a rotation is 0 to 5, not {rotation}"
    if not 0 <= space < len(spaces):
        return f"T19: there is no space {space}"
    if spaces[space] is not None:
        return f"T19: space {space} is already explored"
    tile = state.tile
    assert tile is not None
    c = state.setup.components
    t = tables(c)
    if all(spaces[n] is None for _, n in t.links[space]):
        return f"T19: space {space} is not next to the explored area"
    laid = rotated(c.tiles[tile].stones, rotation)
    lowest = next(r for r, pattern in t.turns[tile] if pattern == laid)
    if not (
        c.tiles[tile].kind == VOLCANO
        or has_access(spaces, t, space, laid)
        or t.place[space][lowest] in placements(state)  # T20: waived
    ):
        return f"T20: no stone leads onto space {space} with rotation {rotation}"
    if lowest != rotation:
        return f"T20: rotation {rotation} lays the same stones as rotation {lowest}; give that one"
    return None
