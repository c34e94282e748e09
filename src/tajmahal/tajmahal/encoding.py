"""Numbers for learning programs: a fixed action space and observation tensors.

Every action of the game has a stable integer index in ``range(NUM_ACTIONS)``
(see ``docs/research.md`` for the layout):

>>> from tajmahal import Play, Withdraw, TakeCard
>>> action_index(Play(2)), action_index(Play(2, 96)), action_index(Withdraw())
(34, 47, 1428)
>>> action_from_index(1527 + 90), NUM_ACTIONS
(TakeCard(card=90), 1623)

An observation is one seat's view as a flat ``float32`` vector whose length
depends only on the number of players (:func:`observation_layout` names its
blocks).  It is computed from :func:`tajmahal.view`, so it never holds what the
seat cannot see: other hands, the deck's order, the seed.

>>> from tajmahal import Setup, new_game
>>> state = new_game(Setup.random(4, seed=1))
>>> obs = observation(state, 0)
>>> obs.shape, obs.dtype, observation_layout(4).size
((2292,), dtype('float32'), 2292)
>>> mask = legal_mask(state)
>>> int(mask.sum()) == len(legal_indices(state))
True

Seats in an observation are relative: block row 0 is the observing seat, row 1
the next seat clockwise (the one that acts after it), and so on.

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "tajmahal.tajmahal.encoding needs numpy: pip install 'tajmahal[rl]'"
    ) from error

from attrs import frozen

from .actions import (
    BUILDS,
    MOGUL_BUILDS,
    PLAYS,
    TAKES,
    WITHDRAW,
    Action,
    action_text,
)
from .board import CITIES, PROVINCES
from .cards import CARDS, CHARACTERS, COLORS, REGULAR_CARDS, SPECIAL_CARDS, SYMBOLS
from .rules import legal_actions, scores
from .setups import VISITS
from .state import PLACE, PLAY, SCORE_SOURCES, TAKE, State
from .tiles import BonusTile
from .views import PlayerView, view

# --------------------------------------------------------------------------- actions

#: The 84 coloured cards a play is made with, and the 16 extras it may add (T3).
COLORED_CARDS: Final = tuple(c.id for c in CARDS if c.is_colored)
EXTRA_CARDS: Final = tuple(c.id for c in CARDS if not c.is_colored)
#: Per coloured card: no extra, then each extra card in id order.
EXTRA_SLOTS: Final = 1 + len(EXTRA_CARDS)

PLAY_BASE: Final = 0
WITHDRAW_INDEX: Final = PLAY_BASE + len(COLORED_CARDS) * EXTRA_SLOTS
BUILD_BASE: Final = WITHDRAW_INDEX + 1
MOGUL_BASE: Final = BUILD_BASE + CITIES
TAKE_BASE: Final = MOGUL_BASE + CITIES
#: The size of the action space: every index in ``range(NUM_ACTIONS)`` is an action.
NUM_ACTIONS: Final = TAKE_BASE + len(REGULAR_CARDS)

_COLORED_POS: Final = {card: i for i, card in enumerate(COLORED_CARDS)}
_EXTRA_SLOT: Final[dict[int | None, int]] = {
    None: 0,
    **{card: 1 + i for i, card in enumerate(EXTRA_CARDS)},
}
_EXTRA_OF_SLOT: Final[tuple[int | None, ...]] = (None, *EXTRA_CARDS)


class ActionIndexError(ValueError):
    """An index that is not an action, or not a legal one in the given state."""


def _action_table() -> tuple[Action, ...]:
    table: list[Action] = []
    for card in COLORED_CARDS:
        table.extend(PLAYS[card][extra] for extra in _EXTRA_OF_SLOT)
    table.append(WITHDRAW)
    table.extend(BUILDS)
    table.extend(MOGUL_BUILDS)
    table.extend(TAKES[card] for card in REGULAR_CARDS)
    assert len(table) == NUM_ACTIONS
    return tuple(table)


#: Every action, by index: ``ACTIONS[action_index(a)] == a``.
ACTIONS: Final[tuple[Action, ...]] = _action_table()
_INDEX: Final[dict[Action, int]] = {a: i for i, a in enumerate(ACTIONS)}


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed action space (see the module docstring).

    Raises :class:`ActionIndexError` for a value that is no action of the game
    (a play of a white card, a city or card id out of range)."""
    index = _INDEX.get(action)
    if index is None:
        raise ActionIndexError(f"{action!r} is not an action of the game")
    return index


