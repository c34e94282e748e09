"""Every game of the package in OpenSpiel: ``import tajmahal.openspiel`` registers
``python_tajmahal``, ``python_tikal`` and ``python_java``, and ``python_<name>`` for
each game another package adds through the ``tajmahal.games`` entry points with an
encoding (:func:`register` adds one by hand).

>>> import pyspiel
>>> import tajmahal.openspiel
>>> game = pyspiel.load_game("python_tajmahal", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 1623, 96)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # who starts
(True, 3)

Each game is sequential, of imperfect information, with explicit chance nodes:
the game's chance model (:mod:`tajmahal.kit.chance`; Taj Mahal's is
:mod:`tajmahal.tajmahal.chance`) turns its setup and every draw into chance
nodes, one random event each, chosen when it happens.  Player actions are the
indices of the game's encoding (:mod:`tajmahal.kit.encoding`).  Returns come at
the end: :func:`tajmahal.kit.encoding.zero_sum` of the scores (+1 for a lone
winner, ``-1/(n-1)`` for each other seat).  The observation (string and tensor)
is the seat's current view; the information state is the seat's whole
action-observation history (perfect recall), its tensor a fixed-length sequence
of token ids (:class:`tajmahal.kit.chance.Tokens`).

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``: open_spiel and numpy).
"""

from __future__ import annotations

import importlib
import random
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Final

from .extras import require

require("rl", "tajmahal.openspiel", ("numpy", "pyspiel"))

import numpy as np
import numpy.typing as npt
import pyspiel
from attrs import evolve, field, frozen
from open_spiel.python.algorithms.ismcts import ISMCTSBot
from open_spiel.python.algorithms.mcts import Evaluator

from . import __version__
from .arena.game import AnyGame
from .arena.registry import UnknownGame
from .games import GAMES
from .kit.bots import Bots, ViewPlayer
from .kit.chance import PUBLIC, Chance, ChanceModel, Tokens, is_chance
from .kit.encoding import Encoding, encoding_of

__all__ = [
    "BotsEvaluator",
    "Core",
    "InfoStateObserver",
    "ObservationObserver",
    "OpenSpielGame",
    "OpenSpielPlayer",
    "OpenSpielState",
    "game_type",
    "ismcts_bot",
    "ismcts_player",
    "register",
    "registered",
    "short_name",
]

#: The players of a game loaded without parameters, if the game allows it.
DEFAULT_PLAYERS: Final = 4


def short_name(game: AnyGame) -> str:
    """The name OpenSpiel knows ``game`` by: ``python_`` and its protocol id."""
    return f"python_{game.name}"


def _chance_model(encoding: Encoding[Any, Any]) -> ChanceModel[Any, Any]:
    model = encoding.chance
    if not isinstance(model, ChanceModel):
        raise TypeError(f"{encoding.game.title} declares no chance model: not an OpenSpiel game")
    return model


def history_tokens(encoding: Encoding[Any, Any]) -> Tokens:
    """The token ids of a game's information states (:class:`tajmahal.kit.chance.Tokens`)."""
    return Tokens(_chance_model(encoding), encoding.actions.size, encoding.game.max_players)


def default_players(game: AnyGame) -> int:
    return min(max(DEFAULT_PLAYERS, game.min_players), game.max_players)


def game_type(encoding: Encoding[Any, Any]) -> pyspiel.GameType:
    """The OpenSpiel game type of a game: parameter ``players`` (and ``variant``,
    ``""`` for the default, when the game has variants to choose)."""
    game = encoding.game
    params: dict[str, Any] = {"players": default_players(game)}
    if encoding.variants:
        params["variant"] = ""
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"{game.title} (tajmahal engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


# --------------------------------------------------------------------------- the state


