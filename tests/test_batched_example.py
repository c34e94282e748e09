"""A small run of examples/batched_value_net.py: self-play on the batched engine
labels each kept afterstate with its seat's final margin, the net trains, and the
saved net is one examples/value_net_bot.py reads (docs/research.md has the full run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from tajmahal.tajmahal.encoding import observation_layout

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # equinox's modules are dataclasses: they look it up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # compiles the batched engine and the net
@pytest.mark.once
def test_self_play_trains_a_net_that_the_bot_reads(tmp_path: Path) -> None:
    example = load("batched_value_net")
    x, y = example.self_play(players=3, games=4, seed=2)
    layout = observation_layout(3)
    assert x.shape[1] == layout.size and len(x) == len(y) > 4 * 20  # 1 in 8 of ~180 steps
    assert np.isin(layout.part(x[0], "phase").nonzero()[0], [0, 1, 2, 3]).all()
    # a margin of three seats, in tens of points: t - (others) / 2, a multiple of 1/20
    np.testing.assert_allclose(y * 20, np.round(y * 20), atol=1e-4)
    net, curve = example.train(x, y, hidden=8, epochs=2, seed=0)
    assert len(curve) == 2 and all(np.isfinite(c).all() for c in curve)
    saved = tmp_path / "net.npz"
    net.weights().save(saved)
    bot = load("value_net_bot").ValueNet.load(saved)
    assert bot.inputs == layout.size
    mine = np.asarray([net(row) for row in x[:5]])
    np.testing.assert_allclose(bot.predict(x[:5]), mine, rtol=1e-4, atol=1e-5)
