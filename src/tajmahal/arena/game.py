"""The one interface through which the platform talks to a game: :class:`Game`.

The arena (protocol, referee, records, replay, viewer, tournaments), the command
line and the research adapters know a game only through it.  A game subclasses it
in one adapter module (the kit's :class:`~tajmahal.kit.adapter.Adapter` does most
of the work) and declares an entry point of the group ``tajmahal.games``
(:mod:`tajmahal.arena.registry`), which checks it when it is loaded
(:func:`missing_parts`).  JSON data is plain dicts, lists, strings, numbers,
booleans and None.

Every game gets :meth:`Game.action_text` and :meth:`Game.parse_action` (an
action's text that reads back: SAN's role), written once here over
:meth:`Game.describe_action`.  Its optional parts are methods that return None
for a game without them: :meth:`Game.position_text` (a whole state as one line,
FEN's role; :meth:`Game.parse_position` reads it back),
:meth:`Game.pictures` (SVG layers: the HTML replay viewer and the browser game draw
the game and make its moves clickable), :meth:`Game.terminal` (a rich renderable
for ``tajmahal show``) and :meth:`Game.why_illegal` (the rule an action that is not
among the legal ones breaks, as the game's engine cites it, ``"W5: ..."``: the
referee adds it to an ``illegal`` fault's detail, :func:`illegal_reason`) and
:meth:`Game.encoding` (numbers for learning programs: the PettingZoo and OpenSpiel
adapters) and :meth:`Game.batched` (the whole rules in JAX: :mod:`tajmahal.batched`).
A game without them gets the log, buttons and score tables, and the plain fault detail.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

from .player import Player
from .text import printable

if TYPE_CHECKING:
    from rich.console import RenderableType

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")


class Pictures(Protocol):
    """How a game is drawn, in layers of SVG: the ``board`` that does not change in a
    game, the ``public`` picture of a state and one seat's ``hand`` (each a list of
    fragments), and the ``document`` that joins them into one SVG.  Actions come
    as their protocol data."""

    def board(self, state: Any) -> str:
        """The part of the picture that stays the same all game."""

    def public(self, state: Any, names: Sequence[str]) -> Sequence[str]:
        """What every seat sees of ``state``, in fragments."""

    def hand(self, state: Any, seat: int) -> Sequence[str]:
        """What only ``seat`` sees of ``state``, in fragments."""

    def document(self, body: str) -> str:
        """Fragments joined into one SVG document."""

    def picture(self, value: Any) -> str:
        """One SVG document of a state (every hand shown) or of a seat's view (only
        what it sees): what Jupyter shows of the game's values
        (:class:`tajmahal.kit.picture.Pictured`)."""

    def targets(self, state: Any, action: Any) -> tuple[str, ...]:
        """The ids of the elements of the picture of ``state`` a person clicks, in
        order, to take ``action``; ``()`` for an action taken by a button only."""

    def preview(self, state: Any, action: Any) -> str:
        """An SVG fragment drawn over the picture of ``state``: ``action`` where it
        would happen (a tile in place, a palace, a path and its cost)."""

    def mark(self, state: Any, action: Any) -> str:
        """An SVG fragment drawn over the picture after ``action`` (taken in
        ``state``): where the last move happened."""

    def legend(self) -> Sequence[tuple[str, str]]:
        """Each symbol of the pictures (an SVG fragment in a 28 x 28 box) and what
        it means."""

    def half_made(self, state: Any) -> bool:
        """Whether ``state`` waits for the rest of a half-made action (always False
        for a game whose every action is one decision): the browser game then offers
        an action's first decision joined with the next one
        (:mod:`tajmahal.arena.offers`)."""


class Game(ABC, Generic[SetupT, StateT, ActionT, EventT]):
    """A turn-based game with seats 0..n-1, as the platform needs it.

    Declared as class attributes: ``name``, the id sent in the hello
    (``"tikal"``); ``title``, for people; the seat counts ``min_players`` and
    ``max_players``; ``score_sources``, the parts of a seat's score in
    :meth:`breakdown`; ``aliases``, other names ``--game`` takes;
    ``speed_targets``, what the benchmarks (``benchmarks/``, docs/performance.md)
    hold the game's engine to: ``chess`` (its random 4-player playouts over
    python-chess's, in one run), ``playout`` (those actions a second on one core),
    ``mcts`` (its built-in search, compiled over pure), ``rl_environment`` (the CPU
    seconds of a random 4-player game through OpenSpiel's ``rl_environment``); none
    by default.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    score_sources: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    speed_targets: Mapping[str, float] = {}

    # -- setups

    @abstractmethod
    def random_setup(self, players: int, seed: int, variant: str | None = None) -> SetupT:
        """A setup drawn from ``seed``; raises ValueError for a bad count or variant."""

    @abstractmethod
    def setup_to_data(self, setup: SetupT) -> Any:
        """All of ``setup`` (secrets included: it goes into records)."""

    @abstractmethod
    def setup_from_data(self, data: Any) -> SetupT:
        """Inverse of :meth:`setup_to_data`; raises ValueError on bad data."""

    @abstractmethod
    def players(self, setup: SetupT) -> int:
        """The number of seats of ``setup``."""

    @abstractmethod
    def variant(self, setup: SetupT) -> str:
        """The variant of ``setup``, by name."""

    @abstractmethod
    def public_setup(self, setup: SetupT) -> Any:
        """The static public part of ``setup`` (sent once, in the hello), as data."""

    # -- play

    @abstractmethod
    def new_game(self, setup: SetupT) -> StateT:
        """The state at the start of the game ``setup`` fixes."""

    @abstractmethod
    def to_act(self, state: StateT) -> int | None:
        """The seat to decide now; None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """The legal actions of :meth:`to_act`, in a stable order (never empty)."""

    @abstractmethod
    def step(self, state: StateT, action: ActionT) -> tuple[StateT, Sequence[EventT]]:
        """The next state and the events of the step (with secrets; see :meth:`event_data`)."""

    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The next state alone: :meth:`step` without its events (a game whose engine
        has a faster way to it says so here: the research adapters play by it)."""
        return self.step(state, action)[0]

    @abstractmethod
    def view_data(self, state: StateT, seat: int) -> Any:
        """What ``seat`` may see of ``state``, without the legal actions and the static
        public setup (those travel separately)."""

    @abstractmethod
    def view_json(self, state: StateT, seat: int) -> bytes:
        """``orjson.dumps(self.view_data(state, seat))``, byte for byte: the referee
        asks for it once per decision, so a game may build it faster (from encoded
        parts it keeps, say)."""

    @abstractmethod
    def action_to_data(self, action: ActionT) -> Any:
        """``action`` as JSON data (what a bot may send back instead of an index)."""

    @abstractmethod
    def action_from_data(self, data: Any) -> ActionT:
        """Raises ValueError unless ``data`` describes an action of the game."""

    @abstractmethod
    def event_data(self, event: EventT, seat: int | None) -> Any:
        """``event`` as ``seat`` may see it (None: a spectator); hides other seats' secrets."""

    @abstractmethod
    def event_json(self, event: EventT, seat: int | None) -> bytes:
        """``orjson.dumps(self.event_data(event, seat))``, byte for byte (the referee's
        per-decision path)."""

    @abstractmethod
    def is_public(self, event: EventT) -> bool:
        """True if every seat sees ``event`` alike (then it is encoded once for all)."""

    # -- results

    @abstractmethod
    def scores(self, state: StateT) -> list[int]:
        """Each seat's total, by seat."""

    @abstractmethod
    def breakdown(self, state: StateT) -> list[dict[str, int]]:
        """Each seat's points by source, keyed by :attr:`score_sources`."""

    @abstractmethod
    def ranks(self, state: StateT) -> list[int]:
        """1 is best; equal totals share a rank."""

    @abstractmethod
    def fallback(self, state: StateT, legal: Sequence[ActionT]) -> int:
        """The index of the action the fallback policy plays for a faulted seat."""

    # -- for people

    @abstractmethod
    def describe_action(self, state: StateT, action: ActionT) -> str:
        """A short text for ``action`` taken in ``state``."""

    @abstractmethod
    def describe_start(self, state: StateT, names: Sequence[str]) -> list[str]:
        """Lines for the start of a game (``"# "`` heads a section; see below)."""

    @abstractmethod
    def describe_events(
        self, state: StateT, events: Sequence[EventT], names: Sequence[str]
    ) -> list[str]:
        """Lines a person can follow for the ``events`` of a step that led to ``state``;
        a line starting with ``"# "`` heads a new section (a visit, a round, ...)."""

    @abstractmethod
    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        """In-process players by name; each factory takes a seed."""

    # -- texts that read back (SAN's role): written once here for every game

    def action_text(self, state: StateT, action: ActionT) -> str:
        """:meth:`describe_action`'s text of ``action``, a legal action of ``state``,
        made unique among the legal ones: when ``k`` of them share a text (two
        cards alike), the ``i``-th in the legal order is ``TEXT #i``.
        :meth:`parse_action` reads it back."""
        text = self.describe_action(state, action)
        alike = [a for a in self.legal_actions(state) if self.describe_action(state, a) == text]
        if len(alike) < 2:
            return text
        return f"{text} #{alike.index(action) + 1}"

    def parse_action(self, state: StateT, text: str) -> ActionT:
        """The legal action of ``state`` that :meth:`action_text` (or
        :meth:`describe_action`, where no other legal action shares it) calls
        ``text``; case and runs of spaces do not matter.  Raises ValueError
        naming the nearest texts when none is, or the choices when several are."""
        wanted, _, number = _canonical(text).rpartition(" #")
        if not (number.isdigit() and wanted):
            wanted, number = _canonical(text), ""
        legal = self.legal_actions(state)
        alike = [a for a in legal if _canonical(self.describe_action(state, a)) == wanted]
        if number and 1 <= int(number) <= len(alike):
            return alike[int(number) - 1]
        if len(alike) == 1 and not number:
            return alike[0]
        texts = sorted({self.action_text(state, a) for a in legal})
        if len(alike) > 1:
            raise ValueError(
                f"{len(alike)} legal actions are {text!r}: "
                + ", ".join(self.action_text(state, a) for a in alike)
            )
        near = difflib.get_close_matches(_canonical(text), [_canonical(t) for t in texts], n=3)
        hint = f"; did you mean {' or '.join(repr(t) for t in near)}?" if near else ""
        raise ValueError(f"no legal action is {text!r}{hint} ({len(legal)} are legal)")

    # -- optional parts: None for a game without them

    def position_text(self, state: StateT) -> str | None:
        """All of ``state`` as one line of text (FEN's role: to store, send and
        paste a position; secrets included), which :meth:`parse_position` reads
        back to an equal state; None for a game without it."""
        return None

    def parse_position(self, text: str) -> StateT:
        """The state :meth:`position_text` wrote as ``text``; raises ValueError for
        a line that is not one (or a game without position texts)."""
        raise ValueError(f"{self.title} has no position texts")

    def why_illegal(self, state: StateT, action: ActionT) -> str | None:
        """The rule the engine cites when it refuses ``action`` (not among the legal
        actions of ``state``), its id first; None if it cannot say."""
        return None

    def outlook(self, state: StateT) -> list[int] | None:
        """What each seat would score if the game scored it now, for a game whose
        points come at set moments (Tikal's scoring rounds): the pages show it
        beside the scores; None for a game that scores as it goes."""
        return None

    def pictures(self) -> Pictures | None:
        """How the HTML viewer and the browser game draw the game (SVG layers)."""
        return None

    def terminal(
        self, state: StateT, names: Sequence[str], seat: int | None
    ) -> RenderableType | None:
        """The position for ``tajmahal show`` (rich); ``seat``: only what it sees."""
        return None


    def encoding(self) -> Any:
        """Action indices, observation tensors and the chance model, for learning
        programs and the research adapters: a :class:`tajmahal.kit.encoding.Encoding`
        (the kit stands on this module, so its type is not named here)."""
        return None

    def batched(self, players: int) -> Any:
        """The game's batched engine in JAX for ``players``: a
        :class:`tajmahal.batched.Env` (Pgx's interface; needs the ``jax`` extra)."""
        return None


AnyGame = Game[Any, Any, Any, Any]


def _canonical(text: str) -> str:
    """``text`` as :meth:`Game.parse_action` compares it: case folded, runs of
    whitespace as one space."""
    return " ".join(text.split()).casefold()


def declared(cls: type) -> list[str]:
    """The attributes ``cls`` and its bases declare (annotate) without a value of
    their own, in the order declared: what each game must set."""
    names: dict[str, None] = {}
    for klass in reversed(cls.__mro__):
        for name in vars(klass).get("__annotations__", {}):
            names.setdefault(name)
    return list(names)


def missing_parts(game: object) -> list[str]:
    """What ``game`` lacks to be a :class:`Game`: the declared attributes it leaves
    unset, by name (empty for a complete game; a class that leaves an abstract
    method out cannot be instantiated: Python names the methods)."""
    if not isinstance(game, Game):
        return [f"the base class {Game.__module__}.Game (it is a {type(game).__name__})"]
    return [n for n in declared(type(game)) if not hasattr(game, n)]


#: How many characters of a game's reason an ``illegal`` fault's detail quotes.
REASON_LIMIT: Final = 300


def illegal_reason(game: AnyGame, state: Any, action: Any) -> str | None:
    """Why ``action`` (not among the legal actions of ``state``) is illegal, by the
    game's :meth:`Game.why_illegal`: printable, at most :data:`REASON_LIMIT`
    characters.  None when the game gives no reason or fails (the action came from
    a bot: whatever the game does with it, the referee goes on)."""
    try:
        reason = game.why_illegal(state, action)
    except Exception:
        return None
    if not isinstance(reason, str) or not reason:
        return None
    return printable(printable(reason), limit=REASON_LIMIT)  # escapes lengthen it
