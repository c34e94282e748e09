"""The games the benchmarks measure, and the workloads every game is measured on.

Every installed game is measured (the registry's, :data:`tajmahal.arena.registry.GAMES`:
the default game first), through its :class:`~tajmahal.arena.game.Game` alone:
random setups, ``new_game``, ``legal_actions``, ``apply`` and ``to_act``, the
``act`` messages' views and legal actions, and the built-in players.  The targets a
game is held to are its own (:attr:`~tajmahal.arena.game.Game.speed_targets`).  A
new game installed is measured too, with nothing written here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tajmahal.arena.game import AnyGame
from tajmahal.arena.registry import GAMES


@dataclass(frozen=True)
class Engine:
    """A game as the benchmarks know it: its registry ``name``, and its targets
    (:attr:`~tajmahal.arena.game.Game.speed_targets`), if any: of its random
    4-player playouts ``chess`` (times python-chess's random playout, in the same
    run) and ``playout`` (actions/s on one core); of its built-in search ``mcts``
    (compiled over pure iterations/s); ``rl_environment``, the CPU seconds of a
    random 4-player game through OpenSpiel's ``rl_environment``."""

    name: str
    chess: float | None = None
    playout: float | None = None
    mcts: float | None = None
    rl_environment: float | None = None


def engine_of(name: str) -> Engine:
    targets = GAMES.get(name).speed_targets
    return Engine(name, *(targets.get(t) for t in ("chess", "playout", "mcts", "rl_environment")))


def _engines() -> tuple[Engine, ...]:
    default = GAMES.default
    names = sorted(GAMES.names(), key=lambda n: (n != default, n))
    return tuple(engine_of(name) for name in names)


#: Every installed game, the default one first.
ENGINES: tuple[Engine, ...] = _engines()

#: The player count of the figures that compare games (the issues' measurements).
PLAYERS = 4


@dataclass(frozen=True)
class Loaded:
    """A game's adapter and engine functions."""

    engine: Engine
    game: AnyGame
    new_game: Callable[[Any], Any]
    legal_actions: Callable[[Any], Sequence[Any]]
    apply: Callable[[Any, Any], Any]
    to_act: Callable[[Any], int | None]

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def players(self) -> range:
        return range(self.game.min_players, self.game.max_players + 1)

    def is_over(self, state: Any) -> bool:
        return self.to_act(state) is None

    def seats(self, wanted: int = PLAYERS) -> int:
        """``wanted`` players, or the nearest count the game allows."""
        return min(max(wanted, self.game.min_players), self.game.max_players)


def load(engine: Engine) -> Loaded:
    game = GAMES.get(engine.name)
    return Loaded(engine, game, game.new_game, game.legal_actions, game.apply, game.to_act)


def engine_named(name: str) -> Engine:
    """The row of the game registered as ``name`` (an alias of it will do)."""
    return engine_of(GAMES.get(name).name)


def selected(names: Sequence[str] | None) -> tuple[Engine, ...]:
    """The rows of the games ``names`` (every game when None), in ENGINES' order."""
    if not names:
        return ENGINES
    chosen = {engine_named(name).name for name in names}
    return tuple(e for e in ENGINES if e.name in chosen)


def play_random(g: Loaded, players: int, seed: int) -> int:
    """One game of uniformly random choices (``random.Random(seed)``), ``legal_actions``
    and ``apply`` at every step; returns the number of actions."""
    legal_actions, apply, to_act = g.legal_actions, g.apply, g.to_act
    state = g.new_game(g.game.random_setup(players, seed))
    choice = random.Random(seed).choice
    actions = 0
    while to_act(state) is not None:
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
