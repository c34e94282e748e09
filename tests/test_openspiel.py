"""What every game must pass in OpenSpiel (tajmahal.openspiel): registration and
parameters (OpenSpiel's own random simulation test, with serialization, runs in the
suite every game passes: tajmahal.suite), every
chance outcome leading to a whole state, observations that are the encoding of the
seat's view, information states with perfect recall, resampling for IS-MCTS, and
OpenSpiel's MCTSBot playing 20 games against random at every player count, and
its IS-MCTS bot playing a whole game through the referee (``ismcts_player``).

The heavy suites (the MCTSBot games) are marked ``once`` (they prove
the same on both engines: the compiled pass of ``make test`` runs them) and ``slow``
(``make test-fast`` leaves them out).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.mcts import MCTSBot
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation
from research_support import Rollouts, play

import tajmahal.openspiel as tos
from tajmahal.arena import InProcessConnection, MatchConfig, MatchResult, play_match
from tajmahal.arena.registry import GAMES
from tajmahal.java.chance import check as check_java
from tajmahal.tajmahal.rules import check_state
from tajmahal.tikal.chance import check as check_tikal

#: Each game's whole-state check: every card, tile and token in one place.
CHECKS: dict[str, Callable[[Any], None]] = {
    "tajmahal": check_state,
    "tikal": check_tikal,
    "java": check_java,
}


def _game_cases(name: str) -> tuple[str, tuple[int, ...], tuple[str, ...]]:
    game = GAMES.get(name)
    return (
        name,
        tuple(range(game.min_players, game.max_players + 1)),
        game.encoding().variants or ("",),
    )


#: (game, player counts, variants) of each game checked here.
GAME_CASES = [_game_cases(name) for name in CHECKS]
CASES = [
    pytest.param(name, n, variant, id=f"{name}-{n}{'-' + variant if variant else ''}")
    for name, counts, variants in GAME_CASES
    for n in counts
    for variant in variants
]
COUNTS = [
    pytest.param(name, n, id=f"{name}-{n}") for name, counts, _ in GAME_CASES for n in counts
]


def load(name: str, players: int, variant: str = "") -> tos.OpenSpielGame:
    params: dict[str, Any] = {"players": players}
    if variant:
        params["variant"] = variant
    game: tos.OpenSpielGame = pyspiel.load_game(f"python_{name}", params)
    return game




def decisions(name: str, players: int, seed: int, every: int = 9) -> list[tos.OpenSpielState]:
    """Decision nodes along one random game (one in ``every``), and its end."""
    rng = random.Random(seed)
    state = load(name, players).new_initial_state()
    out = []
    while not state.is_terminal():
        if not state.is_chance_node() and rng.randrange(every) == 0:
            out.append(state.clone())
        play(state, rng, steps=1)
    return [*out, state]


def test_the_package_registers_each_game_with_its_parameters() -> None:
    assert {f"python_{name}" for name, _, _ in GAME_CASES} <= set(tos.registered())
    for name, counts, variants in GAME_CASES:
        rules = GAMES.get(name)
        encoding = rules.encoding()  # type: ignore[attr-defined]
        for n in counts:
            game = load(name, n)
            assert game.num_players() == n
            assert game.num_distinct_actions() == encoding.actions.size
            assert game.min_utility() == pytest.approx(-1 / (n - 1)) and game.max_utility() == 1
            expected = {"players": n} if variants == ("",) else {"players": n, "variant": ""}
            assert game.get_parameters() == expected
        game_type = load(name, counts[0]).get_type()
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert (game_type.min_num_players, game_type.max_num_players) == (counts[0], counts[-1])
        with pytest.raises(Exception, match=f"{counts[0]}-{counts[-1]} players"):
            load(name, counts[-1] + 1)
    assert pyspiel.load_game("python_tajmahal").num_players() == 4
    assert pyspiel.load_game("python_tikal").num_players() == 4
    assert pyspiel.load_game("python_java").num_players() == 4
    with pytest.raises(Exception, match="unknown variant 'x' of Tikal"):
        load("tikal", 2, "x")
    assert tos.register("tikal") == "python_tikal"  # again: nothing new


@pytest.mark.parametrize(("name", "players", "variant"), CASES)
def test_every_chance_outcome_leads_to_a_whole_state(name: str, players: int, variant: str) -> None:
    # The bug class of the two-player dummy (a draw that lost a card): at every
    # chance node along a random game, each outcome (up to 6 of them), with the rest
    # of its event drawn at random, must give a state whose cards (tiles, tokens)
    # are each in one place.
    rng = random.Random(players)
    state = load(name, players, variant).new_initial_state()
    tried = 0
    while not state.is_terminal():
        if state.is_chance_node() and state.engine is not None:
            outcomes = [o for o, _ in state.chance_outcomes()]
            for outcome in rng.sample(outcomes, min(6, len(outcomes))):
                other = state.clone()
                other.apply_action(outcome)
                while other.is_chance_node():
                    play(other, rng, steps=1)
                CHECKS[name](other.engine)
                tried += 1
        play(state, rng, steps=1)
    CHECKS[name](state.engine)
    assert tried > 30
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(("name", "players"), COUNTS[::2])
def test_observations_are_the_encoding_of_each_seats_view(name: str, players: int) -> None:
    encoding = GAMES.get(name).encoding()  # type: ignore[attr-defined]
    for state in decisions(name, players, seed=1):
        engine = state.engine
        for seat in range(players):
            assert np.array_equal(
                np.array(state.observation_tensor(seat), np.float32),
                encoding.observation(engine, seat),
            )
            assert state.observation_string(seat).startswith(f"seat {seat} ")
        if state.is_terminal():
            assert state.returns() == pytest.approx(list(encoding.outcome(engine)))


@pytest.mark.parametrize(("name", "players"), [("tajmahal", 3), ("tikal", 2), ("java", 2)])
def test_the_history_observer_has_perfect_recall(name: str, players: int) -> None:
    game = load(name, players)
    history = make_observation(game, INFO_STATE_OBS_TYPE, {"history": True})
    state = game.new_initial_state()
    rng = random.Random(3)
    length = 1 + game.max_history_length()

    def tokens(p: int) -> np.ndarray:
        history.set_from(state, p)
        return history.tensor.copy()

    previous = [tokens(p) for p in range(players)]
    assert all(len(t) == length and np.count_nonzero(t) == 1 for t in previous)  # the seat
    for _ in range(150):
        if state.is_terminal():
            break
        play(state, rng, steps=1)
        for p in range(players):
            now = tokens(p)
            used = int(np.count_nonzero(previous[p]))
            assert list(now[:used]) == list(previous[p][:used])  # longer, the same start
            assert np.count_nonzero(now) == used + 1  # one token a step, for every seat
            previous[p] = now
        words = history.string_from(state, 0).split()
        assert words[0] == "seat0:" and len(words) == used + 1
        # The information state: the seat's view, then that history.
        assert state.information_state_string(0) == (
            f"{state.observation_string(0)} | {history.string_from(state, 0)}"
        )


@pytest.mark.parametrize(("name", "players"), COUNTS[1::2])
def test_resampling_keeps_what_the_seat_knows(name: str, players: int) -> None:
    rng = random.Random(0)
    for state in decisions(name, players, seed=2, every=25)[:-1]:
        seat = state.current_player()
        other = state.resample_from_infostate(seat, rng.random)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert other.legal_actions() == state.legal_actions()
        CHECKS[name](other.engine)
    with pytest.raises(ValueError, match="decision node"):
        load(name, players).new_initial_state().resample_from_infostate(0, rng.random)




@pytest.mark.once
@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_mcts_bot_plays_20_games_against_random(name: str, players: int) -> None:
    # Two simulations a decision; leaves valued by whole random games in two-player
    # Taj Mahal (where such games found the dummy's bug: test_tajmahal_openspiel.py
    # has its node), by 20 random steps in Taj Mahal and Tikal, by the position as
    # it is in Java (whose engine is slow: a game is some 800 steps).
    steps = {("tajmahal", 2): None, ("java", players): 0}.get((name, players), 20)
    game = load(name, players)
    for number in range(20):
        rng = random.Random(number)
        evaluator = Rollouts(rng, steps)
        bot = MCTSBot(
            game, 2, 2, evaluator, random_state=np.random.RandomState(number), solve=False
        )
        seat = number % players
        state = game.new_initial_state()
        for _ in range(game.max_history_length()):  # the game's bound: a game ends
            if state.is_terminal():
                break
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                play(state, rng, steps=1)
        assert state.is_terminal()
        CHECKS[name](state.engine)
        assert sum(state.returns()) == pytest.approx(0.0)


# --------------------------------------------------------------------------- at the table

#: The games whose adapters name kit bots: IS-MCTS values its leaves with them (by
#: playouts of the game's rollout policy: a whole Java game takes ~40 s on the pure engine).
TABLE_GAMES = [
    "tajmahal",
    "tikal",
    pytest.param("java", marks=[pytest.mark.once, pytest.mark.slow]),
]


def ismcts_match(
    name: str, opponent: str = "greedy", searched: int | None = None
) -> tuple[MatchResult, tos.OpenSpielPlayer]:
    """A two-player game through the referee: IS-MCTS (4 simulations) at seat 0 for
    its first ``searched`` decisions (None: all), then random; ``opponent`` at seat 1."""
    game = GAMES.by_id(name)
    player = tos.ismcts_player(seed=1, simulations=4, game=name)
    if searched is not None:
        search, budget = player.pick, [searched]

        def pick(view: Any, legal: Sequence[Any]) -> int:
            budget[0] -= 1
            return search(view, legal) if budget[0] >= 0 else player.rng.randrange(len(legal))

        player.pick = pick
    other = game.builtin_players()[opponent](2)
    connections = [InProcessConnection(p, p.name, None) for p in (player, other)]
    result = play_match(game, game.random_setup(2, 5, None), connections, MatchConfig(), seed=5)
    return result, player


@pytest.mark.parametrize("name", TABLE_GAMES)
def test_ismcts_player_plays_a_whole_game_through_the_referee(name: str) -> None:
    result, player = ismcts_match(name)
    assert result.faults == []
    seat = result.seats[0]
    assert (seat.name, seat.exit, seat.fallback_decisions) == ("openspiel-ismcts-4", "done", 0)
    assert seat.decisions > 0
    assert player.game is not None and player.game.num_players() == 2


def test_ismcts_player_searches_java_decisions_through_the_referee() -> None:
    # The fast suite's Java check: 20 decisions searched, the rest of the game random.
    result, player = ismcts_match("java", "random", searched=20)
    assert result.faults == []
    assert (result.seats[0].exit, result.seats[0].fallback_decisions) == ("done", 0)
    assert player.game is not None and player.game.get_type().short_name == "python_java"
