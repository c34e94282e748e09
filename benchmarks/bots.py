"""Every game's built-in thinking bots: CPU time a decision (what a tournament of
them costs).

Each bot gets what the referee gives it: the hello, then an ``act`` message per
decision (the adapter's view and legal actions as data), answered by
:meth:`~tajmahal.arena.player.Player.handle`.  The positions are decisions with a
choice (more than one legal action) of random 3-player games; ``mcts`` answers
within its own time cap.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from tajmahal.arena import protocol

from .games import ENGINES, Engine, Loaded, load, positions
from .measure import Result, cpu_clock

BOTS = ("greedy", "mcts")
PLAYERS = 3


def decisions(g: Loaded, count: int) -> list[tuple[Any, Any]]:
    """``count`` (setup, state) with a choice, spread over random games."""
    found: list[tuple[Any, Any]] = []
    for i, (setup, state, _) in enumerate(positions(g, PLAYERS, 10)):
        if i % 7 == 3 and len(g.legal_actions(state)) > 1:
            found.append((setup, state))
            if len(found) == count:
                break
    return found


def hello(g: Loaded, setup: Any, seat: int) -> protocol.Message:
    game = g.game
    return protocol.hello(
        game=game.name,
        seat=seat,
        players=game.players(setup),
        variant=game.variant(setup),
        time={"handshake": 10.0, "move": 1.0, "bank": 10.0},
        seed=seat,
        setup=game.public_setup(setup),
    )


def decision_ms(g: Loaded, bot: str, states: list[tuple[Any, Any]]) -> list[float]:
    game = g.game
    make = game.builtin_players()[bot]
    times = []
    for i, (setup, state) in enumerate(states):
        seat = game.to_act(state)
        assert seat is not None
        player = make(i)
        player.handle(hello(g, setup, seat))
        legal = [game.action_to_data(a) for a in g.legal_actions(state)]
        message = protocol.act(i + 1, game.view_data(state, seat), legal, 1.0, 10.0)
        start = cpu_clock()
        player.handle(message)
        times.append((cpu_clock() - start) * 1000)
    return times


def run_game(g: Loaded, quick: bool) -> list[Result]:
    out = []
    for bot, count in zip(BOTS, (2, 1) if quick else (30, 6), strict=True):
        times = decision_ms(g, bot, decisions(g, count))
        out.append(
            Result(
                f"{g.title} {bot} decision",
                statistics.median(times),
                "ms CPU",
                higher_is_better=False,
                note=f"{PLAYERS} players; {min(times):,.1f}-{max(times):,.1f} over "
                f"{len(times)} positions",
            )
        )
    return out


def run_all(quick: bool, engines: Sequence[Engine] = ENGINES) -> list[Result]:
    return [r for engine in engines for r in run_game(load(engine), quick)]
