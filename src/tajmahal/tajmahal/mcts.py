"""A search bot: determinized Monte Carlo tree search over a seat's view.

:func:`mcts_choice` picks one of a view's legal actions.  Each iteration

1. deals the cards the seat cannot see at random (:func:`~tajmahal.determinize`);
2. descends a tree of the seat's decisions and its rivals' replies (UCB1, each
   node choosing for the seat that acts there; an action not legal in this
   deal is skipped — information-set MCTS with availability counts); below the
   root only card plays and withdrawals are tree nodes, palace placements and
   display cards being left to the policy;
3. plays the rest of the current visit with a fast heuristic policy
   (:func:`rollout_action`) — every seat, the searcher included;
4. scores the position at the end of that visit with :func:`evaluate`, minus the
   same deal's score at the start (the luck of the guessed hands cancels out), and
   backs it up, each seat's node learning its own seat's value.

Budgets are iterations (deterministic for a seed) or seconds (as many iterations
as fit).  The evaluation values points, influence tiles and the cards still in
hand, relative to the best rival: a proxy for winning the game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

from attrs import frozen

from .actions import WITHDRAW, Action, BuildMogulPalace, Play
from .cards import CARD_COLOR, COLORS, IS_COLORED, PRINCESS_CARD, SYMBOL_COUNTS
from .hidden import determinize
from .rules import apply, legal_actions, majorities, symbol_counts
from .state import PLACE, PLAY, TAKE, State
from .tiles import BonusTile
from .views import PlayerView

#: Rough worth in points of each prize when won (elephant: goods; others: a palace,
#: its bonus tile chance and an influence tile or the ring).
PRIZE: Final = {
    "elephant": 3.0,
    "mogul": 2.5,
    "vizier": 3.0,
    "general": 3.0,
    "monk": 3.0,
    "princess": 3.0,
}
#: Worth of cards kept in hand and of influence tiles (toward special cards).
COLORED_CARD: Final = 0.9
WHITE_CARD: Final = 1.3
SPECIAL_CARD: Final = 3.0
INFLUENCE: Final = 1.2
#: Worth of a bonus tile lying on a city, by kind, for choosing where to build.
_BONUS_WORTH: Final = {"taj_mahal": 4.0, "points": 2.0, "card": 1.5, "good": 2.0}


@frozen
class SearchConfig:
    """Budget and knobs of :func:`mcts_choice`.

    ``iterations`` (deterministic) or ``seconds`` (wall clock) bound the search;
    with both, whichever ends first.  ``exploration`` is UCB1's constant on values
    scaled to about one point.
    """

    iterations: int | None = 600
    seconds: float | None = None
    exploration: float = 1.0
    noise: float = 0.6


# --------------------------------------------------------------------------- evaluation


def hand_worth(hand: Sequence[int]) -> float:
    """What the cards of a hand are worth for the visits to come."""
    total = 0.0
    for card in hand:
        color = CARD_COLOR[card]
        if color == "white":
            total += WHITE_CARD
        elif color == "special":
            total += SPECIAL_CARD
        else:
            total += COLORED_CARD
    return total


def evaluate(state: State) -> list[float]:
    """Each seat's standing: points, influence tiles and hand worth, minus the best
    rival's (so the values of one position sum to about zero)."""
    raw = []
    final = state.to_act is None
    for p in state.players:
        score = p.score  # Score.total, inline: a property call costs more than the sum
        value = float(score.palaces + score.goods + score.bonus + score.princess + score.hand)
        if not final:
            value += INFLUENCE * sum(p.influence) + hand_worth(p.hand)
        raw.append(value)
    out = []
    for seat, value in enumerate(raw):
        best_rival = max(v for s, v in enumerate(raw) if s != seat)
        out.append(value - best_rival)
    return out


# --------------------------------------------------------------------------- rollout policy


def _won(mine: Sequence[int], rivals: list[tuple[int, ...]], court: Sequence[str]) -> float:
    """The prize worth ``mine`` wins now against ``rivals`` (W1)."""
    return sum(PRIZE[symbol] for symbol in majorities(mine, rivals, court))


def _card_cost(card: int) -> float:
    if card >= 96:
        return -2.0 if card == PRINCESS_CARD else 0.3  # special cards come back
    return WHITE_CARD if not IS_COLORED[card] else COLORED_CARD


def _play_choice(state: State, seat: int, rng: random.Random, noise: float) -> Action:
    player = state.players[seat]
    rivals = [
        symbol_counts(p.played)
        for s, p in enumerate(state.players)
        if s != seat and not p.withdrawn
    ]
    if state.dummy is not None and state.dummy.bidding:
        rivals.append(symbol_counts(state.dummy.cards))
    mine = symbol_counts(player.played)
    court = state.court
    now = _won(mine, rivals, court)
    best: Action = WITHDRAW
    # Withdrawing banks what is won now; an empty-handed withdrawal draws a card.
    best_value = now + (0.0 if player.played else 0.8) + rng.gauss(0.0, noise)
    alone = not rivals
    for action in legal_actions(state):
        if not isinstance(action, Play):
            continue
        counts = list(mine)
        for i, n in enumerate(SYMBOL_COUNTS[action.card]):
            counts[i] += n
        cost = _card_cost(action.card)
        if action.extra is not None:
            for i, n in enumerate(SYMBOL_COUNTS[action.extra]):
                counts[i] += n
            cost += _card_cost(action.extra)
        gain = _won(counts, rivals, court)
        # Rivals still in may answer: a lead is only partly safe.
        value = (now + (gain - now) * (1.0 if alone else 0.75)) - cost
        value += rng.gauss(0.0, noise)
        if value > best_value:
            best, best_value = action, value
    return best


