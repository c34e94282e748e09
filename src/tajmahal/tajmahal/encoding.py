"""Numbers for learning programs: a fixed action space and observation tensors.

Every action of the game has a stable integer index in ``range(NUM_ACTIONS)``
(see ``docs/research.md`` for the layout):

>>> from tajmahal import Play, Withdraw, TakeCard
>>> action_index(Play(2)), action_index(Play(2, 96)), action_index(Withdraw())
(34, 47, 1428)
>>> SPACE.action(1527 + 90), NUM_ACTIONS
(TakeCard(card=90), 1623)

An observation is one seat's view as a flat ``float32`` vector whose length
depends only on the number of players (:func:`observation_layout` names its
blocks).  It holds what :func:`tajmahal.view` shows the seat and nothing else:
never other hands, the deck's order, the seed.

>>> from tajmahal import Setup, new_game
>>> state = new_game(Setup.random(4, seed=1))
>>> obs = observation(state, 0)
>>> obs.shape, obs.dtype, observation_layout(4).size
((2292,), dtype('float32'), 2292)
>>> from tajmahal.tajmahal.adapter import TAJMAHAL
>>> mask = TAJMAHAL.encoding().legal_mask(state)
>>> int(mask.sum()) == len(TAJMAHAL.encoding().legal_indices(state))
True

Seats in an observation are relative: block row 0 is the observing seat, row 1
the next seat clockwise (the one that acts after it), and so on.

Needs numpy (``pip install 'tajmahal[rl]'``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from operator import attrgetter
from typing import Final

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "tajmahal.tajmahal.encoding needs numpy: pip install 'tajmahal[rl]'"
    ) from error

from ..arena.game import AnyGame
from ..kit.encoding import (
    ActionIndexError,
    ActionSpace,
    Block,
    BlockSpec,
    Encoding,
    ObservationLayout,
    Writer,
)
from ..kit.encoding import observation_layout as layout_of
from ..kit.observing import Emit, Field, Items, Observer, Part
from .actions import BUILDS, MOGUL_BUILDS, PLAYS, TAKES, WITHDRAW, Action
from .board import CITIES, PROVINCES
from .cards import CARDS, CHARACTERS, COLORS, REGULAR_CARDS, SPECIAL_CARDS, SYMBOLS
from .chance import BONUS_KINDS, CHANCE
from .hidden import determinize
from .raster import render_image
from .setups import VISITS, display_size
from .state import PALACES_PER_PLAYER, PLACE, PLAY, SCORE_SOURCES, TAKE, PlayerState, State
from .views import PlayerView

# --------------------------------------------------------------------------- actions

#: The 84 coloured cards a play is made with, and the 16 extras it may add (T3).
COLORED_CARDS: Final = tuple(c.id for c in CARDS if c.is_colored)
EXTRA_CARDS: Final = tuple(c.id for c in CARDS if not c.is_colored)
#: Per coloured card: no extra, then each extra card in id order.
EXTRA_SLOTS: Final = 1 + len(EXTRA_CARDS)
_EXTRA_OF_SLOT: Final[tuple[int | None, ...]] = (None, *EXTRA_CARDS)

#: The action space: each group in order (docs/research.md has the table).
SPACE: Final = ActionSpace[Action](
    [
        ("play", [PLAYS[card][extra] for card in COLORED_CARDS for extra in _EXTRA_OF_SLOT]),
        ("withdraw", [WITHDRAW]),
        ("build", BUILDS),
        ("build_mogul", MOGUL_BUILDS),
        ("take", [TAKES[card] for card in REGULAR_CARDS]),
    ]
)
PLAY_BASE: Final = SPACE.group("play").start
WITHDRAW_INDEX: Final = SPACE.group("withdraw").start
BUILD_BASE: Final = SPACE.group("build").start
MOGUL_BASE: Final = SPACE.group("build_mogul").start
TAKE_BASE: Final = SPACE.group("take").start
#: The size of the action space: every index in ``range(NUM_ACTIONS)`` is an action.
NUM_ACTIONS: Final = SPACE.size
#: Every action, by index: ``ACTIONS[action_index(a)] == a``.
ACTIONS: Final = SPACE.actions


def max_game_length(players: int) -> int:
    """A bound on the number of decisions in a game.

    Per visit: each of the 84 coloured cards is played at most once (a card drawn
    in a visit goes to a seat that has withdrawn); each seat withdraws once; at
    most two palaces stand on each of the at most 5 cities of a province; at most
    the whole display is taken.
    """
    return VISITS * (84 + players + 2 * 5 + display_size(players))


# --------------------------------------------------------------------------- observations

_BONUS_POS: Final = {tile: i for i, tile in enumerate(BONUS_KINDS)}
PHASES: Final = (PLAY, PLACE, TAKE, "over")
#: Divisors of the blocks that hold counts, so that values stay near 0..1.
HAND_SCALE: Final = 10.0
SCORE_SCALE: Final = 10.0
PALACES_SCALE: Final = float(PALACES_PER_PLAYER)
_SPECIALS: Final = tuple(SPECIAL_CARDS[c] for c in CHARACTERS)
#: A score's points by source, in the order of SCORE_SOURCES.
_score_values: Final = attrgetter(*SCORE_SOURCES)


def blocks(players: int) -> Iterable[BlockSpec]:
    """The blocks of an observation (docs/research.md); ``"n"`` is the number of
    players, the same for every count."""
    c, p, cards, kinds = CITIES, PROVINCES, len(CARDS), len(BONUS_KINDS)
    return [
        ("visit", (VISITS,), 1, "one-hot: the visit, 1-12"),
        ("phase", (len(PHASES),), 1, "one-hot: " + ", ".join(PHASES)),
        ("to_act", ("n",), 1, "one-hot, relative seat to act (all 0 once the game is over)"),
        ("start_player", ("n",), 1, "one-hot, relative seat that started this visit"),
        ("province", (p,), 1, "one-hot: the province of this visit"),
        ("visit_order", (p, VISITS), 1, "[province, k-1] = 1: the province hosts visit k (S3)"),
        ("court", (len(SYMBOLS),), 1, "prizes still at court: " + ", ".join(SYMBOLS)),
        ("reserve", (len(CHARACTERS),), 6, _by_character("influence tiles in reserve")),
        ("supply", (len(CHARACTERS),), 1, "special cards nobody owns, by character"),
        ("deck_size", (1,), 1, f"cards in the deck / {len(REGULAR_CARDS)}"),
        ("hand", (cards,), 1, "the observer's hand, by card id"),
        ("display", (cards,), 1, "the display, by card id"),
        ("discard", (cards,), 1, "the discard pile, by card id"),
        ("dummy", (cards,), 1, "the dummy's cards this visit, by card id (2 players; else 0)"),
        ("dummy_bidding", (1,), 1, "1 while the dummy still bids"),
        (
            "pending",
            (5,),
            4,
            "after a withdrawal: palaces to place, mogul palace to place, built, "
            "province tile won, display cards to take",
        ),
        ("palaces", (c, "n"), 1, "[city, seat] = 1: the seat's normal palace stands there"),
        ("moguls", (c, "n"), 1, "[city, seat] = 1: the seat's mogul palace stands there"),
        (
            "bonus",
            (c, kinds),
            1,
            "[city, kind] = 1: that bonus tile still lies on the city (Taj Mahal, +2, card, "
            + ", ".join(str(t.good) for t in BONUS_KINDS[3:])
            + ")",
        ),
        ("hand_size", ("n",), 10, f"cards in each seat's hand / {HAND_SCALE:g}"),
        ("played", ("n", cards), 1, "[seat, card] = 1: on the seat's table this visit"),
        ("color", ("n", len(COLORS)), 1, "the seat's colour this visit: " + ", ".join(COLORS)),
        ("withdrawn", ("n",), 1, "1 if the seat has withdrawn from this visit"),
        ("palaces_left", ("n",), 1, f"palaces not yet built / {PALACES_SCALE:g}"),
        ("influence", ("n", len(CHARACTERS)), 6, "influence tiles held, by character"),
        ("province_tiles", ("n", VISITS), 1, "[seat, k-1] = 1: holds province tile k"),
        ("bonus_tiles", ("n", kinds), 15, "bonus tiles held, by kind"),
        (
            "score",
            ("n", len(SCORE_SOURCES)),
            100,
            f"points by source / {SCORE_SCALE:g}: " + ", ".join(SCORE_SOURCES),
        ),
        ("special", ("n", len(CHARACTERS)), 1, "special cards held (in hand or on the table)"),
        (
            "revealed",
            ("n", cards),
            1,
            "[seat, card] = 1: everybody saw the seat take the card from the display (W11) "
            "and it is still in its hand",
        ),
    ]


def _by_character(what: str) -> str:
    return f"{what}, by character ({', '.join(CHARACTERS)})"


def observe(v: PlayerView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """A seat's :class:`~tajmahal.PlayerView` as a flat ``float32`` vector laid out
    by :func:`observation_layout` (into ``out`` if given): the observation of any
    state the view allows (the observation reads nothing the seat cannot see)."""
    if v.seat is None:
        raise ValueError("an observation needs a seat: a spectator's view has no hand")
    return _observer(v.setup.players).observation(determinize(v, random.Random(0)), v.seat, out)


# The observation in parts (tajmahal.kit.observing): each reads a piece of the
# state that a step leaves alone more often than not, and writes what every seat
# sees of it, in seat 0's frame; the hand is the observing seat's own.


def _write_turn(state: State, e: Emit) -> None:
    e.one("phase", PHASES.index(state.phase))
    if state.to_act is not None:
        e.one("to_act", state.to_act)
    pending = state.pending
    if pending is not None:
        for i, value in enumerate(
            (pending.palaces, pending.mogul, pending.built, pending.province_tile, pending.takes)
        ):
            e.put("pending", i, float(value))


def _write_visit(state: State, e: Emit) -> None:
    e.one("visit", state.visit - 1)
    e.one("start_player", state.start_player)
    e.one("province", state.province)
    e.put("deck_size", 0, len(state.deck) / len(REGULAR_CARDS))


def _write_visit_order(state: State, e: Emit) -> None:
    e.ones("visit_order", [p * VISITS + k - 1 for p, k in enumerate(state.setup.province_tiles)])


def _write_court(state: State, e: Emit) -> None:
    court = state.court
    e.ones("court", [i for i, symbol in enumerate(SYMBOLS) if symbol in court])
    for i, count in enumerate(state.reserve):
        e.put("reserve", i, count)
    e.ones("supply", [i for i, card in enumerate(_SPECIALS) if card in state.supply])


def _write_cards(state: State, e: Emit) -> None:
    e.ones("display", state.display)
    dummy = state.dummy
    if dummy is not None:
        e.ones("dummy", dummy.cards)
        e.put("dummy_bidding", 0, float(dummy.bidding))


def _write_discard(state: State, e: Emit) -> None:
    e.ones("discard", state.discard)


def _write_palaces(state: State, e: Emit) -> None:
    n = state.setup.players
    for name, owners in (("palaces", state.palaces), ("moguls", state.moguls)):
        e.ones(name, [city * n + owner for city, owner in enumerate(owners) if owner >= 0])


def _write_bonus(state: State, e: Emit) -> None:
    kinds = len(BONUS_KINDS)
    bonus = state.bonus
    e.ones("bonus", [c * kinds + _BONUS_POS[t] for c, t in enumerate(bonus) if t is not None])


# Each seat's row, a field at a time (the engine keeps what a step leaves alone).
_CARDS: Final = len(CARDS)
_KINDS: Final = len(BONUS_KINDS)


def _write_cards_of(q: int, p: PlayerState, e: Emit) -> None:
    e.put("hand_size", q, len(p.hand) / HAND_SCALE)
    e.ones("played", p.played, q * _CARDS)
    specials = p.special_cards
    if specials:
        base = q * len(CHARACTERS)
        e.ones("special", [base + i for i, card in enumerate(_SPECIALS) if card in specials])


def _write_bid(q: int, p: PlayerState, e: Emit) -> None:
    if p.color is not None:
        e.one("color", q * len(COLORS) + COLORS.index(p.color))
    e.put("withdrawn", q, float(p.withdrawn))
    e.put("palaces_left", q, p.palaces / PALACES_SCALE)


def _write_influence(q: int, p: PlayerState, e: Emit) -> None:
    e.row("influence", q * len(CHARACTERS), p.influence)


def _write_tiles(q: int, p: PlayerState, e: Emit) -> None:
    e.ones("province_tiles", p.province_tiles, q * VISITS - 1)
    if p.bonus_tiles:
        held = [0] * _KINDS
        for tile in p.bonus_tiles:
            held[_BONUS_POS[tile]] += 1
        e.row("bonus_tiles", q * _KINDS, held)


def _write_score(q: int, p: PlayerState, e: Emit) -> None:
    scale = SCORE_SCALE
    e.row("score", q * len(SCORE_SOURCES), [v / scale for v in _score_values(p.score)])


def _write_revealed(q: int, p: PlayerState, e: Emit) -> None:
    e.ones("revealed", p.revealed, q * _CARDS)


#: A seat's row: what each field reads of its PlayerState, and writes.
SEAT_FIELDS: Final = (
    Field(attrgetter("hand", "played"), _write_cards_of),
    Field(attrgetter("color", "withdrawn", "palaces"), _write_bid),
    Field(attrgetter("influence"), _write_influence),
    Field(attrgetter("province_tiles", "bonus_tiles"), _write_tiles),
    Field(attrgetter("score"), _write_score),
    Field(attrgetter("revealed"), _write_revealed),
)


def _observe_hand(state: State, seat: int, w: Writer) -> None:
    base = w.offset["hand"]
    w.ones.extend(map(base.__add__, state.players[seat].hand))


#: The parts, in the order of the blocks they write.
PARTS: Final[tuple[Part[State] | Items[State], ...]] = (
    Part(attrgetter("to_act", "pending"), _write_turn),
    Part(lambda s: (s.visit, s.start_player, s.province, len(s.deck)), _write_visit),
    Part(lambda state: state.setup, _write_visit_order),
    Part(lambda state: (state.court, state.reserve, state.supply), _write_court),
    Part(lambda state: (state.display, state.dummy), _write_cards),
    Part(attrgetter("discard"), _write_discard),
    Part(lambda state: (state.palaces, state.moguls), _write_palaces),
    Part(lambda state: state.bonus, _write_bonus),
    Items(attrgetter("players"), SEAT_FIELDS),
)


def _observer(players: int) -> Observer[State]:
    return Observer(observation_layout(players), PARTS, _observe_hand)


# --------------------------------------------------------------------------- the encoding


@cache
def observation_layout(players: int) -> ObservationLayout:
    """The layout of observations for ``players`` (2-5) players."""
    if not 2 <= players <= 5:
        raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
    return layout_of(players, list(blocks(players)))


def observation(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation of ``state`` for ``seat``: what :func:`tajmahal.view` shows it
    (an encoding's ``observation`` keeps its observer from call to call: faster for
    a sequence of states)."""
    return _observer(state.setup.players).observation(state, seat)


