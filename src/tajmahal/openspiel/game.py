"""A game of the package as an OpenSpiel game: its type (parameters ``players`` and
``variant``), its states (a :class:`Core` each: the engine's state, the chance node
waiting, the history's tokens) and the game object that makes them.  Any game with
an encoding and a chance model (:mod:`tajmahal.kit.encoding`,
:mod:`tajmahal.kit.chance`) fits; :mod:`tajmahal.openspiel.registry` registers them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import pyspiel
from attrs import evolve, field, frozen

from ..arena.game import AnyGame
from ..kit.chance import PUBLIC, Chance, ChanceModel, Tokens, is_chance
from ..kit.encoding import Encoding
from .observers import (
    ALL_PLAYERS,
    NONE,
    SINGLE_PLAYER,
    HistoryObserver,
    InfoStateObserver,
    ObservationObserver,
    PartsObserver,
)

#: The players of a game loaded without parameters, if the game allows it.
DEFAULT_PLAYERS: Final = 4
#: OpenSpiel's kinds of private information, as :class:`PartsObserver` names them.
_PRIVATE: Final = {
    pyspiel.PrivateInfoType.NONE: NONE,
    pyspiel.PrivateInfoType.SINGLE_PLAYER: SINGLE_PLAYER,
    pyspiel.PrivateInfoType.ALL_PLAYERS: ALL_PLAYERS,
}


def short_name(game: AnyGame) -> str:
    """The name OpenSpiel knows ``game`` by: ``python_`` and its protocol id."""
    return f"python_{game.name}"


def chance_model(encoding: Encoding[Any, Any]) -> ChanceModel[Any, Any]:
    """The game's chance model; TypeError for a game without one."""
    model = encoding.chance
    if not isinstance(model, ChanceModel):
        raise TypeError(f"{encoding.game.title} declares no chance model: not an OpenSpiel game")
    return model


def history_tokens(encoding: Encoding[Any, Any]) -> Tokens:
    """The token ids of a game's information states (:class:`tajmahal.kit.chance.Tokens`)."""
    return Tokens(chance_model(encoding), encoding.actions.size, encoding.game.max_players)


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

    @classmethod
    def of(cls, encoding: Encoding[Any, Any]) -> Shared:
        return cls(encoding, chance_model(encoding), history_tokens(encoding))

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self

    def __reduce__(self) -> tuple[Callable[[str], Shared], tuple[str]]:
        # OpenSpiel pickles a game with its attributes: this one by name (found
        # again among the registered games).
        return shared, (short_name(self.encoding.game),)


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
        self.shared = Shared.of(encoding)
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
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ObservationObserver | InfoStateObserver | HistoryObserver | PartsObserver:
        """The observer of an ``IIGObservationType`` (None: the observation).  Perfect
        recall is the seat's information state (public and its private information);
        parameter ``history`` (true) makes its tensor the history's token ids.
        Without perfect recall, every mix of public and private information:
        public and the seat's own is the observation, anything else a
        :class:`PartsObserver`."""
        options = dict(params or {})
        history = bool(options.pop("history", False))
        if options:
            raise ValueError(f"unknown observer parameters {sorted(options)}; known: history")
        if iig_obs_type is None:
            if history:
                raise ValueError("the history is an information state: ask for perfect recall")
            return ObservationObserver(self.encoding, self.num_players())
        private = _PRIVATE[iig_obs_type.private_info]
        public = bool(iig_obs_type.public_info)
        if iig_obs_type.perfect_recall:
            if not public or private != SINGLE_PLAYER:
                raise ValueError(
                    "perfect recall is the seat's information state: public information "
                    "and the seat's own private information (private_info=SINGLE_PLAYER)"
                )
            return HistoryObserver(self) if history else InfoStateObserver(self)
        if history:
            raise ValueError("the history is an information state: ask for perfect recall")
        if public and private == SINGLE_PLAYER:
            return ObservationObserver(self.encoding, self.num_players())
        return PartsObserver(self, public, private)

    def state_from_engine(self, engine: Any) -> OpenSpielState:
        """An OpenSpiel state at ``engine`` (a decision or the end), with no history:
        for bots that search from a position (what is not yet decided, a deck's
        order, is dropped: the chance model's ``normalize``)."""
        players = self.encoding.players(engine)
        if players != self.num_players():
            raise ValueError(f"a {players}-player state for a {self.num_players()}-player game")
        return OpenSpielState(self, Core(players=players, engine=self.model.normalize(engine)))


# --------------------------------------------------------------------------- registered games

#: The encodings of the games registered with OpenSpiel, by their names
#: (``python_<id>``; :func:`tajmahal.openspiel.registry.register` adds them).
REGISTERED: dict[str, Encoding[Any, Any]] = {}


def shared(name: str) -> Shared:
    """What every state of the game registered as ``name`` shares (unpickling)."""
    return Shared.of(REGISTERED[name])
