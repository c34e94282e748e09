"""What a new user meets first: clear errors and readable values (rules C1, C3, D1)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tajmahal import Play, Setup, TakeCard, new_game, view
from tajmahal.tajmahal.board import DEFAULT_BOARD
from tajmahal.tajmahal.cards import card_ids


def test_view_of_a_seat_the_game_does_not_have_raises() -> None:
    state = new_game(Setup.random(3, seed=1))
    for seat in (3, 7, -1, "0"):
        with pytest.raises(ValueError, match="seats are 0-2"):
            view(state, seat)  # type: ignore[arg-type]
    assert view(state, None).hand == ()  # the spectator's view stays


@pytest.mark.parametrize("players", [0, 1, 6])
def test_c1_d1_setup_random_names_the_player_counts_that_work(players: int) -> None:
    with pytest.raises(ValueError, match="3-5 players, or 2 with the dummy bidder"):
        Setup.random(players, seed=1)


def test_setup_random_without_a_seed_draws_one_and_shows_it() -> None:
    setup = Setup.random(4)
    assert 0 <= setup.seed < 2**63
    assert repr(setup) == f"Setup.random(4, seed={setup.seed})"
    assert Setup.random(4, seed=setup.seed) == setup  # the deal can be made again


def test_c3_card_ids_refuses_an_unknown_colour_or_symbol() -> None:
    assert card_ids("red", "elephant", "vizier") == (2, 3, 4)
    with pytest.raises(ValueError, match="no colour 'blue'"):
        card_ids("blue", "elephant")
    with pytest.raises(ValueError, match="no symbol 'elefant'"):
        card_ids("red", "elefant")


def test_a_misspelt_city_or_province_gets_a_did_you_mean() -> None:
    with pytest.raises(KeyError, match="no city 'Agraa'; did you mean 'Agra'"):
        DEFAULT_BOARD.city("Agraa")
    with pytest.raises(KeyError, match="no province 'Dehli'; did you mean 'Delhi'"):
        DEFAULT_BOARD.province("Dehli")
    assert DEFAULT_BOARD.city("Agra").name == "Agra"


def test_actions_take_int_ids_and_say_so() -> None:
    with pytest.raises(TypeError, match=r"Play.card is a card id \(an int\), not '0'"):
        Play("0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Play.extra is a card id"):
        Play(3, 96.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="TakeCard.card"):
        TakeCard(None)  # type: ignore[arg-type]


def test_str_of_a_state_is_a_short_summary_without_the_deck() -> None:
    state = new_game(Setup.random(3, seed=1))
    text = str(state)
    assert text.splitlines()[0].startswith("Taj Mahal, 3 players (standard), seed 1: visit 1")
    assert "seat 2: 0 points" in text
    assert "deck: 73 cards" in text  # 96 - 3 hands of 6 - a display of 5
    assert len(text) < len(repr(state)) / 2


def test_python_dash_m_tajmahal_is_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "Usage: tajmahal" in done.stdout
