"""The suite every game passes (tajmahal.suite), run on every installed game:
the three of this package, and any other a plugin installed (the example Pig runs
it in test_adding_a_game.py)."""

from __future__ import annotations

from tajmahal.suite import game_suite

TestEveryGame = game_suite()