def action_from_index(index: int, state: State | None = None) -> Action:
    """The action with ``index``; with a ``state``, also check that it is legal there.

    Raises :class:`ActionIndexError` (a ValueError) naming the action if ``index``
    is out of range, or not legal in ``state``.
    """
    i = int(index)
    if not 0 <= i < NUM_ACTIONS:
        raise ActionIndexError(f"action index {index} is outside 0..{NUM_ACTIONS - 1}")
    action = ACTIONS[i]
    if state is not None and action not in legal_actions(state):
        who = "nobody" if state.to_act is None else f"seat {state.to_act}"
        names = tuple(c.name for c in state.setup.board.cities)
        raise ActionIndexError(
            f"action {i} ({action_text(action, names)}) is not legal for {who} now"
        )
    return action


def legal_indices(state: State) -> tuple[int, ...]:
    """The indices of ``legal_actions(state)``, in the same order."""
    index = _INDEX
    return tuple(index[a] for a in legal_actions(state))


def legal_mask(state: State) -> npt.NDArray[np.bool_]:
    """A boolean vector of length :data:`NUM_ACTIONS`: True exactly at the legal
    actions of the seat to act (all False once the game is over)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[list(legal_indices(state))] = True
    return mask


def mask_of(actions: Sequence[Action]) -> npt.NDArray[np.bool_]:
    """A boolean vector of length :data:`NUM_ACTIONS`, True at ``actions`` (a view's
    ``legal``, say)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[[_INDEX[a] for a in actions]] = True
    return mask


# --------------------------------------------------------------------------- outcomes


def outcome(state: State) -> tuple[float, ...]:
    """Each seat's result of a finished game, for learning programs: the winners
    (rank 1, F2) share a prize of 1, and every seat gets ``n/(n-1) * (share - 1/n)``.

    A lone winner gets +1 and every other seat ``-1/(n-1)``; the values sum to 0.
    Raises ValueError while the game is still on.
    """
    if state.to_act is not None:
        raise ValueError("the game is not over: no outcome yet")
    totals = scores(state)
    best = max(totals)
    winners = sum(1 for t in totals if t == best)
    n = len(totals)
    return tuple(n / (n - 1) * ((1 / winners if t == best else 0.0) - 1 / n) for t in totals)


# --------------------------------------------------------------------------- observations

#: Bonus tile kinds in the order of the ``bonus`` blocks: the Taj Mahal, +2, a
#: card, then the good tiles by good (C5).
BONUS_KINDS: Final = (
    BonusTile("taj_mahal"),
    BonusTile("points"),
    BonusTile("card"),
    BonusTile("good", "rice"),
    BonusTile("good", "tea"),
    BonusTile("good", "spice"),
    BonusTile("good", "jewels"),
)
_BONUS_POS: Final = {tile: i for i, tile in enumerate(BONUS_KINDS)}
PHASES: Final = (PLAY, PLACE, TAKE, "over")
#: Divisors of the blocks that hold counts, so that values stay near 0..1.
HAND_SCALE: Final = 10.0
SCORE_SCALE: Final = 10.0
_SPECIALS: Final = tuple(SPECIAL_CARDS[c] for c in CHARACTERS)


@frozen
class Block:
    """One named part of an observation: ``shape`` (rows first), where it starts in
    the flat vector, the largest value it can hold, and what it means."""

    name: str
    shape: tuple[int, ...]
    offset: int
    high: float
    meaning: str

    @property
    def size(self) -> int:
        size = 1
        for n in self.shape:
            size *= n
        return size

    @property
    def stop(self) -> int:
        return self.offset + self.size


