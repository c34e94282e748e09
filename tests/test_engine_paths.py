"""The compiled and the pure-Python engine (issues 15 and 25): the same games, state
for state, for every game whose engine is compiled.

The package runs the mypyc-compiled modules when they are installed and up to date,
the ``.py`` sources with ``TAJMAHAL_PURE=1`` (``tajmahal._engine``).  The
differential test plays the same random games in this process and in a subprocess
running the other engine, and compares what each saw: every legal list, every
choice, every final state, and every state and event of one game in eight.  It
also compares the search bots' choices from positions of random games.

``make test`` runs the suite once per engine; the differential test runs in the
first (compiled) pass only.  ``.ci/run`` sets ``TAJMAHAL_REQUIRE_COMPILED=1``, so
CI fails if the compiled engine was not built.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from engine_support import (
    _compiled_installed,
    on_both_engines,
    random_game_digest,
)

import tajmahal
from tajmahal import Setup, State, legal_actions, new_game, step, tikal, view
from tajmahal.kit.search import SearchConfig, search_choice
from tajmahal.tajmahal import rules as rules_module
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tikal import rules as tikal_rules
from tajmahal.tikal.adapter import TIKAL
from tajmahal.tikal.views import view as tikal_view

ROOT = Path(__file__).resolve().parent.parent
GAMES = 2_000
SEARCHES = 12
TIKAL_GAMES = 600
TIKAL_SEARCHES = 6

TAJMAHAL_BOTS = TAJMAHAL.bots()
TIKAL_BOTS = TIKAL.bots()


def _position(state: State) -> str:
    """Everything in a state but its setup (the same object for a whole game)."""
    s = state
    return repr(
        (
            s.visit,
            s.province,
            s.start_player,
            s.to_act,
            s.players,
            s.deck,
            s.discard,
            s.display,
            s.supply,
            s.court,
            s.reserve,
            s.palaces,
            s.moguls,
            s.bonus,
            s.pending,
            s.dummy,
            s.reshuffles,
        )
    )




def game_digests(games: int, searches: int) -> list[str]:
    """One SHA-256 a game: 2-5 players, seeded deals, uniformly random choices."""
    out = []
    for g in range(games):
        state = new_game(Setup.random(2 + g % 4, seed=g))
        digest = random_game_digest(
            state, random.Random(g), legal_actions, step, g % 8 == 0, _position
        )
        out.append(digest)
    for g in range(searches):  # the search bot, from a few positions of random games
        state = new_game(Setup.random(2 + g % 4, seed=10_000 + g))
        rng = random.Random(g)
        for _ in range(10 + 7 * g):
            state, _ = step(state, rng.choice(legal_actions(state)))
        seat = state.to_act
        assert seat is not None
        seen = view(state, seat)
        config = SearchConfig(iterations=40)
        choice = search_choice(TAJMAHAL_BOTS, seen, seen.legal, random.Random(g), config)
        out.append(f"search {g}: {choice}")
    return out


def _tikal_position(state: tikal.State) -> str:
    """Everything in a Tikal state but its setup."""
    s = state
    return repr(
        (
            s.spaces,
            s.workers,
            s.players,
            s.stack,
            s.supply,
            s.levels,
            s.phase,
            s.to_act,
            s.tile,
            s.ap,
            s.turn,
            s.uncovered,
            s.dug,
            s.round,
            s.auction,
            s.last_placer,
        )
    )


def _ending_a_turn_one_time_in_five(rng: random.Random, legal: list[Any]) -> Any:
    """A random choice, but the last legal action (ending the turn, when it may) one
    time in five: random Tikal turns would otherwise last until no AP is left."""
    return legal[-1] if rng.random() < 0.2 else rng.choice(legal)


def tikal_digests(games: int, searches: int) -> list[str]:
    """Tikal: one SHA-256 a game, 2-4 players, every third game an auction game;
    seeded deals, random choices that end a turn one time in five."""
    out = []
    for g in range(games):
        variant = tikal.AUCTION if g % 3 == 2 else tikal.BASIC
        state = tikal.new_game(tikal.Setup.random(2 + g % 3, g, variant))
        digest = random_game_digest(
            state,
            random.Random(g),
            tikal.legal_actions,
            tikal.step,
            g % 8 == 0,
            _tikal_position,
            _ending_a_turn_one_time_in_five,
        )
        out.append(digest)
    config = SearchConfig(iterations=30)
    for g in range(searches):  # the bots, from positions in a turn of random games
        state = tikal.new_game(tikal.Setup.random(2 + g % 3, seed=10_000 + g))
        rng = random.Random(g)
        for _ in range(20 + 9 * g):
            state = tikal.apply(state, rng.choice(tikal.legal_actions(state)))
        while state.phase != "act":
            state = tikal.apply(state, tikal.legal_actions(state)[0])
        seat = state.to_act
        assert seat is not None
        legal = tikal.legal_actions(state)
        seen = tikal_view(state, seat)
        greedy = TIKAL_BOTS.greedy_index(state, legal, random.Random(g))
        mcts = search_choice(TIKAL_BOTS, seen, legal, random.Random(g), config)
        out.append(f"tikal search {g}: {greedy} {mcts}")
    return out


def all_digests() -> list[str]:
    return game_digests(GAMES, SEARCHES) + tikal_digests(TIKAL_GAMES, TIKAL_SEARCHES)








def test_the_active_engine_is_the_one_announced() -> None:
    for module in (rules_module, tikal_rules):
        compiled = module.__file__ is not None and not module.__file__.endswith(".py")
        assert compiled == tajmahal.COMPILED, module
    pure_asked = os.environ.get("TAJMAHAL_PURE", "") not in ("", "0")
    if pure_asked:
        assert not tajmahal.COMPILED and "TAJMAHAL_PURE" in tajmahal.ENGINE
    if os.environ.get("TAJMAHAL_REQUIRE_COMPILED") and not pure_asked:
        assert tajmahal.COMPILED, tajmahal.ENGINE


def test_pure_is_forced_by_the_environment_in_a_subprocess() -> None:
    probe = (
        "import importlib, sys, tajmahal, tajmahal._engine\n"
        "names = [f'tajmahal.{m}' for m in tajmahal._engine.COMPILED]\n"
        "files = [importlib.import_module(m).__file__ for m in names]\n"
        "print(tajmahal.COMPILED, tajmahal.ENGINE, all(f.endswith('.py') for f in files))"
    )
    env = dict(os.environ, TAJMAHAL_PURE="1")
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split()[0] == "False"
    assert out.stdout.split()[-1] == "True"
    assert "TAJMAHAL_PURE" in out.stdout


@pytest.mark.differential
@pytest.mark.slow  # 2,000 games and searches on each engine: 20-50 s
def test_both_engines_play_the_same_games() -> None:
    if not _compiled_installed():
        pytest.skip("no compiled engine installed (no C compiler at install time)")
    mine, theirs_lines = on_both_engines("test_engine_paths", "all_digests")
    assert len(theirs_lines) == len(mine) == GAMES + SEARCHES + TIKAL_GAMES + TIKAL_SEARCHES
    differing = [i for i, (a, b) in enumerate(zip(mine, theirs_lines, strict=True)) if a != b]
    assert differing == [], f"games that differ between the engines: {differing[:10]}"
