"""Built-in Java bots: ``greedy`` (one-step lookahead on a heuristic) and ``mcts``
(determinized flat UCB over the greedy's best candidates, with random rollouts of
the rest of the seat's turn, each valued at its best point).

Both see only what a subprocess bot sees: the hello's static setup, the view and
the legal actions of each ``act`` message.  They rebuild a state from the view
(:func:`~tajmahal.java.views.determinize`: the other hands and the pile are
guessed) and search on it.

The heuristic (:func:`worth`) is what a seat's position is worth in points,
relative to its best rival: the points scored, a share of what the final scoring
would give now (J80-J82), villages it could build a palace in (J52), and small
terms for figures on the board, festival cards and action tokens.  A turn offers
thousands of land placements; the bots look at a sample of them (those next to
their figures first).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any, Final

from attrs import frozen

from ..arena.player import Player
from ..arena.protocol import Message
from .actions import Action, EndTurn, Lay, Select
from .components import DEFAULT_COMPONENTS
from .festival import card_symbols, opening, required_symbols
from .geometry import palace_of, tiers, villages
from .legal import legal_actions
from .rules import apply
from .serialize import from_data
from .state import ACT, FESTIVAL, OVER, POSITION, SHAPE, TARGET, VALUE, State
from .views import JavaView, determinize

#: Worth of parts of a position (points).
FIRST: Final = 0.6  # share of a city's value for first place now
SECOND: Final = 0.3
VILLAGE_LEAD: Final = 0.25  # per space of a village without palace the seat leads
ON_BOARD: Final = 0.4
CARD: Final = 0.4
TOKEN: Final = 0.5
#: How many actions of the big kinds the bots look at.
SAMPLE_NEAR: Final = 12  # positions next to the seat's figures
SAMPLE_FAR: Final = 6  # other positions


def _own_worth(state: State, seat: int, towns: list[list[int]]) -> float:
    p = state.players[seat]
    total = float(p.score)
    for village in towns:
        where = palace_of(state, village)
        t = tiers(state, village)
        if where is None:
            if t and t[0] == [seat]:
                total += VILLAGE_LEAD * min(len(village), 10)
            continue
        if p.scored:
            continue
        value = state.palace[where]
        for place, tier in enumerate(t[:2]):
            if seat in tier and not (place == 1 and len(t[0]) == 1 and len(t) == 1):
                total += (FIRST if place == 0 else SECOND) * value
    total += ON_BOARD * sum(1 for s in state.figures if s == seat)
    total += CARD * min(len(p.hand), 5) + TOKEN * p.tokens
    return total


def worth(state: State, seat: int) -> float:
    """``seat``'s heuristic worth minus the best rival's."""
    towns = villages(state)
    values = [_own_worth(state, s, towns) for s in range(len(state.players))]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


#: The phases of a half-made action.
HALF: Final = (POSITION, SHAPE, TARGET, VALUE)


def _some(xs: list[Action], k: int, rng: random.Random) -> list[Action]:
    return xs if len(xs) <= k else rng.sample(xs, k)


def _where(state: State, legal: list[Action], rng: random.Random) -> list[Action]:
    """A sample of the positions of a half-made action: those next to the seat's
    figures first."""
    seat = state.to_act
    nb = state.components.board.neighbours
    near = {q for p, s in enumerate(state.figures) if s == seat for q in (p, *nb[p])}
    close: list[Action] = [a for a in legal if isinstance(a, Select) and a.position in near]
    far = [a for a in legal if not (isinstance(a, Select) and a.position in near)]
    picked = _some(close, SAMPLE_NEAR, rng)
    return picked + _some(far, max(SAMPLE_FAR, SAMPLE_NEAR - len(picked)), rng)


def plays(state: State, rng: random.Random) -> list[tuple[tuple[Action, ...], State]]:
    """Complete actions worth a look from ``state`` (the decisions that finish the
    action under way, or a whole action of the turn), each with the state after
    it: every choice of the phases ``act``, ``shape`` and ``value``, samples of
    the positions."""
    out: list[tuple[tuple[Action, ...], State]] = []

    def walk(s: State, prefix: tuple[Action, ...]) -> None:
        legal = legal_actions(s)
        if s.phase in (POSITION, TARGET):
            legal = _where(s, legal, rng)
        for a in legal:
            after = apply(s, a)
            if after.phase in HALF:
                walk(after, (*prefix, a))
            else:
                out.append(((*prefix, a), after))

    walk(state, ())
    return out


def festival_value(state: State, palace: int) -> float:
    """What opening a festival in ``palace`` is worth: half the palace's value,
    discounted for the rivals' cards against the seat's qualifying cards."""
    seat = state.to_act
    assert seat is not None
    required = required_symbols(state)
    mine = sum(card_symbols(state, c, required) for c in state.players[seat].hand)
    rivals = max((len(p.hand) for s, p in enumerate(state.players) if s != seat), default=0)
    chance = 0.9 if mine > rivals else 0.5 if mine == rivals else 0.2
    return chance * state.palace[palace] / 2


def bid_choice(state: State, legal: Sequence[Action]) -> int:
    """Festival auction: lay the card showing most required symbols until the
    seat leads (or the palace is too small to fight for); then end the bid or pass."""
    f = state.festival
    seat = state.to_act
    assert f is not None and seat is not None
    count = [sum(card_symbols(state, c, f.required) for c in cards) for cards in f.laid]
    mine = count[f.bidders.index(seat)]
    others = max((n for s, n in zip(f.bidders, count, strict=True) if s != seat), default=0)
    lays = [
        (card_symbols(state, a.card, f.required), i)
        for i, a in enumerate(legal)
        if isinstance(a, Lay)
    ]
    fight = state.palace[f.palace] >= 4 or opening(f)
    if lays and (opening(f) or (fight and mine <= others)):
        return max(lays)[1]
    return len(legal) - 1  # Done or Pass is last


def _play_value(state: State, seat: int, line: tuple[Action, ...], after: State) -> float:
    value = worth(after, seat)
    if after.phase == FESTIVAL and after.festival is not None and state.phase != FESTIVAL:
        value += festival_value(state, after.festival.palace)
    if isinstance(line[0], EndTurn) and state.turn.ap > 0:
        value -= 0.05
    return value


def greedy_choice(state: State, legal: Sequence[Action], rng: random.Random) -> int:
    """The first decision of the complete action (:func:`plays`) after which
    :func:`worth` is highest (ties at random).  Ending a turn with AP left is worth
    a little less than an action that changes nothing, so the seat keeps working
    while its AP buy something."""
    seat = state.to_act
    assert seat is not None
    if state.phase == FESTIVAL:
        return bid_choice(state, legal)
    best, first = -math.inf, legal[-1]
    for line, after in plays(state, rng):
        value = _play_value(state, seat, line, after) + rng.random() * 1e-3
        if value > best:
            best, first = value, line[0]
    return legal.index(first)


# --------------------------------------------------------------------------- search


@frozen
class SearchConfig:
    """Budget of :func:`mcts_choice`: rollouts over determinized states, capped at
    ``seconds`` of wall time (None: no cap; the search then depends only on its
    seed), how many greedy candidates it compares, UCB1's ``exploration`` constant
    (values are in points) and the chance a rollout ends the turn at each step."""

    iterations: int = 60
    seconds: float | None = 0.8
    width: int = 6
    exploration: float = 1.0
    stop: float = 0.3


def rollout_value(state: State, seat: int, rng: random.Random, config: SearchConfig) -> float:
    """Random play of the rest of the seat's turn (bids: :func:`bid_choice`), valued
    by the best :func:`worth` at a point where the seat could have ended its turn.

    The seat alone decides when its turn ends (J18, J20-J21: any time once its land
    tile lies), so every such prefix of the rollout is a line it can play; random
    actions after the best point (a figure walked out of its city, say) do not count
    against the action searched, as they would if the rollout were valued at its end
    while ending the turn at once is valued exactly."""
    best = -math.inf
    for _ in range(60):
        if state.to_act != seat or state.phase == OVER:
            break
        legal = legal_actions(state)
        if state.phase == FESTIVAL:
            state = apply(state, legal[bid_choice(state, legal)])
            continue
        if state.phase == ACT and isinstance(legal[-1], EndTurn):
            best = max(best, worth(apply(state, legal[-1]), seat))
            if rng.random() < config.stop:
                return best
        state = apply(state, rng.choice(legal))
    return max(best, worth(state, seat))


def mcts_choice(
    state_view: JavaView, legal: Sequence[Action], rng: random.Random, config: SearchConfig
) -> int:
    """Flat UCB1 over the ``width`` best complete actions by :func:`worth`
    (:func:`plays`): each iteration plays one of them on a new determinization and
    rolls the turn out at random (:func:`rollout_value`: the best point of the
    rollout counts); the first decision of the most visited one is chosen."""
    if len(legal) == 1:
        return 0
    seat = state_view.seat
    base = determinize(state_view, rng)
    if base.phase == FESTIVAL:
        return bid_choice(base, legal)
    scored = sorted(
        ((_play_value(base, seat, line, after) + rng.random() * 1e-3, line)
         for line, after in plays(base, rng)),
        reverse=True,
    )  # fmt: skip
    arms = [line for _, line in scored[: config.width]]
    visits = [0] * len(arms)
    totals = [0.0] * len(arms)
    deadline = None if config.seconds is None else time.perf_counter() + config.seconds
    for n in range(config.iterations):
        if deadline is not None and n >= len(arms) and time.perf_counter() > deadline:
            break
        if n < len(arms):
            arm = n
        else:
            log = math.log(n)
            arm = max(
                range(len(arms)),
                key=lambda a: (
                    totals[a] / visits[a] + config.exploration * math.sqrt(log / visits[a])
                ),
            )
        state = determinize(state_view, rng)
        for action in arms[arm]:
            state = apply(state, action)
        value = rollout_value(state, seat, rng, config)
        if state.phase == FESTIVAL and state.festival is not None and base.phase != FESTIVAL:
            value += festival_value(base, state.festival.palace)
        visits[arm] += 1
        totals[arm] += value
    best = max(range(len(arms)), key=lambda a: (visits[a], totals[a] / max(visits[a], 1)))
    return legal.index(arms[best][0])


# --------------------------------------------------------------------------- players


class ViewPlayer(Player):
    """A built-in player: rebuilds the view and the legal actions of each message."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, message: Message) -> int | Any:
        v: JavaView = from_data(message["view"], JavaView)
        legal = [from_data(a, Action) for a in message["legal"]]
        if len(legal) == 1:
            return 0
        return self.pick(v, legal)

    def pick(self, v: JavaView, legal: list[Action]) -> int:
        state = determinize(v, self.rng, DEFAULT_COMPONENTS)
        return greedy_choice(state, legal, self.rng)


class GreedyPlayer(ViewPlayer):
    """One-step lookahead on :func:`worth`."""

    name = "greedy"


class MCTSPlayer(ViewPlayer):
    """Determinized flat UCB over the turn (:func:`mcts_choice`)."""

    name = "mcts"

    def __init__(self, seed: int = 0, config: SearchConfig | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()

    def pick(self, v: JavaView, legal: list[Action]) -> int:
        if v.phase == FESTIVAL:  # festival bids: the greedy choice
            return super().pick(v, legal)
        return mcts_choice(v, legal, self.rng, self.config)


__all__ = [
    "GreedyPlayer",
    "MCTSPlayer",
    "SearchConfig",
    "greedy_choice",
    "mcts_choice",
    "rollout_value",
    "worth",
]
