"""The example game of docs/adding-a-game.md — Pig, in examples/pig — on every part
of the platform, with nothing changed outside its own package: its rules (P1-P5 of
the docs), ``tajmahal match``, ``tournament`` and ``replay --html`` (the viewer) as
a user runs them once the package is installed, the suite every game passes
(tajmahal.suite: a game that is not one of this package's three, as an author runs
it), and OpenSpiel's MCTSBot.

"Installed" is what pip leaves behind: the package on the path and a dist-info
declaring its ``tajmahal.games`` entry point, written here from
examples/pig/pyproject.toml (no pip, no network).
"""

from __future__ import annotations

import doctest
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import orjson
import pyspiel
import pytest
from open_spiel.python.algorithms.mcts import MCTSBot
from research_support import Rollouts, play
from viewer_support import Page

import tajmahal.openspiel as tos
from tajmahal.arena.terms import REPRODUCIBLE_SEEDS
from tajmahal.suite import game_suite

PIG_DIR = Path(__file__).resolve().parents[1] / "examples" / "pig"
if str(PIG_DIR) not in sys.path:
    sys.path.insert(0, str(PIG_DIR))

from pig import rules  # noqa: E402
from pig.adapter import PIG  # noqa: E402

COUNTS = (2, 3, 4)


# --------------------------------------------------------------------------- the rules


def play_out(dice: tuple[int, ...], players: int, actions: str) -> rules.State:
    """A game with these first faces (then 2s), played by ``actions``: r(oll), h(old)."""
    state = rules.new_game(rules.Setup(players, dice + (2,) * (rules.MAX_ROLLS - len(dice))))
    for a in actions:
        state = rules.apply(state, rules.ROLL if a == "r" else rules.HOLD)
    return state


def test_pig_rules_turns_rolls_holds_and_the_goal() -> None:
    # P2 + P3: seat 0 rolls 3 and 4 (7 this turn) and holds; seat 1 rolls a 1: its
    # turn ends with nothing; seat 0 again.
    state = play_out((3, 4, 1), 2, "rrhr")
    assert state.banks == (7, 0) and state.to_act == 0 and state.round == 2
    assert rules.legal_actions(state) == (rules.ROLL,)  # P3: hold only after a roll
    with pytest.raises(rules.IllegalAction, match="^P3"):
        rules.apply(state, rules.HOLD)
    # P4: 6 + 6 + 6 + 6 + 6 = 30 reaches the goal: banked, and the game is over.
    over = play_out((6, 6, 6, 6, 6), 3, "rrrrr")
    assert over.to_act is None and over.banks == (30, 0, 0)
    assert PIG.ranks(over) == [1, 2, 2]
    with pytest.raises(rules.IllegalAction, match="^P4"):
        rules.apply(over, rules.ROLL)


def test_pig_rules_end_after_the_last_round_and_equal_banks_share() -> None:
    # P5: every turn of 8 rounds a 1 at once, then the banks (all 0) share rank 1.
    state = play_out((1,) * 16, 2, "r" * 16)
    assert state.to_act is None and PIG.ranks(state) == [1, 1]
    assert doctest.testmod(rules).failed == 0  # the module's own example


# --------------------------------------------------------------------------- the commands


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a user who ran ``pip install -e examples/pig``."""
    site = tmp_path_factory.mktemp("site")
    project = tomllib.loads((PIG_DIR / "pyproject.toml").read_text())["project"]
    info = site / f"tajmahal_pig-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    points = project["entry-points"]["tajmahal.games"]
    (info / "entry_points.txt").write_text(
        "[tajmahal.games]\n" + "".join(f"{k} = {v}\n" for k, v in points.items())
    )
    path = os.pathsep.join([str(PIG_DIR), str(site)])
    # --seed deals from the seed itself (not under the referee's key): the same dice
    # in every run, so the protocol bot's turns reach 20 as the test expects
    return {**os.environ, "PYTHONPATH": path, REPRODUCIBLE_SEEDS: "1"}


def tajmahal(env: dict[str, str], *args: str) -> str:
    """Run the ``tajmahal`` command in a process of its own; its output."""
    result = subprocess.run(
        [sys.executable, "-c", "from tajmahal.cli import main; main()", *args],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.once
def test_pig_plays_under_match_tournament_and_the_replay_viewer(
    installed: dict[str, str], tmp_path: Path
) -> None:
    record = tmp_path / "game.jsonl"
    bot = str(PIG_DIR / "hold_at_20.py")  # a subprocess bot speaking the protocol
    tajmahal(installed, "match", "--game", "pig", "mcts", "greedy", bot,
             "--seed", "4", "--record", str(record))  # fmt: skip
    lines = [orjson.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["game"] == "pig"
    assert [p["name"] for p in lines[0]["players"]] == ["mcts", "greedy", "hold_at_20"]
    held = [x["scores"][2] for x in lines if x.get("seat") == 2 and x["action"]["type"] == "hold"]
    assert held and min(held) >= 20  # the protocol bot held, and only at 20 or more
    tajmahal(installed, "replay", str(record), "--verify")
    page = tmp_path / "game.html"
    tajmahal(installed, "replay", str(record), "--html", str(page))
    steps = Page(page).games[0]["steps"]  # each step's texts, as the page shows them
    assert steps[0]["lines"] == ["# Pig to 30 in 8 rounds; mcts (seat 0) starts"]
    # the roll told once, by what it caused
    assert steps[1]["told"] and steps[1]["text"].startswith("rolls a")

    runs = tmp_path / "t"
    tajmahal(installed, "tournament", "--game", "pig", "greedy", "random",
             "--games", "4", "-j", "1", "--seed", "5", "--out", str(runs))  # fmt: skip
    standings = orjson.loads((runs / "standings.json").read_bytes())
    assert standings["tournament"]["game"] == "pig" and standings["finished"] == 4
    assert [e["fault_games"] for e in standings["entrants"]] == [0, 0]


# --------------------------------------------------------------------------- research


#: The suite every game passes (interface, JSON forms, protocol, viewer, encoding,
#: PettingZoo's and OpenSpiel's own tests), as Pig's author runs it.
TestPig = game_suite(PIG)


@pytest.mark.once
@pytest.mark.parametrize("players", COUNTS)
def test_pig_in_openspiel_mcts_bot_plays_20_games(players: int) -> None:
    assert tos.register(PIG) == "python_pig"
    game = pyspiel.load_game("python_pig", {"players": players})
    for number in range(20):
        rng = random.Random(number)
        bot = MCTSBot(game, 2, 4, Rollouts(rng, None), random_state=np.random.RandomState(number))
        seat = number % players
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                play(state, rng, steps=1)
        assert sum(state.returns()) == pytest.approx(0.0)


def test_pig_s_action_texts_read_back_and_it_has_no_position_lines() -> None:
    rng = random.Random(5)
    for players in COUNTS:
        state = PIG.new_game(PIG.random_setup(players, players))
        while PIG.to_act(state) is not None:
            legal = PIG.legal_actions(state)
            for action in legal:  # Game.action_text and parse_action, from describe_action
                assert PIG.parse_action(state, PIG.action_text(state, action)) == action
            state, _ = PIG.step(state, rng.choice(legal))
    assert PIG.position_text(state) is None  # its adapter names no state class
    with pytest.raises(ValueError, match="Pig has no position texts"):
        PIG.parse_position("pig/1 2 standard seed=1 x")