def action_index(action: Action) -> int:
    """The index of ``action`` in the fixed action space (see the module docstring).

    Raises :class:`ActionIndexError` for a value that is no action of the game
    (a play of a white card, a city or card id out of range)."""
    return SPACE.index(action)


def mask_of(actions: Sequence[Action]) -> npt.NDArray[np.bool_]:
    """A boolean vector of length :data:`NUM_ACTIONS`, True at ``actions`` (a view's
    ``legal``, say)."""
    return SPACE.mask(actions)


@cache
def encoding(game: AnyGame) -> Encoding[State, Action]:
    """Taj Mahal's encoding (:class:`tajmahal.kit.encoding.Encoding`) for ``game``,
    its adapter, built once: decoding checked against the legal actions
    (``encoding.action(index, state)``), ``legal_indices``, ``legal_mask`` and the
    zero-sum ``outcome`` of a finished game (F2: the winners share the prize)."""
    return Encoding[State, Action](
        game,
        SPACE,
        players=lambda state: state.setup.players,
        blocks=blocks,
        observe=_observe_hand,
        max_decisions=lambda players, variant: max_game_length(players),
        chance=CHANCE,
        images=render_image,
        private=("hand",),
        observer=_observer,
    )


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
    "SPACE",
    "TAKE_BASE",
    "WITHDRAW_INDEX",
    "ActionIndexError",
    "Block",
    "ObservationLayout",
    "action_index",
    "blocks",
    "encoding",
    "mask_of",
    "max_game_length",
    "observation",
    "observation_layout",
    "observe",
]
