"""Numbers for learning programs, written once for every game: action indices, masks
and observation tensors.

A game DECLARES its encoding (its own ``encoding`` module): the enumeration of its
actions, in named groups, and the blocks of its observation with a function that
fills them from a seat's view.  The kit builds the rest: each action's fixed index,
decoding with an error that names an illegal action, masks, the flat ``float32``
observation vector and its bounds, and a zero-sum outcome.  The PettingZoo
environment (:mod:`tajmahal.pettingzoo`) and the OpenSpiel games
(:mod:`tajmahal.openspiel`) are built on an :class:`Encoding` and nothing else of
the game but its arena :class:`~tajmahal.arena.game.Game`.

>>> space = ActionSpace([("left", ["L1", "L2"]), ("stop", ["S"])])
>>> space.size, space.index("S"), space.action(1)
(3, 2, 'L2')
>>> space.group("left")
ActionGroup(name='left', start=0, stop=2)
>>> space.mask(["S", "L1"]).tolist()
[True, False, True]
>>> layout = observation_layout(2, [("turn", (3,), 1, "one-hot turn"),
...                                  ("chips", ("n",), 20, "chips by relative seat")])
>>> layout.size, layout.block("chips").shape, layout.high().tolist()
(5, (2,), [1.0, 1.0, 1.0, 20.0, 20.0])

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from operator import is_, itemgetter
from typing import Any, Generic, TypeVar

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("tajmahal.kit.encoding needs numpy: pip install 'tajmahal[rl]'") from error

from attrs import field, frozen

from ..arena.game import AnyGame, Game

A = TypeVar("A")
S = TypeVar("S")

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]

_first, _second = itemgetter(0), itemgetter(1)

# --------------------------------------------------------------------------- actions


class ActionIndexError(ValueError):
    """An index that is not an action, or not a legal one in the given state."""


@frozen
class ActionGroup:
    """The indices ``start .. stop - 1`` of one kind of action (for people: the
    layout tables of docs/research.md are made of these)."""

    name: str
    start: int
    stop: int


class ActionSpace(Generic[A]):
    """Every action of a game, each with a fixed index: the game lists them in named
    groups, in order; the index of an action is its position in that list.  The
    actions must be hashable and distinct."""

    def __init__(self, groups: Iterable[tuple[str, Iterable[A]]]) -> None:
        table: list[A] = []
        spans: list[ActionGroup] = []
        for name, actions in groups:
            start = len(table)
            table.extend(actions)
            spans.append(ActionGroup(name, start, len(table)))
        self.actions: tuple[A, ...] = tuple(table)
        self.groups: tuple[ActionGroup, ...] = tuple(spans)
        self._index: dict[A, int] = {a: i for i, a in enumerate(table)}
        if len(self._index) != len(table):
            raise ValueError("an action space lists an action twice")
        #: Action objects met, by identity: ``id -> (action, index)`` (index_list).
        self._known: dict[int, tuple[A, int]] = {id(a): (a, i) for i, a in enumerate(table)}
        #: How many it keeps before it starts again (engines that make new objects).
        self._memory = 4 * len(table) + 1024

    @property
    def size(self) -> int:
        """How many actions there are: the indices are ``range(size)``."""
        return len(self.actions)

    def group(self, name: str) -> ActionGroup:
        for g in self.groups:
            if g.name == name:
                return g
        raise KeyError(name)

    def index(self, action: A) -> int:
        """The index of ``action``; :class:`ActionIndexError` for a value that is no
        action of the space."""
        index = self._index.get(action)
        if index is None:
            raise ActionIndexError(f"{action!r} is not an action of the game")
        return index

    def action(self, index: int) -> A:
        """The action with ``index``; :class:`ActionIndexError` if out of range."""
        i = int(index)
        if not 0 <= i < len(self.actions):
            raise ActionIndexError(f"action index {index} is outside 0..{len(self.actions) - 1}")
        return self.actions[i]

    def indices(self, actions: Iterable[A]) -> tuple[int, ...]:
        """The indices of ``actions``, in their order."""
        return tuple(self.index_list(actions))

    def index_list(self, actions: Iterable[A]) -> list[int]:
        """The indices of ``actions``, in their order, as a list.

        An engine that hands out the same action objects again (tables of them)
        has them found by identity, with no Python code run per action: each
        object met is remembered with its index (and kept, so that its identity
        cannot pass to another object); the others are looked up by value."""
        listed = actions if isinstance(actions, list | tuple) else list(actions)
        known = self._known
        found: list[Any] = list(map(known.get, map(id, listed)))
        if None not in found and all(map(is_, map(_first, found), listed)):
            return list(map(_second, found))
        index = self._index
        out = []
        if len(known) > self._memory:
            known.clear()
        for a in listed:
            i = index.get(a)
            if i is None:
                raise ActionIndexError(f"{a!r} is not an action of the game")
            known[id(a)] = (a, i)
            out.append(i)
        return out

    def mask(self, actions: Iterable[A]) -> Mask:
        """A boolean vector of length :attr:`size`, True exactly at ``actions``."""
        mask = np.zeros(len(self.actions), dtype=np.bool_)
        mask[self.index_list(actions)] = True
        return mask


# --------------------------------------------------------------------------- observations


@frozen
class Block:
    """One named part of an observation: ``shape`` (rows first), where it starts in
    the flat vector, the largest value it can hold, and what it means."""

    name: str
    shape: tuple[int, ...]
    offset: int
    high: float
    meaning: str
    #: The axes of ``shape`` that run over the seats (``"n"`` where it was declared).
    seat_axes: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        size = 1
        for n in self.shape:
            size *= n
        return size

    @property
    def stop(self) -> int:
        return self.offset + self.size


@frozen
class ObservationLayout:
    """The blocks of an observation for ``players`` players, in order."""

    players: int
    blocks: tuple[Block, ...]
    #: Each block's offset, by name (what an observing function writes at).
    offsets: Mapping[str, int] = field(init=False, eq=False, repr=False)

    @offsets.default
    def _offsets(self) -> Mapping[str, int]:
        return {b.name: b.offset for b in self.blocks}

    @property
    def size(self) -> int:
        return self.blocks[-1].stop if self.blocks else 0

    def block(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    def part(self, obs: Vector, name: str) -> Vector:
        """The block ``name`` of ``obs``, in its shape (a view, not a copy)."""
        b = self.block(name)
        return obs[b.offset : b.stop].reshape(b.shape)

    def high(self) -> Vector:
        """The largest value of each element (the smallest is 0 everywhere)."""
        out = np.zeros(self.size, dtype=np.float32)
        for b in self.blocks:
            out[b.offset : b.stop] = b.high
        return out

    def zeros(self, out: Vector | None = None) -> Vector:
        """A vector of :attr:`size` zeros: ``out`` cleared (checked for its shape), or
        a new one."""
        if out is None:
            return np.zeros(self.size, dtype=np.float32)
        if out.shape != (self.size,):
            raise ValueError(f"out must have shape ({self.size},), not {out.shape}")
        out.fill(0.0)
        return out


#: A block as a game declares it: name, shape (``"n"`` stands for the number of
#: players), largest value, meaning.
BlockSpec = tuple[str, tuple[int | str, ...], float, str]


def observation_layout(players: int, spec: Iterable[BlockSpec]) -> ObservationLayout:
    """The layout of ``spec``'s blocks, one after the other, for ``players``."""
    blocks: list[Block] = []
    offset = 0
    for name, shape, high, meaning in spec:
        dims = tuple(players if d == "n" else int(d) for d in shape)
        seats = tuple(axis for axis, d in enumerate(shape) if d == "n")
        block = Block(name, dims, offset, float(high), meaning, seats)
        blocks.append(block)
        offset = block.stop
    return ObservationLayout(players, tuple(blocks))


