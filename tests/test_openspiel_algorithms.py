"""OpenSpiel's own algorithms on every game, as a researcher calls them
(docs/research.md, "OpenSpiel's algorithms"): ``evaluate_bots`` with its C++ random
bots, ``MCTSBot``, ``ISMCTSBot`` with its defaults, outcome-sampling MCCFR, and
``rl_environment``; and the observations they read: information states that are a
function of the seat's information, and the public and private observations of
``make_observation``. Each runs briefly here; the long runs are the docs'.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import outcome_sampling_mccfr
from open_spiel.python.algorithms.ismcts import ISMCTSBot
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

import tajmahal.openspiel as tos
from tajmahal.arena.registry import GAMES

#: Every game at every player count it allows.
COUNTS = [
    pytest.param(name, n, id=f"{name}-{n}")
    for name in ("tajmahal", "tikal", "java")
    for n in range(GAMES.get(name).min_players, GAMES.get(name).max_players + 1)
]
Private = pyspiel.PrivateInfoType


def slow(case: Any) -> Any:
    """A case of :data:`COUNTS` for the slow suite only."""
    return pytest.param(*case.values, marks=pytest.mark.slow, id=case.id)


def load(name: str, players: int) -> tos.OpenSpielGame:
    game: tos.OpenSpielGame = pyspiel.load_game(f"python_{name}", {"players": players})
    return game


def step_at_random(state: tos.OpenSpielState, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def positions(name: str, players: int, seed: int, count: int) -> Iterator[tos.OpenSpielState]:
    """``count`` decision nodes with a choice, from random games (one in every 7)."""
    rng = random.Random(seed)
    game = load(name, players)
    found = 0
    while found < count:
        state = game.new_initial_state()
        while not state.is_terminal() and found < count:
            chosen = rng.randrange(7) == 0
            if chosen and not state.is_chance_node() and len(state.legal_actions()) > 1:
                found += 1
                yield state.clone()
            step_at_random(state, rng)


# --------------------------------------------------------------------------- information states


@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_information_states_tell_the_legal_actions_in_every_resampled_world(
    name: str, players: int
) -> None:
    # What IS-MCTS needs (issue 39): worlds resampled for the seat to act give it the
    # same information state, and in those worlds each seat's information state
    # decides its legal actions (IS-MCTS keys its nodes by them). Every world
    # plays the same actions where its legal ones allow, as a search tree would.
    rng = random.Random(players)
    for state in positions(name, players, seed=players, count=2):
        seat = state.current_player()
        key = state.information_state_string(seat)
        legal_of: dict[str, list[int]] = {}
        for _ in range(6):
            world = state.resample_from_infostate(seat, rng.random)
            assert world.information_state_string(seat) == key
            assert world.legal_actions() == state.legal_actions()
            for _ in range(25):
                if world.is_terminal():
                    break
                if world.is_chance_node():
                    step_at_random(world, rng)
                    continue
                now = world.current_player()
                info, legal = world.information_state_string(now), world.legal_actions()
                assert legal_of.setdefault(info, legal) == legal
                world.apply_action(legal[hash(info) % len(legal)])


@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_the_information_state_tensor_is_the_observation(name: str, players: int) -> None:
    game = load(name, players)
    assert game.information_state_tensor_size() == game.observation_tensor_size()
    assert game.information_state_tensor_size() < 5000  # a few thousand floats
    state = next(positions(name, players, seed=1, count=1))
    seat = state.current_player()
    assert state.information_state_tensor(seat) == state.observation_tensor(seat)
    assert state.information_state_string(seat).startswith(state.observation_string(seat))


# --------------------------------------------------------------------------- observations


def observer(game: tos.OpenSpielGame, public: bool, private: Any) -> Any:
    kind = pyspiel.IIGObservationType(
        public_info=public, perfect_recall=False, private_info=private
    )
    return make_observation(game, kind)


@pytest.mark.parametrize(("name", "players"), [("tajmahal", 3), ("java", 2), ("tikal", 2)])
def test_public_and_private_observations(name: str, players: int) -> None:
    game = load(name, players)
    encoding = game.encoding
    layout = encoding.layout(players)
    public = observer(game, True, Private.NONE)
    everyone = observer(game, True, Private.ALL_PLAYERS)
    own = observer(game, False, Private.SINGLE_PLAYER)
    nothing = observer(game, False, Private.NONE)
    rng = random.Random(5)
    for state in positions(name, players, seed=5, count=3):
        seat = state.current_player()
        engine = state.engine
        # The public observation: the same for every seat, and in a world that deals
        # the hidden cards again; seat 0's observation without its private blocks.
        texts = {public.string_from(state, p) for p in range(players)}
        assert len(texts) == 1
        world = state.resample_from_infostate(seat, rng.random)
        assert public.string_from(world, seat) in texts
        public.set_from(state, 1)
        first = encoding.observation(engine, 0)
        for block in public.dict:
            assert block not in encoding.private
            assert np.array_equal(public.dict[block], layout.part(first, block))
        # Every seat's private blocks (a row each), after the public ones.
        everyone.set_from(state, seat)
        for name_ in encoding.private:
            for p in range(players):
                mine = layout.part(encoding.observation(engine, p), name_)
                assert np.array_equal(everyone.dict[name_][p], mine)
                own.set_from(state, p)
                assert np.array_equal(own.dict[name_], mine)
        assert set(everyone.dict) == set(public.dict) | set(encoding.private)
        nothing.set_from(state, seat)
        assert nothing.tensor.size == 0 and nothing.string_from(state, seat) == "private"
    if name in ("tajmahal", "java"):  # their hands are private
        assert encoding.private == ("hand",)
        hand = own.string_from(state, seat).split("hand=")[1].split(",")
        assert len(hand) == len(engine.players[seat].hand)
    else:
        assert own.tensor.size == 0  # nothing in Tikal is any one seat's


def test_observers_refuse_what_they_cannot_give() -> None:
    game = load("tajmahal", 2)
    public_recall = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=True, private_info=Private.NONE
    )
    with pytest.raises(ValueError, match="perfect recall is the seat's information state"):
        make_observation(game, public_recall)
    with pytest.raises(ValueError, match="unknown observer parameters"):
        make_observation(game, INFO_STATE_OBS_TYPE, {"depth": 3})
    with pytest.raises(ValueError, match="ask for perfect recall"):
        make_observation(game, None, {"history": True})


# --------------------------------------------------------------------------- algorithms


@pytest.mark.parametrize(
    ("name", "players"),
    [slow(p) if p.values[0] == "java" and p.values[1] > 2 else p for p in COUNTS],
)
def test_evaluate_bots_plays_cpp_random_bots(name: str, players: int) -> None:
    game = load(name, players)
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(players)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert len(returns) == players and sum(returns) == pytest.approx(0.0)
    assert max(returns) > 0


#: Simulations a decision of the IS-MCTS test, by game (whole random games value
#: the leaves: a Java game is some 800 decisions).
SIMULATIONS = {"tajmahal": 30, "tikal": 20, "java": 6}


#: The fast suite's IS-MCTS cases (where collisions were most frequent: 20 of 30
#: four-player Taj Mahal positions); the rest are the slow suite's.
ISMCTS_FAST = {("tajmahal", 4), ("tikal", 2), ("java", 2)}


@pytest.mark.once  # keys and resampling are the same on both engines
@pytest.mark.parametrize(
    ("name", "players"),
    [p if tuple(p.values) in ISMCTS_FAST else slow(p) for p in COUNTS],
)
def test_ismcts_bot_with_its_defaults(name: str, players: int) -> None:
    # OpenSpiel's ISMCTSBot as its docs build it: its own resampling
    # (state.resample_from_infostate), information-state keys, consistent action
    # sets required (allow_inconsistent_action_sets=False), random rollouts.
    game = load(name, players)
    for k, state in enumerate(positions(name, players, seed=players, count=3)):
        evaluator = RandomRolloutEvaluator(1, np.random.RandomState(k))
        bot = ISMCTSBot(
            game, evaluator, 2.0, SIMULATIONS[name], random_state=np.random.RandomState(k)
        )
        assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["tajmahal", "tikal", "java"])
def test_mcts_bot_searches_a_position(name: str) -> None:
    game = load(name, 2)
    state = next(positions(name, 2, seed=3, count=1))
    evaluator = RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()


def test_outcome_sampling_mccfr_on_two_player_taj_mahal() -> None:
    game = load("tajmahal", 2)
    np.random.seed(0)  # the solver samples with numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 10_000))  # one Python frame per node
        for _ in range(3):
            solver.iteration()
    finally:
        sys.setrecursionlimit(limit)
    policy = solver.average_policy()
    state = next(positions("tajmahal", 2, seed=0, count=1))
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert solver._infostates  # regrets were stored by information state


@pytest.mark.parametrize(("name", "players"), [("tajmahal", 4), ("tikal", 2), ("java", 4)])
def test_rl_environment_plays_a_random_game(name: str, players: int) -> None:
    # the chance outcomes seeded: an unseeded game of 2-player Tikal now and then ties
    sampler = rl_environment.ChanceEventSampler(seed=0)
    env = rl_environment.Environment(
        f"python_{name}", chance_event_sampler=sampler, players=players
    )
    size = load(name, players).information_state_tensor_size()
    rng = random.Random(0)
    step = env.reset()
    turns = 0
    while not step.last() and (name != "java" or turns < 150):  # Java: its first turns
        seat = step.observations["current_player"]
        assert all(len(t) == size for t in step.observations["info_state"])
        step = env.step([rng.choice(step.observations["legal_actions"][seat])])
        turns += 1
    if name != "java":
        assert sum(step.rewards) == pytest.approx(0.0) and max(step.rewards) > 0
