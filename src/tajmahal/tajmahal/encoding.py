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
blocks).  It is computed from :func:`tajmahal.view`, so it never holds what the
seat cannot see: other hands, the deck's order, the seed.

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

from collections.abc import Iterable, Sequence
from functools import cache
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
from .actions import BUILDS, MOGUL_BUILDS, PLAYS, TAKES, WITHDRAW, Action
from .board import CITIES, PROVINCES
from .cards import CARDS, CHARACTERS, COLORS, REGULAR_CARDS, SPECIAL_CARDS, SYMBOLS
from .chance import BONUS_KINDS, CHANCE
from .raster import render_image
from .setups import VISITS, display_size
from .state import PALACES_PER_PLAYER, PLACE, PLAY, SCORE_SOURCES, TAKE, State
from .views import PlayerView, view

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
    by :func:`observation_layout` (into ``out`` if given)."""
    if v.seat is None:
        raise ValueError("an observation needs a seat: a spectator's view has no hand")
    writer = Writer(observation_layout(v.setup.players), out)
    _fill(v, writer)
    return writer.finish()


def _observe(state: State, seat: int, writer: Writer) -> None:
    _fill(view(state, seat), writer)


def _fill(v: PlayerView, w: Writer) -> None:
    n = v.setup.players
    me = v.seat
    assert me is not None
    o = w.offset
    cards = len(CARDS)
    ones = w.ones  # indices that hold 1
    at, values = w.at, w.values  # indices that hold other values, and those values

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
        put(o["palaces_left"] + r, p.palaces / PALACES_SCALE)
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


# --------------------------------------------------------------------------- the encoding


@cache
def observation_layout(players: int) -> ObservationLayout:
    """The layout of observations for ``players`` (2-5) players."""
    if not 2 <= players <= 5:
        raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
    return layout_of(players, list(blocks(players)))


def observation(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation of ``state`` for ``seat``: :func:`observe` of its view."""
    return observe(view(state, seat))


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
        observe=_observe,
        max_decisions=lambda players, variant: max_game_length(players),
        chance=CHANCE,
        images=render_image,
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
