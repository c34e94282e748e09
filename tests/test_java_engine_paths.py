"""Java's compiled and pure-Python engine: the same games, state for state.

As for Taj Mahal (test_engine_paths.py): random games played here and in a
subprocess running the other engine; every legal list's length, every choice,
every final state, and every state and event of one game in eight (with the
bots' judgement of it: java.heuristic is compiled too) must agree.
The land tiles' fits (a cache the engine keeps up to date step by step) must be
those computed afresh.
"""

from __future__ import annotations

import random

import pytest
from attrs import evolve
from engine_support import _compiled_installed, on_both_engines, random_game_digest

import tajmahal
from tajmahal.java import Setup, State, legal_actions, new_game, step
from tajmahal.java import rules as rules_module
from tajmahal.java.heuristic import evaluate, ordered
from tajmahal.java.land import fits

GAMES = 80


def _judged(state: State) -> str:
    """The state, with the bots' judgement of it (java.heuristic is compiled too)."""
    legal = legal_actions(state) if state.to_act is not None else []
    return repr(state) + repr((evaluate(state), ordered(state, legal) if legal else []))


def game_digests(games: int) -> list[str]:
    """One SHA-256 a game: 2-4 players, both token variants, uniformly random choices."""
    out = []
    for g in range(games):
        variant = ("official", "anytime")[g % 2]
        state = new_game(Setup.random(2 + g % 3, seed=g, variant=variant))
        out.append(
            random_game_digest(state, random.Random(g), legal_actions, step, g % 8 == 0, _judged)
        )
    return out


def test_the_java_engine_is_the_one_announced() -> None:
    compiled = rules_module.__file__ is not None and not rules_module.__file__.endswith(".py")
    assert compiled == tajmahal.COMPILED


def test_the_fits_kept_step_by_step_are_those_computed_afresh() -> None:
    for g in range(3):
        state = new_game(Setup.random(2 + g, seed=g))
        rng = random.Random(g)
        for n in range(500):
            if state.to_act is None:
                break
            if n % 5 == 0:  # evolve() drops the cache: the copy computes it anew
                assert fits(state) == fits(evolve(state))
            state, _ = step(state, rng.choice(legal_actions(state)))


@pytest.mark.differential
def test_both_engines_play_the_same_java_games() -> None:
    if not _compiled_installed():
        pytest.skip("no compiled engine installed (no C compiler at install time)")
    mine, theirs_lines = on_both_engines("test_java_engine_paths", "game_digests", GAMES)
    assert len(theirs_lines) == len(mine) == GAMES
    differing = [i for i, (a, b) in enumerate(zip(mine, theirs_lines, strict=True)) if a != b]
    assert not differing, f"games {differing[:10]} differ between the engines"
