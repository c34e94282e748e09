"""The rules engine: :func:`new_game`, :func:`legal_actions`, :func:`apply`, :func:`step`.

Every function here is pure: it reads a :class:`~tajmahal.tajmahal.state.State` and returns
new values.  Within one call, the longer steps (a withdrawal, the end of a visit)
work on a private :class:`_Draft` that is frozen into the returned state; the
input state is never touched.  Rule ids (T4, W8, ...) refer to ``docs/rules.md``.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from .actions import (
    BUILDS,
    MOGUL_BUILDS,
    PLAYS,
    TAKES,
    WITHDRAW,
    Action,
    BuildMogulPalace,
    BuildPalace,
    Play,
    TakeCard,
    Withdraw,
)
from .board import Board
from .cards import (
    CARD_COLOR,
    CARDS,
    CHARACTERS,
    COLORS,
    IS_COLORED,
    MONK_CARD,
    PRINCESS_CARD,
    SPECIAL_CARDS,
    SYMBOL_COUNTS,
    SYMBOLS,
)
from .events import (
    BonusTaken,
    CardDrawn,
    CardTaken,
    Discarded,
    DummyTurned,
    DummyWithdrew,
    Event,
    GameOver,
    PalaceBuilt,
    Played,
    ProvinceTileTaken,
    Reshuffled,
    Scored,
    SpecialCardTaken,
    VisitBegan,
    VisitEnded,
    Withdrew,
)
from .setups import HAND_SIZE, Setup, display_size, validate_setup
from .state import NOBODY, Dummy, Pending, PlayerState, Score, State
from .tiles import BONUS_POINTS, PROVINCE_GOODS, BonusTile

VISITS: Final = 12
_FIRST_EXTRA: Final = 84  # card ids >= 84 are white or special (C3)
_FIRST_SPECIAL: Final = 96  # card ids >= 96 are the special cards
_TAKES: Final = (None, Pending(takes=1), Pending(takes=2))  # shared: Pending is immutable
_ONE_TAKE: Final = _TAKES[1]
_NO_SYMBOLS: Final = (0,) * len(SYMBOLS)


# --------------------------------------------------------------------------- building states
#
# ``State`` and ``PlayerState`` are frozen attrs classes, whose ``__init__`` sets
# each field through ``object.__setattr__``.  The engine builds them field by field
# through the slots' own descriptors instead: the same instances (the classes have
# no defaults to fill in here, no validators and no converters; checked once, at
# import), built about twice as fast when this module is compiled.


def _slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each of ``cls``'s slots, in field order."""
    fields = attrs.fields(cls)
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__}: built by its slots, it must not need a post-init")
    for f in fields:
        if f.validator is not None or f.converter is not None or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: built by its slot, it must be plain")
    return tuple(cls.__dict__[f.name].__set__ for f in fields)


# Final: mypyc keeps these in C statics (other module-level names cost a dict
# lookup at every use).
_new: Final = object.__new__
_SCORE: Final = Score
_PENDING: Final = Pending
_PLAYER: Final = PlayerState
_STATE: Final = State
_SCORE_SET: Final = _slot_setters(Score)
_PENDING_SET: Final = _slot_setters(Pending)
_PLAYER_SET: Final = _slot_setters(PlayerState)
_STATE_SET: Final = _slot_setters(State)


def _score(palaces: int, goods: int, bonus: int, princess: int, hand: int) -> Score:
    """``Score(...)``, every field given in order."""
    s: Score = _new(_SCORE)
    _SCORE_SET[0](s, palaces)
    _SCORE_SET[1](s, goods)
    _SCORE_SET[2](s, bonus)
    _SCORE_SET[3](s, princess)
    _SCORE_SET[4](s, hand)
    return s


def _pending(palaces: int, mogul: bool, built: bool, province_tile: bool, takes: int) -> Pending:
    """``Pending(...)``, every field given in order."""
    p: Pending = _new(_PENDING)
    _PENDING_SET[0](p, palaces)
    _PENDING_SET[1](p, mogul)
    _PENDING_SET[2](p, built)
    _PENDING_SET[3](p, province_tile)
    _PENDING_SET[4](p, takes)
    return p


def _player(
    hand: tuple[int, ...],
    played: tuple[int, ...],
    color: str | None,
    withdrawn: bool,
    palaces: int,
    influence: tuple[int, ...],
    province_tiles: tuple[int, ...],
    bonus_tiles: tuple[BonusTile, ...],
    score: Score,
    revealed: tuple[int, ...],
) -> PlayerState:
    """``PlayerState(...)``, every field given in order."""
    p: PlayerState = _new(_PLAYER)
    _PLAYER_SET[0](p, hand)
    _PLAYER_SET[1](p, played)
    _PLAYER_SET[2](p, color)
    _PLAYER_SET[3](p, withdrawn)
    _PLAYER_SET[4](p, palaces)
    _PLAYER_SET[5](p, influence)
    _PLAYER_SET[6](p, province_tiles)
    _PLAYER_SET[7](p, bonus_tiles)
    _PLAYER_SET[8](p, score)
    _PLAYER_SET[9](p, revealed)
    return p


