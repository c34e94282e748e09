"""The game as the browser game's page shows it, and a person's seat.

A :class:`Table` is what the referee's thread and the web server share: the
position (followed through the referee's ``on_step`` hook), the log, the
decision a person must make and the answer.  :class:`HumanSeat` is an
in-process :class:`~tajmahal.arena.player.Player`: it answers the referee's
``act`` messages with what a person clicks, so a game with people goes through
the same referee, records and checks as any match (:mod:`.webplay` serves it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, Final

from .game import AnyGame, Pictures
from .offers import first_part, offers
from .player import Player
from .protocol import Message
from .terms import MatchResult, TimeControl
from .viewer import seen_by, told_once

#: The name a seat gives for a person (``tajmahal play human greedy``).
HUMAN: Final = "human"
#: A person's time per decision: a week (no limit, in effect); no bank.
HUMAN_TIME: Final = TimeControl(move=7 * 24 * 3600.0, bank=0.0)


class GameClosed(Exception):
    """The table closed while a person had a decision to make."""


class Table:
    """The game as the page shows it, shared by the referee's thread and the server.

    Every change bumps :attr:`version`; the page asks for a new :meth:`snapshot`
    when the version it has is old.
    """

    def __init__(
        self,
        game: AnyGame,
        setup: Any,
        names: Sequence[str],
        humans: Sequence[int],
        pace: float = 0.0,
        replayed: int = 0,
    ) -> None:
        self.game = game
        self.names = list(names)
        self.humans = list(humans)
        self.pace = pace
        self.replayed = replayed  # a resumed game's first decisions: shown at once
        self.pictures: Pictures | None = game.pictures()
        self.state = game.new_game(setup)
        self.board = self.pictures.board(self.state) if self.pictures is not None else None
        self.legend = [list(item) for item in self.pictures.legend()] if self.pictures else []
        self.log: list[dict[str, Any]] = [
            {
                "decision": 0,
                "seat": None,
                "text": "start",
                "lines": game.describe_start(self.state, self.names),
            }
        ]
        self.last = ""  # the mark of the last move
        self.pending: dict[str, Any] | None = None
        self.answer: int | None = None
        self.queued: list[tuple[int, int, int]] = []  # (seat, decision, choice) to come
        self.result: dict[str, Any] | None = None
        self.closed = False
        self.version = 1
        self.shown = time.monotonic()  # when the page last had something new
        self.changed = threading.Condition()
        self._cache: dict[tuple[int, int | None], str] = {}

    # -- the referee's side

    def on_step(
        self, decision: int, seat: int, before: Any, action: Any, events: Sequence[Any], by: str
    ) -> None:
        """The referee's ``on_step`` hook: follow the game, log the action and what
        it caused, mark it; a bot's move waits until ``pace`` seconds after the
        last change the page was shown."""
        game = self.game
        after, _ = game.step(before, action)
        if first_part(game, self.pictures, before, after, events):
            with self.changed:  # half an action: its last decision tells it all
                self.state = after
                self._bump()
            return
        text, lines, told = told_once(
            seat,
            self.names,
            game.describe_action(before, action),
            game.describe_events(after, self._seen(events), self.names),
        )
        mark = ""
        if self.pictures is not None:
            mark = self.pictures.mark(before, game.action_to_data(action))
        if seat not in self.humans and self.pace > 0 and decision > self.replayed:
            wait = self.shown + self.pace - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        with self.changed:
            self.state = after
            self.last = mark
            self.log.append(
                {"decision": decision, "seat": seat, "text": text, "told": told, "lines": lines,
                 "by": by}
            )
            self._bump()

    def _seen(self, events: Sequence[Any]) -> list[Any]:
        """The events the page may tell: the public ones, and with one person at the
        table also those only their seat sees (their own draws)."""
        return seen_by(self.game, events, self.humans[0] if len(self.humans) == 1 else None)

    def ask(self, seat: int, message: Message) -> int:
        """Wait for a person's choice among ``message["legal"]`` (an index); the
        second decision of a joined offer (see :mod:`tajmahal.arena.offers`) is
        answered at once."""
        decision = message["decision"]
        with self.changed:
            queued, self.queued = self.queued, []
            if (
                queued
                and queued[0][:2] == (seat, decision)
                and queued[0][2] < len(message["legal"])
            ):
                return queued[0][2]
            made = offers(self.game, self.pictures, self.state, message["legal"])
            self.pending = {
                "seat": seat,
                "decision": decision,
                "options": [o.shown() for o in made],
            }
            self.answer = None
            self._bump()
            while self.answer is None:
                if self.closed:
                    raise GameClosed("the table was closed during a person's decision")
                self.changed.wait(0.5)
            choices = made[self.answer].choices
            self.answer, self.pending = None, None
            self.queued = [(seat, decision + k, c) for k, c in enumerate(choices[1:], 1)]
            self._bump()
            return choices[0]

    def finish(self, result: MatchResult) -> None:
        """The end of the game: the final table."""
        with self.changed:
            self.result = {
                "scores": [s.score for s in result.seats],
                "ranks": [s.rank for s in result.seats],
                "breakdown": [s.breakdown for s in result.seats],
                "faults": [
                    {"seat": s.seat, "kind": s.fault.kind, "detail": s.fault.detail}
                    for s in result.seats
                    if s.fault is not None
                ],
            }
            self._bump()

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self._bump()

    # -- the page's side

    def choose(self, seat: int, decision: int, choice: int) -> str | None:
        """A person's click; None if taken, else why not."""
        with self.changed:
            pending = self.pending
            if pending is None or self.answer is not None:
                return "no decision is waiting"
            if (pending["seat"], pending["decision"]) != (seat, decision):
                return f"decision {decision} of seat {seat} is not the one waiting"
            if not (type(choice) is int and 0 <= choice < len(pending["options"])):
                return (
                    f"choice {choice!r} is not one of the {len(pending['options'])} legal actions"
                )
            self.answer = choice
            self.changed.notify_all()
            return None

    def snapshot(self, since: int) -> dict[str, Any]:
        """What the page shows; only the version if the page is up to date."""
        with self.changed:
            if since == self.version:
                return {"version": self.version}
            game = self.game
            pending = self.pending
            if pending is not None:
                seat: int | None = pending["seat"]
            elif self.result is None and len(self.humans) == 1:
                seat = self.humans[0]  # one person: their hand stays in view
            else:
                seat = None
            return {
                "version": self.version,
                "title": game.title,
                "names": self.names,
                "humans": self.humans,
                "sources": list(game.score_sources),
                "scores": game.scores(self.state),
                "outlook": game.outlook(self.state),
                "to_act": game.to_act(self.state),
                "seat": seat,
                "picture": self._picture(seat),
                "last": self.last,
                "legend": self.legend,
                "log": self.log[-300:],
                "pending": pending,
                "result": self.result,
                "closed": self.closed,
            }

    def _picture(self, seat: int | None) -> str | None:
        if self.pictures is None:
            return None
        key = (self.version, seat)
        if key not in self._cache:
            self._cache.clear()
            p = self.pictures
            hand = "".join(p.hand(self.state, seat)) if seat is not None else ""
            public = "".join(p.public(self.state, self.names))
            self._cache[key] = p.document((self.board or "") + public + hand)
        return self._cache[key]

    def _bump(self) -> None:
        self.version += 1
        self.shown = time.monotonic()
        self.changed.notify_all()


class HumanSeat(Player):
    """A person at the table: answers each ``act`` with their click."""

    name = HUMAN

    def __init__(self, table: Table, seat: int, name: str = HUMAN) -> None:
        self.table = table
        self.seat = seat
        self.name = name  # the name of its hello: the record's name of the seat

    def choose(self, message: Message) -> int:
        return self.table.ask(self.seat, message)
