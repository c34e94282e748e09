"""One seat of a game as a single-agent Gymnasium environment: the other seats are
played in the same process by given players.

>>> import gymnasium
>>> import tajmahal.gym                  # registers the ids below
>>> env = gymnasium.make("tajmahal/TajMahal-2p-v0")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, env.action_space, int(info["action_mask"].sum()) == len(legal(env))
((1614,), Discrete(1623), True)

:class:`SeatEnv` (``game``, ``num_players``, ``seat``, ``opponents``) plays one
seat of any game with an encoding (:mod:`tajmahal.kit.encoding`): the
observation is the seat's observation vector, an action is an index of the game's
action space, and between two of the seat's decisions the other seats play, each
with its opponent:

- a built-in bot by name (``"random"``, ``"greedy"``, ``"mcts"``, ``"first"``:
  the game's ``builtin_players()``), or any referee
  :class:`~tajmahal.arena.player.Player` object, fed the messages a referee sends;
- a policy: any callable ``policy(observation, action_mask) -> index`` over that
  seat's observation and mask (:func:`snapshot` freezes a Stable-Baselines3 model
  into one: self-play against earlier selves).

The mask of the legal actions is ``info["action_mask"]`` after ``reset`` and
every ``step``, and :meth:`SeatEnv.action_masks` (what sb3-contrib's
``MaskablePPO`` calls).  The reward is 0 until the end, then the seat's zero-sum
outcome (+1 for a lone win, ``-1/(n-1)`` for a loss); ``reward="margin"`` pays,
after each decision, the change of the seat's score lead over the mean of the
others (in tens of points: it adds up to the final lead), and the outcome at the
end.  An illegal action raises :class:`~tajmahal.kit.encoding.ActionIndexError`;
with ``illegal="lose"`` it ends the episode as a loss instead (for code that
samples without the mask, such as Gymnasium's ``check_env``).

Registered ids (``gymnasium.make``, ``gymnasium.make_vec`` for Gymnasium's vector
API): ``tajmahal/<Game>-<n>p-v0`` for every installed game with an encoding and each
player count it allows, ``<Game>`` its title without spaces
(``tajmahal/TajMahal-2p-v0`` ... ``tajmahal/Tikal-4p-v0``, ``tajmahal/Java-3p-v0``);
keyword arguments of :class:`SeatEnv` pass through ``make``.  A game object that is
not installed is played with ``SeatEnv(game=...)``.

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``); :func:`snapshot` needs
Stable-Baselines3 (docs/research.md, "Training one seat").
"""

from __future__ import annotations

import copy
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from .extras import require

require("rl", "tajmahal.gym", ("numpy", "gymnasium"))

import gymnasium
import numpy as np
import numpy.typing as npt
import orjson
from gymnasium import spaces

from .arena import protocol
from .arena.game import AnyGame
from .arena.player import Player
from .arena.registry import GAMES, UnknownGame
from .kit.encoding import ActionIndexError, encoding_of, scatter
from .pettingzoo import render

__all__ = ["ENV_IDS", "Policy", "SeatEnv", "env_id", "legal", "register", "snapshot"]

#: A policy: the seat's observation and int8 mask to an action index.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
#: An opponent: a built-in bot's name, a referee player, or a policy.
Opponent = str | Player | Policy
_REWARDS: Final = ("outcome", "margin")
_ILLEGAL: Final = ("raise", "lose")
#: The margin reward's unit: points (a lead of 10 points is 1).
MARGIN_SCALE: Final = 10.0


class SeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of ``game`` against ``opponents`` (the module docstring).

    ``seat``: the seat played (None: a seat drawn at random at each reset);
    ``opponents``: one opponent for every other seat, or one per seat (the
    learner's own place in that list is skipped: give ``None`` there);
    ``variant``: the game's variant (None: its default); ``reward``:
    ``"outcome"`` or ``"margin"``; ``illegal``: ``"raise"`` or ``"lose"``;
    ``render_mode``: None, ``"ansi"`` or, for a game with an image, ``"rgb_array"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"]}  # noqa: RUF012

    def __init__(
        self,
        game: str | AnyGame | None = None,
        num_players: int = 2,
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent | None] = "random",
        variant: str | None = None,
        reward: str = "outcome",
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        encoding = encoding_of(game)
        rules = encoding.game
        layout = encoding.layout(num_players)  # ValueError for a bad count
        if seat is not None and not 0 <= seat < num_players:
            raise ValueError(f"seat must be None or 0-{num_players - 1}, not {seat}")
        if reward not in _REWARDS:
            raise ValueError(f"reward must be one of {_REWARDS}, not {reward!r}")
        if illegal not in _ILLEGAL:
            raise ValueError(f"illegal must be one of {_ILLEGAL}, not {illegal!r}")
        modes = ["ansi", "rgb_array"] if encoding.images is not None else ["ansi"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be None or one of {modes}, not {render_mode!r}")
        if variant is not None:
            rules.random_setup(num_players, 0, variant)  # ValueError for a bad variant
        self.encoding = encoding
        self.rules = rules
        self.num_players = num_players
        self.fixed_seat = seat
        self.variant = variant
        self.reward_kind = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.metadata = {"render_modes": modes}
        self.observation_space = spaces.Box(
            low=0.0, high=layout.high(), shape=(layout.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(encoding.actions.size)
        self.actions = encoding.actions.size
        self.opponents = _opponents(rules, num_players, opponents)
        factory = encoding.observer
        self._observer: Any = factory(num_players) if factory is not None else None
        self.seat = 0 if seat is None else seat
        self.state: Any = None
        self.setup: Any = None
        self._legal: Sequence[Any] = ()
        self._indices: list[int] = []
        self._lead = 0.0

    # -- the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game: ``options={"setup": setup}`` plays that setup, ``{"seat": s}``
        that seat; otherwise a setup (and, with ``seat=None``, a seat) drawn from
        the environment's generator (seeded by ``seed``)."""
        super().reset(seed=seed)
        options = options or {}
        rules, n = self.rules, self.num_players
        setup = options.get("setup")
        if setup is None:
            setup = rules.random_setup(n, int(self.np_random.integers(2**62)), self.variant)
        elif rules.players(setup) != n:
            raise ValueError(f"options['setup'] must be a {rules.title} setup for {n} players")
        seat = options.get("seat", self.fixed_seat)
        self.seat = int(self.np_random.integers(n)) if seat is None else int(seat)
        self.setup = setup
        self.state = rules.new_game(setup)
        games = int(self.np_random.integers(2**31))
        for other, opponent in enumerate(self.opponents):
            if other != self.seat and opponent is not None:
                opponent.start(self, other, games + other)
        self._lead = self._score_lead()
        self._play_others()
        return self._observe(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        state = self._live()
        index = int(action)
        if self.rules.to_act(state) is None:
            raise RuntimeError("the game is over: call reset()")
        try:
            chosen = self._legal[self._indices.index(index)]
        except ValueError:
            if self.illegal == "raise":
                self.encoding.action(index, state)  # names the action and the seat
                raise  # pragma: no cover - an index not found is not legal
            self.state = None
            info = {"illegal": index, "action_mask": np.zeros(self.actions, np.int8)}
            return self._blank(), -1.0 / max(1, self.num_players - 1), True, False, info
        self._advance(chosen)
        self._play_others()
        reward = 0.0
        if self.reward_kind == "margin":
            lead = self._score_lead()
            reward, self._lead = (lead - self._lead) / MARGIN_SCALE, lead
        over = self.rules.to_act(self.state) is None
        if over:
            reward += self.encoding.outcome(self.state)[self.seat]
        return self._observe(), float(reward), over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat now, as sb3-contrib's ``MaskablePPO`` asks
        for them (booleans; all False once the game is over)."""
        mask = np.zeros(self.actions, np.bool_)
        if self.state is not None and self.rules.to_act(self.state) == self.seat:
            mask[self._indices] = True
        return mask

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """``"ansi"``: the table as text (every hand shown, for people watching);
        ``"rgb_array"``: the game's image."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return render(self.encoding, self.render_mode, self._live())

    # -- inside

    def _live(self) -> Any:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    def _advance(self, action: Any) -> None:
        self.state = self.rules.apply(self.state, action)

    def _play_others(self) -> None:
        """Let the other seats play until this seat acts or the game ends."""
        rules = self.rules
        while True:
            seat = rules.to_act(self.state)
            if seat is None:
                self._legal, self._indices = (), []
                return
            legal = rules.legal_actions(self.state)
            if seat == self.seat:
                self._legal, self._indices = legal, self.encoding.actions.index_list(legal)
                return
            opponent = self.opponents[seat]
            assert opponent is not None
            self._advance(legal[opponent.choose(self, seat, legal)])

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.observation_of(self.seat)

    def observation_of(self, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` sees of the game now (for an opponent's policy)."""
        if self._observer is not None:
            observed: npt.NDArray[np.float32] = self._observer.observation(self.state, seat)
            return observed
        return self.encoding.observation(self.state, seat)

    def _blank(self) -> npt.NDArray[np.float32]:
        return np.zeros(self.encoding.layout(self.num_players).size, np.float32)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(self.actions, np.int8)
        scatter(mask, self._indices, 1)
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if self.rules.to_act(self.state) is None:
            info["score"] = self.rules.scores(self.state)[self.seat]
            info["rank"] = self.rules.ranks(self.state)[self.seat]
        return info

    def _score_lead(self) -> float:
        scores = self.rules.scores(self.state)
        others = [s for q, s in enumerate(scores) if q != self.seat]
        return float(scores[self.seat] - sum(others) / len(others))


# --------------------------------------------------------------------------- opponents


class _Seat(ABC):
    """An opponent at one seat: told of each new game, asked for an index into the
    legal actions."""

    def start(self, env: SeatEnv, seat: int, seed: int) -> None:
        return None

    @abstractmethod
    def choose(self, env: SeatEnv, seat: int, legal: Sequence[Any]) -> int:
        """The index into ``legal`` of the seat's action."""


class _PolicySeat(_Seat):
    """A policy over the seat's observation and mask."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def choose(self, env: SeatEnv, seat: int, legal: Sequence[Any]) -> int:
        indices = env.encoding.actions.index_list(legal)
        mask = np.zeros(env.actions, np.int8)
        scatter(mask, indices, 1)
        chosen = int(self.policy(env.observation_of(seat), mask))
        try:
            return indices.index(chosen)
        except ValueError:
            raise ActionIndexError(
                f"the policy at seat {seat} chose {chosen}, which is not legal now"
            ) from None


class _PlayerSeat(_Seat):
    """A referee player, fed the messages a referee sends it (``hello``, ``act``) as
    the decoded JSON an in-process player gets."""

    def __init__(self, make: Callable[[int], Player]) -> None:
        self.make = make
        self.player: Player | None = None
        self.decisions = 0

    def start(self, env: SeatEnv, seat: int, seed: int) -> None:
        rules, setup = env.rules, env.setup
        self.player = player = self.make(seed)
        self.decisions = 0
        hello = protocol.hello(
            game=rules.name,
            seat=seat,
            players=env.num_players,
            variant=rules.variant(setup),
            time={"handshake": 0.0, "move": 0.0, "bank": 0.0},
            seed=seed,
            setup=rules.public_setup(setup),
        )
        player.handle(orjson.loads(protocol.encode(hello)))

    def choose(self, env: SeatEnv, seat: int, legal: Sequence[Any]) -> int:
        player = self.player
        assert player is not None
        rules, state = env.rules, env.state
        self.decisions += 1
        view = orjson.loads(rules.view_json(state, seat)) if player.reads_view else None
        data = [rules.action_to_data(a) for a in legal]
        reply = player.handle(protocol.act(self.decisions, view, data, 0.0, 0.0))
        assert reply is not None
        choice = protocol.read_action_reply(reply, len(legal))
        if isinstance(choice, int):
            return choice
        return list(legal).index(rules.action_from_data(choice))


class _RandomSeat(_Seat):
    """The built-in ``random`` bot's choice, without its messages: uniform among the
    legal actions (from the environment's generator)."""

    def choose(self, env: SeatEnv, seat: int, legal: Sequence[Any]) -> int:
        return int(env.np_random.integers(len(legal)))


def _opponents(
    rules: AnyGame, players: int, given: Opponent | Sequence[Opponent | None]
) -> list[_Seat | None]:
    if isinstance(given, str | Player) or callable(given):
        given = [given] * players
    given = list(given)
    if len(given) != players:
        raise ValueError(f"opponents: one for every other seat, or one per seat ({players})")
    builtin: Mapping[str, Callable[[int], Player]] = rules.builtin_players()
    out: list[_Seat | None] = []
    for opponent in given:
        if opponent is None:
            out.append(None)
        elif opponent == "random":
            out.append(_RandomSeat())
        elif isinstance(opponent, str):
            if opponent not in builtin:
                raise ValueError(
                    f"no built-in bot {opponent!r} in {rules.title}; known: "
                    + ", ".join(sorted(builtin))
                )
            out.append(_PlayerSeat(builtin[opponent]))
        elif isinstance(opponent, Player):
            out.append(_PlayerSeat(_given(opponent)))
        elif callable(opponent):
            out.append(_PolicySeat(opponent))
        else:
            raise TypeError(f"an opponent is a bot's name, a Player or a policy, not {opponent!r}")
    return out


def _given(player: Player) -> Callable[[int], Player]:
    """The same player for every game (whatever the seed)."""

    def make(seed: int) -> Player:
        return player

    return make


def legal(env: gymnasium.Env[Any, Any]) -> list[int]:
    """The legal action indices of the seat of ``env`` (a :class:`SeatEnv`, wrapped
    or not) now."""
    inner = env.unwrapped
    assert isinstance(inner, SeatEnv)
    return list(inner._indices)


# --------------------------------------------------------------------------- snapshots


def snapshot(model: Any, deterministic: bool = False) -> Policy:
    """A frozen copy of a Stable-Baselines3 model's policy (sb3-contrib's
    ``MaskablePPO``, or any model whose policy takes ``action_masks``), as an
    opponent's policy: later training of ``model`` does not change it."""
    source = model.policy
    policy = type(source)(**source._get_constructor_parameters())  # as SB3 saves it
    policy.load_state_dict(copy.deepcopy(source.state_dict()))
    policy.set_training_mode(False)
    masked = "action_masks" in policy.predict.__code__.co_varnames

    def act(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        if masked:
            action, _ = policy.predict(
                observation, deterministic=deterministic, action_masks=mask.astype(bool)
            )
        else:
            action, _ = policy.predict(observation, deterministic=deterministic)
        return int(action)

    return act


# --------------------------------------------------------------------------- registration


def env_id(game: str, players: int) -> str:
    """The registered id of ``game`` (an installed game's name) for ``players``: its
    title without spaces (``tajmahal/TajMahal-2p-v0``)."""
    title = "".join(GAMES.get(game).title.split())
    return f"tajmahal/{title}-{players}p-v0"


def env_ids() -> dict[tuple[str, int], str]:
    """The ids of every installed game with an encoding, by its name and player count
    (a game that cannot be loaded is named in a warning)."""
    ids = {}
    for entry in GAMES.entries():
        try:
            game = encoding_of(entry.name).game
        except UnknownGame as e:
            warnings.warn(f"tajmahal.gym: {e}", stacklevel=2)
            continue
        except ValueError:  # no encoding: not a game for learning programs
            continue
        for n in range(game.min_players, game.max_players + 1):
            ids[entry.name, n] = env_id(entry.name, n)
    return ids


#: The registered ids, by game name and player count.
ENV_IDS: Final = env_ids()


def register() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (done on import; again is a no-op)."""
    registry = gymnasium.envs.registry
    for (game, players), name in ENV_IDS.items():
        if name not in registry:
            gymnasium.register(
                id=name,
                entry_point="tajmahal.gym:SeatEnv",
                kwargs={"game": game, "num_players": players},
            )


register()