def _state(
    setup: Setup,
    visit: int,
    province: int,
    start_player: int,
    to_act: int | None,
    players: tuple[PlayerState, ...],
    deck: tuple[int, ...],
    discard: tuple[int, ...],
    display: tuple[int, ...],
    supply: tuple[int, ...],
    court: tuple[str, ...],
    reserve: tuple[int, ...],
    palaces: tuple[int, ...],
    moguls: tuple[int, ...],
    bonus: tuple[BonusTile | None, ...],
    pending: Pending | None,
    dummy: Dummy | None,
    reshuffles: int,
) -> State:
    """``State(...)``, every field given in order."""
    s: State = _new(_STATE)
    _STATE_SET[0](s, setup)
    _STATE_SET[1](s, visit)
    _STATE_SET[2](s, province)
    _STATE_SET[3](s, start_player)
    _STATE_SET[4](s, to_act)
    _STATE_SET[5](s, players)
    _STATE_SET[6](s, deck)
    _STATE_SET[7](s, discard)
    _STATE_SET[8](s, display)
    _STATE_SET[9](s, supply)
    _STATE_SET[10](s, court)
    _STATE_SET[11](s, reserve)
    _STATE_SET[12](s, palaces)
    _STATE_SET[13](s, moguls)
    _STATE_SET[14](s, bonus)
    _STATE_SET[15](s, pending)
    _STATE_SET[16](s, dummy)
    _STATE_SET[17](s, reshuffles)
    return s


class IllegalAction(ValueError):
    """An action that the rules do not allow now; ``rule`` is the rule id it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


# --------------------------------------------------------------------------- setup


def new_game(setup: Setup) -> State:
    """The state before the first action (S1-S6)."""
    validate_setup(setup)
    n = setup.players
    deck = setup.deck
    hands = [tuple(sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(n)]
    shown = display_size(n)
    display = tuple(sorted(deck[n * HAND_SIZE : n * HAND_SIZE + shown]))
    board = setup.board
    bonus: list[BonusTile | None] = [None] * len(board.cities)
    for city, tile in setup.bonus_tiles:
        bonus[city] = tile
    return State(
        setup=setup,
        visit=1,
        province=setup.visit_provinces[0],
        start_player=setup.start_player,
        to_act=setup.start_player,
        players=tuple(PlayerState(hand=h) for h in hands),
        deck=deck[n * HAND_SIZE + shown :],
        discard=(),
        display=display,
        supply=tuple(sorted(SPECIAL_CARDS.values())),
        court=SYMBOLS,
        reserve=(5, 5, 5, 5),
        palaces=(NOBODY,) * len(board.cities),
        moguls=(NOBODY,) * len(board.cities),
        bonus=tuple(bonus),
        dummy=Dummy() if setup.variant == "dummy" else None,
    )


def opening_events(state: State) -> tuple[Event, ...]:
    """The events of the game's start (S2-S6), for a follower that begins at ``new_game``."""
    return (VisitBegan(state.visit, state.province, state.start_player, state.display),)


class StateError(ValueError):
    """A hand-built :class:`~tajmahal.State` that the engine cannot have produced."""


def check_state(state: State) -> None:
    """Whole-state checks for hand-built positions (puzzles, tests); raises :class:`StateError`.

    The engine's own states always pass.  The checks: every card in exactly one place,
    hands sorted, seats and cities in range, 20 palaces per player in all, and 6
    influence tiles of each kind counted over players, court and reserve.
    """
    n = state.setup.players
    problems = []
    places = [*state.deck, *state.discard, *state.display, *state.supply]
    for p in state.players:
        places += [*p.hand, *p.played]
    if state.dummy is not None:
        places += state.dummy.cards
    if sorted(places) != list(range(len(CARDS))):
        problems.append("C3: every card must be in exactly one place")
    for seat, p in enumerate(state.players):
        if list(p.hand) != sorted(p.hand):
            problems.append(f"seat {seat}: the hand must be sorted by card id")
        if list(p.revealed) != sorted(p.revealed) or not set(p.revealed) <= set(p.hand):
            problems.append(f"seat {seat}: revealed cards must be sorted and in the hand")
        built = state.palaces.count(seat) + state.moguls.count(seat)
        if built + p.palaces != 20:
            problems.append(f"C7: seat {seat} has {built} palaces built and {p.palaces} left")
    for k, character in enumerate(CHARACTERS):
        total = state.reserve[k] + (character in state.court)
        total += sum(p.influence[k] for p in state.players)
        if total != 6:
            problems.append(f"C6: {total} {character} influence tiles (there are 6)")
    if len(state.players) != n or not (state.to_act is None or 0 <= state.to_act < n):
        problems.append("seats: to_act and players must match the setup's players")
    if problems:
        raise StateError("; ".join(problems))


