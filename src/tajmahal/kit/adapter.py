"""A game for the arena, declared: the :class:`~tajmahal.arena.game.Game` plumbing
written once.

A game's ``adapter`` module subclasses :class:`Adapter` with what is its own — its
names and seat counts, its engine's functions, its converter
(:mod:`tajmahal.kit.tagged`), its view class, how its setups are made and stored,
its score breakdown, and the texts that describe its actions and events for
people — and gets the rest: views, actions and events as JSON data and as the
byte-exact JSON text the referee sends (parts kept from one decision to the next,
:mod:`tajmahal.arena.jsontext`), strict action parsing, the reason an action is
illegal, the fallback policy, the built-in players (:mod:`tajmahal.kit.bots`), and
the view a built-in bot rebuilds from its messages.

The engine's functions are taken as they are, as static methods::

    class Tikal(Adapter[Setup, State, Action, Event]):
        name = "tikal"
        ...
        new_game = staticmethod(rules.new_game)
        legal_actions = staticmethod(rules.legal_actions)

A view is written once, as the game's typed function ``view(state, seat)``; its
JSON text is that view's fields, each compound part's text kept from one decision
to the next by the part's identity (:class:`~tajmahal.arena.jsontext.Texts`: a
view made with :func:`~tajmahal.kit.memo.by_identity` gives the same part objects
while the state's are unchanged).  Tests check the text against the converter's
data, byte for byte, for every game.
"""

from __future__ import annotations

import typing
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

import attrs
import orjson

from ..arena.game import Game
from ..arena.jsontext import Texts, field_names
from ..arena.player import Player
from . import position, scoring
from .errors import IllegalAction
from .tagged import TaggedConverter, type_tag

if TYPE_CHECKING:
    from .bots import Bots
    from .encoding import Encoding
    from .schema import SchemaHints

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")

#: How many JSON parts a game's encoder keeps of each kind (by identity, by value).
CACHE_LIMIT: Final = 4096


# --------------------------------------------------------------------------- the adapter


class Words:
    """What a game's texts for people are written with: the ``state`` after the
    step, the seats' ``names`` and all the step's ``events``.  A game subclasses it
    with its own ways to name things (a space, a tile, a card)."""

    def __init__(self, state: Any, names: Sequence[str], events: Sequence[Any] = ()) -> None:
        self.state = state
        self.names = names
        self.events = events

    def who(self, seat: int | None) -> str:
        """A seat as people read it: ``"alice (seat 0)"``; None is nobody."""
        return "nobody" if seat is None else who(seat, self.names)


class ComponentsWords(Words):
    """Words of a game whose state carries its box of ``components``."""

    @property
    def c(self) -> Any:
        """The game's components (board, tiles ...)."""
        return self.state.components


