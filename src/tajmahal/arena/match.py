"""One match as the referee plays it: the loop behind :func:`~tajmahal.arena.referee.play_match`.

:class:`Match` asks each seat's bot in turn (or plays the game's fallback for a
faulted seat), checks every answer against the protocol, keeps the time, sends
the events, writes the trace and the record (its lines: :mod:`.recording`), and
finishes with the result; it never raises because of a bot.  The public face is
:mod:`tajmahal.arena.referee`.
"""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final

import orjson

from . import containment, protocol
from .connection import Connection
from .game import AnyGame, illegal_reason
from .jsontext import ArrayTexts
from .names import shown_names
from .protocol import ACT, END, HELLO, ILLEGAL, TIMEOUT, BadReply, Outgoing
from .recording import Recording
from .signals import uninterruptible
from .terms import (
    _TELL_TIME,
    Fault,
    MatchConfig,
    MatchResult,
    SeatResult,
    TimeControl,
    told_seeds,
)
from .text import printable, quote


def _unreadable(error: Exception) -> str:
    """The detail of a fault for a line the referee could not read (an exception
    while decoding, checking or describing it)."""
    return f"the referee could not read the answer ({type(error).__name__})"


def _trace_line(message: Any) -> bytes:
    """An in-process bot's message as a trace line (bounded, never raising)."""
    try:
        return orjson.dumps(message)
    except Exception:
        return orjson.dumps({"unencodable": quote(message, 200)})


#: How many actions' JSON texts a game's :class:`~tajmahal.arena.jsontext.ArrayTexts` keeps.
_ACTION_TEXTS_LIMIT: Final = 100_000


_ACTION_TEXTS: weakref.WeakKeyDictionary[Any, ArrayTexts] = weakref.WeakKeyDictionary()


def _action_texts(game: AnyGame) -> ArrayTexts:
    """The JSON texts of ``game``'s actions, kept for all its matches (a new cache
    per match for a game object that cannot be a weak key)."""
    try:
        texts = _ACTION_TEXTS.get(game)
        if texts is None:
            texts = _ACTION_TEXTS[game] = ArrayTexts(_ACTION_TEXTS_LIMIT)
    except TypeError:
        return ArrayTexts(_ACTION_TEXTS_LIMIT)
    return texts


class _Seat:
    """The referee's bookkeeping for one seat."""

    def __init__(self, seat: int, conn: Connection, time: TimeControl) -> None:
        self.seat = seat
        self.conn = conn
        self.time = time
        self.bank = time.bank
        self.name = conn.label
        #: The name given to the seat (``NAME=BOT``), shown instead of its bot's.
        self.named: str | None = None
        #: The name tables, records and pages show (see :meth:`Match.shown_names`).
        self.shown = conn.label
        self.version = ""
        self.live = True
        self.fault: Fault | None = None
        self.decisions = 0
        self.fallbacks = 0
        self.used = 0.0
        self.max = 0.0
        #: The decision the bot was last asked about (0: the hello).
        self.asked = 0


