"""Taj Mahal for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

This is the only module that ties the generic protocol, referee and records of
:mod:`tajmahal.arena` to the Taj Mahal engine.  Views, actions and events travel
in the engine's own JSON form (:mod:`tajmahal.serialize`).

Fallback policy (for a seat whose bot faulted): withdraw whenever that is legal,
otherwise take the first legal action (the lowest-numbered city for a palace, the
lowest card id from the display).  It needs no hidden information and plays the
seat passively, so it disturbs the other seats' game as little as possible.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from .actions import Action, Withdraw, action_text
from .arena.player import FirstPlayer, Player, RandomPlayer
from .cards import CARDS
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
    event_for,
)
from .rules import breakdown, legal_actions, new_game, ranks, scores, step
from .serialize import from_data, to_data
from .setups import VARIANTS, Setup
from .state import SCORE_SOURCES, State
from .views import PlayerView, PublicSetup, view

__all__ = ["TAJMAHAL", "TajMahal", "view_data", "view_from_data"]


# --------------------------------------------------------------------------- views as data

#: The fields of a view that an ``act`` message carries (the setup goes in the hello,
#: the legal actions apart).  Taken from the class, so new engine fields follow.
_VIEW_FIELDS: Final = tuple(
    f.name for f in attrs.fields(PlayerView) if f.name not in ("setup", "legal")
)
_SCALARS: Final = (int, str, bool, type(None))


class _DataCache:
    """Plain data of the parts of views, made fast for the referee's per-decision path.

    The engine's values are frozen attrs classes, tuples and scalars, which the
    converter turns into dicts (fields in order), lists and scalars; this does the
    same without the converter's dispatch, and keeps the data of each attrs value
    (a seat's public record, a bonus tile, a score) by value, since most of them
    recur from decision to decision.  A test checks the result against the converter.
    """

    def __init__(self) -> None:
        self.values: dict[Any, Any] = {}
        self.tuples: dict[int, tuple[Any, Any]] = {}

    def data(self, value: Any) -> Any:
        kind = type(value)
        if kind in _SCALARS:
            return value
        if kind is tuple:
            # The engine's tuples are typed and so all of a kind: tuple[int, ...],
            # tuple[str, ...], or of attrs values (maybe None), like the bonus tiles.
            if not value or (type(value[0]) in _SCALARS and value[0] is not None):
                return list(value)
            entry = self.tuples.get(id(value))
            if entry is not None and entry[0] is value:
                return entry[1]
            if len(self.tuples) > 1024:
                self.tuples.clear()
            items = [self.data(x) for x in value]
            self.tuples[id(value)] = (value, items)
            return items
        fields = _ATTRS_FIELDS.get(kind)
        if fields is None:
            if not attrs.has(kind):
                return to_data(value)
            fields = _ATTRS_FIELDS[kind] = tuple(f.name for f in attrs.fields(kind))
        data = self.values.get(value)
        if data is None:
            if len(self.values) > 4096:
                self.values.clear()
            data = self.values[value] = {f: self.data(getattr(value, f)) for f in fields}
        return data


_ATTRS_FIELDS: dict[type, tuple[str, ...]] = {}


def view_data(v: PlayerView, cache: _DataCache | None = None) -> dict[str, Any]:
    """``to_data(v)`` without ``setup`` and ``legal`` (they travel apart).  With a
    ``cache`` (the referee's per-decision path) it is built without the converter;
    a test checks that both give the same."""
    if cache is None:
        return {name: to_data(getattr(v, name)) for name in _VIEW_FIELDS}
    return {name: cache.data(getattr(v, name)) for name in _VIEW_FIELDS}


_VIEW_TYPES: Final = typing.get_type_hints(PlayerView)


def view_from_data(setup: PublicSetup, data: Mapping[str, Any], legal: Sequence[Any]) -> PlayerView:
    """The :class:`PlayerView` of an ``act`` message (its ``view`` and ``legal``) for a
    bot that got ``setup`` in the hello; raises :class:`~tajmahal.serialize.DataError`."""
    fields: dict[str, Any] = {"setup": setup, "legal": from_data(list(legal), _VIEW_TYPES["legal"])}
    for f in attrs.fields(PlayerView):
        if f.name not in fields:
            fields[f.name] = from_data(data[f.name], _VIEW_TYPES[f.name])
    return PlayerView(**fields)


# --------------------------------------------------------------------------- the game


class TajMahal:
    """Taj Mahal as an arena :class:`~tajmahal.arena.game.Game`."""

    name = "tajmahal"
    title = "Taj Mahal"
    min_players = 2
    max_players = 5
    score_sources: tuple[str, ...] = SCORE_SOURCES

    def __init__(self) -> None:
        self._action_data: dict[Action, Any] = {}
        self._views = _DataCache()

    # -- setups

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> Setup:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Taj Mahal is for 2-5 players, not {players}")
        setup = Setup.random(players, seed)
        if variant is not None and variant != setup.variant:
            if variant not in VARIANTS:
                raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
            raise ValueError(
                f"the {variant!r} variant is not for {players} players "
                "(2 players play 'dummy', 3-5 'standard')"
            )
        return setup

    def setup_to_data(self, setup: Setup) -> Any:
        return to_data(setup)

    def setup_from_data(self, data: Any) -> Setup:
        setup: Setup = from_data(data, Setup)
        new_game(setup)  # validates (raises SetupError, a ValueError)
        return setup

    def players(self, setup: Setup) -> int:
        return setup.players

    def variant(self, setup: Setup) -> str:
        return setup.variant

    def public_setup(self, setup: Setup) -> Any:
        return to_data(PublicSetup.of(setup))

    # -- play

    def new_game(self, setup: Setup) -> State:
        return new_game(setup)

    def to_act(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal_actions(state)

    def step(self, state: State, action: Action) -> tuple[State, Sequence[Event]]:
        return step(state, action)

    def view_data(self, state: State, seat: int) -> Any:
        return view_data(view(state, seat), self._views)

    def action_to_data(self, action: Action) -> Any:
        data = self._action_data.get(action)
        if data is None:
            data = self._action_data[action] = to_data(action)
        return data

    def action_from_data(self, data: Any) -> Action:
        action: Action = from_data(data, Action)
        return action

    def event_data(self, event: Event, seat: int | None) -> Any:
        return to_data(event_for(event, seat))

    def is_public(self, event: Event) -> bool:
        """Only a drawn card is secret (its seat sees it, the others do not)."""
        return not isinstance(event, CardDrawn)

    # -- results

    def scores(self, state: State) -> list[int]:
        return list(scores(state))

    def breakdown(self, state: State) -> list[dict[str, int]]:
        return [{s: getattr(score, s) for s in SCORE_SOURCES} for score in breakdown(state)]

    def ranks(self, state: State) -> list[int]:
        return list(ranks(scores(state)))

    def fallback(self, state: State, legal: Sequence[Action]) -> int:
        """Withdraw when allowed (always last in a play turn), else the first action."""
        return len(legal) - 1 if isinstance(legal[-1], Withdraw) else 0

    # -- for people

    def describe_action(self, state: State, action: Action) -> str:
        return action_text(action, tuple(c.name for c in state.setup.board.cities))

    def describe_start(self, state: State, names: Sequence[str]) -> list[str]:
        setup = state.setup
        return [
            f"# Visit 1 of 12 in {setup.board.provinces[state.province]}; "
            f"{_who(state.start_player, names)} starts",
            f"display: {_cards(state.display)}",
        ]

    def describe_events(
        self, state: State, events: Sequence[Event], names: Sequence[str]
    ) -> list[str]:
        board = state.setup.board
        lines: list[str] = []
        for e in events:
            if isinstance(e, Played):
                text = f"{_who(e.seat, names)} plays {CARDS[e.card]}"
                lines.append(text if e.extra is None else f"{text} with {CARDS[e.extra]}")
            elif isinstance(e, Withdrew):
                won = ", ".join(e.prizes) if e.prizes else "nothing"
                lines.append(f"{_who(e.seat, names)} withdraws and wins {won}")
            elif isinstance(e, PalaceBuilt):
                kind = "mogul palace" if e.mogul else "palace"
                lines.append(
                    f"{_who(e.seat, names)} builds a {kind} in {board.cities[e.city].name}"
                )
            elif isinstance(e, BonusTaken):
                lines.append(f"{_who(e.seat, names)} takes the bonus tile {e.tile}")
            elif isinstance(e, ProvinceTileTaken):
                lines.append(f"{_who(e.seat, names)} takes province tile {e.tile}")
            elif isinstance(e, Scored):
                lines.append(f"{_who(e.seat, names)} scores {e.points} ({e.source}: {e.reason})")
            elif isinstance(e, CardDrawn):
                card = "a card" if e.card is None else str(CARDS[e.card])
                lines.append(f"{_who(e.seat, names)} draws {card} ({e.reason})")
            elif isinstance(e, CardTaken):
                lines.append(f"{_who(e.seat, names)} takes {CARDS[e.card]} from the display")
            elif isinstance(e, Reshuffled):
                lines.append(f"the discard pile ({e.cards} cards) is shuffled into a new deck")
            elif isinstance(e, SpecialCardTaken):
                lines.append(f"{_who(e.seat, names)} takes the {CARDS[e.card]}")
            elif isinstance(e, DummyTurned):
                lines.append(f"the dummy turns {CARDS[e.card]}")
            elif isinstance(e, DummyWithdrew):
                won = ", ".join(e.prizes) if e.prizes else "nothing"
                lines.append(f"the dummy stops on {CARDS[e.card]} and wins {won}")
            elif isinstance(e, VisitEnded):
                if any(isinstance(x, GameOver) for x in events):
                    lines.append(f"visit {e.visit} ends; final scoring of the hands")
                    continue
                totals = ", ".join(f"{_who(s, names)} {t}" for s, t in enumerate(scores(state)))
                lines.append(f"visit {e.visit} ends; totals: {totals}")
            elif isinstance(e, VisitBegan):
                lines.append(
                    f"# Visit {e.visit} of 12 in {board.provinces[e.province]}; "
                    f"{_who(e.start_player, names)} starts"
                )
                lines.append(f"display: {_cards(e.display)}")
            elif isinstance(e, GameOver):
                lines.append(f"game over: totals {list(e.scores)}, ranks {list(e.ranks)}")
            elif isinstance(e, Discarded):
                continue
        return lines

    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        from .bots import GreedyPlayer, MCTSPlayer

        return {
            "random": RandomPlayer,
            "greedy": GreedyPlayer,
            "mcts": MCTSPlayer,
            "first": FirstPlayer,
        }


def _who(seat: int, names: Sequence[str]) -> str:
    return f"{names[seat]} (seat {seat})" if seat < len(names) else f"seat {seat}"


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(str(CARDS[c]) for c in cards) or "empty"


#: The game object the CLI and the tournament use.
TAJMAHAL: Final = TajMahal()