class Adapter(Game[SetupT, StateT, ActionT, EventT]):
    """A game as the platform needs it (:class:`~tajmahal.arena.game.Game`), from its
    declaration (see the module docstring).

    Declared as class attributes: those of :class:`~tajmahal.arena.game.Game`, and

    - :attr:`converter` (its values as JSON data: :attr:`action_type` and
      :attr:`event_types` are its unions ``"Action"`` and ``"Event"``),
      :attr:`view_type` and :attr:`view_skip` (view fields an ``act`` leaves out:
      they travel apart);
    - :attr:`state_type`, its state class, for positions as text (optional);
    - :attr:`secret_events`, the event classes that other seats see otherwise
      (:meth:`event_for` hides their secrets);
    - :attr:`passive`, the action classes the fallback policy plays when one is
      last among the legal actions (else the first);
    - :attr:`event_texts` and :attr:`words`, its texts for people.

    Its engine's ``apply`` raises the kit's
    :class:`~tajmahal.kit.errors.IllegalAction` for an illegal action (its message
    names the rule: :meth:`why_illegal`).  Besides the platform's optional parts
    (``pictures``, ``terminal``), a game of the kit may have :meth:`bots` (the
    built-in ``greedy`` and ``mcts`` players) and :meth:`encoding` (for learning
    programs): methods that return None when it has none.
    """

    converter: ClassVar[TaggedConverter]
    action_type: ClassVar[Any]
    event_types: ClassVar[tuple[type, ...]]
    view_type: ClassVar[type]
    view_skip: ClassVar[tuple[str, ...]] = ()
    #: The state class, an attrs class whose states hold their ``setup``: a game
    #: that names it has positions as text (:mod:`tajmahal.kit.position`).
    state_type: ClassVar[type | None] = None
    public_setup_type: ClassVar[Any] = None
    secret_events: ClassVar[tuple[type, ...]] = ()
    passive: ClassVar[tuple[type, ...]] = ()
    #: The texts for people: each event class's text (None: nothing to say; a
    #: ``"# "`` line heads a section; lines are joined by ``"\n"``), written with
    #: :attr:`words` (what the game names things with).
    event_texts: ClassVar[Mapping[type, Callable[[Any, Any], str | None]]]
    words: ClassVar[type[Words]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The declaration's defaults: the actions and events are the converter's
        unions."""
        super().__init_subclass__(**kwargs)
        converter: TaggedConverter | None = cls.__dict__.get("converter")
        if converter is not None:
            if "action_type" not in cls.__dict__:
                cls.action_type = converter.union("Action")
            if "event_types" not in cls.__dict__:
                cls.event_types = typing.get_args(converter.union("Event"))

    def __init__(self) -> None:
        self._action_data: dict[Any, Any] = {}
        self._texts: Texts | None = None
        self._view_fields: tuple[str, ...] = ()
        self._event_fields: dict[type, tuple[str, tuple[str, ...]]] = {}

    # -- the engine (static methods of the game's functions)

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The next state; raises :class:`~tajmahal.kit.errors.IllegalAction` for an
        illegal action."""

    @abstractmethod
    def view(self, state: StateT, seat: int) -> Any:
        """What ``seat`` sees of ``state`` (a :attr:`view_type`)."""

    def view_to_send(self, state: StateT, seat: int) -> Any:
        """The view whose fields (but :attr:`view_skip`) an ``act`` sends: by default
        :meth:`view`'s; a game whose skipped fields cost to make (the legal actions)
        may leave them out here."""
        return self.view(state, seat)

    def ranks(self, state: StateT) -> list[int]:
        """1 is best; equal totals share a rank (a tie is a shared win)."""
        return scoring.ranks(self.scores(state))

    def describe_events(
        self, state: StateT, events: Sequence[EventT], names: Sequence[str]
    ) -> list[str]:
        """Lines a person can follow for the ``events`` of a step that led to
        ``state`` (:attr:`event_texts`)."""
        words = self.words(state, names, events)
        lines: list[str] = []
        for event in events:
            text = self.event_texts[type(event)](event, words)
            if text:
                lines.extend(text.split("\n"))
        return lines

    def event_for(self, event: EventT, seat: int | None) -> EventT:
        """``event`` as ``seat`` sees it (None: a spectator); default: as it is."""
        return event

    # -- setups

    def players(self, setup: SetupT) -> int:
        return setup.players  # type: ignore[attr-defined,no-any-return]

    def variant(self, setup: SetupT) -> str:
        return setup.variant  # type: ignore[attr-defined,no-any-return]

    # -- play

    def to_act(self, state: StateT) -> int | None:
        return state.to_act  # type: ignore[attr-defined,no-any-return]

    def why_illegal(self, state: StateT, action: ActionT) -> str | None:
        """The rule the engine cites when it refuses ``action`` in ``state``, id
        first; None if it takes the action, or fails on it otherwise (the action
        came from a bot)."""
        try:
            self.apply(state, action)
        except IllegalAction as e:
            return str(e)
        except Exception:
            return None
        return None

    def view_data(self, state: StateT, seat: int) -> Any:
        """The converter's data of ``seat``'s view, without :attr:`view_skip`."""
        data = self.converter.to_data(self.view(state, seat))
        for name in self.view_skip:
            del data[name]
        return data

    def view_json(self, state: StateT, seat: int) -> bytes:
        """``orjson.dumps(self.view_data(state, seat))``, byte for byte, from parts
        kept from one decision to the next."""
        texts = self._texts or self._encoders()
        view = self.view_to_send(state, seat)
        text: bytes = orjson.dumps(texts.fields(view, self._view_fields))
        return text

    def action_to_data(self, action: ActionT) -> Any:
        data = self._action_data.get(action)
        if data is None:
            if len(self._action_data) >= CACHE_LIMIT:
                self._action_data.clear()
            data = self._action_data[action] = self.converter.to_data(action)
        return data

    def action_from_data(self, data: Any) -> ActionT:
        """The action ``data`` describes, read strictly; raises ValueError naming the
        path of a bad field from ``action``."""
        action: ActionT = self.converter.from_data(data, self.action_type, "action")
        return action

    def event_data(self, event: EventT, seat: int | None) -> Any:
        return self.converter.to_data(self.event_for(event, seat))

    def event_json(self, event: EventT, seat: int | None) -> bytes:
        texts = self._texts or self._encoders()
        event = self.event_for(event, seat)
        form = self._event_fields.get(type(event))
        if form is None:
            return orjson.dumps(self.converter.to_data(event))
        text: bytes = orjson.dumps(texts.tagged(event, *form))
        return text

    def is_public(self, event: EventT) -> bool:
        return not isinstance(event, self.secret_events)

    def fallback(self, state: StateT, legal: Sequence[ActionT]) -> int:
        """The last legal action if it is :attr:`passive` (ending a turn, passing,
        withdrawing), else the first: it needs no hidden information and plays the
        seat passively."""
        return len(legal) - 1 if isinstance(legal[-1], self.passive) else 0

    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        """``random`` and ``first``, and with :meth:`bots` ``greedy`` and ``mcts``."""
        from .bots import builtin_players

        return builtin_players(self.bots())

    # -- optional parts of a game of the kit: None for a game without them

    def bots(self) -> Bots[Any, Any, Any] | None:
        """The game's :class:`~tajmahal.kit.bots.Bots`: what the built-in ``greedy``
        and ``mcts`` players (and OpenSpiel's evaluator) judge positions with."""
        return None

    def schema_hints(self) -> SchemaHints | None:
        """What the game adds to the JSON Schema its classes give of its part of the
        protocol (:func:`tajmahal.kit.schema.game_schema`: a title, a description,
        its data formats); None: the game publishes no schema."""
        return None

    def position_text(self, state: StateT) -> str | None:
        """The state as one line (:mod:`tajmahal.kit.position`), for a game that names
        its state class (:attr:`state_type`) whose states hold their setup (None for
        another)."""
        if not position.has_positions(self):
            return None
        return position.position_text(self, state)

    def parse_position(self, text: str) -> StateT:
        if not position.has_positions(self):
            return super().parse_position(text)  # a ValueError: no position texts
        state: StateT = position.parse_position(self, text)
        return state

    def check_position(self, state: StateT) -> None:
        """The game's own whole-state check of a position read from its text
        (:meth:`parse_position`): raises ValueError; the kit checks the setup, the
        seats and the seat to act, a game may check more."""
        return None

    def encoding(self) -> Encoding[StateT, ActionT] | None:
        """Action indices, observation tensors and the chance model, for learning
        programs (:mod:`tajmahal.kit.encoding`; needs the ``rl`` extra)."""
        return None

    # -- for bots

    def read_setup(self, data: Any) -> Any:
        """The hello's setup as a bot keeps it: a :attr:`public_setup_type`, or the
        data as it is."""
        if self.public_setup_type is None:
            return data
        return self.converter.from_data(data, self.public_setup_type, "setup")

    def read_act(
        self, setup: Any, view: Mapping[str, Any], legal: Sequence[Any]
    ) -> tuple[Any, list[ActionT]]:
        """The view and the legal actions of an ``act`` message (its ``view`` and
        ``legal``), for a bot that kept ``setup`` (:meth:`read_setup`); the view's
        skipped fields named ``setup`` and ``legal`` are filled from them."""
        read = self.converter.from_data
        actions: list[ActionT] = [
            read(a, self.action_type, f"legal[{i}]") for i, a in enumerate(legal)
        ]
        hints = typing.get_type_hints(self.view_type)
        fields: dict[str, Any] = {}
        for name in field_names(self.view_type):
            if name == "setup" and name in self.view_skip:
                fields[name] = setup
            elif name == "legal" and name in self.view_skip:
                fields[name] = tuple(actions)
            else:
                fields[name] = read(view[name], hints[name], f"view.{name}")
        return self.view_type(**fields), actions

    # -- the encoders

    def _encoders(self) -> Texts:
        """The view's and the events' field names, and the texts kept (on first use)."""
        skip = self.view_skip
        self._view_fields = tuple(f for f in field_names(self.view_type) if f not in skip)
        self._event_fields = {cls: (type_tag(cls), field_names(cls)) for cls in self.event_types}
        tagged = frozenset(self.converter.unions)  # an action in a view carries its "type"
        self._texts = Texts(self.converter.to_data, CACHE_LIMIT, tagged)
        return self._texts


class ComponentsAdapter(Adapter[SetupT, StateT, ActionT, EventT]):
    """A game whose setups draw from one box of components (board, tiles, cards),
    fixed for the adapter: its :attr:`setup_type` is a
    :class:`~tajmahal.kit.dealt.Dealt` with a ``components`` field (kept out of the
    setup's data: the package's data files hold them) and ``check()``; the hello's
    setup is the components' data (:meth:`components_data`)."""

    #: A :class:`~tajmahal.kit.dealt.Dealt` setup class: the seat counts, the
    #: variants (the first is the default) and the box of components are its.
    setup_type: ClassVar[Any]
    variants: ClassVar[tuple[str, ...]]
    default_variant: ClassVar[str]
    default_components: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        setup = cls.__dict__.get("setup_type")
        if setup is not None:
            cls.min_players, cls.max_players = min(setup.seats), max(setup.seats)
            cls.variants = setup.variants
            cls.default_variant = setup.variants[0]
            cls.default_components = setup.default_components

    def __init__(self, components: Any = None) -> None:
        super().__init__()
        self.components = self.default_components if components is None else components

    @abstractmethod
    def components_data(self, components: Any) -> Any:
        """The components as the hello's setup shows them."""

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> SetupT:
        if variant is not None and variant not in self.variants:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(self.variants)}")
        setup: SetupT = self.setup_type.random(
            players, seed, variant or self.default_variant, self.components
        )
        return setup

    def setup_to_data(self, setup: SetupT) -> Any:
        data = self.converter.to_data(setup)
        del data["components"]
        return data

    def setup_from_data(self, data: Any) -> SetupT:
        """The setup ``data`` describes, with this adapter's components; raises
        ValueError (a DataError naming the bad field, or the setup's own check)."""
        if isinstance(data, dict) and "components" in data:
            raise ValueError('bad Setup: "components" come from the package, not the data')
        setup = self.converter.from_data(data, self.setup_type, "setup")
        setup = attrs.evolve(setup, components=self.components)
        setup.check()
        return setup  # type: ignore[no-any-return]

    def public_setup(self, setup: SetupT) -> Any:
        return self.components_data(setup.components)  # type: ignore[attr-defined]


def who(seat: int, names: Sequence[str]) -> str:
    """A seat as the texts for people name it: ``"alice (seat 0)"``."""
    return f"{names[seat]} (seat {seat})" if seat < len(names) else f"seat {seat}"


__all__ = [
    "Adapter",
    "ComponentsAdapter",
    "ComponentsWords",
    "Words",
    "who",
]
