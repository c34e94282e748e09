"""Taj Mahal for the arena: the :class:`~tajmahal.arena.game.Game` implementation.

This is the only module that ties the generic protocol, referee and records of
:mod:`tajmahal.arena` to the Taj Mahal engine.  Views, actions and events travel
in the engine's own JSON form (:mod:`tajmahal.tajmahal.serialize`).

Fallback policy (for a seat whose bot faulted): withdraw whenever that is legal,
otherwise take the first legal action (the lowest-numbered city for a palace, the
lowest card id from the display).  It needs no hidden information and plays the
seat passively, so it disturbs the other seats' game as little as possible.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs
import orjson

from ..arena.game import refusal
from ..arena.player import Player
from ..kit.jsontext import ViewJson, field_names
from .actions import Action, Withdraw, action_text
from .cards import CARDS
from .events import (
    EVENT_TYPES,
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
from .rules import IllegalAction, apply, breakdown, legal_actions, new_game, ranks, scores, step
from .serialize import from_data, to_data, type_tag
from .setups import VARIANTS, Setup
from .state import SCORE_SOURCES, PlayerState, State
from .views import PlayerView, PublicSetup, SeatView, view

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .render import TajMahalPictures

__all__ = ["TAJMAHAL", "TajMahal", "view_data", "view_from_data"]


# --------------------------------------------------------------------------- views as data

#: The fields of a view that an ``act`` message carries (the setup goes in the hello,
#: the legal actions apart).  Taken from the class, so new engine fields follow.
_VIEW_FIELDS: Final = tuple(
    f.name for f in attrs.fields(PlayerView) if f.name not in ("setup", "legal")
)
_SCALARS: Final = frozenset({int, str, bool, type(None)})


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
        if not attrs.has(kind):
            return to_data(value)
        fields = field_names(kind)
        data = self.values.get(value)
        if data is None:
            if len(self.values) > 4096:
                self.values.clear()
            data = self.values[value] = {f: self.data(getattr(value, f)) for f in fields}
        return data


def _data(value: Any) -> Any:
    """``to_data(value)`` for the values inside events: scalars, tuples of them, and
    attrs values of scalars (a bonus tile); a test checks it against the converter."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return [_data(x) for x in value]
    if attrs.has(kind):
        return {f.name: _data(getattr(value, f.name)) for f in attrs.fields(kind)}
    return to_data(value)


#: Each event class: its ``"type"`` tag, then its fields in order.
_EVENT_FIELDS: Final[dict[type, tuple[str, ...]]] = {
    cls: (type_tag(cls), *(f.name for f in attrs.fields(cls))) for cls in EVENT_TYPES
}


def view_data(v: PlayerView, cache: _DataCache | None = None) -> dict[str, Any]:
    """``to_data(v)`` without ``setup`` and ``legal`` (they travel apart).  With a
    ``cache`` (the referee's per-decision path) it is built without the converter;
    a test checks that both give the same."""
    if cache is None:
        return {name: to_data(getattr(v, name)) for name in _VIEW_FIELDS}
    return {name: cache.data(getattr(v, name)) for name in _VIEW_FIELDS}


def _is_scalar_type(hint: Any) -> bool:
    """Whether values of type ``hint`` are JSON scalars, or tuples of them, which orjson
    encodes as they are (``int``, ``str | None``, ``tuple[int, ...]``)."""
    if hint in _SCALARS:
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return all(_is_scalar_type(a) for a in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0] in _SCALARS or _is_scalar_type(args[0])
    return False


def _compound(cls: type, names: Sequence[str]) -> tuple[int, ...]:
    """Positions in ``names`` of the fields of ``cls`` whose values are not scalars."""
    hints = typing.get_type_hints(cls)
    return tuple(i for i, name in enumerate(names) if not _is_scalar_type(hints[name]))


def _dict_function(name: str, args: str, items: Sequence[tuple[str, str]]) -> Any:
    """A function ``name(args)`` that returns the dict ``{key: expression, ...}`` of
    ``items``, compiled from a dict display, as attrs compiles its methods: about
    three times cheaper than ``dict(zip(keys, values))``, and the referee builds a
    few per decision.  Keys and expressions come from attrs field names only."""
    body = ", ".join(f"{key!r}: {expression}" for key, expression in items)
    namespace: dict[str, Any] = {}
    exec(f"def {name}({args}):\n    return {{{body}}}\n", namespace)
    return namespace[name]


def _fields_of(arg: str, cls: type, names: Sequence[str]) -> list[tuple[str, str]]:
    """``(name, expression)`` reading each field of ``arg`` (a ``cls``), through
    ``part`` for values that are not scalars."""
    compound = set(_compound(cls, names))
    return [(n, f"part({arg}.{n})" if i in compound else f"{arg}.{n}") for i, n in enumerate(names)]


#: Each event class's data as a dict ready for orjson, given ``part``.
_EVENT_DICT: Final[dict[type, Any]] = {
    cls: _dict_function(
        f"{type_tag(cls)}_dict",
        "e, part",
        [("type", repr(type_tag(cls))), *_fields_of("e", cls, _EVENT_FIELDS[cls][1:])],
    )
    for cls in EVENT_TYPES
}


