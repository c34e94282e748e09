"""The rules engine: :func:`new_game`, :func:`apply`, :func:`step` (the legal actions
are :mod:`.legal`'s).

Every function here is pure: it reads a :class:`~tajmahal.tajmahal.state.State` and returns
new values.  Within one call, the longer steps (a withdrawal, the end of a visit)
work on a private :class:`Draft` that is frozen into the returned state; the
input state is never touched.  Rule ids (T4, W8, ...) refer to ``docs/rules.md``.
"""

from __future__ import annotations

from ..kit.errors import IllegalAction
from .actions import (
    Action,
    BuildMogulPalace,
    BuildPalace,
    Play,
    TakeCard,
    Withdraw,
)
from .build import _ONE_TAKE, _add_score, _in_turn, _with, player_of
from .cards import (
    CARD_COLOR,
    CARDS,
    CHARACTERS,
    IS_COLORED,
    MONK_CARD,
    PRINCESS_CARD,
    SPECIAL_CARDS,
    SYMBOLS,
)
from .counting import _next_in, _total
from .draft import Draft
from .events import (
    CardTaken,
    Event,
    Played,
    Scored,
    VisitBegan,
)
from .setups import HAND_SIZE, Setup, display_size, validate_setup
from .state import NOBODY, Dummy, PlayerState, Score, State
from .tiles import BonusTile

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


def cards_in_place(state: State) -> bool:
    """C3: every card lies in exactly one place (deck, discard pile, display,
    supply, a hand, a seat's or the dummy's table)."""
    places = [*state.deck, *state.discard, *state.display, *state.supply]
    for p in state.players:
        places += [*p.hand, *p.played]
    if state.dummy is not None:
        places += state.dummy.cards
    return sorted(places) == list(range(len(CARDS)))


def check_state(state: State) -> None:
    """Whole-state checks for hand-built positions (puzzles, tests); raises :class:`StateError`.

    The engine's own states always pass.  The checks: every card in exactly one place,
    hands sorted, seats and cities in range, 20 palaces per player in all, and 6
    influence tiles of each kind counted over players, court and reserve.
    """
    n = state.setup.players
    problems = []
    if not cards_in_place(state):
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
            draft = Draft(state, log)
            draft.withdraw(seat)
            return draft.freeze()
        raise IllegalAction("T2", f"on your turn you play cards or withdraw, not {kind.__name__}")
    if pending.palaces or pending.mogul:
        if kind is BuildPalace or kind is BuildMogulPalace:
            draft = Draft(state, log)
            draft.build(seat, action.city, kind is BuildMogulPalace)  # type: ignore[union-attr]
            draft.settle(seat)
            return draft.freeze()
        raise IllegalAction("W4", "you withdrew: place your palaces first")
    if kind is TakeCard:
        card = action.card  # type: ignore[union-attr]
        if pending.takes == 2 and len(state.display) > 2 and card in state.display:
            return _take_first(state, seat, card, log)
        draft = Draft(state, log)
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
    new_player = player_of(
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
    new = _in_turn(state, _next_in(players, seat), players, state.display, None)
    if log is not None:
        log.append(Played(seat, card, extra))
        if extra == PRINCESS_CARD:
            log.append(Scored(seat, "princess", 2, "princess's card"))
    if state.dummy is not None and state.dummy.bidding:
        draft = Draft(new, log)
        draft.dummy_turn()
        return draft.freeze()
    return new


def _take_first(state: State, seat: int, card: int, log: list[Event] | None) -> State:
    """W11: the first of two display cards when a choice remains for the second."""
    player = state.players[seat]
    new_player = player_of(
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
    players = (*state.players[:seat], new_player, *state.players[seat + 1 :])
    return _in_turn(state, seat, players, tuple(c for c in state.display if c != card), _ONE_TAKE)


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
