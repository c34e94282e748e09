"""Every game of the package as a PettingZoo environment (agent-environment cycle).

>>> from tajmahal.pettingzoo import env
>>> game = env(num_players=3)              # the default game; env("tikal", 3) for Tikal
>>> game.reset(seed=7)
>>> game.agents, game.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_0')
>>> obs, reward, terminated, truncated, info = game.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((1953,), (1623,), 11)

``game`` names an installed game (:data:`tajmahal.arena.registry.GAMES`: those
of the ``tajmahal.games`` entry points; None, the default, is the first) that
declares an encoding (:mod:`tajmahal.kit.encoding`).  Agents ``player_0`` ..
``player_{n-1}`` are the seats.  The agent to act is the seat the rules name (not
a fixed cycle: a seat may act several times in a row, or be skipped).  An
observation is a dict: ``"observation"``, the seat's view as the game's encoding
makes it, and ``"action_mask"`` (int8, 1 at the legal action indices; all 0 when
it is not the agent's turn).  Rewards are 0 until the end, then the zero-sum
outcome (+1 for a lone winner, ``-1/(n-1)`` for the others); the final ``infos``
carry each seat's score and rank.  An illegal action raises
:class:`~tajmahal.kit.encoding.ActionIndexError`.  :meth:`GameEnv.state` stacks
every seat's observation (``state_space``).

:func:`parallel_env` is the same game with PettingZoo's parallel API, as its
turn-based converter gives it: every step takes a dict of actions and uses the
one of the agent to act (named in each agent's ``infos[agent]["active_agent"]``,
from ``reset`` on).  PettingZoo's plain AEC-to-parallel converter does not apply:
the seats do not act in a fixed cycle.

Both are built for speed (``python -m benchmarks.environments`` measures them
beside the engine): the environment checks the order of calls itself (PettingZoo's
order-checking wrapper costs more than a step of the engine), observations come
from the game's :class:`~tajmahal.kit.observing.Observer` (only what a step
changed is rewritten), masks from the action indices found by identity, and an
action is checked against the mask.  Each observation and the mask of the agent
to act are new arrays: keep them as long as you like; the other agents share one
all-zero mask that cannot be written.

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import Any

from .extras import require

require("rl", "tajmahal.pettingzoo", ("numpy", "gymnasium", "pettingzoo"))

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from .arena.game import AnyGame
from .kit.encoding import Encoding, encoding_of, scatter

__all__ = ["GameEnv", "GameParallelEnv", "env", "parallel_env", "raw_env"]

#: What a game has only once it is reset (as PettingZoo's order checks name them).
_AFTER_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "agents"}
)


class GameEnv(AECEnv[str, dict[str, Any], int]):
    """The AEC environment (:func:`env`): it refuses calls before :meth:`reset`
    itself, as PettingZoo's order-checking wrapper would."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "tajmahal_v0",
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str | AnyGame | None = None,
        num_players: int = 4,
        render_mode: str | None = None,
        variant: str | None = None,
    ) -> None:
        super().__init__()
        encoding = encoding_of(game)
        self.encoding = encoding
        self.rules = encoding.game
        layout = encoding.layout(num_players)  # ValueError for a bad count
        modes = ["ansi", "rgb_array"] if encoding.images is not None else ["ansi"]
        self.metadata = {**GameEnv.metadata, "name": f"{self.rules.name}_v0", "render_modes": modes}
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be None or one of {modes}, not {render_mode!r}")
        if variant is not None:
            self.rules.random_setup(num_players, 0, variant)  # ValueError for a bad variant
        self.num_players = num_players
        self.render_mode = render_mode
        self.variant = variant
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        #: The mask of an agent that is not to act (shared: it cannot be written).
        self._no_actions = np.zeros(encoding.actions.size, dtype=np.int8)
        self._no_actions.flags.writeable = False
        actions = encoding.actions.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=layout.high(), shape=(layout.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        high = np.stack([layout.high()] * num_players)
        self.state_space = spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32)
        self._rng = random.Random()
        self.game: Any = None
        # Observations: the game's own observer (every seat's from one vector).
        factory = encoding.observer
        self._observer: Any = factory(num_players) if factory is not None else None
        # The legal actions of the state they were found for, and their indices.
        self._legal_of: Any = None
        self._legal: Sequence[Any] = ()
        self._indices: list[int] = []

    # -- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the cycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: ``options={"setup": setup}`` plays that setup (of the game's
        own class); otherwise a random setup is drawn (from ``seed`` if given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        rules = self.rules
        setup = (options or {}).get("setup")
        if setup is None:
            setup = rules.random_setup(self.num_players, self._rng.getrandbits(63), self.variant)
        elif not _is_setup_for(rules, setup, self.num_players):
            raise ValueError(
                f"options['setup'] must be a {rules.title} setup for {self.num_players} players"
            )
        self.game = rules.new_game(setup)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent(self.game)

    def step(self, action: int | None) -> None:
        state = self._state()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action index, not None")
        chosen = self._legal_action(state, action)
        rules = self.rules
        state = rules.apply(state, chosen)
        self.game = state
        seat = rules.to_act(state)
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            return  # rewards stay 0 until the end: nothing to clear or add up
        self._clear_rewards()
        result = self.encoding.outcome(state)
        totals, places = rules.scores(state), rules.ranks(state)
        for s, a in enumerate(self.agents):
            self.rewards[a] = result[s]
            self.terminations[a] = True
            self.infos[a] = {"score": totals[s], "rank": places[s]}
        self._deads_step_first()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state()
        seat = self._seats[agent]
        if self.rules.to_act(state) == seat:
            mask = np.zeros(self.encoding.actions.size, dtype=np.int8)
            scatter(mask, self._legal_indices(state), 1)
        else:
            mask = self._no_actions
        return {"observation": self._observation(state, seat), "action_mask": mask}

    def state(self) -> npt.NDArray[np.float32]:
        """Every seat's observation, stacked (rows by seat): what a centralised critic
        may see (all but what no seat sees, such as a deck's order)."""
        state = self._state()
        return np.stack([self._observation(state, seat) for seat in range(self.num_players)])

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, dict[str, Any], int]:
        self._state()
        return super().agent_iter(max_iter)

    def __getattr__(self, name: str) -> Any:
        # Only for what is not there: the game's attributes before the first reset.
        if name in _AFTER_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- for people

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """``"ansi"``: the whole table as text, hidden cards included (the game's
        ``terminal`` picture, as ``tajmahal show`` prints it); ``"rgb_array"``: the
        game's image, for a game that has one."""
        if self.render_mode is None:
            logger.warn(
                f"render() called without a render_mode (None, {self.metadata['render_modes']})"
            )
            return None
        return render(self.encoding, self.render_mode, self._state())

    def close(self) -> None:
        return None

    # -- helpers

    def _state(self) -> Any:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _agent(self, state: Any) -> str:
        seat = self.rules.to_act(state)
        assert seat is not None
        return self.possible_agents[seat]

    def _observation(self, state: Any, seat: int) -> npt.NDArray[np.float32]:
        if self._observer is not None:
            observed: npt.NDArray[np.float32] = self._observer.observation(state, seat)
            return observed
        return self.encoding.observation(state, seat)

    def _legal_indices(self, state: Any) -> list[int]:
        """The indices of the legal actions of ``state`` (found once per state)."""
        if state is not self._legal_of:
            self._legal = self.rules.legal_actions(state)
            self._indices = self.encoding.actions.index_list(self._legal)
            self._legal_of = state
        return self._indices

    def _legal_action(self, state: Any, index: int) -> Any:
        """The engine's action with ``index``, which must be legal in ``state``."""
        indices = self._legal_indices(state)
        try:
            return self._legal[indices.index(index)]
        except ValueError:
            self.encoding.action(int(index), state)  # names the action and the seat
            raise  # pragma: no cover - an index not found is not legal