class Writer:
    """Fills an observation: collect the elements that hold 1 (:meth:`one`) and those
    that hold other values (:meth:`put`), by block offset plus the element's flat
    position in the block; :meth:`finish` writes them all at once.  ``out`` is
    cleared first unless ``clear`` is False (it then keeps what it holds)."""

    __slots__ = ("at", "layout", "obs", "offset", "ones", "values")

    def __init__(
        self, layout: ObservationLayout, out: Vector | None = None, clear: bool = True
    ) -> None:
        self.layout = layout
        self.obs = layout.zeros(out) if clear or out is None else out
        self.offset = layout.offsets
        self.ones: list[int] = []
        self.at: list[int] = []
        self.values: list[float] = []

    def one(self, name: str, position: int = 0) -> None:
        self.ones.append(self.offset[name] + position)

    def put(self, name: str, position: int, value: float) -> None:
        if value:
            self.at.append(self.offset[name] + position)
            self.values.append(value)

    def part(self, name: str) -> Vector:
        """The block ``name`` of the observation, in its shape, to write a whole array
        at once (numpy); the elements :meth:`one` and :meth:`put` collect are
        written over it by :meth:`finish`."""
        return self.layout.part(self.obs, name)

    def finish(self) -> Vector:
        obs = self.obs
        scatter(obs, self.ones, 1.0)
        if self.at:
            scatter(obs, self.at, self.values)
        return obs


#: Below this many elements, :func:`scatter` writes them one by one.
_FEW = 32


