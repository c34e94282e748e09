"""The kit's adapter plumbing (tajmahal.kit.adapter), for every game of the package:
the referee's JSON texts are the converter's data, byte for byte; a bot rebuilds
its view from the messages; the fallback policy plays passively."""

from __future__ import annotations

import importlib
import importlib.metadata
import random
from typing import Any

import orjson
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


#: Each game at its three smallest player counts, a seed each.
CASES = [
    (name, players, seed)
    for name, game in sorted(KIT_GAMES.items())
    for players, seed in zip(
        range(game.min_players, game.max_players + 1), (1, 22, 333), strict=False
    )
]


def play(game: Any, players: int, seed: int, steps: int) -> list[tuple[Any, list[Any]]]:
    """(state, events that led to it) along a random game, at most ``steps`` long."""
    rng = random.Random(seed)
    state = game.new_game(game.random_setup(players, seed))
    out: list[tuple[Any, list[Any]]] = [(state, [])]
    while game.to_act(state) is not None and len(out) <= steps:
        state, events = game.step(state, rng.choice(game.legal_actions(state)))
        out.append((state, list(events)))
    return out


def expected_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    data: dict[str, Any] = game.converter.to_data(game.view(state, seat))
    for name in game.view_skip:
        del data[name]
    return data


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_view_and_event_texts_are_the_converters_data_along_whole_games(
    name: str, players: int, seed: int
) -> None:
    game = KIT_GAMES[name]
    for state, events in play(game, players, seed, 400):
        for seat in range(players):
            expected = expected_view(game, state, seat)
            assert game.view_data(state, seat) == expected
            assert game.view_json(state, seat) == orjson.dumps(expected)
        for event in events:
            for seat in (None, *range(players)):
                data = game.converter.to_data(game.event_for(event, seat))
                assert game.event_data(event, seat) == data
                assert game.event_json(event, seat) == orjson.dumps(data)
                if game.is_public(event):
                    assert data == game.converter.to_data(event)


@pytest.mark.parametrize("name", sorted(KIT_GAMES))
def test_a_bot_rebuilds_its_view_and_legal_actions_from_the_messages(name: str) -> None:
    game = KIT_GAMES[name]
    for i, (state, _) in enumerate(play(game, seats(game, 3), 7, 300)):
        seat = game.to_act(state)
        if seat is None or i % 9:
            continue
        setup = game.read_setup(game.public_setup(state.setup))
        legal = [game.action_to_data(a) for a in game.legal_actions(state)]
        view, actions = game.read_act(setup, game.view_data(state, seat), legal)
        assert view == game.view(state, seat)
        assert actions == list(game.legal_actions(state))


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
