"""The referee's protocol logic against scripted fake bots (no processes, no waiting)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from attrs import evolve

from tajmahal import Setup, Withdraw, new_game
from tajmahal.arena import (
    InProcessConnection,
    MatchConfig,
    Player,
    RandomPlayer,
    TimeControl,
    play_match,
    replay,
)
from tajmahal.arena.match import Match
from tajmahal.arena.protocol import Message
from tajmahal.arena.scripted import Answer, Fail, ScriptedConnection, correct_answer
from tajmahal.tajmahal.adapter import TAJMAHAL


def play(
    scripts: list[list[Any]], config: MatchConfig | None = None, seed: int = 3
) -> tuple[Any, list[ScriptedConnection]]:
    config = config or MatchConfig()
    conns = [ScriptedConnection(s, name=f"bot{i}") for i, s in enumerate(scripts)]
    setup = Setup.random(len(scripts), seed)
    return play_match(TAJMAHAL, setup, conns, config, seed=seed), conns


def test_message_flow_of_a_correct_game() -> None:
    result, conns = play([[], [], [], []])
    assert result.faults == [] and result.decisions > 150
    for seat, conn in enumerate(conns):
        types = conn.types
        assert types[0] == "hello" and types[-1] == "end"
        assert set(types[1:-1]) == {"act", "events"}
        hello = conn.received[0]
        assert hello["seat"] == seat and hello["players"] == 4
        assert hello["protocol"] == "arena" and hello["protocol_version"] == 1
        assert hello["game"] == "tajmahal" and hello["variant"] == "standard"
        assert set(hello["time"]) == {"handshake", "move", "bank"}
        assert "board" in hello["setup"] and "deck" not in hello["setup"]
        for m in conn.received:
            if m["type"] == "act":
                assert m["legal"] and m["view"]["seat"] == seat == m["view"]["to_act"]
                assert "legal" not in m["view"] and "setup" not in m["view"]
        assert conn.received[-1]["scores"] == result.scores
        assert conn.received[-1]["ranks"] == result.ranks
    decisions = [m["decision"] for c in conns for m in c.received if m["type"] == "act"]
    assert sorted(decisions) == list(range(1, result.decisions + 1))


def test_every_bot_gets_every_decisions_events_in_order_before_its_next_act() -> None:
    # Each bot sees one events message per decision that had events, in decision
    # order, each before any later act (held events go out with the next request).
    result, conns = play([[], [], [], []], seed=6)
    seen = [
        [m["decision"] for m in c.received if m["type"] == "events"] for c in conns
    ]
    assert seen[0] == seen[1] == seen[2] == seen[3]
    assert seen[0] == sorted(set(seen[0])) and len(seen[0]) > result.decisions // 2
    for conn in conns:
        latest = 0  # the last decision whose events this bot has
        for m in conn.received:
            if m["type"] == "events":
                latest = m["decision"]
            elif m["type"] == "act":
                # the events of every earlier decision with events came first
                earlier = [d for d in seen[0] if d < m["decision"]]
                assert latest == (earlier[-1] if earlier else 0)


def test_no_seat_learns_a_card_another_seat_drew() -> None:
    _, conns = play([[], [], []], seed=11)
    own_draws = 0
    for seat, conn in enumerate(conns):
        for m in conn.received:
            if m["type"] != "events":
                continue
            for e in m["events"]:
                if e["type"] == "card_drawn":
                    if e["seat"] == seat:
                        own_draws += 1
                        assert e["card"] is not None
                    else:
                        assert e["card"] is None
    assert own_draws > 0


def test_hands_of_other_seats_are_never_sent() -> None:
    result, conns = play([[], [], []], seed=4)
    state = new_game(Setup.random(3, 4))
    hello_setup = conns[0].received[0]["setup"]
    assert "deck" not in hello_setup and "seed" not in hello_setup
    for conn in conns:
        for m in conn.received:
            if m["type"] == "act":
                view = m["view"]
                assert all("hand" not in p for p in view["players"])
                assert "deck" not in view and view["deck_size"] >= 0
    assert state.players[0].hand  # the setup deals real hands, which stayed hidden
    assert result.faults == []


def test_action_object_is_accepted_like_its_index() -> None:
    withdraw = {"type": "action", "action": {"type": "withdraw"}}
    result, conns = play([[], [Answer(correct_answer({"type": "hello"})), Answer(withdraw)], []])
    assert result.faults == []
    first_act = next(m for m in conns[1].received if m["type"] == "act")
    assert first_act["legal"][-1] == {"type": "withdraw"}


def test_time_bank_pays_for_overruns_then_runs_out() -> None:
    hello = Answer(correct_answer({"type": "hello"}))
    choice = {"type": "action", "choice": 0}
    script = [hello, *(Answer(choice, delay=d) for d in (1.5, 1.6, 3.0))]
    config = MatchConfig(time=TimeControl(move=1.0, bank=2.0))
    result, conns = play([script, [], []], config)
    acts = [m for m in conns[0].received if m["type"] == "act"]
    assert [a["time"] for a in acts[:3]] == [
        {"move": 1.0, "bank": 2.0},
        {"move": 1.0, "bank": 1.5},  # the first answer overran by 0.5 s
        {"move": 1.0, "bank": 0.9},
    ]
    (fault,) = result.faults
    assert (fault.seat, fault.kind, fault.phase) == (0, "timeout", "act")
    assert fault.decision == acts[2]["decision"]
    assert "1 s per decision + 0.900 s left in the bank" in fault.detail
    assert result.seats[0].time_max == pytest.approx(1.6)


def test_per_seat_time_controls() -> None:
    hello = Answer(correct_answer({"type": "hello"}))
    slow = Answer({"type": "action", "choice": 0}, delay=0.5)
    config = MatchConfig(time=(TimeControl(1.0, 0.0), TimeControl(0.1, 0.0), TimeControl()))
    result, _ = play([[hello, slow], [hello, slow], []], config)
    assert [(f.seat, f.kind) for f in result.faults] == [(1, "timeout")]


@pytest.mark.parametrize(
    ("entry", "kind"),
    [
        (Fail("crash", "exited (exit 1)"), "crash"),
        (Fail("closed"), "closed"),
        (Fail("oversized"), "oversized"),
        (Answer(b"{not json"), "malformed"),
        (Answer({"type": "action", "choice": 99}), "illegal"),
        (Answer({"type": "action", "action": {"type": "take_card", "card": 0}}), "illegal"),
        (Answer({"type": "action", "action": {"type": "nonsense"}}), "protocol"),
        (Answer({"type": "action", "choice": "1"}), "protocol"),
        (Answer({"type": "action", "choice": 0}, unasked=b"{}"), "protocol"),
    ],
)
def test_fault_then_fallback(entry: Any, kind: str) -> None:
    hello = Answer(correct_answer({"type": "hello"}))
    result, conns = play([[], [hello, Answer({"type": "action", "choice": 0}), entry], []])
    (fault,) = result.faults
    assert (fault.seat, fault.kind, fault.phase) == (1, kind, "act")
    conn = conns[1]
    assert conn.killed
    error = conn.received[-1]
    if kind not in ("crash", "closed", "oversized"):
        assert error["type"] == "error" and error["fault"] == kind
    assert "end" not in conn.types  # a stopped bot gets nothing more
    seat = result.seats[1]
    assert seat.fallback_decisions > 0 and seat.fault == fault
    assert all(s.fault is None for s in result.seats if s.seat != 1)


def test_handshake_faults() -> None:
    wrong = Answer({"type": "hello", "name": "x", "version": "1", "protocol_version": 2})
    result, conns = play([[wrong], [Fail("crash")], [Answer({"type": "action", "choice": 0})]])
    kinds = [(f.seat, f.kind, f.phase, f.decision) for f in result.faults]
    assert kinds == [(0, "protocol", "hello", 0), (1, "crash", "hello", 0),
                     (2, "protocol", "hello", 0)]
    assert conns[0].received[-1]["type"] == "error"
    assert "version 2" in conns[0].received[-1]["message"]
    assert all(s.fallback_decisions == s.decisions > 0 for s in result.seats)


def test_fallback_withdraws_when_it_can() -> None:
    result, _ = play([[Fail("crash")], [], []])
    assert result.seats[0].fallback_decisions == result.seats[0].decisions
    state = new_game(Setup.random(3, 3))
    legal = TAJMAHAL.legal_actions(state)
    assert legal[TAJMAHAL.fallback(state, legal)] == Withdraw()


def test_record_of_a_scripted_game_replays(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    result, _ = play([[], [Fail("closed")], []], MatchConfig(record=record))
    done = replay(TAJMAHAL, record)
    assert done.result["scores"] == result.scores
    assert len(done.steps) == result.decisions
    assert [s.decision for s in done.steps if s.fault] == [1]
    assert {s.by for s in done.steps if s.seat == 1} == {"fallback"}
    assert [p.name for p in tmp_path.iterdir()] == ["r.jsonl"]  # logs only for real bots


def test_step_lines_and_hooks_come_in_order_around_faults(tmp_path: Path) -> None:
    """The record line of a step is written while the next bot thinks, yet every
    line still comes in game order, before a later fault (found before a request,
    or while waiting for the answer), as the on_step and on_fault hooks see them."""
    record = tmp_path / "r.jsonl"
    seen: list[tuple[str, int]] = []
    config = MatchConfig(
        record=record,
        on_step=lambda decision, *_: seen.append(("action", decision)),
        on_fault=lambda fault: seen.append(("fault", fault.decision)),
    )
    act = correct_answer({"type": "act"})
    hello, choice = Answer(correct_answer({"type": "hello"})), Answer(act)
    unasked = Answer(act, unasked=b'{"type":"action","choice":0}')
    scripts: list[list[Any]] = [
        [],
        [hello, choice, choice, unasked],  # seen before its 4th request
        [hello, *[choice] * 5, Fail("crash")],  # at its 6th decision
    ]
    result, _ = play(scripts, config)
    assert [(f.seat, f.kind) for f in result.faults] == [(1, "protocol"), (2, "crash")]
    lines = [orjson.loads(x) for x in record.read_bytes().splitlines()][1:-1]
    order = [(x["type"], x["decision"]) for x in lines]
    asked = {s: [x["decision"] for x in lines if x.get("seat") == s and x["type"] == "action"]
             for s in (1, 2)}
    # The second answer belongs to the decision it answered (seat 1's 3rd), but it
    # is found, and recorded, just before seat 1's 4th decision.
    second, crash = result.faults
    assert second.decision == asked[1][2]
    assert "after its answer to decision" in second.detail
    assert crash.decision == asked[2][5]
    found_before = {asked[1][3]: second.decision, crash.decision: crash.decision}
    expected: list[tuple[str, int]] = []
    for decision in range(1, result.decisions + 1):
        if decision in found_before:
            expected.append(("fault", found_before[decision]))
        expected.append(("action", decision))
    assert order == expected
    assert seen == expected


class Raising(Player):
    def choose(self, message: Message) -> int:
        if message["decision"] > 10:
            raise ZeroDivisionError("bad luck")
        return 0


class Sleepy(Player):
    def __init__(self) -> None:
        self.clock = 0

    def choose(self, message: Message) -> int:
        import time

        time.sleep(0.06)
        return 0


def test_in_process_players_fault_like_processes(tmp_path: Path) -> None:
    log = tmp_path / "raising.log"
    conns = [
        InProcessConnection(Raising(), "raising", log),
        InProcessConnection(Sleepy(), "sleepy"),
        ScriptedConnection(),
    ]
    config = MatchConfig(time=(TimeControl(), TimeControl(0.01, 0.1), TimeControl()))
    result = play_match(TAJMAHAL, Setup.random(3, 1), conns, config)
    kinds = {f.seat: f.kind for f in result.faults}
    assert kinds == {0: "crash", 1: "timeout"}
    assert "ZeroDivisionError: bad luck" in result.faults[0].detail
    assert "Traceback" in log.read_text()


def test_a_match_that_fails_midway_leaves_no_record(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    record.write_text("the good record of an earlier game\n")

    def stop(decision: int, *_: Any) -> None:
        if decision == 50:
            raise KeyboardInterrupt

    conns = [ScriptedConnection() for _ in range(3)]
    config = MatchConfig(record=record, on_step=stop)
    with pytest.raises(KeyboardInterrupt):
        play_match(TAJMAHAL, Setup.random(3, 1), conns, config)
    assert record.read_text() == "the good record of an earlier game\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.jsonl"]
    assert all(c.killed for c in conns)


def test_legal_actions_are_encoded_once_as_the_game_says() -> None:
    def match() -> Match:
        conns = [ScriptedConnection() for _ in range(3)]
        return Match(TAJMAHAL, Setup.random(3, 1), conns, MatchConfig(), 1)

    first = match()
    legal = TAJMAHAL.legal_actions(new_game(Setup.random(3, 1)))
    expected = orjson.dumps([TAJMAHAL.action_to_data(a) for a in legal])
    assert first.legal_json(legal) == expected
    texts = first.action_texts
    assert all(a in texts.by_value and texts.by_id[id(a)][0] is a for a in legal)
    assert match().action_texts is texts  # kept for the game's next matches
    assert first.legal_json(legal) == expected
    equal = [evolve(a) for a in legal]  # equal actions, other objects
    assert first.legal_json(equal) == expected

    class Unhashable:  # a game whose actions are dicts
        @staticmethod
        def action_to_data(action: Any) -> Any:
            return action

    first.game = Unhashable()  # type: ignore[assignment]
    assert first.legal_json([{"x": 1}, {"y": [2]}]) == b'[{"x":1},{"y":[2]}]'


# ------------------------------------------------- what in-process players are sent


class _Counting:
    """The Taj Mahal game, counting the views and events the referee encodes."""

    def __init__(self) -> None:
        self.views = 0
        self.events = 0

    def view_json(self, state: Any, seat: int) -> bytes:
        self.views += 1
        return TAJMAHAL.view_json(state, seat)

    def event_json(self, event: Any, seat: int | None) -> bytes:
        self.events += 1
        return TAJMAHAL.event_json(event, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(TAJMAHAL, name)


class _Recorder(Player):
    """Keeps every message; plays the first legal action."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def handle(self, message: Message) -> Message | None:
        self.messages.append(message)
        return super().handle(message)

    def choose(self, message: Message) -> int:
        return 0

    def of_type(self, kind: str) -> list[Message]:
        return [m for m in self.messages if m["type"] == kind]


