"""A few steps of examples/train_value_net.py: the loop runs, learns and draws its curve
(the full run takes minutes and stays out of the suite; docs/research.md has its figures)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import numpy as np

from tajmahal import Play, Setup, Withdraw, legal_actions, new_game
from tajmahal.arena import MatchConfig
from tajmahal.arena.referee import BotSpec, run_match
from tajmahal.tajmahal.adapter import TAJMAHAL
from tajmahal.tajmahal.encoding import ObservationLayout, observation_layout

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_value_net.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_value_net", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_few_training_steps_run_and_plot(tmp_path: Path) -> None:
    example = load_example()
    plot = tmp_path / "curve.png"
    argv = ["--players", "2", "--iterations", "2", "--games", "2", "--eval-games", "2"]
    result = example.main([*argv, "--plot", str(plot)])
    curve = result["curve"]
    assert [p["games"] for p in curve] == [0, 2, 4]
    assert all(0.0 <= p["win_share"] <= 1.0 for p in [*curve, result["greedy"]])
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_labels_are_final_margins_in_tens_of_points() -> None:
    example = load_example()
    # 30 - (20 + 10) / 2 = 15 points over the others' mean, 20 - 20 = 0, 10 - 25 = -15.
    assert example.margins([30, 20, 10]) == [1.5, 0.0, -1.5]
    assert example.margins([41, 41]) == [0.0, 0.0]


def test_self_play_keeps_each_decision_from_the_deciding_seats_side() -> None:
    example = load_example()
    rng = random.Random(0)
    agent = example.Agent(seed=0, hidden=8)
    x, y = example.self_play(agent, 3, seed=5, rng=rng, epsilon=1.0, keep=1.0)
    assert len(x) == len(y) > 50
    assert x[0].shape == (936 + 339 * 3,)
    # One label per seat: each seat's final margin, and the three sum to 0.
    labels = sorted(set(y))
    assert 1 <= len(labels) <= 3
    if len(labels) == 3:
        assert abs(sum(labels)) < 1e-9
    agent.learn(np.stack(x), np.array(y), epochs=1, rng=rng)
    assert agent.trained


class ValuesOneBlock:
    """A stand-in for the net: the value of an afterstate is one number of the
    deciding seat's observation."""

    def __init__(self, layout: ObservationLayout, block: str, position: int) -> None:
        self.layout, self.block, self.position = layout, block, position
        self.inputs = layout.size

    def predict(self, x: np.ndarray) -> np.ndarray:
        return np.array([self.layout.part(row, self.block).flat[self.position] for row in x])


def test_the_agent_plays_the_action_whose_afterstate_it_values_most() -> None:
    example = load_example()
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    state = new_game(Setup.stacked(3, hands))
    legal = legal_actions(state)
    agent = example.Agent(seed=0, hidden=8)
    agent.trained = True
    layout = observation_layout(3)
    rng = random.Random(1)
    # Seat 0 values having withdrawn (row 0 of "withdrawn" is the observer)...
    agent.weights = ValuesOneBlock(layout, "withdrawn", 0)
    assert legal[agent.choose(state, rng, epsilon=0.0)] == Withdraw()
    # ...or having card 3 on its own table.
    agent.weights = ValuesOneBlock(layout, "played", 3)
    assert legal[agent.choose(state, rng, epsilon=0.0)] == Play(3)


def test_training_repeats_exactly_and_saves_the_net_it_trained(tmp_path: Path) -> None:
    example = load_example()
    argv = ["--players", "3", "--iterations", "1", "--games", "2", "--eval-games", "2"]
    first = example.main([*argv, "--save", str(tmp_path / "net.npz")])
    second = example.main(argv)
    assert first["curve"] == second["curve"] and first["greedy"] == second["greedy"]
    net = example.ValueNet.load(tmp_path / "net.npz")
    assert net.inputs == observation_layout(3).size
    # The saved net is the trained one: the same values as scikit-learn's forward pass.
    agent = example.Agent(seed=1, hidden=64)
    rng = random.Random(1)
    x, y = example.self_play(agent, 3, seed=5, rng=rng, epsilon=1.0, keep=1.0)
    agent.learn(np.stack(x), np.array(y), epochs=1, rng=rng)
    copy = example.ValueNet.from_mlp(agent.net)
    copy.save(tmp_path / "copy.npz")
    again = example.ValueNet.load(tmp_path / "copy.npz")
    assert np.allclose(again.predict(np.stack(x)), agent.net.predict(np.stack(x)), atol=1e-6)


def test_the_saved_net_plays_a_match_as_a_subprocess_bot(tmp_path: Path) -> None:
    example = load_example()
    example.main(["--players", "3", "--iterations", "1", "--games", "1", "--eval-games", "1",
                  "--save", str(tmp_path / "net.npz")])  # fmt: skip
    bot = f"{EXAMPLE.parent / 'value_net_bot.py'} {tmp_path / 'net.npz'}"
    specs = [BotSpec.parse(text, ["random"]) for text in (bot, "random", "random")]
    result = run_match(TAJMAHAL, Setup.random(3, 2), specs, MatchConfig(), seed=2)
    assert result.faults == [] and len(result.scores) == 3
