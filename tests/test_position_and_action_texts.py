"""What FEN and SAN are to chess, for every game through the Game interface: a
position as one line of text that reads back to an equal state, and an action's
text that reads back to the same legal action."""

from __future__ import annotations

import base64
import random
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajmahal.arena.registry import GAMES
from tajmahal.java import testing as java_testing
from tajmahal.tajmahal import testing as tajmahal_testing
from tajmahal.tikal import testing as tikal_testing

STATES = {
    "tajmahal": tajmahal_testing.states,
    "tikal": tikal_testing.states,
    "java": java_testing.states,
}
NAMES = sorted(STATES)
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_game_is_here() -> None:
    assert set(GAMES.names()) == set(STATES)


@pytest.mark.parametrize("name", NAMES)
@SLOW
@given(data=st.data())
def test_a_position_and_each_legal_action_read_back_from_their_texts(
    name: str, data: Any
) -> None:
    game = GAMES.get(name)
    state = data.draw(STATES[name]())
    text = game.position_text(state)
    assert text is not None and "\n" not in text
    head = text.split()
    assert head[0] == f"{name}/1" and head[1] == str(game.players(state.setup))
    assert head[2] == game.variant(state.setup) and len(head) == 5
    back = game.parse_position(text)
    assert back == state
    assert game.position_text(back) == text  # one line per state
    if game.to_act(state) is None:
        return
    legal = list(game.legal_actions(state))
    assert list(game.legal_actions(back)) == legal
    texts = [game.action_text(state, action) for action in legal]
    assert len(set(texts)) == len(texts)  # alike actions are numbered apart
    for action, action_text in zip(legal, texts, strict=True):
        assert game.parse_action(state, action_text) == action
        assert game.parse_action(state, f"  {action_text.upper()} ") == action  # case, spaces
        plain = game.describe_action(state, action)
        if texts.count(plain) == 1:  # a text no other legal action shares: as it is
            assert game.parse_action(state, plain) == action


@pytest.mark.parametrize("name", NAMES)
def test_a_dealt_position_names_its_seed_when_the_setup_says_it(name: str) -> None:
    game = GAMES.get(name)
    state = game.new_game(game.random_setup(3, 11))
    rng = random.Random(11)
    for _ in range(20):
        state, _ = game.step(state, rng.choice(game.legal_actions(state)))
    text = game.position_text(state)
    assert text is not None
    deal = text.split()[3]
    # Taj Mahal's setup keeps the seed that dealt it; Tikal's and Java's do not
    assert deal == ("seed=11" if name == "tajmahal" else "setup")
    assert game.parse_position(text) == state
    assert len(text) < 1500  # compact: the board and the deck's order in a token


def pack(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


def test_a_line_that_is_not_a_position_is_refused_saying_why() -> None:
    game = GAMES.get("tajmahal")
    state = game.new_game(game.random_setup(4, 1))
    text = game.position_text(state)
    assert text is not None
    head, token = text.rsplit(" ", 1)
    bad = {
        "": "5 fields",
        text.replace("tajmahal/1", "tikal/1"): "a position of 'tikal'",
        text.replace("tajmahal/1", "tajmahal/9"): "format version '9'",
        text.replace(" 4 ", " 3 "): "4 seats' belongings for 3 seats",
        text.replace("seed=1", "seed=x"): "seed=N or setup",
        f"{head} {token[:-12]}": "cut short",
        f"{head} {token}!": "URL-safe base64",
        f"{head} {pack(b'not JSON')}": "no JSON",
        f"{head} {pack(b'[1, 2]')}": "no JSON object",
        f"{head} {pack(b'{}')}": 'holds no "state"',
    }
    for line, why in bad.items():
        with pytest.raises(ValueError, match=why.replace("(", r"\(").replace(")", r"\)")):
            game.parse_position(line)
    with pytest.raises(ValueError, match="position"):
        GAMES.get("tikal").parse_position(text)


def test_an_action_text_that_is_not_legal_gets_the_nearest() -> None:
    game = GAMES.get("tajmahal")
    state = game.new_game(game.random_setup(4, 1))
    legal = game.legal_actions(state)
    text = game.action_text(state, legal[0])
    with pytest.raises(ValueError, match="did you mean"):
        game.parse_action(state, text[:-1] + "x")
    with pytest.raises(ValueError, match="no legal action is 'fly away'"):
        game.parse_action(state, "fly away")