def _is_setup_for(rules: AnyGame, setup: Any, players: int) -> bool:
    try:
        return bool(rules.players(setup) == players)
    except Exception:
        return False


def render(encoding: Encoding[Any, Any], mode: str, state: Any) -> str | npt.NDArray[np.uint8]:
    """``state`` in a render mode: ``"rgb_array"``, the game's image (for a game that
    has one); otherwise the text of :func:`render_text`."""
    if mode == "rgb_array" and encoding.images is not None:
        return encoding.images(state)
    return render_text(encoding, state)


def render_text(encoding: Encoding[Any, Any], state: Any) -> str:
    """The game's ``terminal`` picture of ``state`` as plain text (every hand shown);
    the state's repr for a game without one."""
    players = encoding.players(state)
    position = encoding.game.terminal(state, [f"seat {s}" for s in range(players)], None)
    if position is None:
        return repr(state) + "\n"
    from rich.console import Console

    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(position)
    return console.export_text()


class GameParallelEnv(ParallelEnv[str, dict[str, Any], int | None]):
    """The parallel API over :class:`GameEnv` (:func:`parallel_env`): what
    PettingZoo's turn-based converter gives (every live agent's observation each
    step, ``infos[agent]["active_agent"]`` from ``reset`` on), without its layers
    of wrappers."""

    def __init__(self, aec_env: GameEnv) -> None:
        self.aec_env = aec_env
        self.possible_agents = aec_env.possible_agents
        self.metadata = aec_env.metadata
        self.state_space = aec_env.state_space
        self.render_mode = aec_env.render_mode
        self.agents: list[str] = []

    @property
    def unwrapped(self) -> GameEnv:
        return self.aec_env

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec_env.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        aec = self.aec_env
        aec.reset(seed=seed, options=options)
        self.agents = aec.agents[:]
        active = aec.agent_selection
        observations = {a: aec.observe(a) for a in self.agents}
        return observations, {a: {**aec.infos[a], "active_agent": active} for a in self.agents}

    def step(
        self, actions: dict[str, int | None]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        aec = self.aec_env
        if not self.agents:
            return {}, {}, {}, {}, {}
        aec.step(actions[aec.agent_selection])
        rewards = {**aec.rewards}
        terminations = {**aec.terminations}
        truncations = {**aec.truncations}
        infos = {a: {**info} for a, info in aec.infos.items()}
        observations = {a: aec.observe(a) for a in aec.agents}
        while aec.agents and (
            aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]
        ):
            aec.step(None)
        for agent in aec.agents:
            infos[agent]["active_agent"] = aec.agent_selection
        self.agents = aec.agents[:]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        return self.aec_env.render()

    def state(self) -> npt.NDArray[np.float32]:
        return self.aec_env.state()

    def close(self) -> None:
        self.aec_env.close()


def raw_env(
    game: str | AnyGame | None = None,
    num_players: int = 4,
    render_mode: str | None = None,
    variant: str | None = None,
) -> GameEnv:
    """The environment: the same as :func:`env` (it needs no wrapper)."""
    return GameEnv(game, num_players, render_mode, variant)


def env(
    game: str | AnyGame | None = None,
    num_players: int = 4,
    render_mode: str | None = None,
    variant: str | None = None,
) -> GameEnv:
    """The AEC environment of ``game`` for ``num_players`` (an error if it is used
    before ``reset``).  ``render_mode``: None, ``"ansi"`` (text) or, for a game with
    an image, ``"rgb_array"``; ``variant``: one of the game's variants (None: its
    default for the player count)."""
    return raw_env(game, num_players, render_mode, variant)


def parallel_env(
    game: str | AnyGame | None = None,
    num_players: int = 4,
    render_mode: str | None = None,
    variant: str | None = None,
) -> GameParallelEnv:
    """The parallel API (:class:`GameParallelEnv`): each step uses only the action of
    the agent to act (``infos[a]["active_agent"]``)."""
    return GameParallelEnv(raw_env(game, num_players, render_mode, variant))