# --------------------------------------------------------------------------- queries


def is_over(state: State) -> bool:
    """E5: True once the 12th visit has ended."""
    return state.to_act is None


def breakdown(state: State) -> tuple[Score, ...]:
    """Each seat's points by source (palaces, goods, bonus, princess, hand)."""
    return tuple(p.score for p in state.players)


def scores(state: State) -> tuple[int, ...]:
    """Each seat's total points."""
    return tuple([_total(p.score) for p in state.players])


def _total(s: Score) -> int:
    """``Score.total`` (a property of an interpreted class: a slower call)."""
    return s.palaces + s.goods + s.bonus + s.princess + s.hand


def ranks(totals: tuple[int, ...]) -> tuple[int, ...]:
    """F2: rank 1 is the highest total; equal totals share a rank (1, 1, 3, ...)."""
    return tuple(1 + sum(1 for other in totals if other > t) for t in totals)


def _palace_cities(
    board: Board, province: int, palaces: Sequence[int], moguls: Sequence[int], seat: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """W4/W5: the cities where ``seat`` may place a normal and a mogul palace now.

    A city holds at most one normal and one mogul palace, whoever owns them: the
    texts let a mogul palace stand on any palace (his own included) and a normal
    palace on any mogul palace (W5, Decision).
    """
    cities = board.province_cities[province]
    normal = tuple(c for c in cities if palaces[c] == NOBODY)
    mogul = tuple(c for c in cities if moguls[c] == NOBODY)
    return normal, mogul


def _plays(player: PlayerState) -> list[Action]:
    """T3/T4/T5: every play open to ``player``, by card id, then extra (none first)."""
    hand = player.hand
    split = bisect_left(hand, _FIRST_EXTRA)
    extras = hand[split:]
    color = player.color
    monk = MONK_CARD in extras
    out: list[Action] = []
    for card in hand[:split]:
        table = PLAYS[card]
        if color is None or CARD_COLOR[card] == color:
            out.append(table[None])
            out.extend(table[e] for e in extras)
        elif monk:
            out.append(table[MONK_CARD])
    return out


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action of ``state.to_act`` in a stable order; empty once the game is over.

    In the play phase: plays sorted by card id then extra card (none first), then
    :class:`~tajmahal.Withdraw` last (always legal, T8).  After a withdrawal:
    palace placements by city id (normal ones first), or display cards by id.
    """
    seat = state.to_act
    if seat is None:
        return ()
    pending = state.pending
    if pending is None:
        out = _plays(state.players[seat])
        out.append(WITHDRAW)
        return tuple(out)
    if pending.palaces or pending.mogul:
        normal, mogul = _palace_cities(
            state.setup.board, state.province, state.palaces, state.moguls, seat
        )
        placements: list[Action] = []
        if pending.palaces:
            placements.extend(BUILDS[c] for c in normal)
        if pending.mogul:
            placements.extend(MOGUL_BUILDS[c] for c in mogul)
        return tuple(placements)
    return tuple(map(TAKES.__getitem__, state.display))


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> State:
    """The state after ``action`` by ``state.to_act``; raises :class:`IllegalAction`."""
    if (
        type(action) is Play
        and state.pending is None
        and state.dummy is None
        and state.to_act is not None
    ):
        return _play(state, action, None)
    return _apply(state, action, None)


def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Like :func:`apply`, and also return the events of the step (with secrets;
    see :func:`~tajmahal.tajmahal.events.event_for`)."""
    log: list[Event] = []
    return _apply(state, action, log), tuple(log)


def _apply(state: State, action: Action, log: list[Event] | None) -> State:
    seat = state.to_act
    if seat is None:
        raise IllegalAction("E5", "the game is over")
    pending = state.pending
    kind = type(action)
    if pending is None:
        if kind is Play:
            return _play(state, action, log)  # type: ignore[arg-type]
        if kind is Withdraw:
            draft = _Draft(state, log)
            draft.withdraw(seat)
            return draft.freeze()
        raise IllegalAction("T2", f"on your turn you play cards or withdraw, not {kind.__name__}")
    if pending.palaces or pending.mogul:
        if kind is BuildPalace or kind is BuildMogulPalace:
            draft = _Draft(state, log)
            draft.build(seat, action.city, kind is BuildMogulPalace)  # type: ignore[union-attr]
            draft.settle(seat)
            return draft.freeze()
        raise IllegalAction("W4", "you withdrew: place your palaces first")
    if kind is TakeCard:
        card = action.card  # type: ignore[union-attr]
        if pending.takes == 2 and len(state.display) > 2 and card in state.display:
            return _take_first(state, seat, card, log)
        draft = _Draft(state, log)
        draft.take(seat, action.card)  # type: ignore[union-attr]
        draft.settle(seat)
        return draft.freeze()
    raise IllegalAction("W11", "you withdrew: take your cards from the display")


def _play(state: State, action: Play, log: list[Event] | None) -> State:
    """T3-T5: put one coloured card (and maybe one white or special card) on the table."""
    seat: int = state.to_act  # type: ignore[assignment]
    player = state.players[seat]
    hand = player.hand
    card, extra = action.card, action.extra
    _check_play(player, card, extra)
    color = player.color
    if color is None and extra != MONK_CARD:
        color = CARD_COLOR[card]
    score = player.score
    revealed = player.revealed
    if extra is None:
        played = (*player.played, card)
        new_hand = tuple([c for c in hand if c != card])
    else:
        played = (*player.played, card, extra)
        new_hand = tuple([c for c in hand if c != card and c != extra])
        if extra == PRINCESS_CARD:
            score = _add_score(score, "princess", 2)
    if revealed:
        revealed = tuple([c for c in revealed if c != card and c != extra])
    new_player = _player(
        new_hand,
        played,
        color,
        False,
        player.palaces,
        player.influence,
        player.province_tiles,
        player.bonus_tiles,
        score,
        revealed,
    )
    players = (*state.players[:seat], new_player, *state.players[seat + 1 :])
    new = _state(
        state.setup,
        state.visit,
        state.province,
        state.start_player,
        _next_in(players, seat),
        players,
        state.deck,
        state.discard,
        state.display,
        state.supply,
        state.court,
        state.reserve,
        state.palaces,
        state.moguls,
        state.bonus,
        None,
        state.dummy,
        state.reshuffles,
    )
    if log is not None:
        log.append(Played(seat, card, extra))
        if extra == PRINCESS_CARD:
            log.append(Scored(seat, "princess", 2, "princess's card"))
    if state.dummy is not None and state.dummy.bidding:
        draft = _Draft(new, log)
        draft.dummy_turn()
        return draft.freeze()
    return new


def _take_first(state: State, seat: int, card: int, log: list[Event] | None) -> State:
    """W11: the first of two display cards when a choice remains for the second."""
    player = state.players[seat]
    new_player = _player(
        _with(player.hand, card),
        player.played,
        player.color,
        player.withdrawn,
        player.palaces,
        player.influence,
        player.province_tiles,
        player.bonus_tiles,
        player.score,
        _with(player.revealed, card),
    )
    if log is not None:
        log.append(CardTaken(seat, card))
    return _state(
        state.setup,
        state.visit,
        state.province,
        state.start_player,
        seat,
        (*state.players[:seat], new_player, *state.players[seat + 1 :]),
        state.deck,
        state.discard,
        tuple(c for c in state.display if c != card),
        state.supply,
        state.court,
        state.reserve,
        state.palaces,
        state.moguls,
        state.bonus,
        _ONE_TAKE,
        state.dummy,
        state.reshuffles,
    )


def _check_play(player: PlayerState, card: int, extra: int | None) -> None:
    hand = player.hand
    if not 0 <= card < len(CARDS) or card not in hand:
        raise IllegalAction("T3", f"card {card} is not in your hand")
    if not IS_COLORED[card]:
        raise IllegalAction(
            "T3", f"a {CARDS[card].color} card is never played alone: play one coloured card"
        )
    if extra is not None:
        if not 0 <= extra < len(CARDS) or extra not in hand or extra == card:
            raise IllegalAction("T3", f"card {extra} is not in your hand")
        if IS_COLORED[extra]:
            raise IllegalAction("T3", "never two coloured cards in one turn")
    color = player.color
    if color is not None and CARD_COLOR[card] != color and extra != MONK_CARD:
        raise IllegalAction(
            "T4", f"a {CARD_COLOR[card]} card, but your colour in this visit is {color}"
        )


def _next_in(players: Sequence[PlayerState], seat: int) -> int | None:
    """T1/T7: the next seat clockwise after ``seat`` still in the visit (maybe ``seat``)."""
    n = len(players)
    for k in range(1, n + 1):
        other = (seat + k) % n
        if not players[other].withdrawn:
            return other
    return None


def symbol_counts(cards: Sequence[int]) -> tuple[int, ...]:
    """W1: how many of each symbol (in :data:`~tajmahal.tajmahal.cards.SYMBOLS` order)
    ``cards`` show."""
    elephant = mogul = vizier = general = monk = princess = 0
    for card in cards:  # unrolled: several times faster than zip/sum for a few cards
        e, m, v, g, k, p = SYMBOL_COUNTS[card]
        elephant += e
        mogul += m
        vizier += v
        general += g
        monk += k
        princess += p
    return (elephant, mogul, vizier, general, monk, princess)


def majorities(
    mine: Sequence[int], rivals: Sequence[Sequence[int]], court: Sequence[str]
) -> tuple[str, ...]:
    """W1/W2: the prizes still at ``court`` that counts ``mine`` win: at least one
    symbol, and more than each of ``rivals`` (the counts of those still in)."""
    won = []
    for i, symbol in enumerate(SYMBOLS):
        n = mine[i]
        if n and symbol in court:
            for rival in rivals:
                if rival[i] >= n:
                    break
            else:
                won.append(symbol)
    return tuple(won)


def goods_held(player: PlayerState, good: str) -> int:
    """W7: how many of ``good`` a player holds over his province and bonus tiles."""
    return sum(good in PROVINCE_GOODS[t] for t in player.province_tiles) + sum(
        tile.good == good for tile in player.bonus_tiles
    )


def connected_provinces(
    board: Board, province: int, seat: int, palaces: Sequence[int], moguls: Sequence[int]
) -> int:
    """W8: other provinces joined to ``seat``'s palaces in ``province`` by a chain of
    his palaces (normal or mogul) along roads; empty cities and cities with only
    another player's palace break the chain."""
    todo = [c for c in board.province_cities[province] if seat in (palaces[c], moguls[c])]
    seen = set(todo)
    neighbours = board.neighbours
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen and seat in (palaces[n], moguls[n]):
                seen.add(n)
                todo.append(n)
    cities = board.cities
    return len({cities[c].province for c in seen} - {province})


# --------------------------------------------------------------------------- drafts


class _Seat:
    """A mutable scratch copy of one :class:`PlayerState`, frozen once per step."""

    __slots__ = (
        "bonus_tiles",
        "color",
        "hand",
        "influence",
        "palaces",
        "played",
        "province_tiles",
        "revealed",
        "score",
        "withdrawn",
    )

    def __init__(self, p: PlayerState) -> None:
        self.hand = p.hand
        self.played = p.played
        self.color = p.color
        self.withdrawn = p.withdrawn
        self.palaces = p.palaces
        self.influence = p.influence
        self.province_tiles = p.province_tiles
        self.bonus_tiles = p.bonus_tiles
        self.score = p.score
        self.revealed = p.revealed

    def freeze(self) -> PlayerState:
        return _player(
            self.hand,
            self.played,
            self.color,
            self.withdrawn,
            self.palaces,
            self.influence,
            self.province_tiles,
            self.bonus_tiles,
            self.score,
            self.revealed,
        )


def _add_score(score: Score, source: str, points: int) -> Score:
    """``score`` with ``points`` more from ``source`` (one of SCORE_SOURCES)."""
    return _score(
        score.palaces + points * (source == "palaces"),
        score.goods + points * (source == "goods"),
        score.bonus + points * (source == "bonus"),
        score.princess + points * (source == "princess"),
        score.hand + points * (source == "hand"),
    )


class _Draft:
    """A private, mutable copy of a state used while one action is resolved.

    Seats are copied into :class:`_Seat` scratch objects only when changed, and
    everything is frozen into a new :class:`State` once, at the end of the step.
    """

    def __init__(self, state: State, log: list[Event] | None) -> None:
        self.base = state
        self.log = log
        self.visit = state.visit
        self.province = state.province
        self.start_player = state.start_player
        self.to_act = state.to_act
        self.players: list[PlayerState | _Seat] = list(state.players)
        # Collections stay the state's tuples until first changed (see mutable()).
        self.deck: Sequence[int] = state.deck
        self.discard: Sequence[int] = state.discard
        self.display: Sequence[int] = state.display
        self.supply: Sequence[int] = state.supply
        self.court: Sequence[str] = state.court
        self.reserve: Sequence[int] = state.reserve
        self.palaces: Sequence[int] = state.palaces
        self.moguls: Sequence[int] = state.moguls
        self.bonus: Sequence[BonusTile | None] = state.bonus
        self.pending = state.pending
        self.dummy = state.dummy
        self.reshuffles = state.reshuffles

    def mutable(self, name: str) -> list[Any]:
        """The collection ``name`` as a list of this draft's own, copied on first use."""
        value = getattr(self, name)
        if type(value) is not list:
            value = list(value)
            setattr(self, name, value)
        return value

    def freeze(self) -> State:
        return _state(
            self.base.setup,
            self.visit,
            self.province,
            self.start_player,
            self.to_act,
            tuple([p.freeze() if isinstance(p, _Seat) else p for p in self.players]),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.display),
            tuple(self.supply),
            tuple(self.court),
            tuple(self.reserve),
            tuple(self.palaces),
            tuple(self.moguls),
            tuple(self.bonus),
            self.pending,
            self.dummy,
            self.reshuffles,
        )

    # -- small helpers

    def seat(self, index: int) -> _Seat:
        """The scratch copy of seat ``index``, made on first use."""
        player = self.players[index]
        if isinstance(player, _Seat):
            return player
        scratch = self.players[index] = _Seat(player)
        return scratch

    def emit(self, kind: Callable[..., Event], *fields: Any) -> None:
        """Log the event ``kind(*fields)``, built only when events are wanted."""
        if self.log is not None:
            self.log.append(kind(*fields))

    def score(self, seat: int, source: str, points: int, reason: str) -> None:
        player = self.seat(seat)
        player.score = _add_score(player.score, source, points)
        self.emit(Scored, seat, source, points, reason)

    def draw(self) -> int | None:
        """W12: the top card of the deck, reshuffling the discard pile if it is empty."""
        if not self.deck:
            if not self.discard:
                return None
            cards = sorted(self.discard)
            random.Random(f"tajmahal/{self.base.setup.seed}/{self.reshuffles}").shuffle(cards)
            self.reshuffles += 1
            self.deck = cards
            self.discard = ()
            self.emit(Reshuffled, len(cards))
        card: int = self.mutable("deck").pop(0)
        return card

    def draw_to_hand(self, seat: int, reason: str) -> None:
        card = self.draw()
        if card is None:
            return
        player = self.seat(seat)
        player.hand = _with(player.hand, card)
        self.emit(CardDrawn, seat, card, reason)

    # -- W1-W3: withdrawal

    def withdraw(self, seat: int) -> None:
        player = self.seat(seat)
        rivals = [
            symbol_counts(p.played)
            for s, p in enumerate(self.players)
            if s != seat and not p.withdrawn
        ]
        if self.dummy is not None and self.dummy.bidding:
            rivals.append(symbol_counts(self.dummy.cards))
        won = majorities(symbol_counts(player.played), rivals, self.court)
        if won:
            court = self.mutable("court")
            influence = list(player.influence)
            for symbol in won:
                court.remove(symbol)
                if symbol in CHARACTERS:
                    influence[CHARACTERS.index(symbol)] += 1
            player.influence = tuple(influence)
        player.withdrawn = True
        self.emit(Withdrew, seat, won)
        characters = sum(1 for s in won if s in CHARACTERS)
        self.pending = _pending(characters, "mogul" in won, False, "elephant" in won, 0)
        self.settle(seat)

    # -- W4-W6: palaces

    def build(self, seat: int, city: int, mogul: bool) -> None:
        pending = self.pending
        assert pending is not None
        board = self.base.setup.board
        cities = board.province_cities[self.province]
        name = board.cities[city].name if 0 <= city < len(board.cities) else f"city {city}"
        rule = "W5" if mogul else "W4"
        if mogul and not pending.mogul:
            raise IllegalAction("W5", "you did not win the grand mogul: no mogul palace to place")
        if not mogul and not pending.palaces:
            raise IllegalAction("W4", "you have no normal palace left to place")
        if city not in cities:
            raise IllegalAction(
                rule, f"{name} is not in {board.provinces[self.province]}, the current province"
            )
        own = self.mutable("moguls" if mogul else "palaces")
        if own[city] != NOBODY:
            what = "mogul palace" if mogul else "palace"
            raise IllegalAction(rule, f"{name} already holds a {what}")
        own[city] = seat
        player = self.seat(seat)
        player.palaces -= 1
        self.pending = _pending(
            pending.palaces - (not mogul),
            pending.mogul and not mogul,
            True,
            pending.province_tile,
            pending.takes,
        )
        self.emit(PalaceBuilt, seat, city, mogul)
        tile = self.bonus[city]
        if tile is not None and not mogul:
            self.mutable("bonus")[city] = None
            self.take_bonus(seat, city, tile)

    def take_bonus(self, seat: int, city: int, tile: BonusTile) -> None:
        """W6: score a bonus tile the moment it is taken."""
        player = self.seat(seat)
        player.bonus_tiles = (*player.bonus_tiles, tile)
        self.emit(BonusTaken, seat, city, tile)
        if tile.kind in BONUS_POINTS:
            reason = "Taj Mahal" if tile.kind == "taj_mahal" else "bonus tile"
            self.score(seat, "bonus", BONUS_POINTS[tile.kind], reason)
        elif tile.kind == "card":
            self.draw_to_hand(seat, "bonus tile")
        else:
            assert tile.good is not None
            self.score_goods(seat, (tile.good,))

    def score_goods(self, seat: int, goods: tuple[str, ...]) -> None:
        """W7: each good on a new tile scores the number of that good now held."""
        player = self.seat(seat)
        for good in goods:
            held = sum(good in PROVINCE_GOODS[t] for t in player.province_tiles)
            held += sum(tile.good == good for tile in player.bonus_tiles)
            self.score(seat, "goods", held, good)

    def settle(self, seat: int) -> None:
        """Resolve every step of a withdrawal that leaves no choice, in rule order.

        A pending withdrawal is in one of three stages: palaces to place (W4/W5),
        palaces done but not yet scored (``takes == 0``: W7-W11 run now), or display
        cards to take (W11).  Stops where the seat has a real choice.
        """
        while (pending := self.pending) is not None:
            if pending.palaces or pending.mogul:
                if not self.place_forced(seat, pending):
                    return
            elif pending.takes == 0:
                self.after_palaces(seat, pending)
            elif pending.takes >= len(self.display):
                for card in list(self.display):  # no choice: take what remains
                    self.take(seat, card)
            else:
                return

    def place_forced(self, seat: int, pending: Pending) -> bool:
        """Place palaces that leave no choice; False when the seat must choose."""
        left = self.seat(seat).palaces
        if left == 0:  # W4: no palace left
            self.pending = _pending(0, False, pending.built, pending.province_tile, 0)
            return True
        normal, mogul = _palace_cities(
            self.base.setup.board, self.province, self.palaces, self.moguls, seat
        )
        if pending.palaces and not normal:  # W4: no free city
            self.pending = _pending(0, pending.mogul, pending.built, pending.province_tile, 0)
            return True
        if pending.mogul and not mogul:
            self.pending = _pending(pending.palaces, False, pending.built, pending.province_tile, 0)
            return True
        options = len(normal) * (pending.palaces > 0) + len(mogul) * pending.mogul
        if options == 1:
            if pending.palaces:
                self.build(seat, normal[0], False)
            else:
                self.build(seat, mogul[0], True)
            return True
        if not pending.mogul and pending.palaces >= len(normal) and left >= len(normal):
            for city in normal:  # every free city gets one: only the order is open
                self.build(seat, city, False)
            return True
        return False

    def after_palaces(self, seat: int, pending: Pending) -> None:
        """W7-W11 once the palaces stand: province tile, palace score, discard, draw."""
        player = self.seat(seat)
        if pending.province_tile:
            tile = self.visit
            player.province_tiles = (*player.province_tiles, tile)
            self.emit(ProvinceTileTaken, seat, tile)
            self.score_goods(seat, PROVINCE_GOODS[tile])
        if pending.built:
            board = self.base.setup.board
            others = connected_provinces(board, self.province, seat, self.palaces, self.moguls)
            self.score(seat, "palaces", 1 + others, f"palace joined to {others} other provinces")
        played = player.played
        specials = tuple([c for c in played if c >= _FIRST_SPECIAL])
        gone = tuple([c for c in played if c < _FIRST_SPECIAL])
        if gone:
            self.mutable("discard").extend(gone)
        player.played = ()
        if specials:
            player.hand = tuple(sorted(player.hand + specials))
        if gone:
            self.emit(Discarded, seat, gone)
        if not played:
            self.draw_to_hand(seat, "withdrew without playing")
        takes = min(2, len(self.display))
        if takes == 0:
            self.pending = None
            self.end_turn(seat)
        else:
            self.pending = _TAKES[takes]

    # -- W11: display

    def take(self, seat: int, card: int) -> None:
        pending = self.pending
        assert pending is not None
        if card not in self.display:
            raise IllegalAction("W11", f"card {card} is not in the display")
        self.mutable("display").remove(card)
        player = self.seat(seat)
        player.hand = _with(player.hand, card)
        player.revealed = _with(player.revealed, card)
        self.emit(CardTaken, seat, card)
        if pending.takes == 1 or not self.display:
            self.pending = None
            self.end_turn(seat)
        else:
            self.pending = _TAKES[pending.takes - 1]

    def end_turn(self, seat: int) -> None:
        nxt = _next_in(self.players, seat)  # type: ignore[arg-type]
        if self.dummy is not None and self.dummy.bidding:
            self.dummy_turn()  # D2: after every real turn, the last withdrawal included
        if nxt is None:
            self.end_visit()
            return
        self.to_act = nxt

    # -- D2/D3: the dummy

    def dummy_turn(self) -> None:
        dummy = self.dummy
        assert dummy is not None
        card = self.draw()
        if card is None:
            return
        self.emit(DummyTurned, card)
        color = CARD_COLOR[card]
        if not any(CARD_COLOR[c] == color for c in dummy.cards):
            self.dummy = Dummy(cards=(*dummy.cards, card), bidding=True)
            return
        rivals = [symbol_counts(p.played) for p in self.players if not p.withdrawn]
        won = majorities(symbol_counts(dummy.cards), rivals, self.court)
        for symbol in won:
            self.mutable("court").remove(symbol)
            if symbol in CHARACTERS:
                self.mutable("reserve")[CHARACTERS.index(symbol)] += 1
        self.emit(DummyWithdrew, card, won)
        self.mutable("discard").extend((card, *dummy.cards))
        self.emit(Discarded, None, (card, *dummy.cards))
        self.dummy = Dummy(cards=(), bidding=False)

    # -- E1-E5: end of a visit

    def end_visit(self) -> None:
        if self.dummy is not None:
            if self.dummy.cards:
                self.mutable("discard").extend(self.dummy.cards)
                self.emit(Discarded, None, self.dummy.cards)
            self.dummy = Dummy()
        self.exchange_special_cards()
        self.emit(VisitEnded, self.visit)
        if self.visit == VISITS:
            self.final_scoring()
            return
        n = len(self.players)
        self.visit += 1
        self.province = self.base.setup.visit_provinces[self.visit - 1]
        self.start_player = (self.start_player + 1) % n
        self.refill_court()
        display = []
        for _ in range(display_size(n)):
            card = self.draw()
            if card is not None:
                display.append(card)
        self.display = sorted(display)
        for seat, p in enumerate(self.players):
            if isinstance(p, _Seat):
                p.played, p.color, p.withdrawn = (), None, False
            else:  # W10 already emptied the table: only the visit's flags reset
                self.players[seat] = _player(
                    p.hand,
                    (),
                    None,
                    False,
                    p.palaces,
                    p.influence,
                    p.province_tiles,
                    p.bonus_tiles,
                    p.score,
                    p.revealed,
                )
        self.to_act = self.start_player
        self.emit(VisitBegan, self.visit, self.province, self.start_player, tuple(self.display))

    def exchange_special_cards(self) -> None:
        """E2: two influence tiles of a kind buy that character's special card."""
        for seat in range(len(self.players)):
            for k, character in enumerate(CHARACTERS):
                if self.players[seat].influence[k] < 2:
                    continue
                player = self.seat(seat)
                influence = list(player.influence)
                influence[k] -= 2
                player.influence = tuple(influence)
                self.mutable("reserve")[k] += 2
                card = SPECIAL_CARDS[character]
                holder = None
                if card in self.supply:
                    self.mutable("supply").remove(card)
                else:
                    holder = next(s for s, p in enumerate(self.players) if card in p.hand)
                    old = self.seat(holder)
                    old.hand = tuple(c for c in old.hand if c != card)
                player.hand = _with(player.hand, card)
                self.emit(SpecialCardTaken, seat, character, card, holder)

    def refill_court(self) -> None:
        """E3: one influence tile of each missing kind from the reserve, the ring, the tile."""
        court = set(self.court) | {"elephant", "mogul"}
        for k, character in enumerate(CHARACTERS):
            if character not in court and self.reserve[k] > 0:
                self.mutable("reserve")[k] -= 1
                court.add(character)
        self.court = [s for s in SYMBOLS if s in court]

    def final_scoring(self) -> None:
        """F1: special and white cards score 1 each, and each card of the main colour."""
        for seat, player in enumerate(self.players):
            hand = player.hand
            specials = sum(1 for c in hand if c >= _FIRST_SPECIAL)
            whites = sum(1 for c in hand if CARD_COLOR[c] == "white")
            most = max(sum(1 for c in hand if CARD_COLOR[c] == col) for col in COLORS)
            points = specials + whites + most
            if points:
                self.score(seat, "hand", points, "final hand")
        self.to_act = None
        totals = tuple([_total(p.score) for p in self.players])
        self.emit(GameOver, totals, ranks(totals))


def _with(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    cards = list(hand)
    insort(cards, card)
    return tuple(cards)
