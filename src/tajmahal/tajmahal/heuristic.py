"""Taj Mahal's judgement for the search bot: the evaluation and the rollout policy.

The built-in ``mcts`` bot is the kit's determinized information-set Monte Carlo
tree search (:mod:`tajmahal.kit.search`), declared for Taj Mahal in
:mod:`tajmahal.tajmahal.bots`.  This module gives it what is Taj Mahal's own, and
is compiled with mypyc with the engine (a playout is most of a search's time):

- :func:`evaluate` values each seat's position: points, influence tiles and the
  cards still in hand, relative to the best rival (a proxy for winning the game);
- :func:`rollout_action` is a fast heuristic policy for every seat: play a card
  when it wins enough more than withdrawing now would (a card's worth counting as
  a cost), build where bonus tiles and one's own palaces are, take the display
  cards worth most;
- :func:`rollout` plays with it to the end of the current visit, the search's
  horizon.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .actions import WITHDRAW, Action, BuildMogulPalace, Play
from .cards import CARD_COLOR, COLORS, IS_COLORED, PRINCESS_CARD, SYMBOL_COUNTS
from .counting import majorities, rival_counts, symbol_counts
from .legal import legal_actions
from .rules import apply
from .state import PLACE, PLAY, TAKE, State
from .tiles import BonusTile

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


#: The spread (in points) of the random term the rollout policy adds to each
#: option's worth, so that playouts differ.
NOISE: Final = 0.6


# --------------------------------------------------------------------------- evaluation


def hand_worth(hand: Sequence[int], white: float = WHITE_CARD, per_symbol: float = 0.0) -> float:
    """What the cards of a hand are worth for the visits to come: a coloured card
    (plus ``per_symbol`` for each symbol it shows), a ``white`` one, a special one."""
    total = 0.0
    for card in hand:
        color = CARD_COLOR[card]
        if color == "white":
            total += white
        elif color == "special":
            total += SPECIAL_CARD
        elif per_symbol:
            total += COLORED_CARD + per_symbol * sum(SYMBOL_COUNTS[card])
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
    rivals = rival_counts(state.players, state.dummy, seat)
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


def rollout_action(state: State, rng: random.Random, noise: float = NOISE) -> Action:
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


__all__ = ["NOISE", "evaluate", "hand_worth", "rollout", "rollout_action"]
