"""OpenSpiel's search bots at a Taj Mahal table (:mod:`tajmahal.openspiel` is the game).

:func:`ismcts_player` is a referee player that runs OpenSpiel's IS-MCTS bot on
``python_tajmahal``: at each decision it builds an OpenSpiel state from its view,
and the search resamples the hidden cards itself.  Leaves are valued by
:class:`VisitRolloutEvaluator`.  ``examples/openspiel_ismcts.py`` plays it against
the built-in bots.

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from attrs import evolve
from open_spiel.python.algorithms.ismcts import ISMCTSBot
from open_spiel.python.algorithms.mcts import Evaluator

from .. import __version__
from ..kit.bots import ViewPlayer
from ..openspiel import OpenSpielGame, OpenSpielState, register
from .actions import Action
from .adapter import TAJMAHAL
from .bots import BOTS
from .encoding import action_index, outcome
from .hidden import determinize
from .mcts import evaluate, rollout
from .views import PlayerView

__all__ = ["OpenSpielPlayer", "VisitRolloutEvaluator", "ismcts_bot", "ismcts_player"]


class VisitRolloutEvaluator(Evaluator):
    """Leaf values for OpenSpiel's MCTS and IS-MCTS bots.

    A full random playout of Taj Mahal is long and says little; this one plays
    the rest of the current visit with :func:`tajmahal.tajmahal.mcts.rollout_action` (the
    built-in ``mcts`` bot's policy; the deck's order drawn at random) and scores
    each seat with :func:`tajmahal.tajmahal.mcts.evaluate` (points, influence and hand worth
    over the best rival's), squashed to ``tanh(value / scale)`` so that it is
    comparable with the game's returns.  Priors are uniform.
    """

    def __init__(self, seed: int = 0, scale: float = 10.0, noise: float = 0.6) -> None:
        self.rng = random.Random(seed)
        self.scale = scale
        self.noise = noise

    def evaluate(self, state: OpenSpielState) -> npt.NDArray[np.float64]:
        if state.is_terminal():
            return np.array(state.returns())
        working = state
        while working.is_chance_node():  # an action waiting for its cards: draw them
            if working is state:
                working = state.clone()
            outcomes = working.chance_outcomes()
            working.apply_action(outcomes[self.rng.randrange(len(outcomes))][0])
        engine = working.engine
        assert engine is not None
        deck = list(engine.deck)
        self.rng.shuffle(deck)
        end = rollout(evolve(engine, deck=tuple(deck)), self.rng, self.noise)
        if end.to_act is None:
            return np.array(outcome(end))
        return np.tanh(np.array(evaluate(end)) / self.scale)

    def prior(self, state: OpenSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielPlayer(ViewPlayer):
    """A referee player that asks an OpenSpiel bot (``make_bot(game, seed)``) to
    choose, from a state its view allows (the hidden cards dealt at random,
    :func:`tajmahal.determinize`): the bot sees what the seat sees (an IS-MCTS bot
    resamples the hidden cards itself)."""

    name = "openspiel"
    version = __version__

    def __init__(self, make_bot: Callable[[OpenSpielGame, int], Any], seed: int = 0) -> None:
        super().__init__(BOTS, seed)
        self.make_bot = make_bot
        self.seed = seed
        self.game: OpenSpielGame | None = None
        self.bot: Any = None

    def pick(self, v: PlayerView, legal: Sequence[Action]) -> int:
        if self.game is None:
            self.game = pyspiel.load_game(register(TAJMAHAL), {"players": v.setup.players})
            self.bot = self.make_bot(self.game, self.seed)
        state = self.game.state_from_engine(determinize(v, self.rng))
        chosen = int(self.bot.step(state))
        return [action_index(a) for a in legal].index(chosen)


def ismcts_bot(
    game: OpenSpielGame, seed: int = 0, simulations: int = 200, uct_c: float = 1.5
) -> Any:
    """OpenSpiel's IS-MCTS bot with :class:`VisitRolloutEvaluator` leaves."""
    bot = ISMCTSBot(
        game,
        VisitRolloutEvaluator(seed),
        uct_c,
        simulations,
        random_state=np.random.RandomState(seed % 2**32),
        allow_inconsistent_action_sets=True,
    )
    # Resample worlds from the bot's own seed, so that a seed fixes its play.
    worlds = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    return bot


def ismcts_player(seed: int = 0, simulations: int = 200) -> OpenSpielPlayer:
    """A referee player running :func:`ismcts_bot` with ``simulations`` per decision."""
    player = OpenSpielPlayer(lambda game, s: ismcts_bot(game, s, simulations=simulations), seed)
    player.name = f"openspiel-ismcts-{simulations}"
    return player
