"""The small interface through which the referee talks to a game.

The arena (protocol, referee, records, replay) knows games only through
:class:`Game`.  A game plugs in by implementing it in one adapter module; the
Taj Mahal one is :mod:`tajmahal.tajmahal.adapter`.  JSON data is plain dicts, lists,
strings, numbers, booleans and None.

Three methods are optional, looked up when present: ``pictures()`` returns a
:class:`~tajmahal.arena.viewer.Pictures` (SVG layers: the HTML replay viewer and
the browser game draw the game and make its moves clickable),
``terminal(state, names, seat)`` a rich renderable for ``tajmahal show``, and
``why_illegal(state, action)`` the rule an action that is not among the legal ones
breaks, as the game's engine cites it (``"W5: ..."``), or None: the referee adds it
to an ``illegal`` fault's detail (:func:`illegal_reason`).  A game without them
gets the log, buttons and score tables, and the plain fault detail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar

from .player import Player
from .text import printable

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")


class Game(Protocol[SetupT, StateT, ActionT, EventT]):
    """A turn-based game with seats 0..n-1, as the referee needs it.

    ``name`` is the id sent in the hello (``"tajmahal"``); ``title`` is for people.
    ``score_sources`` names the parts of a seat's score in :meth:`breakdown`.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    score_sources: tuple[str, ...]

    # -- setups

    def random_setup(self, players: int, seed: int, variant: str | None = None) -> SetupT:
        """A setup drawn from ``seed``; raises ValueError for a bad count or variant."""

    def setup_to_data(self, setup: SetupT) -> Any:
        """All of ``setup`` (secrets included: it goes into records)."""

    def setup_from_data(self, data: Any) -> SetupT:
        """Inverse of :meth:`setup_to_data`; raises ValueError on bad data."""

    def players(self, setup: SetupT) -> int:
        """The number of seats of ``setup``."""

    def variant(self, setup: SetupT) -> str:
        """The variant of ``setup``, by name."""

    def public_setup(self, setup: SetupT) -> Any:
        """The static public part of ``setup`` (sent once, in the hello)."""

    # -- play

    def new_game(self, setup: SetupT) -> StateT:
        """The state at the start of the game ``setup`` fixes."""

    def to_act(self, state: StateT) -> int | None:
        """The seat to decide now; None once the game is over."""

    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """The legal actions of :meth:`to_act`, in a stable order (never empty)."""

    def step(self, state: StateT, action: ActionT) -> tuple[StateT, Sequence[EventT]]:
        """The next state and the events of the step (with secrets; see :meth:`event_data`)."""

    def view_data(self, state: StateT, seat: int) -> Any:
        """What ``seat`` may see of ``state``, without the legal actions and the static
        public setup (those travel separately)."""

    def view_json(self, state: StateT, seat: int) -> bytes:
        """``orjson.dumps(self.view_data(state, seat))``, byte for byte: the referee
        asks for it once per decision, so a game may build it faster (from encoded
        parts it keeps, say)."""

    def action_to_data(self, action: ActionT) -> Any:
        """``action`` as JSON data (what a bot may send back instead of an index)."""

    def action_from_data(self, data: Any) -> ActionT:
        """Raises ValueError unless ``data`` describes an action of the game."""

    def event_data(self, event: EventT, seat: int | None) -> Any:
        """``event`` as ``seat`` may see it (None: a spectator); hides other seats' secrets."""

    def event_json(self, event: EventT, seat: int | None) -> bytes:
        """``orjson.dumps(self.event_data(event, seat))``, byte for byte (the referee's
        per-decision path)."""

    def is_public(self, event: EventT) -> bool:
        """True if every seat sees ``event`` alike (then it is encoded once for all)."""

    # -- results

    def scores(self, state: StateT) -> list[int]:
        """Each seat's total, by seat."""

    def breakdown(self, state: StateT) -> list[dict[str, int]]:
        """Each seat's points by source, keyed by :attr:`score_sources`."""

    def ranks(self, state: StateT) -> list[int]:
        """1 is best; equal totals share a rank."""

    def fallback(self, state: StateT, legal: Sequence[ActionT]) -> int:
        """The index of the action the fallback policy plays for a faulted seat."""

    # -- for people

    def describe_action(self, state: StateT, action: ActionT) -> str:
        """A short text for ``action`` taken in ``state``."""

    def describe_start(self, state: StateT, names: Sequence[str]) -> list[str]:
        """Lines for the start of a game (``"# "`` heads a section; see below)."""

    def describe_events(
        self, state: StateT, events: Sequence[EventT], names: Sequence[str]
    ) -> list[str]:
        """Lines a person can follow for the ``events`` of a step that led to ``state``;
        a line starting with ``"# "`` heads a new section (a visit, a round, ...)."""

    def builtin_players(self) -> Mapping[str, Callable[[int], Player]]:
        """In-process players by name; each factory takes a seed."""


AnyGame = Game[Any, Any, Any, Any]


#: How many characters of a game's reason an ``illegal`` fault's detail quotes.
REASON_LIMIT: Final = 300


def refusal(
    apply: Callable[[Any, Any], Any], refused: type[Exception], state: Any, action: Any
) -> str | None:
    """What a game's ``why_illegal`` returns, for an engine whose ``apply`` raises
    ``refused`` (its ``IllegalAction``, the rule id first) on an illegal action:
    that text, or None if ``apply`` takes the action or fails on it otherwise (the
    action came from a bot)."""
    try:
        apply(state, action)
    except refused as e:
        return str(e)
    except Exception:
        return None
    return None


def illegal_reason(game: AnyGame, state: Any, action: Any) -> str | None:
    """Why ``action`` (not among the legal actions of ``state``) is illegal, by the
    game's optional ``why_illegal``: printable, at most :data:`REASON_LIMIT`
    characters.  None for a game without the method, or when it gives no reason or
    fails (the action came from a bot: whatever the game does with it, the referee
    goes on)."""
    method = getattr(game, "why_illegal", None)
    if not callable(method):
        return None
    try:
        reason = method(state, action)
    except Exception:
        return None
    if not isinstance(reason, str) or not reason:
        return None
    return printable(printable(reason), limit=REASON_LIMIT)  # escapes lengthen it
