"""OpenSpiel's bots at a referee's table: leaf values from the game's own bots
(:class:`BotsEvaluator`), a referee player around any OpenSpiel bot
(:class:`OpenSpielPlayer`) and IS-MCTS (:func:`ismcts_bot`, :func:`ismcts_player`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot
from open_spiel.python.algorithms.mcts import Evaluator

from ..arena.game import AnyGame
from ..kit.adapter import Adapter
from ..kit.bots import Bots, ViewPlayer
from ..kit.encoding import Encoding
from ..version import __version__
from .game import OpenSpielGame, OpenSpielState, chance_model
from .registry import register, registered_encoding


def bots_of(game: AnyGame) -> Bots[Any, Any, Any]:
    """The game's :class:`~tajmahal.kit.bots.Bots` (its adapter's ``bots()``);
    TypeError for a game that declares none."""
    bots = game.bots() if isinstance(game, Adapter) else None
    if bots is None:
        raise TypeError(f"{game.title} declares no bots (its adapter's bots())")
    return bots


class BotsEvaluator(Evaluator):
    """Leaf values for OpenSpiel's MCTS and IS-MCTS bots, from a game's own judgement
    (its :class:`tajmahal.kit.bots.Bots`): the chance outcomes still waiting drawn at
    random, what is undecided shuffled (the chance model's ``shuffle``), then the
    game's playout (its rollout policy to its search horizon: the rest of the visit
    in Taj Mahal) and ``evaluate``, squashed to ``tanh(value / scale)`` to compare
    with the returns.  A whole random game through Python is long and says little.
    Priors are uniform."""

    def __init__(self, encoding: Encoding[Any, Any], seed: int = 0, scale: float = 10.0) -> None:
        self.bots = bots_of(encoding.game)
        self.model = chance_model(encoding)
        self.rng = random.Random(seed)
        self.scale = scale

    def evaluate(self, state: OpenSpielState) -> npt.NDArray[np.float64]:
        if state.is_terminal():
            return np.array(state.returns())
        working = state
        while working.is_chance_node():  # a decision waiting for its draws: draw them
            if working is state:
                working = state.clone()
            outcomes = working.chance_outcomes()
            working.apply_action(outcomes[self.rng.randrange(len(outcomes))][0])
        engine = self.model.shuffle(working.engine, self.rng)
        values = self.bots.playout(engine, engine, self.rng, None)
        return np.tanh(np.array(values, dtype=np.float64) / self.scale)

    def prior(self, state: OpenSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielPlayer(ViewPlayer):
    """A referee player that asks an OpenSpiel bot (``make_bot(game, seed)``) to
    choose, from a state its view allows (the hidden parts dealt at random by the
    game's ``determinize``): the bot sees what the seat sees (an IS-MCTS bot
    resamples the hidden parts itself)."""

    name = "openspiel"
    version = __version__

    def __init__(
        self,
        make_bot: Callable[[OpenSpielGame, int], Any],
        seed: int = 0,
        game: str | AnyGame | None = None,
    ) -> None:
        self.short_name = register(game)
        self.encoding = registered_encoding(self.short_name)
        super().__init__(bots_of(self.encoding.game), seed)
        self.make_bot = make_bot
        self.seed = seed
        self.game: OpenSpielGame | None = None
        self.bot: Any = None

    def pick(self, view: Any, legal: Sequence[Any]) -> int:
        guess = self.bots.determinize(view, self.rng)
        if self.game is None:
            players = self.encoding.players(guess)
            self.game = pyspiel.load_game(self.short_name, {"players": players})
            self.bot = self.make_bot(self.game, self.seed)
        chosen = int(self.bot.step(self.game.state_from_engine(guess)))
        return list(self.encoding.actions.indices(legal)).index(chosen)


def ismcts_bot(
    game: OpenSpielGame, seed: int = 0, simulations: int = 200, uct_c: float = 1.5
) -> Any:
    """OpenSpiel's IS-MCTS bot on ``game`` with :class:`BotsEvaluator` leaves."""
    bot = ISMCTSBot(
        game,
        BotsEvaluator(game.encoding, seed),
        uct_c,
        simulations,
        random_state=np.random.RandomState(seed % 2**32),
        allow_inconsistent_action_sets=True,
    )
    # Resample worlds from the bot's own seed, so that a seed fixes its play.
    worlds = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    return bot


def ismcts_player(
    seed: int = 0, simulations: int = 200, game: str | AnyGame | None = None
) -> OpenSpielPlayer:
    """A referee player for ``game`` running :func:`ismcts_bot` with
    ``simulations`` per decision."""
    player = OpenSpielPlayer(lambda g, s: ismcts_bot(g, s, simulations=simulations), seed, game)
    player.name = f"openspiel-ismcts-{simulations}"
    return player
