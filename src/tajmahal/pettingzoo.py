"""Taj Mahal as a PettingZoo environment (agent-environment cycle, AEC).

>>> from tajmahal.pettingzoo import env
>>> game = env(num_players=3)
>>> game.reset(seed=7)
>>> game.agents, game.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_0')
>>> obs, reward, terminated, truncated, info = game.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((1953,), (1623,), 11)

Agents ``player_0`` .. ``player_{n-1}`` are the seats.  The agent to act is the
seat the rules name (not a fixed cycle: withdrawn seats are skipped, a seat that
withdraws places its palaces and takes its cards in a row).  An observation is a
dict: ``"observation"``, the seat's view as :func:`tajmahal.tajmahal.encoding.observe`
encodes it, and ``"action_mask"`` (int8, 1 at the legal action indices of
:mod:`tajmahal.tajmahal.encoding`; all 0 when it is not the agent's turn).  Rewards are 0
until the end, then :func:`tajmahal.tajmahal.encoding.outcome` (+1 for a lone winner,
``-1/(n-1)`` for the others); the final ``infos`` carry each seat's score and rank.
An illegal action raises :class:`~tajmahal.tajmahal.encoding.ActionIndexError`.

:func:`parallel_env` is the same game through PettingZoo's turn-based converter:
every step takes a dict of actions and uses the one of the agent to act.
PettingZoo's plain AEC-to-parallel converter does not apply, because the seats do
not act in a fixed cycle.

Needs the ``rl`` extra (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

import random
from typing import Any, Final

from .extras import require

require("rl", "tajmahal.pettingzoo", ("numpy", "gymnasium", "pettingzoo"))

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .tajmahal.actions import action_text
from .tajmahal.cards import CARDS
from .tajmahal.counting import ranks
from .tajmahal.encoding import (
    NUM_ACTIONS,
    action_from_index,
    legal_indices,
    observation_layout,
    observe,
    outcome,
)
from .tajmahal.rules import legal_actions, new_game, scores, step
from .tajmahal.setups import Setup
from .tajmahal.state import State
from .tajmahal.views import view

__all__ = ["TajMahalEnv", "env", "parallel_env", "raw_env"]

NAME: Final = "tajmahal_v0"


class TajMahalEnv(AECEnv[str, dict[str, Any], int]):
    """The AEC environment; :func:`env` wraps it in PettingZoo's order checks."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": NAME,
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, num_players: int = 4, render_mode: str | None = None) -> None:
        super().__init__()
        if not 2 <= num_players <= 5:
            raise ValueError(f"Taj Mahal is for 2-5 players, not {num_players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"not {render_mode!r}"
            )
        self.num_players = num_players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        layout = observation_layout(num_players)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=layout.high(), shape=(layout.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.game: State | None = None

    # -- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the cycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: ``options={"setup": Setup}`` plays that setup; otherwise a
        random setup is drawn (from ``seed`` if given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        setup = (options or {}).get("setup")
        if setup is None:
            setup = Setup.random(self.num_players, self._rng.getrandbits(63))
        elif not isinstance(setup, Setup) or setup.players != self.num_players:
            raise ValueError(f"options['setup'] must be a Setup for {self.num_players} players")
        self.game = new_game(setup)
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
        chosen = action_from_index(int(action), state)
        state, _ = step(state, chosen)
        self.game = state
        self._clear_rewards()
        if state.to_act is None:
            result = outcome(state)
            totals, places = scores(state), ranks(scores(state))
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
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if state.to_act == seat:
            mask[list(legal_indices(state))] = 1
        return {"observation": observe(view(state, seat)), "action_mask": mask}

    def state(self) -> npt.NDArray[np.float32]:
        """Every seat's observation, stacked (rows by seat): all there is to see
        except the deck's order."""
        state = self._state()
        return np.stack([observe(view(state, seat)) for seat in range(self.num_players)])

    # -- for people

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode (None, 'ansi', 'rgb_array')")
            return None
        state = self._state()
        if self.render_mode == "ansi":
            return render_text(state)
        return render_image(state)

    def close(self) -> None:
        return None

    # -- helpers

    def _state(self) -> State:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _agent(self, state: State) -> str:
        assert state.to_act is not None
        return self.possible_agents[state.to_act]


def raw_env(num_players: int = 4, render_mode: str | None = None) -> TajMahalEnv:
    """The environment without PettingZoo's wrappers."""
    return TajMahalEnv(num_players, render_mode)


def env(num_players: int = 4, render_mode: str | None = None) -> AECEnv[str, dict[str, Any], int]:
    """The AEC environment for ``num_players`` (2-5), in PettingZoo's order checks
    (an error if it is used before ``reset``).  ``render_mode``: None, ``"ansi"``
    (text) or ``"rgb_array"`` (an image as a numpy array)."""
    return OrderEnforcingWrapper(raw_env(num_players, render_mode))


def parallel_env(
    num_players: int = 4, render_mode: str | None = None
) -> ParallelEnv[str, dict[str, Any], int | None]:
    """The parallel API: PettingZoo's turn-based converter around :func:`env`.
    Each step uses only the action of the agent to act (``infos[a]["active_agent"]``)."""
    return turn_based_aec_to_parallel(env(num_players, render_mode))


# --------------------------------------------------------------------------- text


def render_text(state: State) -> str:
    """The whole table as text, hands included (for people watching a game)."""
    board = state.setup.board
    names = tuple(c.name for c in board.cities)
    lines = [
        f"visit {state.visit} of 12 in {board.provinces[state.province]}, phase {state.phase}, "
        + ("game over" if state.to_act is None else f"seat {state.to_act} to act"),
        "court: " + (", ".join(state.court) or "empty"),
        "display: " + (", ".join(str(CARDS[c]) for c in state.display) or "empty"),
        f"deck: {len(state.deck)} cards, discard pile: {len(state.discard)}",
    ]
    for seat, p in enumerate(state.players):
        status = "withdrawn" if p.withdrawn else (p.color or "no colour yet")
        lines.append(
            f"seat {seat}: {p.score.total} points, {p.palaces} palaces left, "
            f"influence {list(p.influence)}, {status}"
        )
        lines.append("  hand: " + (", ".join(str(CARDS[c]) for c in p.hand) or "empty"))
        if p.played:
            lines.append("  played: " + ", ".join(str(CARDS[c]) for c in p.played))
    built = [
        f"{names[c]}: "
        + ", ".join(
            f"seat {owner}{' (mogul)' if mogul else ''}"
            for owner, mogul in ((state.palaces[c], False), (state.moguls[c], True))
            if owner >= 0
        )
        for c in board.province_cities[state.province]
        if state.palaces[c] >= 0 or state.moguls[c] >= 0
    ]
    lines.append("palaces here: " + ("; ".join(built) or "none"))
    if state.to_act is not None:
        lines.append(
            "legal: " + "; ".join(action_text(a, names) for a in legal_actions(state)[:12])
        )
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- image

#: Image size (height, width) and the seats' colours (RGB).
HEIGHT: Final = 480
WIDTH: Final = 720
SEAT_COLORS: Final = ((220, 40, 40), (40, 90, 220), (30, 160, 60), (230, 150, 20), (140, 60, 170))
CARD_COLORS: Final = {
    "red": (200, 30, 30),
    "yellow": (235, 200, 40),
    "green": (40, 150, 60),
    "purple": (120, 50, 150),
    "white": (245, 245, 245),
    "special": (200, 160, 60),
}
_BACKGROUND: Final = (238, 228, 205)
_ROAD: Final = (150, 130, 100)
_CITY: Final = (110, 100, 90)
_HIGHLIGHT: Final = (0, 0, 0)
_BONUS: Final = (250, 215, 60)
_MAP: Final = 460  # the board is drawn in a square of this size at the left
_MARGIN: Final = 10


def city_pixel(state: State, city: int) -> tuple[int, int]:
    """Where ``render_image`` draws ``city``: (row, column)."""
    cities = state.setup.board.cities
    xs = [c.x for c in cities]
    ys = [c.y for c in cities]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    c = cities[city]
    scale = (_MAP - 2 * _MARGIN) / span
    return (
        round(_MARGIN + (c.y - min(ys)) * scale),
        round(_MARGIN + (c.x - min(xs)) * scale),
    )


def _disc(img: npt.NDArray[np.uint8], row: int, col: int, r: int, rgb: tuple[int, ...]) -> None:
    y0, y1 = max(row - r, 0), min(row + r + 1, img.shape[0])
    x0, x1 = max(col - r, 0), min(col + r + 1, img.shape[1])
    yy, xx = np.ogrid[y0:y1, x0:x1]
    inside = (yy - row) ** 2 + (xx - col) ** 2 <= r * r
    img[y0:y1, x0:x1][inside] = rgb


def _rect(
    img: npt.NDArray[np.uint8], row: int, col: int, h: int, w: int, rgb: tuple[int, ...]
) -> None:
    img[max(row, 0) : max(row + h, 0), max(col, 0) : max(col + w, 0)] = rgb


def _line(
    img: npt.NDArray[np.uint8], a: tuple[int, int], b: tuple[int, int], rgb: tuple[int, ...]
) -> None:
    steps = max(abs(a[0] - b[0]), abs(a[1] - b[1]), 1)
    rows = np.linspace(a[0], b[0], steps + 1).round().astype(int)
    cols = np.linspace(a[1], b[1], steps + 1).round().astype(int)
    img[rows, cols] = rgb


def render_image(state: State) -> npt.NDArray[np.uint8]:
    """The table as an RGB image (``HEIGHT x WIDTH x 3``, uint8), without text.

    Left, the board: roads, cities (grey), a normal palace as a disc in its seat's
    colour, a mogul palace as a ring in its seat's colour, a yellow square on a
    fortress that still has its bonus tile, and a black outline around the cities
    of this visit's province.  Right, one row per seat (in ``SEAT_COLORS``): its
    score as a bar (two pixels a point), a marker if it is to act, its cards on the
    table in their card colours; under the rows, the display; at the top, the
    visit (one block per visit played).
    """
    img = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    img[:, :] = _BACKGROUND
    board = state.setup.board
    where = [city_pixel(state, c) for c in range(len(board.cities))]
    for a, b in board.roads:
        _line(img, where[a], where[b], _ROAD)
    here = set(board.province_cities[state.province])
    for city, (row, col) in enumerate(where):
        if city in here:
            _disc(img, row, col, 10, _HIGHLIGHT)
        mogul = state.moguls[city]
        if mogul >= 0:
            _disc(img, row, col, 9, SEAT_COLORS[mogul])
            _disc(img, row, col, 6, _CITY)
        else:
            _disc(img, row, col, 7, _CITY)
        owner = state.palaces[city]
        if owner >= 0:
            _disc(img, row, col, 5, SEAT_COLORS[owner])
        if state.bonus[city] is not None:
            _rect(img, row - 14, col - 3, 6, 6, _BONUS)
    left = _MAP + 10
    for visit in range(state.visit):
        _rect(img, 8, left + visit * 20, 10, 16, _HIGHLIGHT)
    for seat, p in enumerate(state.players):
        top = 30 + seat * 70
        color = SEAT_COLORS[seat]
        _rect(img, top, left, 12, 12, color)
        if state.to_act == seat:
            _rect(img, top + 3, left + 16, 6, 6, _HIGHLIGHT)
        _rect(img, top, left + 28, 12, min(2 * p.score.total, WIDTH - left - 30), color)
        for i, card in enumerate(p.played[:20]):
            _rect(img, top + 20, left + i * 12, 18, 10, CARD_COLORS[CARDS[card].color])
        if p.withdrawn:
            _rect(img, top + 44, left, 3, 120, color)
    top = 30 + len(state.players) * 70 + 10
    for i, card in enumerate(state.display):
        _rect(img, top, left + i * 14, 24, 12, CARD_COLORS[CARDS[card].color])
    return img