@frozen
class Shared:
    """What every state of a game needs: its encoding, chance model and tokens
    (shared, never copied)."""

    encoding: Encoding[Any, Any]
    model: ChanceModel[Any, Any]
    tokens: Tokens
    #: The first node of a game, by player count and variant (made once: it is
    #: immutable, and OpenSpiel makes many initial states).
    starts: dict[tuple[int, str | None], Any] = field(factory=dict)

    def start(self, players: int, variant: str | None) -> Any:
        key = (players, variant)
        first = self.starts.get(key)
        if first is None:
            first = self.starts[key] = self.model.start(players, variant)
        return first

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self

    def __reduce__(self) -> tuple[Callable[[str], Shared], tuple[str]]:
        # OpenSpiel pickles a game with its attributes: this one by name.
        return _shared, (short_name(self.encoding.game),)


def _shared(name: str) -> Shared:
    encoding = _REGISTERED[name]
    return Shared(encoding, _chance_model(encoding), history_tokens(encoding))


@frozen
class Core:
    """Everything an :class:`OpenSpielState` holds (immutable, so clones share it).

    ``engine`` is the engine's state: None during the setup; while a decision waits
    for its chance outcomes, the state before it.  ``chance`` is the chance node
    waiting (None at a decision or the end), ``drawn`` how many of its event's
    outcomes are chosen.  ``tokens`` are the history as ``(token, who sees it)``.
    """

    players: int
    engine: Any = None
    chance: Chance[Any] | None = None
    drawn: int = 0
    tokens: tuple[tuple[int, int], ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        return self


class OpenSpielState(pyspiel.State):
    """One OpenSpiel state: a :class:`Core` and nothing else (cheap to clone)."""

    def __init__(self, game: OpenSpielGame, core: Core | None = None) -> None:
        super().__init__(game)
        shared = game.shared
        self._shared = shared
        if core is None:
            first = shared.start(game.num_players(), game.variant)
            core = _advance(Core(players=game.num_players()), first)
        self._core = core

    # -- the engine's state, for users

    @property
    def core(self) -> Core:
        return self._core

    @property
    def engine(self) -> Any:
        """The engine's state (None during the setup). While a decision waits for its
        chance outcomes, it is the state before that decision."""
        return self._core.engine

    # -- OpenSpiel's API

    def current_player(self) -> int:
        core = self._core
        if core.chance is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._shared.encoding.game.to_act(core.engine)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)

    def is_terminal(self) -> bool:
        core = self._core
        return core.chance is None and self._shared.encoding.game.to_act(core.engine) is None

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if core.chance is not None or self._shared.encoding.game.to_act(core.engine) != player:
            return []
        return sorted(self._shared.encoding.legal_indices(core.engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        chance = self._core.chance
        return [] if chance is None else chance.outcomes()

    def _apply_action(self, action: int) -> None:
        core = self._core
        chance = core.chance
        if chance is not None:
            tokens = self._shared.tokens
            token = (tokens.of_chance(chance.kind, action), chance.seer)
            core = evolve(core, tokens=(*core.tokens, token), drawn=core.drawn + 1)
            self._core = _advance(core, chance.choose(action))
            return
        encoding = self._shared.encoding
        chosen = encoding.actions.action(action)
        token = (self._shared.tokens.action + action, PUBLIC)
        core = evolve(core, tokens=(*core.tokens, token))
        self._core = _advance(core, self._shared.model.after(core.engine, chosen))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            return f"outcome {action}" if core.chance is None else core.chance.describe(action)
        encoding = self._shared.encoding
        return f"{encoding.describe(core.engine, encoding.actions.action(action))} [{action}]"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._core.players
        return list(self._shared.encoding.outcome(self._core.engine))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> OpenSpielState:
        """A state this seat cannot tell from this one, at random: what it cannot see
        dealt again (the chance model's ``resample``).  Only at a decision node.  The
        tokens it could not see are hidden from every seat in the copy, and its
        ``history()`` is empty: it is meant for search (IS-MCTS)."""
        core = self._core
        if core.chance is not None or core.engine is None:
            raise ValueError("resample_from_infostate needs a decision node, not a chance node")
        rng = random.Random(int(probability_sampler() * 2**53))
        guess = self._shared.model.resample(core.engine, player_id, rng)
        unseen = self._shared.tokens.unseen
        tokens = tuple(
            (t, o) if o in (PUBLIC, player_id) else (unseen(o), PUBLIC) for t, o in core.tokens
        )
        game: OpenSpielGame = self.get_game()
        return OpenSpielState(game, evolve(core, engine=guess, tokens=tokens))

    def __str__(self) -> str:
        core = self._core
        text = f"{len(core.tokens)} steps; " + (
            "setup" if core.engine is None else repr(core.engine)
        )
        if core.chance is not None:
            text += f"; drawing ({core.chance.kind}): {core.drawn} chosen"
        return text


def _advance(core: Core, result: Any) -> Core:
    """``core`` after a step whose result is a chance node or the engine's state."""
    if is_chance(result):
        return evolve(core, chance=result)
    return evolve(core, engine=result, chance=None, drawn=0)


# --------------------------------------------------------------------------- observers


class ObservationObserver:
    """The seat's current view: the game's observation tensor (one named piece per
    block) and the view's JSON, as a referee sends it to a bot (string)."""

    def __init__(self, encoding: Encoding[Any, Any], players: int) -> None:
        layout = encoding.layout(players)
        self.encoding = encoding
        self.tensor: npt.NDArray[np.float32] = np.zeros(layout.size, np.float32)
        self.dict = {b.name: self.tensor[b.offset : b.stop].reshape(b.shape) for b in layout.blocks}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        self.encoding.observation(engine, player, out=self.tensor)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        core = state.core
        if core.engine is None:
            return f"seat {player} setup {len(core.tokens)}"
        text = self.encoding.game.view_json(core.engine, player).decode()
        if core.chance is not None:
            text += f" drawing {core.drawn}"
        return f"seat {player} {text}"


class InfoStateObserver:
    """The seat's action-observation history: token ids (tensor, padded with 0;
    the first is the observing seat) and the same history in words (string)."""

    def __init__(self, game: OpenSpielGame) -> None:
        self.tokens = game.tokens
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            1 + game.max_history_length(), np.float32
        )
        self.dict = {"tokens": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        tokens = self.seen(state.core, player)
        if len(tokens) > len(self.tensor):  # pragma: no cover - the bound holds
            raise AssertionError("a history longer than max_history_length")
        self.tensor.fill(0.0)
        self.tensor[: len(tokens)] = tokens

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return " ".join(self.tokens.text(t) for t in self.seen(state.core, player))

    def seen(self, core: Core, player: int) -> list[int]:
        """The history as ``player`` saw it: its seat, then one token per step."""
        unseen = self.tokens.unseen
        out = [self.tokens.seat + player]
        for token, owner in core.tokens:
            out.append(token if owner in (PUBLIC, player) else unseen(owner))
        return out


# --------------------------------------------------------------------------- the game


class OpenSpielGame(pyspiel.Game):
    """A game of the package in OpenSpiel: parameter ``players`` (the game's range,
    default 4 where allowed) and, for a game with variants, ``variant``."""

    def __init__(self, encoding: Encoding[Any, Any], params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = encoding.game
        players = int(params.get("players", default_players(game)))
        if not game.min_players <= players <= game.max_players:
            raise ValueError(
                f"{game.title} is for {game.min_players}-{game.max_players} players, "
                f"not {players}"
            )
        variant = str(params.get("variant", "")) or None
        if variant is not None and variant not in encoding.variants:
            raise ValueError(
                f"unknown variant {variant!r} of {game.title}; known: "
                + ", ".join(encoding.variants)
            )
        self.shared = Shared(encoding, _chance_model(encoding), history_tokens(encoding))
        self.variant = variant
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.actions.size,
            max_chance_outcomes=self.shared.model.max_outcomes,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=encoding.max_decisions(players, variant),
        )
        super().__init__(game_type(encoding), info, params)

    @property
    def encoding(self) -> Encoding[Any, Any]:
        return self.shared.encoding

    @property
    def model(self) -> ChanceModel[Any, Any]:
        return self.shared.model

    @property
    def tokens(self) -> Tokens:
        return self.shared.tokens

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def max_history_length(self) -> int:
        """A bound on the length of a history: decisions and chance outcomes."""
        players = self.num_players()
        decisions = self.encoding.max_decisions(players, self.variant)
        return decisions + self.model.max_chance_nodes(players)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> ObservationObserver | InfoStateObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only the single player's observation and information state")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InfoStateObserver(self)
        return ObservationObserver(self.encoding, self.num_players())

    def state_from_engine(self, engine: Any) -> OpenSpielState:
        """An OpenSpiel state at ``engine`` (a decision or the end), with no history:
        for bots that search from a position (what is not yet decided, a deck's
        order, is dropped: the chance model's ``normalize``)."""
        players = self.encoding.players(engine)
        if players != self.num_players():
            raise ValueError(f"a {players}-player state for a {self.num_players()}-player game")
        return OpenSpielState(self, Core(players=players, engine=self.model.normalize(engine)))


# --------------------------------------------------------------------------- registration

_REGISTERED: dict[str, Encoding[Any, Any]] = {}


def register(game: AnyGame | str) -> str:
    """Register ``game`` (a game object, or a name the registry knows) with OpenSpiel
    as ``python_<id>`` (once; again is a no-op) and return that name.  Raises
    ValueError for a game without an encoding, TypeError without a chance model."""
    encoding = encoding_of(game)
    name = short_name(encoding.game)
    if name not in _REGISTERED:
        _chance_model(encoding)

        def __init__(self: OpenSpielGame, params: dict[str, Any] | None = None) -> None:
            OpenSpielGame.__init__(self, encoding, params)

        # OpenSpiel keeps the factory until after Python is gone: a class (a function
        # would be freed then, without the interpreter, and abort the process).
        title = type(encoding.game).__name__
        factory = type(f"{title}Game", (OpenSpielGame,), {"__init__": __init__})
        pyspiel.register_game(game_type(encoding), factory)
        _REGISTERED[name] = encoding
    return name


def registered() -> list[str]:
    """The names of the games registered so far."""
    return sorted(_REGISTERED)


def _register_all() -> None:
    """Every game of the registry that declares an encoding with a chance model (a
    game that cannot be loaded is named in a warning)."""
    for entry in GAMES.entries():
        try:
            encoding = encoding_of(entry.name)
        except UnknownGame as e:
            warnings.warn(f"tajmahal.openspiel: {e}", stacklevel=2)
            continue
        except ValueError:  # no encoding: not a game for learning programs
            continue
        if isinstance(encoding.chance, ChanceModel):
            register(encoding.game)


# --------------------------------------------------------------------------- bots at a table


def bots_of(game: AnyGame) -> Bots[Any, Any, Any]:
    """The game's :class:`~tajmahal.kit.bots.Bots` (its adapter's ``bots`` module's
    ``BOTS``); TypeError for a game that declares none."""
    module = getattr(game, "bots", None)
    bots = getattr(importlib.import_module(module), "BOTS", None) if module else None
    if not isinstance(bots, Bots):
        raise TypeError(f"{game.title} declares no bots (a bots module with BOTS)")
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
        self.model = _chance_model(encoding)
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
        game: str | AnyGame = "tajmahal",
    ) -> None:
        self.short_name = register(game)
        self.encoding = _REGISTERED[self.short_name]
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
    seed: int = 0, simulations: int = 200, game: str | AnyGame = "tajmahal"
) -> OpenSpielPlayer:
    """A referee player for ``game`` running :func:`ismcts_bot` with
    ``simulations`` per decision."""
    player = OpenSpielPlayer(lambda g, s: ismcts_bot(g, s, simulations=simulations), seed, game)
    player.name = f"openspiel-ismcts-{simulations}"
    return player


_register_all()
