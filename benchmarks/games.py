"""The games the benchmarks measure, and the workloads every game is measured on.

A game is one row of :data:`ENGINES`: its name in the game registry
(:data:`tajmahal.arena.registry.GAMES`, which gives its arena adapter), its engine package,
and its targets.  The engine package exports the library API every game of this
package has: ``new_game``, ``legal_actions``, ``apply`` and ``is_over``.  Everything
else the benchmarks need comes from the adapter (:class:`~tajmahal.arena.game.Game`):
random setups, the ``act`` messages' views and legal actions, and the built-in
players.  A new game is a new row here, nothing more.
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tajmahal.arena.game import AnyGame
from tajmahal.arena.registry import GAMES, UnknownGame


@dataclass(frozen=True)
class Engine:
    """A game as the benchmarks know it: registry ``name``, engine ``module``, and its
    targets, if any: of its random 4-player playouts ``chess`` (times python-chess's
    random playout, in the same run) and ``playout`` (actions/s on one core); of its
    built-in search ``mcts`` (compiled over pure iterations/s)."""

    name: str
    module: str
    chess: float | None = None
    playout: float | None = None
    mcts: float | None = None


ENGINES: tuple[Engine, ...] = (
    Engine("tajmahal", "tajmahal.tajmahal", chess=6.0, playout=50_000, mcts=2.0),
    Engine("tikal", "tajmahal.tikal", chess=2.0),
    Engine("java", "tajmahal.java", chess=1.0),
)

#: The player count of the figures that compare games (the issues' measurements).
PLAYERS = 4


@dataclass(frozen=True)
class Loaded:
    """A game's adapter and engine functions, imported."""

    engine: Engine
    game: AnyGame
    new_game: Callable[[Any], Any]
    legal_actions: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], Any]
    is_over: Callable[[Any], bool]

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def players(self) -> range:
        return range(self.game.min_players, self.game.max_players + 1)


def load(engine: Engine) -> Loaded:
    package = importlib.import_module(engine.module)
    return Loaded(
        engine,
        GAMES.get(engine.name),
        package.new_game,
        package.legal_actions,
        package.apply,
        package.is_over,
    )


def engine_named(name: str) -> Engine:
    """The row of the game registered as ``name`` (an alias of it will do)."""
    with contextlib.suppress(UnknownGame):  # an alias: the game's own name
        name = GAMES.get(name).name
    for engine in ENGINES:
        if engine.name == name:
            return engine
    raise KeyError(f"no benchmarked game {name!r}; known: {', '.join(e.name for e in ENGINES)}")


def selected(names: Sequence[str] | None) -> tuple[Engine, ...]:
    """The rows of the games ``names`` (every game when None), in ENGINES' order."""
    if not names:
        return ENGINES
    chosen = {engine_named(name).name for name in names}
    return tuple(e for e in ENGINES if e.name in chosen)


def play_random(g: Loaded, players: int, seed: int) -> int:
    """One game of uniformly random choices (``random.Random(seed)``), ``legal_actions``
    and ``apply`` at every step; returns the number of actions."""
    legal_actions, apply, is_over = g.legal_actions, g.apply, g.is_over
    state = g.new_game(g.game.random_setup(players, seed))
    choice = random.Random(seed).choice
    actions = 0
    while not is_over(state):
        state = apply(state, choice(legal_actions(state)))
        actions += 1
    return actions


def seeds_for(g: Loaded, players: int, actions: int) -> list[int]:
    """The first seeds whose random games together take at least ``actions`` actions:
    a fixed workload of about that size, whatever a game's length."""
    seeds: list[int] = []
    total = 0
    while total < actions:
        total += play_random(g, players, len(seeds))
        seeds.append(len(seeds))
    return seeds


def positions(g: Loaded, players: int, games: int) -> Iterator[tuple[Any, Any, Any]]:
    """Every (setup, state, action) of ``games`` random games."""
    for seed in range(games):
        setup = g.game.random_setup(players, seed)
        state = g.new_game(setup)
        rng = random.Random(seed)
        while not g.is_over(state):
            action = rng.choice(g.legal_actions(state))
            yield setup, state, action
            state = g.apply(state, action)