def scatter(vec: npt.NDArray[Any], at: list[int], values: float | list[float]) -> None:
    """``vec[at] = values``, for a contiguous one-dimensional ``vec``: a few elements
    are written one by one through a memoryview (numpy's fancy assignment from a
    list costs more than a dozen single writes)."""
    if len(at) >= _FEW:
        vec[at] = values
        return
    view: Any = memoryview(vec.data)  # float elements: typeshed knows int ones only
    if isinstance(values, list):
        for i, value in zip(at, values, strict=True):
            view[i] = value
    else:
        for i in at:
            view[i] = values


# --------------------------------------------------------------------------- outcomes


def zero_sum(totals: Sequence[float]) -> tuple[float, ...]:
    """Each seat's result of a finished game for learning programs: the seats with
    the highest total share a prize of 1, and every seat gets
    ``n/(n-1) * (share - 1/n)``: +1 for a lone winner, ``-1/(n-1)`` for each other
    seat; the values sum to 0 (a lone seat gets 0).  Each value is one division
    of whole numbers, ``(n - w) / (w (n - 1))`` for each of ``w`` winners, so it is
    the float nearest the exact value: a lone winner gets exactly 1.0.

    >>> zero_sum([10, 40, 20, 30])
    (-0.333..., 1.0, -0.333..., -0.333...)
    """
    n = len(totals)
    if n == 1:
        return (0.0,)
    best = max(totals)
    winners = sum(1 for t in totals if t == best)
    won, lost = (n - winners) / (winners * (n - 1)), -1 / (n - 1)
    return tuple(won if t == best else lost for t in totals)


# --------------------------------------------------------------------------- a game's encoding


@frozen(eq=False)
class Encoding(Generic[S, A]):
    """What a game declares for learning programs, and what the kit builds on it.

    ``game`` is the game's arena :class:`~tajmahal.arena.game.Game` (its rules:
    who acts, the legal actions, a step, the scores); ``actions`` its action space;
    ``players(state)`` the number of seats of a state; ``blocks(players)`` the
    :data:`BlockSpec` of its observation for a player count and
    ``observe(state, seat, writer)`` the function that fills them from what
    ``seat`` sees (never more: the seat's view); ``max_decisions(players,
    variant)`` a bound on the decisions of a game (variant None: the default);
    ``chance`` its chance model for OpenSpiel
    (:class:`tajmahal.kit.chance.ChanceModel`); ``images`` draws a state as an
    RGB array for ``render_mode="rgb_array"`` (None: the game has no such picture);
    ``variants`` the variants a user may ask for by name (empty: the player count
    decides); ``private`` the names of the blocks that hold what the observing
    seat alone sees (its hand): every other block is public, the same whoever
    observes but for the order of the seats (OpenSpiel's public observation, and
    every seat's private one, are made of them).

    ``observer``, if given, makes a :class:`tajmahal.kit.observing.Observer` for a
    player count: the game's observation in parts, rewritten where a state
    changed, every seat's from one vector; ``observe`` then writes only the
    ``private`` blocks.  :meth:`observation` keeps one observer per player count
    (and thread), so that any caller gets that speed.
    """

    game: AnyGame
    actions: ActionSpace[A]
    players: Callable[[S], int]
    blocks: Callable[[int], Iterable[BlockSpec]]
    observe: Callable[[S, int, Writer], None]
    max_decisions: Callable[[int, str | None], int]
    chance: Any = None
    images: Callable[[S], npt.NDArray[np.uint8]] | None = None
    variants: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    observer: Callable[[int], Any] | None = None
    #: :func:`observation_layout` of a player count, built once per count.
    layout: Callable[[int], ObservationLayout] = field(init=False)

    @layout.default
    def _cached_layout(self) -> Callable[[int], ObservationLayout]:
        return cache(self._layout)

    #: This thread's observers, by player count (see ``observer``).
    _local: threading.local = field(init=False, factory=threading.local, repr=False)

    @property
    def name(self) -> str:
        return str(self.game.name)

    def _layout(self, players: int) -> ObservationLayout:
        return observation_layout(players, self.specs(players))

    def specs(self, players: int) -> list[BlockSpec]:
        """The blocks the game declares for ``players`` (``"n"`` in a shape stands for
        the number of players)."""
        game = self.game
        if not game.min_players <= players <= game.max_players:
            raise ValueError(
                f"{game.title} is for {game.min_players}-{game.max_players} players, "
                f"not {players}"
            )
        return list(self.blocks(players))

    # -- actions

    def index(self, action: A) -> int:
        """The fixed index of ``action`` (:class:`ActionIndexError` if it is none)."""
        return self.actions.index(action)

    def action(self, index: int, state: S | None = None) -> A:
        """The action with ``index``; with a ``state``, also check that it is legal
        there (:class:`ActionIndexError` names the action and the seat to act)."""
        action = self.actions.action(index)
        if state is not None and action not in self.legal(state):
            seat = self.game.to_act(state)
            who = "nobody" if seat is None else f"seat {seat}"
            raise ActionIndexError(
                f"action {int(index)} ({self.describe(state, action)}) is not legal for {who} now"
            )
        return action

    def describe(self, state: S, action: A) -> str:
        """The game's text for ``action`` (its repr if the game cannot describe it in
        ``state``: an illegal action may make no sense there)."""
        try:
            return str(self.game.describe_action(state, action))
        except Exception:
            return repr(action)

    def legal_indices(self, state: S) -> tuple[int, ...]:
        """The indices of the legal actions of ``state`` (none once it is over), in
        the game's order."""
        return self.actions.indices(self.legal(state))

    def legal_mask(self, state: S) -> Mask:
        """True exactly at the legal actions of the seat to act (all False once the
        game is over)."""
        return self.actions.mask(self.legal(state))

    def legal(self, state: S) -> Sequence[A]:
        game = self.game
        return () if game.to_act(state) is None else game.legal_actions(state)

    # -- observations

    def observation(self, state: S, seat: int, out: Vector | None = None) -> Vector:
        """What ``seat`` sees of ``state`` as a flat ``float32`` vector laid out by
        :meth:`layout` (into ``out`` if given)."""
        players = self.players(state)
        if self.observer is not None:
            observed: Vector = self.observer_of(players).observation(state, seat, out)
            return observed
        writer = Writer(self.layout(players), out)
        self.observe(state, seat, writer)
        return writer.finish()

    def observer_of(self, players: int) -> Any:
        """This thread's observer of ``players``-seat states (``observer``)."""
        observers: dict[int, Any] | None = getattr(self._local, "observers", None)
        if observers is None:
            observers = self._local.observers = {}
        found = observers.get(players)
        if found is None:
            assert self.observer is not None
            found = observers[players] = self.observer(players)
        return found

    # -- results

    def outcome(self, state: S) -> tuple[float, ...]:
        """:func:`zero_sum` of the final ranks (the seats ranked 1st win: the game's
        ranks say who, a game where the lowest score wins included); ValueError
        while the game is on."""
        if self.game.to_act(state) is not None:
            raise ValueError("the game is not over: no outcome yet")
        return zero_sum([-rank for rank in self.game.ranks(state)])


