"""A bot that answers with an illegal action object is told the rule it broke.

The referee asks the game's optional ``why_illegal`` (arena/game.py) and adds the
rule the engine cites to the fault's detail: in the ``error`` message to the bot,
in the result and in the record's ``fault`` line.  A game without the method
gives the plain detail.  The expected rule ids are worked out from
docs/rules.md, docs/tikal-rules.md and docs/java-rules.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tajmahal import Setup
from tajmahal.arena import InProcessConnection, MatchConfig, Player, play_match, replay
from tajmahal.arena.game import REASON_LIMIT, AnyGame, illegal_reason
from tajmahal.arena.protocol import Message
from tajmahal.arena.scripted import Answer, ScriptedConnection, correct_answer
from tajmahal.arena.text import printable
from tajmahal.java.adapter import JAVA
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tikal.adapter import TIKAL

HELLO = Answer(correct_answer({"type": "hello"}))
NOT_LEGAL = " is not a legal action now"


def answer(action: dict[str, Any]) -> Answer:
    return Answer({"type": "action", "action": action})


# Seat 0 holds card 14 (red, elephant + grand mogul); the first visit is in Kabul
# (cities 0-3); Srinagar, city 4, is in Kashmir (tests/scenario.py).
STACKED = Setup.stacked(3, [[14, 0, 21, 42, 63, 84], [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
MOGUL_IN_KASHMIR = {"type": "build_mogul_palace", "city": 4}
# Seat 0 plays card 14; seats 1 and 2 withdraw at once (their cards count for nobody,
# W1); seat 0 withdraws and wins the elephant and the grand mogul (W1, W3): it owes a
# mogul palace on a city of the current province, Kabul (W5), and names Srinagar.
MOGUL_SCRIPTS = [
    [HELLO, answer({"type": "play", "card": 14}), answer({"type": "withdraw"}),
     answer(MOGUL_IN_KASHMIR)],
    [HELLO, answer({"type": "withdraw"})],
    [HELLO, answer({"type": "withdraw"})],
]  # fmt: skip


def play(
    game: AnyGame, setup: Any, scripts: list[list[Any]], record: Path | None = None
) -> tuple[Any, list[ScriptedConnection]]:
    conns = [ScriptedConnection(s, name=f"bot{i}") for i, s in enumerate(scripts)]
    return play_match(game, setup, conns, MatchConfig(record=record), seed=0), conns


def test_a_mogul_palace_outside_the_province_is_told_w5(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result, conns = play(TAJMAHAL, STACKED, MOGUL_SCRIPTS, record)
    (fault,) = result.faults
    assert (fault.seat, fault.kind, fault.phase) == (0, "illegal", "act")
    assert fault.detail.startswith('{"type":"build_mogul_palace","city":4}' + NOT_LEGAL + ": W5: ")
    assert "Kabul" in fault.detail  # the province the palace must go in
    error = conns[0].received[-1]
    assert error == {"type": "error", "fault": "illegal", "message": fault.detail}
    assert result.to_data()["faults"][0]["detail"] == fault.detail
    lines = [orjson.loads(line) for line in record.read_bytes().splitlines()]
    (fault_line,) = [line for line in lines if line["type"] == "fault"]
    assert fault_line["detail"] == fault.detail
    assert lines[-1]["faults"][0]["detail"] == fault.detail  # the record's result
    assert replay(TAJMAHAL, record).result["scores"] == result.scores


def test_two_coloured_cards_are_told_t3() -> None:
    # T3: exactly one coloured card a turn; 14 (red) and 0 (red) are both in hand.
    two = {"type": "play", "card": 14, "extra": 0}
    result, conns = play(TAJMAHAL, STACKED, [[HELLO, answer(two)], [], []])
    (fault,) = result.faults
    assert fault.detail.startswith('{"type":"play","card":14,"extra":0}' + NOT_LEGAL + ": T3: ")
    assert conns[0].received[-1]["message"] == fault.detail


@pytest.mark.parametrize(
    ("game", "rule"),
    [
        # T17: a turn starts by placing the tile drawn; ending it first is refused.
        (TIKAL, "T17"),
        # J20: a turn must place a land tile before it ends; the first turn has not.
        (JAVA, "J20"),
    ],
    ids=["tikal", "java"],
)
def test_ending_the_first_turn_at_once_is_told_the_rule(game: AnyGame, rule: str) -> None:
    setup = game.random_setup(2, 1)
    result, conns = play(game, setup, [[HELLO, answer({"type": "end_turn"})], []])
    (fault,) = result.faults
    assert (fault.seat, fault.kind, fault.decision) == (0, "illegal", 1)
    assert fault.detail.startswith('{"type":"end_turn"}' + NOT_LEGAL + f": {rule}: ")
    assert conns[0].received[-1]["message"] == fault.detail


class _Without:
    """A game that forwards everything to ``game`` but has no ``why_illegal``, or
    the given one instead."""

    def __init__(self, game: AnyGame, why_illegal: Any = None) -> None:
        self._game = game
        self._why = why_illegal

    def __getattr__(self, name: str) -> Any:
        if name == "why_illegal":
            if self._why is None:
                raise AttributeError(name)
            return self._why
        return getattr(self._game, name)


def test_a_game_without_the_method_gives_the_plain_detail() -> None:
    game: Any = _Without(TAJMAHAL)
    result, conns = play(game, STACKED, MOGUL_SCRIPTS)
    (fault,) = result.faults
    assert fault.detail == '{"type":"build_mogul_palace","city":4}' + NOT_LEGAL
    assert conns[0].received[-1]["message"] == fault.detail


def _raises(state: Any, action: Any) -> str:
    raise RuntimeError("a bug in the game")


@pytest.mark.parametrize(
    ("why", "expected"),
    [
        (_raises, None),
        (lambda state, action: 42, None),
        (lambda state, action: "", None),
        (lambda state, action: "W5: \x1b[2J" + "x" * 5000, "W5: \\x1b[2J"),
    ],
    ids=["raises", "not_text", "empty", "hostile_text"],
)
def test_whatever_a_game_answers_the_reason_is_safe(why: Any, expected: str | None) -> None:
    state = TAJMAHAL.new_game(STACKED)
    action = TAJMAHAL.action_from_data(MOGUL_IN_KASHMIR)
    game: Any = _Without(TAJMAHAL, why)
    reason = illegal_reason(game, state, action)
    if expected is None:
        assert reason is None
    else:
        assert reason is not None and reason.startswith(expected)
        assert len(reason) <= REASON_LIMIT and printable(reason) == reason


def _numbered(action: dict[str, Any]) -> bool:
    return any(
        isinstance(v, list) or (isinstance(v, int) and not isinstance(v, bool))
        for v in action.values()
    )


class _Huge(Player):
    """Answers the first act that offers an action with numbers with such an
    action, each of its numbers made 5000 digits long (an in-process bot can hand
    over any Python value); answers 0 before."""

    name = "huge"

    def __init__(self) -> None:
        self.before = 0  # acts answered before the hostile one
        self.sent = False

    def choose(self, message: Message) -> Any:
        numbered = [a for a in message["legal"] if _numbered(a)]
        if self.sent or not numbered:
            self.before += not self.sent
            return 0
        self.sent = True
        data = dict(numbered[0])
        for key, value in data.items():
            if isinstance(value, int) and not isinstance(value, bool):
                data[key] = 10**5000
            elif isinstance(value, list):
                data[key] = [10**5000 for _ in value]
        return data


@pytest.mark.parametrize("game", [TAJMAHAL, TIKAL, JAVA], ids=lambda g: g.name)
def test_hostile_numbers_in_an_action_are_a_bounded_illegal_fault(game: AnyGame) -> None:
    players = 3 if game is TAJMAHAL else 2
    setup = game.random_setup(players, 5)
    huge = _Huge()
    conns = [InProcessConnection(huge, "huge")] + [
        ScriptedConnection() for _ in range(players - 1)
    ]
    result = play_match(game, setup, conns, MatchConfig(), seed=5)
    (fault,) = result.faults
    assert (fault.seat, fault.kind) == (0, "illegal")
    assert len(fault.detail) < 500 and printable(fault.detail) == fault.detail
    seat = result.seats[0]
    assert seat.fallback_decisions == seat.decisions - huge.before  # from the hostile one on
