"""Jupyter shows every game's states and views as their pictures (tajmahal.kit.picture),
and a view's picture shows nothing its seat cannot see."""

from __future__ import annotations

import random

import pytest

from tajmahal.arena.registry import GAMES
from tajmahal.java import render as java_render
from tajmahal.java.hidden import determinize as java_determinize


@pytest.mark.parametrize("name", ["tajmahal", "tikal", "java"])
def test_states_and_views_show_themselves_as_svg(name: str) -> None:
    game = GAMES.get(name)
    rng = random.Random(4)
    state = game.new_game(game.random_setup(3, 4))
    for _ in range(60):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    for value in (state, game.view(state, 1)):
        picture = value._repr_svg_()
        assert picture.startswith("<svg") and picture.endswith("</svg>")


def test_a_java_views_picture_is_the_same_whatever_the_hidden_cards() -> None:
    game = GAMES.get("java")
    rng = random.Random(2)
    state = game.new_game(game.random_setup(3, 2))
    for _ in range(80):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    seen = game.view(state, 2)
    picture = seen._repr_svg_()
    for seed in range(3):  # other deals of the other hands and the pile
        guess = java_determinize(seen, random.Random(seed))
        assert game.view(guess, 2) == seen
        assert java_render.svg(game.view(guess, 2)) == picture
    assert picture.count('class="hand"') == 1  # its own hand only
