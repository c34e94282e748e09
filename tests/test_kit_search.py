"""The kit's bot frames (tajmahal.kit.bots, tajmahal.kit.search) on a small game.

The game is Nim with one pile: each turn a seat takes 1 or 2 stones, and the seat
that takes the last stone wins.  A pile that is a multiple of 3 is lost for the
seat to move (whatever it takes, the other restores a multiple of 3), so the
winning move is to leave one: from 4 take 1, from 5 take 2, from 7 take 1.  The
legal actions list "take 2" first, so the right answer is not always index 0.
The seats do not see a "secret" the state carries: the search must never meet the
real one (every state it plays on comes from ``determinize``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from attrs import evolve, frozen

from tajmahal.kit import bots as kit
from tajmahal.kit.search import SearchConfig, search_choice


@frozen
class Pile:
    stones: int
    to_act: int | None
    last: int = -1  # the seat that moved last: it wins when the pile is empty
    secret: str = "real"  # what no seat sees; determinize deals "guess"


class Nim(kit.Bots[Pile, Pile, int]):
    """Nim for the kit's bots; counts what the frames ask of it."""

    def __init__(self) -> None:
        self.deals = 0
        self.root_moves: list[int] = []
        self.judged: list[int] = []

    def read_view(self, setup: Any, view: Any, legal: Sequence[Any]) -> tuple[Pile, list[int]]:
        return Pile(view["stones"], view["seat"]), list(legal)

    def determinize(self, view: Pile, rng: random.Random) -> Pile:
        self.deals += 1
        return evolve(view, secret="guess")

    def legal_actions(self, state: Pile) -> Sequence[int]:
        return [n for n in (2, 1) if n <= state.stones]

    def apply(self, state: Pile, action: int) -> Pile:
        assert state.secret == "guess", "the search played on the real state"
        assert state.to_act is not None and action in self.legal_actions(state)
        stones = state.stones - action
        return Pile(stones, None if stones == 0 else 1 - state.to_act, state.to_act, state.secret)

    def evaluate(self, state: Pile) -> Sequence[float]:
        if state.to_act is not None:
            return [0.0, 0.0]
        return [1.0 if seat == state.last else -1.0 for seat in (0, 1)]


def choose(game: Nim, stones: int, config: SearchConfig, seed: int = 0) -> int:
    view = Pile(stones, 0)
    legal = game.legal_actions(view)
    return legal[search_choice(game, view, legal, random.Random(seed), config)]


@pytest.mark.parametrize(("stones", "take"), [(4, 1), (5, 2), (7, 1), (8, 2)])
def test_the_search_finds_the_move_that_leaves_a_multiple_of_three(stones: int, take: int) -> None:
    config = SearchConfig(iterations=400, baseline=False)
    for seed in range(3):
        assert choose(Nim(), stones, config, seed) == take


def test_every_iteration_plays_on_a_new_guess_never_on_the_real_state() -> None:
    game = Nim()
    choose(game, 7, SearchConfig(iterations=50))
    assert game.deals == 50  # one determinization per iteration (apply checks the rest)


def test_an_iteration_budget_makes_the_search_a_function_of_its_seed() -> None:
    config = SearchConfig(iterations=30, exploration=3.0)
    picks = {choose(Nim(), 10, config, seed=5) for _ in range(4)}
    assert len(picks) == 1


class Counting(Nim):
    """Ten actions at the root (take 1..10 of a big pile), every one valued alike;
    records which ones the search applies at the root."""

    def legal_actions(self, state: Pile) -> Sequence[int]:
        return list(range(1, min(10, state.stones) + 1))

    def apply(self, state: Pile, action: int) -> Pile:
        if state.stones == 100:
            self.root_moves.append(action)
        return super().apply(state, action)

    def within(self, start: Pile, state: Pile) -> bool:
        return state.stones == start.stones  # one decision: the root's

    def action_value(self, state: Pile, action: int, seat: int, rng: random.Random) -> float:
        self.judged.append(action)
        return float(action % 4)  # 3 and 7 best, then 2, 6 and 10