def _city_worth(state: State, seat: int, city: int, mogul: bool) -> float:
    board = state.setup.board
    worth = 0.0
    tile: BonusTile | None = state.bonus[city]
    if tile is not None and not mogul:
        worth += _BONUS_WORTH[tile.kind]
    province = board.cities[city].province
    for n in board.neighbours[city]:
        if seat in (state.palaces[n], state.moguls[n]):
            worth += 1.0 if board.cities[n].province != province else 0.3
    return worth


def rollout_action(state: State, rng: random.Random, noise: float = 0.6) -> Action:
    """A quick, sensible action for ``state.to_act`` (the rollout policy).

    Plays a card when it wins enough more than withdrawing now would (counting a
    card's worth as a cost), builds where bonus tiles and own palaces are, takes
    the display cards worth most.
    """
    seat = state.to_act
    assert seat is not None
    pending = state.pending  # State.phase, inline
    phase = PLAY if pending is None else PLACE if pending.palaces or pending.mogul else TAKE
    if phase == PLAY:
        return _play_choice(state, seat, rng, noise)
    actions = legal_actions(state)
    if phase == PLACE:
        return max(
            actions,
            key=lambda a: (
                _city_worth(state, seat, a.city, isinstance(a, BuildMogulPalace))  # type: ignore[union-attr]
                + rng.random() * 0.1
            ),
        )
    hand = state.players[seat].hand
    counts = {c: sum(1 for h in hand if CARD_COLOR[h] == c) for c in COLORS}
    return max(
        actions,
        key=lambda a: _take_worth(a, counts) + rng.random() * 0.1,
    )


def _take_worth(action: Action, counts: dict[str, int]) -> float:
    card = action.card  # type: ignore[union-attr]
    color = CARD_COLOR[card]
    if color == "white":
        return WHITE_CARD + 0.1 * sum(SYMBOL_COUNTS[card])
    return COLORED_CARD + 0.1 * counts.get(color, 0) + 0.1 * sum(SYMBOL_COUNTS[card])


def rollout(state: State, rng: random.Random, noise: float, visit: int | None = None) -> State:
    """Play ``state`` with :func:`rollout_action` to the end of ``visit`` (default:
    its own); a state already past that visit is returned as it is."""
    visit = state.visit if visit is None else visit
    while state.to_act is not None and state.visit == visit:
        state = apply(state, rollout_action(state, rng, noise))
    return state


# --------------------------------------------------------------------------- the tree


class _Node:
    """Statistics of one action in the information-set tree."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


def _select(node: _Node, actions: tuple[Action, ...], c: float) -> tuple[Action, _Node, bool]:
    """UCB1 with availability counts; an untried action comes first."""
    best: tuple[Action, _Node] | None = None
    best_score = -math.inf
    for action in actions:
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = _Node()
        child.available += 1
    for action in actions:
        child = node.children[action]
        if child.visits == 0:
            return action, child, True
        score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best, best_score = (action, child), score
    assert best is not None
    return best[0], best[1], False


def mcts_choice(view: PlayerView, rng: random.Random, config: SearchConfig | None = None) -> int:
    """The index into ``view.legal`` that the search picks (0 without a choice)."""
    config = config or SearchConfig()
    legal = view.legal
    if len(legal) <= 1 or view.seat is None:
        return 0
    root = _Node()
    deadline = None if config.seconds is None else time.perf_counter() + config.seconds
    limit = config.iterations
    done = 0
    while (limit is None or done < limit) and (deadline is None or time.perf_counter() < deadline):
        _iterate(determinize(view, rng), root, rng, config)
        done += 1
    scores = {
        a: (child.visits, child.total / max(1, child.visits)) for a, child in root.children.items()
    }
    return max(range(len(legal)), key=lambda i: scores.get(legal[i], (0, 0.0)))


def _iterate(state: State, root: _Node, rng: random.Random, config: SearchConfig) -> None:
    # The deal's own value at the start is subtracted from the result: it carries
    # the luck of the guessed hands, the same whatever is chosen (a control variate).
    start = evaluate(state)
    visit = state.visit
    path: list[tuple[_Node, int]] = []
    node = root
    while state.to_act is not None and state.visit == visit:
        actions = legal_actions(state)
        seat = state.to_act
        if len(actions) == 1:
            state = apply(state, actions[0])
            continue
        if path and state.pending is not None:  # not in the play phase
            # Below the root, where to build and which cards to take are left to
            # the policy: exploring them would only dilute the play decisions.
            state = apply(state, rollout_action(state, rng, config.noise))
            continue
        action, child, fresh = _select(node, actions, config.exploration)
        path.append((child, seat))
        state = apply(state, action)
        node = child
        if fresh:
            break
    values = evaluate(rollout(state, rng, config.noise, visit))
    for child, seat in path:
        child.visits += 1
        child.total += values[seat] - start[seat]


__all__ = ["SearchConfig", "evaluate", "mcts_choice", "rollout", "rollout_action"]