def encoding_of(game: str | AnyGame | None = None) -> Encoding[Any, Any]:
    """The encoding ``game`` declares through its optional ``encoding()`` (``game``: a
    game object, or a name the registry of installed games knows; None: the default
    game).  ValueError for a game that declares none."""
    if game is None or isinstance(game, str):
        from ..arena.registry import GAMES

        game = GAMES.get(game)
    elif not isinstance(game, Game):
        raise TypeError(f"a game is a Game or a game's name such as 'tikal', not {game!r}")
    encoding: Encoding[Any, Any] | None = game.encoding()
    if encoding is None:
        raise ValueError(f"{game.title} has no encoding for learning programs (no encoding())")
    return encoding


# --------------------------------------------------------------------------- docs


def tables(encoding: Encoding[Any, Any]) -> str:
    """The tables docs/research.md shows for a game (``python -m tajmahal.kit.encoding
    GAME`` prints them): its action groups, its observation's length by player
    count, and its observation blocks (``n``: the number of players)."""
    lines = ["| indices | group | actions | first | last |", "|---|---|---|---|---|"]
    for g in encoding.actions.groups:
        first, last = encoding.actions.actions[g.start], encoding.actions.actions[g.stop - 1]
        span = f"{g.start}" if g.stop - g.start == 1 else f"{g.start}\N{EN DASH}{g.stop - 1}"
        lines.append(f"| {span} | {g.name} | {g.stop - g.start} | `{first!r}` | `{last!r}` |")
    game = encoding.game
    counts = range(game.min_players, game.max_players + 1)
    sizes = ", ".join(f"{encoding.layout(n).size} ({n} players)" for n in counts)
    lines += ["", f"Observation length: {sizes}.", ""]
    lines += ["| block | shape | meaning |", "|---|---|---|"]
    for name, shape, _, meaning in encoding.specs(game.min_players):
        dims = " \N{MULTIPLICATION SIGN} ".join(str(d) for d in shape)
        lines.append(f"| `{name}` | {dims} | {meaning} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Print a game's encoding tables (Markdown).")
    parser.add_argument("game", help="a game's name: tajmahal, tikal, java, ...")
    args = parser.parse_args(argv)
    print(tables(encoding_of(args.game)))


if __name__ == "__main__":
    main()