def test_progressive_widening_adds_a_candidate_as_the_root_is_visited() -> None:
    # widening 1, power 0.5: the root's n-th iteration (n visits before it)
    # considers ceil(sqrt(n + 1)) candidates: 1, 2, 2, 2, 3, 3, 3, 3, 3, 4 ...
    for iterations, tried in [(1, 1), (2, 2), (4, 2), (5, 3), (9, 3), (10, 4)]:
        game = Counting()
        choose(game, 100, SearchConfig(iterations=iterations, widening=1.0))
        assert sorted(set(game.root_moves)) == list(range(1, tried + 1)), iterations


def test_width_searches_only_the_candidates_the_greedy_judgement_rates_best() -> None:
    game = Counting()
    choose(game, 100, SearchConfig(iterations=40, width=4))
    assert sorted(game.judged) == list(range(1, 11))  # each judged once, on the first deal
    assert set(game.root_moves) == {3, 7, 2, 6}  # values 3, 3, 2, 2 (ties: the earlier)
    assert choose(Counting(), 100, SearchConfig(iterations=40, width=1)) == 3  # no search


def test_shuffle_tries_the_untried_actions_in_a_random_order() -> None:
    firsts = set()
    for seed in range(8):
        game = Counting()
        choose(game, 100, SearchConfig(iterations=3, shuffle=True), seed)
        assert len(set(game.root_moves)) == 3  # each iteration a new one
        firsts.add(game.root_moves[0])
    assert len(firsts) > 2  # in order, it would always be 1
    game = Counting()
    choose(game, 100, SearchConfig(iterations=3))
    assert game.root_moves == [1, 2, 3]


def test_with_one_legal_action_there_is_nothing_to_search() -> None:
    game = Nim()
    assert search_choice(game, Pile(1, 0), [1], random.Random(0), SearchConfig()) == 0
    assert game.deals == 0


def test_a_search_config_needs_a_positive_budget() -> None:
    with pytest.raises(ValueError, match="iterations or seconds"):
        SearchConfig(iterations=None)
    with pytest.raises(ValueError, match="iterations must be positive"):
        SearchConfig(iterations=0)
    with pytest.raises(ValueError, match="width must be positive"):
        SearchConfig(width=0)
    assert SearchConfig(iterations=None, seconds=0.01).iterations is None


def test_a_seconds_budget_runs_at_least_one_iteration() -> None:
    game = Nim()
    choose(game, 7, SearchConfig(iterations=None, seconds=1e-9))
    assert game.deals >= 1


def test_greedy_takes_the_best_judged_action_the_earlier_on_a_tie() -> None:
    game = Counting()
    view = Pile(100, 0)
    legal = game.legal_actions(view)
    assert legal[kit.greedy_choice(game, view, legal, random.Random(0))] == 3


def test_the_players_read_the_view_from_the_messages_and_answer_by_index() -> None:
    act = {"type": "act", "view": {"stones": 100, "seat": 0}, "legal": list(range(1, 11))}
    hello = {"type": "hello", "setup": {}}
    greedy = kit.GreedyPlayer(Counting(), seed=1)
    greedy.handle(hello)
    assert greedy.handle(act) == {"type": "action", "choice": 2}  # take 3
    class Budgeted(Nim):
        budget = SearchConfig(iterations=300, baseline=False)

    players = kit.builtin_players(Budgeted())
    assert list(players) == ["random", "greedy", "mcts", "first"]
    search = players["mcts"](1)
    search.handle(hello)
    nim = {"type": "act", "view": {"stones": 5, "seat": 0}, "legal": [2, 1]}
    assert search.handle(nim) == {"type": "action", "choice": 0}  # take 2, leave 3
    assert search.handle({**nim, "legal": [1]}) == {"type": "action", "choice": 0}


def test_a_search_player_plays_greedy_where_the_game_says_not_to_search() -> None:
    class NoSearch(Counting):
        def searches(self, view: Pile) -> bool:
            return False

    act = {"type": "act", "view": {"stones": 100, "seat": 0}, "legal": list(range(1, 11))}
    game = NoSearch()
    assert kit.SearchPlayer(game).handle(act) == {"type": "action", "choice": 2}
    assert game.root_moves == []
