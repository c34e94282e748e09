"""Action objects are read strictly, in every game (issue 26 item 5, issue 28).

protocol/README.md, "Faults": JSON that is not the message expected now — a wrong
or missing type or field, an unknown field — is a `protocol` fault; an action of
the game that is not one of `legal` is `illegal`.  So an action object whose field
has the wrong JSON type (the string "false" for a boolean, which Python would read
as true; "3" or 3.0 for an integer) is a protocol fault whose detail gives the
field's path, as are an unknown "type" and an unknown field; an index given as a
string ("choice": "0") is one too.  Each game is played by in-process bots, one of
which answers one decision with the broken line.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tajmahal.arena import InProcessConnection, MatchConfig, Player, RandomPlayer, play_match
from tajmahal.arena.protocol import Message
from tajmahal.java.adapter import JAVA
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tikal.adapter import TIKAL

GAMES = {"tajmahal": TAJMAHAL, "tikal": TIKAL, "java": JAVA}
Breaker = Callable[[list[Any]], Message | None]


class Breaks(Player):
    """Plays at random; at the first decision where ``breaker`` finds something to
    break in the legal actions, answers with the message it makes."""

    name = "breaks"

    def __init__(self, breaker: Breaker) -> None:
        self.breaker = breaker
        self.rng = random.Random(1)
        self.broke: Message | None = None

    def handle(self, message: Message) -> Message | None:
        if message["type"] == "act" and self.broke is None:
            self.broke = self.breaker(message["legal"])
            if self.broke is not None:
                return self.broke
        return super().handle(message)

    def choose(self, message: Message) -> int:
        return self.rng.randrange(len(message["legal"]))


def faults_of(game_name: str, breaker: Breaker) -> tuple[Message | None, list[Any]]:
    game = GAMES[game_name]
    bot = Breaks(breaker)
    conns = [InProcessConnection(bot, "breaks"), InProcessConnection(RandomPlayer(2), "r")]
    result = play_match(game, game.random_setup(2, 5), conns, MatchConfig(), seed=5)
    return bot.broke, result.faults


def field_of(kind: type) -> Breaker:
    """Answer with the first legal action that has a field of JSON ``kind``, that
    field given as a string."""

    def breaker(legal: list[Any]) -> Message | None:
        for data in legal:
            for key, value in data.items():
                if key != "type" and type(value) is kind:
                    wrong = str(value).lower() if kind is bool else str(value)
                    return {"type": "action", "action": {**data, key: wrong}}
        return None

    return breaker


@pytest.mark.parametrize("game", ["tikal", "java"])
def test_the_string_false_for_a_boolean_is_a_protocol_fault_naming_the_field(game: str) -> None:
    broke, faults = faults_of(game, field_of(bool))
    assert broke is not None, "no action with a boolean field came up"
    (fault,) = faults
    assert (fault.seat, fault.kind, fault.phase) == (0, "protocol", "act")
    (key,) = [k for k, v in broke["action"].items() if v in ("true", "false")]
    assert f"@ action.{key}" in fault.detail
    assert "expected a boolean (true or false), got " in fault.detail


@pytest.mark.parametrize("game", list(GAMES))
def test_a_string_for_an_integer_is_a_protocol_fault_naming_the_field(game: str) -> None:
    broke, faults = faults_of(game, field_of(int))
    assert broke is not None
    (fault,) = faults
    assert (fault.seat, fault.kind) == (0, "protocol")
    (key,) = [k for k, v in broke["action"].items() if isinstance(v, str) and v.isdigit()]
    assert f'expected an integer, got "{broke["action"][key]}" @ action.{key}' in fault.detail


def float_for_an_integer(legal: list[Any]) -> Message | None:
    for data in legal:
        for key, value in data.items():
            if type(value) is int:
                return {"type": "action", "action": {**data, key: float(value)}}
    return None


@pytest.mark.parametrize("game", list(GAMES))
def test_a_float_for_an_integer_is_a_protocol_fault(game: str) -> None:
    _, faults = faults_of(game, float_for_an_integer)
    (fault,) = faults
    assert fault.kind == "protocol" and "expected an integer, got " in fault.detail


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda a: {"type": "fly", "to": "the moon"}, 'unknown "type" "fly" @ action.type'),
        (lambda a: {**a, "colour": "red"}, "extra fields found (colour) @ action"),
        (lambda a: {k: v for k, v in a.items() if k != "type"}, 'with a "type"'),
    ],
    ids=["unknown type", "unknown field", "no type"],
)
def test_an_object_that_is_no_action_of_the_game_is_a_protocol_fault(
    game: str, change: Callable[[Any], Any], expected: str
) -> None:
    _, faults = faults_of(game, lambda legal: {"type": "action", "action": change(legal[0])})
    (fault,) = faults
    assert fault.kind == "protocol"
    assert fault.detail.startswith('"action" is not an action of the game: ')
    assert expected in fault.detail


def missing_field(legal: list[Any]) -> Message | None:
    for data in legal:
        for key, value in data.items():
            if key != "type" and value is not None:
                return {"type": "action", "action": {k: v for k, v in data.items() if k != key}}
    return None


@pytest.mark.parametrize("game", list(GAMES))
def test_a_missing_field_is_a_protocol_fault_naming_it(game: str) -> None:
    broke, faults = faults_of(game, missing_field)
    assert broke is not None
    (fault,) = faults
    assert fault.kind == "protocol" and "required field missing @ action." in fault.detail


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("choice", ["0", 0.0, True, None])
def test_an_index_that_is_not_a_json_integer_is_a_protocol_fault(game: str, choice: Any) -> None:
    _, faults = faults_of(game, lambda legal: {"type": "action", "choice": choice})
    (fault,) = faults
    assert fault.kind == "protocol" and '"choice" must be an integer' in fault.detail


@pytest.mark.parametrize("game", list(GAMES))
def test_an_index_out_of_range_stays_illegal(game: str) -> None:
    _, faults = faults_of(game, lambda legal: {"type": "action", "choice": len(legal)})
    (fault,) = faults
    assert fault.kind == "illegal" and "out of range" in fault.detail
