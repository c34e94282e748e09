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

:func:`parallel_env` is the same game through PettingZoo's turn-based converter:
every step takes a dict of actions and uses the one of the agent to act (named in
each agent's ``infos[agent]["active_agent"]``, from ``reset`` on).  PettingZoo's
plain AEC-to-parallel converter does not apply: the seats do not act in a fixed
cycle.

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

import io
import random
from typing import Any

from .extras import require

require("rl", "tajmahal.pettingzoo", ("numpy", "gymnasium", "pettingzoo"))

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .arena.game import AnyGame
from .kit.encoding import Encoding, encoding_of

__all__ = ["GameEnv", "env", "parallel_env", "raw_env"]

class GameEnv(AECEnv[str, dict[str, Any], int]):
    """The AEC environment; :func:`env` wraps it in PettingZoo's order checks."""

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
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        if action is None:
            raise ValueError(f"{agent} is to act: give an action index, not None")
        rules = self.rules
        chosen = self.encoding.action(int(action), state)
        state, _ = rules.step(state, chosen)
        self.game = state
        self._clear_rewards()
        if rules.to_act(state) is None:
            result = self.encoding.outcome(state)
            totals, places = rules.scores(state), rules.ranks(state)
            for seat, a in enumerate(self.agents):
                self.rewards[a] = result[seat]
                self.terminations[a] = True
                self.infos[a] = {"score": totals[seat], "rank": places[seat]}
            self._deads_step_first()
        else:
            self.agent_selection = self._agent(state)
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.encoding.actions.size, dtype=np.int8)
        if self.rules.to_act(state) == seat:
            mask[list(self.encoding.legal_indices(state))] = 1
        return {"observation": self.encoding.observation(state, seat), "action_mask": mask}

    def state(self) -> npt.NDArray[np.float32]:
        """Every seat's observation, stacked (rows by seat): what a centralised critic
        may see (all but what no seat sees, such as a deck's order)."""
        state = self._state()
        observation = self.encoding.observation
        return np.stack([observation(state, seat) for seat in range(self.num_players)])

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
        state = self._state()
        if self.render_mode == "rgb_array" and self.encoding.images is not None:
            return self.encoding.images(state)
        return render_text(self.encoding, state)

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


def _is_setup_for(rules: AnyGame, setup: Any, players: int) -> bool:
    try:
        return bool(rules.players(setup) == players)
    except Exception:
        return False


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


class TurnBasedParallelEnv(turn_based_aec_to_parallel_wrapper[str, dict[str, Any], int]):
    """PettingZoo's turn-based converter, whose ``reset`` also names the agent to act
    in each agent's infos (its ``step`` does)."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        observations, infos = super().reset(seed=seed, options=options)
        active = self.aec_env.agent_selection
        return observations, {a: {**info, "active_agent": active} for a, info in infos.items()}


def raw_env(
    game: str | AnyGame | None = None,
    num_players: int = 4,
    render_mode: str | None = None,
    variant: str | None = None,
) -> GameEnv:
    """The environment without PettingZoo's wrappers."""
    return GameEnv(game, num_players, render_mode, variant)


def env(
    game: str | AnyGame | None = None,
    num_players: int = 4,
    render_mode: str | None = None,
    variant: str | None = None,
) -> AECEnv[str, dict[str, Any], int]:
    """The AEC environment of ``game`` for ``num_players``, in PettingZoo's order
    checks (an error if it is used before ``reset``).  ``render_mode``: None,
    ``"ansi"`` (text) or, for a game with an image, ``"rgb_array"``; ``variant``:
    one of the game's variants (None: its default for the player count)."""
    return OrderEnforcingWrapper(raw_env(game, num_players, render_mode, variant))


def parallel_env(
    game: str | AnyGame | None = None,
    num_players: int = 4,
    render_mode: str | None = None,
    variant: str | None = None,
) -> ParallelEnv[str, dict[str, Any], int | None]:
    """The parallel API: PettingZoo's turn-based converter around :func:`env`.
    Each step uses only the action of the agent to act (``infos[a]["active_agent"]``)."""
    return TurnBasedParallelEnv(env(game, num_players, render_mode, variant))