@frozen
class ObservationLayout:
    """The blocks of an observation for ``players`` players, in order."""

    players: int
    blocks: tuple[Block, ...]

    @property
    def size(self) -> int:
        return self.blocks[-1].stop

    def block(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    def part(self, obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """The block ``name`` of ``obs``, in its shape (a view, not a copy)."""
        b = self.block(name)
        return obs[b.offset : b.stop].reshape(b.shape)

    def high(self) -> npt.NDArray[np.float32]:
        """The largest value of each element (the smallest is 0 everywhere)."""
        out = np.zeros(self.size, dtype=np.float32)
        for b in self.blocks:
            out[b.offset : b.stop] = b.high
        return out


def _blocks(n: int) -> tuple[Block, ...]:
    c, p, cards = CITIES, PROVINCES, len(CARDS)
    spec: list[tuple[str, tuple[int, ...], float, str]] = [
        ("visit", (VISITS,), 1, "one-hot: the visit, 1-12"),
        ("phase", (len(PHASES),), 1, "one-hot: play, place, take, over"),
        ("to_act", (n,), 1, "one-hot, relative seat to act (all 0 once the game is over)"),
        ("start_player", (n,), 1, "one-hot, relative seat that started this visit"),
        ("province", (p,), 1, "one-hot: the province of this visit"),
        ("visit_order", (p, VISITS), 1, "[province, k-1] = 1: province hosts visit k (S3)"),
        ("court", (len(SYMBOLS),), 1, "prizes still at court: " + ", ".join(SYMBOLS)),
        ("reserve", (len(CHARACTERS),), 6, "influence tiles in reserve, by character"),
        ("supply", (len(CHARACTERS),), 1, "special cards nobody owns, by character"),
        ("deck_size", (1,), 1, "cards in the deck / 96"),
        ("hand", (cards,), 1, "the observer's hand, by card id"),
        ("display", (cards,), 1, "the display, by card id"),
        ("discard", (cards,), 1, "the discard pile, by card id"),
        ("dummy", (cards,), 1, "the dummy's cards this visit, by card id (2 players)"),
        ("dummy_bidding", (1,), 1, "1 while the dummy still bids (2 players)"),
        (
            "pending",
            (5,),
            4,
            "after a withdrawal: palaces to place, mogul palace to place, built, "
            "province tile won, display cards to take",
        ),
        ("palaces", (c, n), 1, "[city, seat] = 1: seat's normal palace stands there"),
        ("moguls", (c, n), 1, "[city, seat] = 1: seat's mogul palace stands there"),
        ("bonus", (c, len(BONUS_KINDS)), 1, "[city, kind]: bonus tile still on the city"),
        ("hand_size", (n,), 10, f"cards in each seat's hand / {HAND_SCALE:g}"),
        ("played", (n, cards), 1, "[seat, card]: on the seat's table this visit"),
        ("color", (n, len(COLORS)), 1, "the seat's colour this visit: " + ", ".join(COLORS)),
        ("withdrawn", (n,), 1, "1 if the seat has withdrawn from this visit"),
        ("palaces_left", (n,), 1, "palaces not yet built / 20"),
        ("influence", (n, len(CHARACTERS)), 6, "influence tiles held, by character"),
        ("province_tiles", (n, VISITS), 1, "[seat, k-1] = 1: holds province tile k"),
        ("bonus_tiles", (n, len(BONUS_KINDS)), 15, "bonus tiles held, by kind"),
        (
            "score",
            (n, len(SCORE_SOURCES)),
            100,
            f"points by source / {SCORE_SCALE:g}: " + ", ".join(SCORE_SOURCES),
        ),
        ("special", (n, len(CHARACTERS)), 1, "special cards held (hand or table)"),
        ("revealed", (n, cards), 1, "[seat, card]: known to be in the seat's hand (W11)"),
    ]
    blocks = []
    offset = 0
    for name, shape, high, meaning in spec:
        block = Block(name, shape, offset, float(high), meaning)
        blocks.append(block)
        offset = block.stop
    return tuple(blocks)


@cache
def observation_layout(players: int) -> ObservationLayout:
    """The layout of observations for ``players`` (2-5) players."""
    if not 2 <= players <= 5:
        raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
    return ObservationLayout(players, _blocks(players))


@cache
def _offsets(players: int) -> dict[str, int]:
    return {b.name: b.offset for b in observation_layout(players).blocks}


def observation(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation of ``state`` for ``seat``: :func:`observe` of its view."""
    return observe(view(state, seat))


def observe(v: PlayerView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """A seat's :class:`~tajmahal.PlayerView` as a flat ``float32`` vector laid out
    by :func:`observation_layout` (into ``out`` if given)."""
    if v.seat is None:
        raise ValueError("an observation needs a seat: a spectator's view has no hand")
    n = v.setup.players
    me = v.seat
    o = _offsets(n)
    size = observation_layout(n).size
    if out is None:
        obs = np.zeros(size, dtype=np.float32)
    else:
        if out.shape != (size,):
            raise ValueError(f"out must have shape ({size},), not {out.shape}")
        obs = out
        obs.fill(0.0)
    cards = len(CARDS)
    ones: list[int] = []  # indices that hold 1
    at: list[int] = []  # indices that hold other values, and those values
    values: list[float] = []

    def rel(seat: int) -> int:
        return (seat - me) % n

    def put(index: int, value: float) -> None:
        if value:
            at.append(index)
            values.append(value)

    ones.append(o["visit"] + v.visit - 1)
    ones.append(o["phase"] + PHASES.index(v.phase))
    if v.to_act is not None:
        ones.append(o["to_act"] + rel(v.to_act))
    ones.append(o["start_player"] + rel(v.start_player))
    ones.append(o["province"] + v.province)
    base = o["visit_order"] - 1
    ones += [base + province * VISITS + k for province, k in enumerate(v.setup.province_tiles)]
    court = v.court
    ones += [o["court"] + i for i, symbol in enumerate(SYMBOLS) if symbol in court]
    for i, count in enumerate(v.reserve):
        put(o["reserve"] + i, count)
    ones += [o["supply"] + i for i, card in enumerate(_SPECIALS) if card in v.supply]
    put(o["deck_size"], v.deck_size / len(REGULAR_CARDS))
    for name, group in (("hand", v.hand), ("display", v.display), ("discard", v.discard)):
        base = o[name]
        ones += [base + c for c in group]
    if v.dummy is not None:
        ones += [o["dummy"] + c for c in v.dummy.cards]
        put(o["dummy_bidding"], float(v.dummy.bidding))
    if v.pending is not None:
        pending = v.pending
        for i, value in enumerate(
            (pending.palaces, pending.mogul, pending.built, pending.province_tile, pending.takes)
        ):
            put(o["pending"] + i, float(value))
    for name, owners in (("palaces", v.palaces), ("moguls", v.moguls)):
        base = o[name]
        ones += [base + city * n + rel(owner) for city, owner in enumerate(owners) if owner >= 0]
    kinds = len(BONUS_KINDS)
    base = o["bonus"]
    ones += [
        base + city * kinds + _BONUS_POS[tile]
        for city, tile in enumerate(v.bonus)
        if tile is not None
    ]
    for seat, p in enumerate(v.players):
        r = rel(seat)
        put(o["hand_size"] + r, p.hand_size / HAND_SCALE)
        base = o["played"] + r * cards
        ones += [base + c for c in p.played]
        if p.color is not None:
            ones.append(o["color"] + r * len(COLORS) + COLORS.index(p.color))
        put(o["withdrawn"] + r, float(p.withdrawn))
        put(o["palaces_left"] + r, p.palaces / 20)
        base = o["influence"] + r * len(CHARACTERS)
        for i, count in enumerate(p.influence):
            put(base + i, count)
        base = o["province_tiles"] + r * VISITS - 1
        ones += [base + k for k in p.province_tiles]
        if p.bonus_tiles:
            held = [0] * kinds
            for tile in p.bonus_tiles:
                held[_BONUS_POS[tile]] += 1
            base = o["bonus_tiles"] + r * kinds
            for i, count in enumerate(held):
                put(base + i, count)
        base = o["score"] + r * len(SCORE_SOURCES)
        score = p.score
        for i, source in enumerate(SCORE_SOURCES):
            put(base + i, getattr(score, source) / SCORE_SCALE)
        specials = p.special_cards
        base = o["special"] + r * len(CHARACTERS)
        ones += [base + i for i, card in enumerate(_SPECIALS) if card in specials]
        base = o["revealed"] + r * cards
        ones += [base + c for c in p.revealed]
    obs[ones] = 1.0
    if at:
        obs[at] = values
    return obs


__all__ = [
    "ACTIONS",
    "BONUS_KINDS",
    "BUILD_BASE",
    "COLORED_CARDS",
    "EXTRA_CARDS",
    "EXTRA_SLOTS",
    "MOGUL_BASE",
    "NUM_ACTIONS",
    "PLAY_BASE",
    "TAKE_BASE",
    "WITHDRAW_INDEX",
    "ActionIndexError",
    "Block",
    "ObservationLayout",
    "action_from_index",
    "action_index",
    "legal_indices",
    "legal_mask",
    "mask_of",
    "observation",
    "observation_layout",
    "observe",
    "outcome",
]