class _Blind(_Recorder):
    reads_view = False


class _Listener(Player):
    """Reads events through the hook, not by overriding handle."""

    def __init__(self) -> None:
        self.events: list[Message] = []
        self.acts = 0

    def on_events(self, message: Message) -> None:
        self.events.append(message)

    def choose(self, message: Message) -> int:
        self.acts += 1
        return 0


def _play_in_process(players: list[Player], game: Any = TAJMAHAL) -> Any:
    conns = [InProcessConnection(p, p.name, None) for p in players]
    return play_match(game, Setup.random(len(players), 4), conns, MatchConfig(), seed=4)


def test_players_that_ignore_views_and_events_cost_no_encoding() -> None:
    # Built-in random players keep the default on_events and do not read views:
    # the referee encodes neither for them (the tournament's cost per game).
    counting = _Counting()
    result = _play_in_process([RandomPlayer(s) for s in range(4)], counting)
    assert result.faults == [] and result.decisions > 100
    assert (counting.views, counting.events) == (0, 0)
    # A player that listens through on_events gets them, and reads its views: the
    # referee encodes events, and the views of its own decisions only.
    counting = _Counting()
    listener = _Listener()
    _play_in_process([listener, RandomPlayer(1), RandomPlayer(2)], counting)
    assert counting.views == listener.acts > 0 and counting.events > 0
    assert listener.events and all(m["type"] == "events" for m in listener.events)


def test_an_act_without_its_view_is_the_act_but_for_the_view() -> None:
    blind, seeing = _Blind(), _Recorder()
    result = _play_in_process([blind, seeing, RandomPlayer(2)])
    assert result.faults == []
    for act in blind.of_type("act"):
        assert set(act) == {"type", "decision", "legal", "time"}
        assert act["legal"]
    for act in seeing.of_type("act"):
        assert set(act) == {"type", "decision", "view", "legal", "time"}
        assert act["view"]["seat"] == 1
    # _Recorder overrides handle, so it is sent the events too; the blind one as well.
    assert seeing.of_type("events") and blind.of_type("events")


def test_leaving_out_views_and_events_does_not_change_the_game() -> None:
    class Seeing(RandomPlayer):
        reads_view = True

        def on_events(self, message: Message) -> None:
            self.events = getattr(self, "events", 0) + 1

    blind = _play_in_process([RandomPlayer(s) for s in range(3)])
    seeing = _play_in_process([Seeing(s) for s in range(3)])
    assert blind.to_data()["scores"] == seeing.to_data()["scores"]
    assert blind.decisions == seeing.decisions