class Match:
    """``keep``: where the decisions so far are written if the match is
    interrupted (Ctrl-C, SIGTERM), as a record that ends with an ``interrupted``
    line (None: nowhere; :mod:`~tajmahal.arena.resume` goes on with it)."""

    def __init__(
        self,
        game: AnyGame,
        setup: Any,
        connections: Sequence[Connection],
        config: MatchConfig,
        seed: int,
        setup_seed: int | None = None,
        keep: Path | None = None,
    ) -> None:
        players = game.players(setup)
        if len(connections) != players:
            raise ValueError(f"{len(connections)} bots for a {players}-player game")
        self.game = game
        self.setup = setup
        self.config = config
        self.seed = seed
        #: The seed the setup was drawn from (:func:`~tajmahal.arena.referee.deal`).
        self.setup_seed = seed if setup_seed is None else setup_seed
        self.seats = [_Seat(s, c, config.seat_time(s)) for s, c in enumerate(connections)]
        for seat, named in zip(self.seats, config.names, strict=False):
            seat.named = named
        #: The seed told to each seat's bot in its hello.
        self.told = told_seeds(config.seat_key, seed, len(self.seats))
        #: The seats sent events: the bots that read them (every pipe; not an
        #: in-process player that ignores them, so nothing is encoded for it),
        #: every seat when the trace shows every message.
        self.audience = [s for s in self.seats if config.trace or s.conn.reads_events]
        self.trace = config.trace
        self.start = time.perf_counter()
        self.decision = 0
        self.recording = Recording(game, setup)
        self.action_texts = _action_texts(game)
        self.keep = keep

    def run(self) -> MatchResult:
        with containment.guarded():  # whatever the bots start stays in reach
            return self._run()

    def _run(self) -> MatchResult:
        committed = interrupted = False
        try:
            path = self.config.record or self.keep
            if path is not None:
                self.recording.open(path)
            self.handshake()
            self.recording.header(
                self.seed,
                self.setup_seed,
                [self.player_data(s) for s in self.seats],
                self.config.handshake,
                [s.time.to_data() for s in self.seats],
                [s.fault for s in self.seats if s.fault is not None],
            )
            state = self.play()
            result = self.finish(state)
            if self.config.record is not None:
                self.recording.commit()
                committed = True
            return result
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            with uninterruptible():  # a second Ctrl-C must not leave bots behind
                for seat in self.seats:
                    with contextlib.suppress(Exception):
                        seat.conn.kill()
                if interrupted:
                    self.recording.keep_interrupted(self.keep, self.start)
                if not committed:
                    self.recording.discard()

    # -- messages

    def send(
        self, seat: _Seat, message: Outgoing, request: bool = False, hold: bool = False
    ) -> None:
        if self.trace is not None:
            self.trace(seat.seat, "to", message.line)
        seat.conn.send(message, request, hold)

    def receive(self, seat: _Seat, timeout: float) -> tuple[protocol.Message, float, bytes | None]:
        """The next message from ``seat``, the seconds it took and the raw line (if
        it came as one); raises :class:`BadReply` on any fault."""
        got = seat.conn.receive(timeout)
        if got.fault is not None:
            raise BadReply(*got.fault)
        if got.line is not None:
            if self.trace is not None:
                self.trace(seat.seat, "from", got.line)
            return protocol.decode_line(got.line), got.elapsed, got.line
        message = got.message
        if not isinstance(message, dict):  # an in-process bot's answer, not a message
            raise BadReply(protocol.PROTOCOL_FAULT, f"answered {quote(message)}, not a message")
        if self.trace is not None:
            self.trace(seat.seat, "from", _trace_line(message))
        return message, got.elapsed, None

    def fault(
        self, seat: _Seat, kind: str, phase: str, detail: str, decision: int | None = None
    ) -> None:
        """Mark ``seat`` as faulted, tell it why, stop it.  ``decision``: the one the
        fault belongs to (default: the decision under way)."""
        at = time.perf_counter() - self.start
        self.recording.log_step()  # the last step's record line comes first
        seat.live = False
        with contextlib.suppress(Exception):
            self.send(seat, Outgoing.of(protocol.error(kind, detail)))
            deadline = time.monotonic() + _TELL_TIME
            seat.conn.close_input(deadline)
            seat.conn.wait_exit(deadline)  # a moment to read why, then it is stopped
        seat.conn.kill()
        fault = Fault(
            seat=seat.seat,
            kind=kind,
            phase=phase,
            decision=self.decision if decision is None else decision,
            at=at,
            detail=printable(detail, limit=2000),
            stderr=printable(seat.conn.log_tail(), limit=200),
            signal=seat.conn.signal or "",
        )
        seat.fault = fault
        self.recording.fault(fault.to_data())
        if self.config.on_fault is not None:
            self.config.on_fault(fault)

    # -- phases

    def handshake(self) -> None:
        game, setup = self.game, self.setup
        players = game.players(setup)
        public = game.public_setup(setup)
        for seat in self.seats:
            problem = seat.conn.start()
            if problem is not None:
                self.fault(seat, protocol.CRASH, HELLO, problem)
        for seat in self.seats:
            if not seat.live:
                continue
            time_data = {"handshake": self.config.handshake, **seat.time.to_data()}
            message = protocol.hello(
                game=game.name,
                seat=seat.seat,
                players=players,
                variant=game.variant(setup),
                time=time_data,
                seed=self.told[seat.seat],
                setup=public,
            )
            self.send(seat, Outgoing.of(message), request=True)
        for seat in self.seats:  # each has the handshake time from its own hello
            if not seat.live:
                continue
            try:
                reply, _, _ = self.receive(seat, self.config.handshake)
                info = protocol.check_hello_reply(reply)
            except BadReply as e:
                self.fault(seat, e.kind, HELLO, e.detail)
                continue
            except Exception as e:  # whatever the line held, it is the bot's fault
                self.fault(seat, protocol.PROTOCOL_FAULT, HELLO, _unreadable(e))
                continue
            seat.name, seat.version = info.name, info.version
        players_data = [self.player_data(s) for s in self.seats]
        for seat, shown in zip(self.seats, shown_names(players_data), strict=True):
            seat.shown = shown

    def player_data(self, seat: _Seat) -> dict[str, Any]:
        """The record header's entry of ``seat``: its bot's name and version from the
        hello, how it was started, the seed told, and the name given to it (only
        when one was)."""
        data = {"seat": seat.seat, "name": seat.name, "version": seat.version,
                "bot": seat.conn.label, "seed": self.told[seat.seat]}
        if seat.named is not None:
            data["named"] = seat.named
        return data

    def play(self) -> Any:
        game = self.game
        state = game.new_game(self.setup)
        while (seat_no := game.to_act(state)) is not None:
            self.decision += 1
            seat = self.seats[seat_no]
            legal = game.legal_actions(state)
            index: int | None = None
            elapsed = 0.0
            by = "bot"
            again = self.made_again(seat, legal)
            if again is not None:  # a resumed game's decision, as its record says
                index, elapsed, by = again
            elif seat.live:
                index, elapsed = self.ask(seat, state, legal)
            if index is None:
                index = game.fallback(state, legal)
                by = "fallback"
            seat.fallbacks += by == "fallback"
            seat.decisions += 1
            action = legal[index]
            self.recording.log_step()  # if the bot was not asked (else while it thought)
            before = state
            state, events = game.step(state, action)
            self.recording.step(self.decision, seat_no, action, by, index, elapsed, state)
            if self.config.on_step is not None:
                self.config.on_step(self.decision, seat_no, before, action, events, by)
            self.broadcast(events)
        self.recording.log_step()
        return state

    def made_again(self, seat: _Seat, legal: Sequence[Any]) -> tuple[int, float, str] | None:
        """The choice, seconds and chooser of a decision made before (a resumed
        game's: :class:`~tajmahal.arena.resume.ResumedMatch`); None: ask."""
        return None

    def ask(self, seat: _Seat, state: Any, legal: Sequence[Any]) -> tuple[int | None, float]:
        """The index the bot of ``seat`` chooses, or None after a fault."""
        game = self.game
        problem = seat.conn.unexpected()
        if problem is not None:
            kind, detail = problem
            if kind == protocol.PROTOCOL_FAULT:  # a line after its answer: a second answer
                self.second_answer(seat, detail)
            else:
                self.fault(seat, kind, ACT, detail)
            return None, 0.0
        limit = seat.time.move + seat.bank
        if seat.conn.reads_view:
            message: Outgoing = protocol.act_outgoing(
                self.decision,
                game.view_json(state, seat.seat),
                self.legal_json(legal),
                seat.time.move,
                seat.bank,
            )
        else:  # the view is encoded only if the trace shows the line
            message = protocol.ActOutgoing(
                self.decision,
                partial(game.view_json, state, seat.seat),
                self.legal_json(legal),
                seat.time.move,
                seat.bank,
            )
        self.send(seat, message, request=True)
        seat.asked = self.decision
        self.recording.log_step()
        try:
            reply, elapsed, line = self.receive(seat, limit)
            if elapsed > limit:  # a line that arrived complete but late
                raise BadReply(TIMEOUT, f"answered after {elapsed:.3f} s, allowed {limit:.3f} s")
            choice = protocol.read_action_reply(reply, len(legal), line)
            if not isinstance(choice, int):
                choice = self.match_action(choice, state, legal)
        except Exception as error:  # whatever the line held, it is the bot's fault
            e = (
                error
                if isinstance(error, BadReply)
                else BadReply(protocol.PROTOCOL_FAULT, _unreadable(error))
            )
            detail = e.detail
            if e.kind == TIMEOUT:
                detail = (
                    f"{detail} ({seat.time.move:g} s per decision + {seat.bank:.3f} s left "
                    "in the bank)"
                )
            self.fault(seat, e.kind, ACT, detail)
            return None, 0.0
        seat.used += elapsed
        seat.max = max(seat.max, elapsed)
        seat.bank -= max(0.0, elapsed - seat.time.move)
        return choice, elapsed

    def second_answer(self, seat: _Seat, detail: str) -> None:
        """Fault ``seat`` for a line written after its answer, against the decision
        (or the hello) that answer was for."""
        phase = ACT if seat.asked else HELLO
        what = f"decision {seat.asked}" if seat.asked else "the hello"
        self.fault(
            seat, protocol.PROTOCOL_FAULT, phase, f"after its answer to {what}: {detail}",
            seat.asked,
        )

    def legal_json(self, legal: Sequence[Any]) -> bytes:
        """The JSON array of the ``legal`` actions, joined from each action's text."""
        return self.action_texts.array(self.game.action_to_data, legal)

    def match_action(self, data: Any, state: Any, legal: Sequence[Any]) -> int:
        """The index among ``legal`` of the action ``data`` a bot sent in ``state``.
        Raises a ``protocol`` :class:`BadReply` if ``data`` is no action of the game
        (an unknown ``"type"``, a missing, unknown or mistyped field: the game's
        error names its path), an ``illegal`` one naming the rule it breaks, if the
        game can tell (:func:`~tajmahal.arena.game.illegal_reason`), if it is an
        action but not a legal one."""
        try:
            action = self.game.action_from_data(data)
        except Exception as e:  # ValueError, or anything hostile data makes a game raise
            detail = printable(str(e), limit=200)
            raise BadReply(
                protocol.PROTOCOL_FAULT, f'"action" is not an action of the game: {detail}'
            ) from None
        for i, candidate in enumerate(legal):
            if candidate == action:
                return i
        detail = f"{quote(data, 100)} is not a legal action now"
        reason = illegal_reason(self.game, state, action)
        raise BadReply(ILLEGAL, detail if reason is None else f"{detail}: {reason}")

    def broadcast(self, events: Sequence[Any]) -> None:
        if not events or not self.audience:
            return
        game = self.game
        public = [game.event_json(e, None) for e in events]
        secret = [i for i, e in enumerate(events) if not game.is_public(e)]
        hold = self.config.batch_events
        shared = protocol.events_outgoing(self.decision, public)
        for seat in self.audience:
            if not seat.live:
                continue
            message = shared
            if secret:
                mine = list(public)
                for i in secret:
                    mine[i] = game.event_json(events[i], seat.seat)
                if mine != public:
                    message = protocol.events_outgoing(self.decision, mine)
            if self.trace is None:  # send() without the trace: four times a decision
                seat.conn.send(message, False, hold)
            else:
                self.send(seat, message, hold=hold)

    def finish(self, state: Any) -> MatchResult:
        game = self.game
        for seat in self.seats:  # a second answer to a bot's last decision
            problem = seat.conn.unexpected() if seat.live else None
            if problem is not None and problem[0] == protocol.PROTOCOL_FAULT:
                self.second_answer(seat, problem[1])
        scores, ranks, breakdown = game.scores(state), game.ranks(state), game.breakdown(state)
        summary = {
            "scores": scores,
            "ranks": ranks,
            "breakdown": breakdown,
            "faults": [s.fault.to_data(public=True) for s in self.seats if s.fault is not None],
        }
        end = Outgoing.of(protocol.end(summary))
        live = [s for s in self.seats if s.live]
        for seat in live:
            self.send(seat, end)
        deadline = time.monotonic() + self.config.grace
        for seat in live:
            seat.conn.close_input(deadline)
        for seat in live:
            if not seat.conn.wait_exit(deadline):
                seat.fault = Fault(
                    seat=seat.seat,
                    kind=TIMEOUT,
                    phase=END,
                    decision=self.decision,
                    at=time.perf_counter() - self.start,
                    detail=f"still running {self.config.grace:g} s after the end message; "
                    "killed (the result stands)",
                )
                if self.config.on_fault is not None:
                    self.config.on_fault(seat.fault)
        for seat in self.seats:
            seat.conn.kill()
        duration = time.perf_counter() - self.start
        faults = [s.fault.to_data() for s in self.seats if s.fault is not None]
        seats = tuple(
            SeatResult(
                seat=s.seat,
                name=s.shown,
                version=s.version,
                bot=s.conn.label,
                score=scores[s.seat],
                breakdown=breakdown[s.seat],
                rank=ranks[s.seat],
                decisions=s.decisions,
                time_used=s.used,
                time_max=s.max,
                fallback_decisions=s.fallbacks,
                fault=s.fault,
                exit=s.conn.exit_status,
            )
            for s in self.seats
        )
        outcome = {"scores": scores, "ranks": ranks, "breakdown": breakdown, "faults": faults}
        self.recording.result(outcome, self.decision, duration, seats)
        return MatchResult(
            game=game.name,
            seed=self.seed,
            variant=game.variant(self.setup),
            seats=seats,
            decisions=self.decision,
            duration=duration,
            record=str(self.config.record) if self.config.record else None,
        )