#: The view's fields that the view encoder (:func:`_view_json`) takes by hand (the
#: seat, its own hand, the seats' public records, the deck's size); every other one
#: is the state's attribute of the same name, as :func:`~tajmahal.tajmahal.views.view`
#: makes it.  Should the engine's view change shape, ``_DIRECT`` turns false and views
#: take the long way.
_BY_HAND: Final = ("seat", "hand", "players", "deck_size")
_DIRECT: Final = set(_BY_HAND) <= set(_VIEW_FIELDS) and all(
    name in _BY_HAND or hasattr(State, name) or name in attrs.fields_dict(State)
    for name in _VIEW_FIELDS
)
_SEAT_FIELDS: Final = tuple(f.name for f in attrs.fields(SeatView))
#: Likewise for a seat's public record (:meth:`SeatView.of <tajmahal.tajmahal.views.SeatView.of>`):
#: the hand's size by hand, every other field the player's attribute of that name.
_SEAT_DIRECT: Final = "hand_size" in _SEAT_FIELDS and all(
    name == "hand_size" or hasattr(PlayerState, name) or name in attrs.fields_dict(PlayerState)
    for name in _SEAT_FIELDS
)


#: How many JSON parts the view encoder keeps of each kind (by identity, by value).
_VIEW_CACHE_LIMIT: Final = 4096


def _view_json() -> ViewJson:
    """The referee's per-decision view encoder (:class:`tajmahal.kit.jsontext.ViewJson`)
    for Taj Mahal: each act's view made straight from the state, the view's dict and
    a seat's record built by functions compiled from their fields.  A view is a few
    kB, and most of it is unchanged from one decision to the next: each seat's
    :class:`~tajmahal.tajmahal.state.PlayerState`, the tuple of them and the bonus tiles are
    shared between successive states, so their JSON is kept.  Tests check the text
    against the converter's view, for every seat of every state of random games."""
    by_hand = {
        "seat": "seat",
        "hand": "state.players[seat].hand",
        "players": "players",
        "deck_size": "len(state.deck)",
    }
    view_dict = _dict_function(
        "view_dict",
        "state, seat, players, part",
        [
            (name, by_hand.get(name, expression))
            for name, expression in _fields_of("state", PlayerView, _VIEW_FIELDS)
        ],
    )
    seat_fields = _fields_of("p", SeatView, _SEAT_FIELDS)
    if _SEAT_DIRECT:  # from the PlayerState itself; else from its SeatView
        seat_fields = [(n, "len(p.hand)" if n == "hand_size" else e) for n, e in seat_fields]
    seat_dict = _dict_function("seat_dict", "p, part", seat_fields)
    record = None if _SEAT_DIRECT else SeatView.of
    return ViewJson(view_dict, seat_dict, record, to_data, _VIEW_CACHE_LIMIT)


_VIEW_TYPES: Final = typing.get_type_hints(PlayerView)


def view_from_data(setup: PublicSetup, data: Mapping[str, Any], legal: Sequence[Any]) -> PlayerView:
    """The :class:`PlayerView` of an ``act`` message (its ``view`` and ``legal``) for a
    bot that got ``setup`` in the hello; raises :class:`~tajmahal.tajmahal.serialize.DataError`."""
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
        self._json = _view_json()

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

    def why_illegal(self, state: State, action: Action) -> str | None:
        """The rule the engine cites when it refuses ``action`` in ``state``, id
        first: ``"W5: Srinagar is not in Kabul, the current province"``.
        None if the engine takes the action, or fails on it otherwise (the action
        came from a bot)."""
        return refusal(apply, IllegalAction, state, action)

    def view_data(self, state: State, seat: int) -> Any:
        return view_data(view(state, seat), self._views)

    def view_json(self, state: State, seat: int) -> bytes:
        if not _DIRECT:  # the engine's view changed shape: take the long way
            return orjson.dumps(self.view_data(state, seat))
        return self._json.encode(state, seat)

    def action_to_data(self, action: Action) -> Any:
        data = self._action_data.get(action)
        if data is None:
            data = self._action_data[action] = to_data(action)
        return data

    def action_from_data(self, data: Any) -> Action:
        action: Action = from_data(data, Action)
        return action

    def event_data(self, event: Event, seat: int | None) -> Any:
        event = event_for(event, seat)
        kind = type(event)
        fields = _EVENT_FIELDS.get(kind)
        if fields is None:
            return to_data(event)
        return {"type": fields[0], **{f: _data(getattr(event, f)) for f in fields[1:]}}

    def event_json(self, event: Event, seat: int | None) -> bytes:
        event = event_for(event, seat)
        make = _EVENT_DICT.get(type(event))
        if make is None:
            return orjson.dumps(to_data(event))
        return orjson.dumps(make(event, self._json.part))

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

    def pictures(self) -> TajMahalPictures:
        """How the HTML viewer and the browser game draw the game (SVG layers)."""
        from .render import PICTURES

        return PICTURES

    def terminal(self, state: State, names: Sequence[str], seat: int | None) -> RenderableType:
        """The position for ``tajmahal show`` (rich); ``seat``: only what it sees."""
        from .terminal import position

        return position(state, names, seat)

    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        from ..kit.bots import builtin_players
        from .bots import BOTS, MCTS_BUILTIN

        return builtin_players(BOTS, MCTS_BUILTIN)


def _who(seat: int, names: Sequence[str]) -> str:
    return f"{names[seat]} (seat {seat})" if seat < len(names) else f"seat {seat}"


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(str(CARDS[c]) for c in cards) or "empty"


#: The game object the CLI and the tournament use.
TAJMAHAL: Final = TajMahal()
