"""The human seat and its table, without a browser: any game of the registry (a
Tikal table: its picture, clickable spaces, and a button per legal action)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from referee_support import Undrawn

from tajmahal.arena.connection import InProcessConnection
from tajmahal.arena.player import FirstPlayer
from tajmahal.arena.referee import play_match
from tajmahal.arena.registry import GAMES
from tajmahal.arena.terms import MatchConfig, MatchResult
from tajmahal.arena.webtable import HUMAN_TIME, HumanSeat, Table


def seated(game: Any, seed: int) -> tuple[Table, threading.Thread, list[MatchResult]]:
    """A person (seat 0) and the first-legal-action bot at a table of ``game``, the
    referee playing the match in a thread; its result lands in the list."""
    setup = game.random_setup(2, seed)
    table = Table(game, setup, ["human", "first"], [0])
    connections = [
        InProcessConnection(HumanSeat(table, 0), "human"),
        InProcessConnection(FirstPlayer(), "first"),
    ]
    config = MatchConfig(time=(HUMAN_TIME, MatchConfig().seat_time(1)), on_step=table.on_step)
    results: list[MatchResult] = []
    referee = threading.Thread(
        target=lambda: results.append(play_match(game, setup, connections, config, seed=seed)),
        daemon=True,  # a failed assertion must not leave pytest waiting on a person's week
    )
    referee.start()
    return table, referee, results


def test_a_person_at_a_tikal_table_answers_through_the_referee() -> None:
    game = GAMES.get("tikal")
    table, referee, results = seated(game, 7)
    answered = clickable = 0
    seen: dict[str, Any] = {}
    deadline = time.monotonic() + 60
    while referee.is_alive() and time.monotonic() < deadline:
        snap = table.snapshot(0)
        pending = snap["pending"]
        if pending is None:
            time.sleep(0.001)
            continue
        seen = snap
        options = pending["options"]
        picture = snap["picture"]
        assert picture.startswith("<svg")
        for o in options:  # a space to click is in the picture; ending the turn is a button
            assert all(f'id="{target}"' in picture for target in o["path"])
            button = o["label"] == "end the turn" or o["label"].startswith("exchange")
            assert (not o["path"]) == button
            clickable += bool(o["path"])
        assert all(isinstance(o["label"], str) and o["label"] for o in options)
        assert table.choose(1, pending["decision"], 0) is not None  # not seat 1's turn
        assert table.choose(0, pending["decision"], len(options)) is not None  # no such action
        assert table.choose(0, pending["decision"], len(options) - 1) is None
        answered += 1
        while table.pending is pending:
            time.sleep(0.001)
    referee.join(timeout=10)
    [result] = results
    assert seen["title"] == "Tikal" and seen["humans"] == [0]
    assert result.seats[0].decisions == answered > 5 and clickable > answered
    assert result.seats[0].fault is None  # a person has no time limit
    assert table.snapshot(0)["log"][-1]["decision"] == result.decisions
    table.finish(result)
    assert table.snapshot(0)["result"]["scores"] == [s.score for s in result.seats]
    assert table.snapshot(table.version) == {"version": table.version}  # nothing new


def test_a_game_that_draws_nothing_gets_buttons_only() -> None:
    game = Undrawn(GAMES.get("tikal"))
    table = Table(game, game.random_setup(2, 7), ["human", "first"], [0])
    assert table.snapshot(0)["picture"] is None


def test_bot_moves_are_paced_and_logged_with_what_they_caused(monkeypatch: Any) -> None:
    """A bot's move waits until ``pace`` seconds after the page last changed; a
    person's move shows at once; the log tells what each move caused."""
    from tajmahal.arena import webtable

    now = [100.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(round(seconds, 6))
        now[0] += seconds

    monkeypatch.setattr(webtable.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(webtable.time, "sleep", sleep)
    game = GAMES.get("tajmahal")
    setup = game.random_setup(3, 4)
    table = Table(game, setup, ["human", "first", "first"], [0], pace=0.5)
    state = table.state
    bot = game.to_act(state)
    assert bot is not None and bot != 0
    first = game.legal_actions(state)[0]
    now[0] += 0.2  # the page changed 0.2 s ago: the bot's move waits 0.3 s more
    table.on_step(1, bot, state, first, game.step(state, first)[1], "bot")
    assert slept == [0.3]
    entry = table.snapshot(0)["log"][-1]
    # the move is told once: by what it caused ("plays ..."), not also as "play ..."
    assert entry["seat"] == bot and entry["told"] and entry["text"].startswith("plays ")
    assert not any(" plays " in line for line in entry["lines"])
    assert table.snapshot(0)["last"]  # the move is marked on the picture
    # a person's move: no wait
    state = table.state
    person = game.to_act(state)
    table.humans = [person]
    action = game.legal_actions(state)[0]
    table.on_step(2, person, state, action, game.step(state, action)[1], "bot")
    assert slept == [0.3]


def test_a_person_at_a_java_table_makes_each_action_in_one_offer() -> None:
    """J19: an action is what, then where (then how); the table offers the first
    two as one and answers the second decision itself."""
    game = GAMES.get("java")
    table, referee, results = seated(game, 3)
    rng = random.Random(3)
    asked = 0
    deadline = time.monotonic() + 120
    while referee.is_alive() and time.monotonic() < deadline:
        pending = table.pending
        if pending is None:
            time.sleep(0.001)
            continue
        options = pending["options"]
        buttons = [o for o in options if not o["path"]]
        assert len(buttons) <= 5  # a handful: a token, the end of a turn or a bid
        pick = rng.randrange(len(options)) if asked % 4 else len(options) - 1
        assert table.choose(0, pending["decision"], pick) is None
        asked += 1
        while table.pending is pending:
            time.sleep(0.001)
    referee.join(timeout=10)
    [result] = results
    assert result.seats[0].fault is None
    # the person answered fewer times than the seat decided: the joined decisions
    assert 10 < asked < result.seats[0].decisions
    log = table.snapshot(0)["log"]
    human = [entry["text"] for entry in log if entry["seat"] == 0]
    assert human and not any(text in ("lay a 3-space tile", "lay water") for text in human)
