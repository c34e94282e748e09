"""An interrupted game is kept, and goes on from its record (`tajmahal play
--resume`): the referee's side, with in-process and scripted players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tajmahal import Setup
from tajmahal.arena import InProcessConnection, MatchConfig, Player, RandomPlayer, play_match
from tajmahal.arena.connection import Connection
from tajmahal.arena.protocol import Message
from tajmahal.arena.record import RecordError
from tajmahal.arena.replayer import replay
from tajmahal.arena.resume import (
    ResumeError,
    interrupted_at,
    kept_at,
    read_interrupted,
    whole_game_at,
)
from tajmahal.arena.scripted import Answer, ScriptedConnection, correct_answer
from tajmahal.tajmahal.adapter import TAJMAHAL

SEED = 5


class Stops(RandomPlayer):
    """A random player that is interrupted (Ctrl-C) when asked decision ``at``."""

    def __init__(self, seed: int, at: int) -> None:
        super().__init__(seed)
        self.at = at

    def choose(self, message: Message) -> int:
        if message["decision"] >= self.at:
            raise KeyboardInterrupt
        return super().choose(message)


def seats(first: Player, faulty: bool) -> list[Connection]:
    """Seat 0 ``first``; seat 1 a scripted bot (answering an index out of range at
    its first decision when ``faulty``: an illegal answer, then the fallback plays
    it); seat 2 a random player."""
    hello = Answer(correct_answer({"type": "hello"}, "scripted"))
    script = [hello, Answer({"type": "action", "choice": 999})] if faulty else []
    return [
        InProcessConnection(first, "random"),
        ScriptedConnection(script, name="scripted"),
        InProcessConnection(RandomPlayer(2), "random"),
    ]


def actions(path: Path) -> list[dict[str, Any]]:
    lines = [orjson.loads(x) for x in path.read_bytes().splitlines()]
    return [{k: x[k] for k in ("decision", "seat", "action", "choice", "by")} if
            x["type"] == "action" else x for x in lines[1:] if x["type"] in ("action", "fault")]


def interrupted_game(tmp_path: Path, faulty: bool, at: int = 40) -> tuple[Path, Any]:
    kept = tmp_path / "g.jsonl"
    setup = Setup.random(3, SEED)
    with pytest.raises(KeyboardInterrupt):
        play_match(TAJMAHAL, setup, seats(Stops(1, at), faulty), MatchConfig(), SEED, keep=kept)
    return kept, setup


@pytest.mark.parametrize("faulty", [False, True])
def test_an_interrupted_game_is_kept_and_goes_on_as_it_was(tmp_path: Path, faulty: bool) -> None:
    kept, setup = interrupted_game(tmp_path, faulty)
    # the decisions made before the one under way at the interruption (seat 0's
    # first from decision 40 on), sealed
    made = interrupted_at(kept)
    assert made is not None and made >= 39
    with pytest.raises(RecordError, match=f"after {made} decisions: `tajmahal play --resume"):
        replay(TAJMAHAL, kept)
    done = read_interrupted(TAJMAHAL, kept)
    assert len(done.steps) == made and done.sealed == "here"
    state = TAJMAHAL.new_game(setup)
    for step in done.steps:
        state, _ = TAJMAHAL.step(state, TAJMAHAL.legal_actions(state)[step.choice])
    assert TAJMAHAL.to_act(state) == 0
    # the same deal again, each decision as the record says (the seats are not
    # asked), the fault where it happened; then the game goes on to its end
    record = tmp_path / "whole.jsonl"
    config = MatchConfig(record=record)
    result = play_match(
        TAJMAHAL, setup, seats(RandomPlayer(9), False), config, SEED, resume=done
    )
    assert result.decisions > 100
    whole = replay(TAJMAHAL, record)  # every check of a record: it is one game
    assert whole.result["decisions"] == result.decisions
    assert actions(record)[: len(actions(kept))] == actions(kept)
    if faulty:  # seat 1 stays faulted: the fallback plays it to the end
        assert result.seats[1].fault is not None and result.seats[1].fault.kind == "illegal"
        assert result.seats[1].fallback_decisions == result.seats[1].decisions
    else:
        assert all(s.fault is None for s in result.seats)


def test_interrupted_again_it_keeps_more_and_never_fewer(tmp_path: Path) -> None:
    kept, setup = interrupted_game(tmp_path, False, at=20)
    first = interrupted_at(kept)
    assert first is not None and first >= 19
    done = read_interrupted(TAJMAHAL, kept)
    with pytest.raises(KeyboardInterrupt):  # later: the record grows
        play_match(TAJMAHAL, setup, seats(Stops(1, 60), False), MatchConfig(), SEED,
                   keep=kept, resume=done)  # fmt: skip
    again = interrupted_at(kept)
    assert again is not None and again >= 59
    before = kept.read_bytes()
    done = read_interrupted(TAJMAHAL, kept)

    def stop(decision: int, *_: Any) -> None:
        if decision == 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # while its decisions are made again: kept as is
        play_match(TAJMAHAL, setup, seats(RandomPlayer(1), False),
                   MatchConfig(on_step=stop), SEED, keep=kept, resume=done)  # fmt: skip
    assert kept.read_bytes() == before


class StopsAtHello(RandomPlayer):
    def on_hello(self, message: Message) -> None:
        raise KeyboardInterrupt


@pytest.mark.parametrize("player", [StopsAtHello(1), Stops(1, 1)])
def test_a_game_interrupted_before_a_decision_was_made_keeps_nothing(
    tmp_path: Path, player: Player
) -> None:
    kept = tmp_path / "g.jsonl"
    setup = next(s for s in map(lambda k: Setup.random(3, k), range(50)) if s.start_player == 0)
    with pytest.raises(KeyboardInterrupt):
        play_match(TAJMAHAL, setup, seats(player, False), MatchConfig(), SEED, keep=kept)
    assert not kept.exists()


def test_a_finished_record_is_never_replaced_by_an_interrupted_game(tmp_path: Path) -> None:
    finished = tmp_path / "g.jsonl"
    play_match(TAJMAHAL, Setup.random(3, 1), seats(RandomPlayer(1), False),
               MatchConfig(record=finished), 1)  # fmt: skip
    assert kept_at(finished, 1) == tmp_path / "g.interrupted.jsonl"
    assert kept_at(tmp_path / "new.jsonl", 1) == tmp_path / "new.jsonl"
    assert kept_at(None, 7) == Path("runs/play-7.interrupted.jsonl")
    kept, _ = interrupted_game(tmp_path / "x", False)
    assert kept_at(kept, SEED) == kept  # an interrupted game's record: replaced by a longer one
    with pytest.raises(ResumeError, match="a finished game"):
        read_interrupted(TAJMAHAL, finished)
    # the whole game, resumed without a record named: where its interruption was kept
    assert whole_game_at(tmp_path / "g.interrupted.jsonl") == tmp_path / "g.interrupted.jsonl"
    assert whole_game_at(tmp_path / "h.interrupted.jsonl") == tmp_path / "h.jsonl"
    assert whole_game_at(kept) == kept


def test_a_changed_record_does_not_resume(tmp_path: Path) -> None:
    kept, _ = interrupted_game(tmp_path, False)
    lines = kept.read_bytes().splitlines()
    step = orjson.loads(lines[5])
    step["time"] = step["time"] + 0.5  # still a valid record, but not as it was written
    kept.write_bytes(b"\n".join([*lines[:5], orjson.dumps(step), *lines[6:]]) + b"\n")
    with pytest.raises(ResumeError, match="line 6"):
        read_interrupted(TAJMAHAL, kept)


def test_a_resumed_game_needs_the_same_players(tmp_path: Path) -> None:
    kept, setup = interrupted_game(tmp_path, False)
    done = read_interrupted(TAJMAHAL, kept)
    other = seats(RandomPlayer(1), False)
    other[1] = ScriptedConnection([], name="someone else")
    with pytest.raises(ResumeError, match="seat 1 is someone else"):
        play_match(TAJMAHAL, setup, other, MatchConfig(), SEED, resume=done)


def test_the_command_line_says_what_cannot_be_resumed(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tajmahal.cli import main

    kept, _ = interrupted_game(tmp_path, False)
    finished = tmp_path / "done.jsonl"
    play_match(TAJMAHAL, Setup.random(3, 1), seats(RandomPlayer(1), False),
               MatchConfig(record=finished), 1)  # fmt: skip
    runner = CliRunner()

    def said(*args: str) -> str:
        out = runner.invoke(main, ["play", *args, "--no-browser", "--port", "0"])
        assert out.exit_code == 2, out.output
        return out.output

    assert "--resume plays the seats of its record: give no SEATs" in said(
        "human", "greedy", "random", "--resume", str(kept)
    )
    assert "a finished game (nothing to resume)" in said("--resume", str(finished))
    # `tajmahal replay` of the interrupted record says how to go on with it
    out = runner.invoke(main, ["replay", str(kept)])
    assert out.exit_code != 0 and "`tajmahal play --resume RECORD` goes on with it" in out.output
