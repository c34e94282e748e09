"""The kit's adapter plumbing (tajmahal.kit.adapter), for every kit game installed:
the fallback policy plays passively, the built-in players are the kit's, every
event has a text.  (The JSON texts, byte for byte, and the view a bot rebuilds from
its messages are checked by the suite every game passes: tajmahal.suite.)"""

from __future__ import annotations

import importlib
import importlib.metadata
import random
from typing import Any

import pytest

from tajmahal.arena.registry import GAMES
from tajmahal.kit.adapter import Adapter

KIT_GAMES = {
    name: game for name in GAMES.names() if isinstance(game := GAMES.get(name), Adapter)
}


def test_every_game_of_the_package_is_declared_on_the_kit() -> None:
    points = importlib.metadata.distribution("tajmahal").entry_points
    assert {p.name for p in points if p.group == "tajmahal.games"} <= set(KIT_GAMES)


def seats(game: Any, wanted: int) -> int:
    """``wanted`` players, or the nearest count ``game`` allows."""
    return min(max(wanted, game.min_players), game.max_players)


def play(game: Any, players: int, seed: int, steps: int) -> list[tuple[Any, list[Any]]]:
    """(state, events that led to it) along a random game, at most ``steps`` long."""
    rng = random.Random(seed)
    state = game.new_game(game.random_setup(players, seed))
    out: list[tuple[Any, list[Any]]] = [(state, [])]
    while game.to_act(state) is not None and len(out) <= steps:
        state, events = game.step(state, rng.choice(game.legal_actions(state)))
        out.append((state, list(events)))
    return out


@pytest.mark.parametrize("name", sorted(KIT_GAMES))
def test_the_fallback_plays_the_passive_action_when_it_is_last(name: str) -> None:
    game = KIT_GAMES[name]
    for state, _ in play(game, seats(game, 2), 3, 200):
        if game.to_act(state) is None:
            continue
        legal = game.legal_actions(state)
        choice = game.fallback(state, legal)
        passive = isinstance(legal[-1], game.passive)
        assert choice == (len(legal) - 1 if passive else 0)


@pytest.mark.parametrize("name", sorted(KIT_GAMES))
def test_the_builtin_players_are_the_kits(name: str) -> None:
    game = KIT_GAMES[name]
    players = game.builtin_players()
    if game.bots() is None:  # a game without bots: only the two that need none
        assert list(players) == ["random", "first"]
        return
    assert list(players) == ["random", "greedy", "mcts", "first"]
    assert players["mcts"](1).name == "mcts" and players["greedy"](1).name == "greedy"


@pytest.mark.parametrize("name", sorted(KIT_GAMES))
def test_every_event_has_a_text_for_people(name: str) -> None:
    game = KIT_GAMES[name]
    assert set(game.event_texts) == set(game.event_types)


@pytest.mark.parametrize("package", ["tajmahal.tajmahal", "tajmahal.tikal", "tajmahal.java"])
def test_a_game_package_offers_every_name_it_lists(package: str) -> None:
    # The packages gather their actions module's names with a star import (its __all__):
    # a name listed but not defined would fail only here, or at a user's import.
    namespace: dict[str, Any] = {}
    exec(f"from {package} import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(importlib.import_module(package).__all__)
