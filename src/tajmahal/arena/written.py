"""What the referee writes in a record, field by field: the checks a replay
makes beyond the game's own (:mod:`~tajmahal.arena.replayer` replays the game).

- **Fields**: each line has exactly the fields the referee writes (an unknown
  one is named); names, versions, commands and texts are what the referee could
  have taken (a name as the hello check allows it: no NUL, no control
  character); the header's ``referee``, ``started``, time limits and handshake
  are well formed.
- **Players**: a built-in bot's name and version are its own, a seat that never
  said hello is named by its command, a built-in bot ended ``done`` and a
  program did not.
- **Time** (:class:`Clocks`): each seat's clock is kept as the referee kept it
  (a move's seconds beyond ``move`` come out of the bank): no answer took longer
  than its seat had, a fallback action takes no time, the result's time used
  is the sum of the moves and the game's duration at least that of all.
- **Faults** (:func:`check_fault`): a fault's kind is one its phase allows, its
  detail has a shape the referee gives that kind, at the decision it names:
  a timeout names its seat's limits as the header and the clock have them, an
  illegal action is not legal there (and the game's reason is the one given),
  an index out of range names the number of legal actions, a second answer names
  the decision the seat answered.

Where a field holds more than the referee can recompute (who a bot is, what it
printed), the record's seal vouches for it (:mod:`~tajmahal.arena.seal`).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

import orjson
from attrs import frozen

from .game import AnyGame, illegal_reason
from .protocol import (
    ACT,
    CLOSED,
    CRASH,
    HELLO,
    ILLEGAL,
    MALFORMED,
    OVERSIZED,
    PROTOCOL_FAULT,
    TIMEOUT,
)
from .text import printable, quote

#: The fields of each line and entry the referee writes (``deal`` may be missing
#: from records written before it; ``choice`` from hand-made ones; a player's
#: ``seed``, the seed told to its bot, from records written before it was kept;
#: ``setup_seed``, likewise).
HEADER_FIELDS: Final = frozenset({"type", "format", "format_version", "game", "referee",
                                  "started", "seed", "setup_seed", "deal", "variant", "players",
                                  "time", "handshake", "setup"})
PLAYER_FIELDS: Final = frozenset({"seat", "name", "version", "bot", "seed", "named"})
TIME_FIELDS: Final = frozenset({"move", "bank"})
ACTION_FIELDS: Final = frozenset({"type", "decision", "seat", "action", "choice", "by", "time",
                                  "scores"})
FAULT_FIELDS: Final = frozenset({"type", "seat", "kind", "phase", "decision", "at", "detail",
                                 "stderr", "signal"})
END_FAULT_FIELDS: Final = frozenset({"seat", "kind", "phase", "decision", "at", "detail"})
RESULT_FIELDS: Final = frozenset({"type", "scores", "ranks", "breakdown", "faults", "decisions",
                                  "duration", "players", "seal"})
RESULT_PLAYER_FIELDS: Final = frozenset({"seat", "decisions", "fallback_decisions",
                                         "time_used", "exit"})

#: The exit of a built-in (in-process) bot, and the shapes of others' (a program's;
#: ``done`` for another in-process player, such as a person's seat).
BUILTIN_EXIT: Final = "done"
_PROGRAM_EXIT: Final = re.compile(r"exit -?\d+|signal .+|killed|not started|done")

_N: Final = r"\d+\.\d{3}"
_SIGNAL: Final = r"(?P<signal>signal \d+|[^\s,]+)"
#: The ways a seat runs out of time (the limit: its move and what is left of its
#: bank, or the handshake), and what an ``act`` timeout adds.
_TIMEOUTS: Final = (
    rf"no answer within (?P<limit>{_N}) s",
    rf"answered after (?P<took>{_N}) s, allowed (?P<limit>{_N}) s",
    rf"stopped by {_SIGNAL}, a signal the referee did not send \(another process stopped "
    rf"it\): no answer within (?P<limit>{_N}) s",
)
_BANK_TOLD: Final = rf" \((?P<move>\S+) s per decision \+ (?P<bank>{_N}) s left in the bank\)"
_AFTER_END: Final = re.compile(r"still running \S+ s after the end message; killed \(the result "
                               r"stands\)")
_SECOND: Final = re.compile(r"after its answer to (?:the hello|decision (?P<decision>\d+)): .*",
                            re.S)
_ILLEGAL_ACTION: Final = re.compile(
    r"(?P<action>.*?) is not a legal action now(?:: (?P<reason>.*))?", re.S)
_OUT_OF_RANGE: Final = re.compile(
    r"choice (?P<choice>-?\d+) is out of range: (?P<legal>\d+) legal actions, 0-(?P<last>-?\d+)")


def _shapes(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.S) for p in patterns)


#: The details the referee gives each kind of fault (besides timeouts and
#: illegal actions, checked more closely), from its connections and protocol.
_DETAILS: Final[Mapping[str, tuple[re.Pattern[str], ...]]] = {
    CRASH: _shapes(
        r"raised \S+: .*", "gave no answer to a request", "has stopped", "was never started",
        rf"killed by {_SIGNAL}, a signal it did not raise and the referee did not send "
        r"\(another process, or the system's out-of-memory killer\)",
        r"exited(?: \((?:exit -?\d+|signal .+)\))?", r"could not start .*",
        r"the sandbox could not be started here: .*",
    ),
    CLOSED: _shapes(r"closed its std(?:out|in) but is still running"),
    MALFORMED: _shapes(r"not a UTF-8 JSON line \(.*\): .*"),
    OVERSIZED: _shapes(r"a line of more than \d+ bytes \(\d+ read without a newline\)"),
    PROTOCOL_FAULT: _shapes(
        r'expected a "\w+" message, got "type": .*',
        r'the hello must give "protocol_version": \d+ \(an integer\), got .*',
        r"the bot speaks \S+ protocol version .*",
        r'"name" must be a non-empty printable string of at most 100 characters, got .*',
        r'"version" must be a printable string of at most 100 characters, got .*',
        r"unknown fields in the (?:hello|action message): .*",
        r'an action message has exactly one of "choice" and "action"',
        r'"action" must be an object, got .*', r'"action" is not an action of the game: .*',
        r'"choice" must be an integer, got .*',
        r'"choice" must be an index from 0 to \d+: .* is not an integer the protocol allows '
        r"\(more than 64 bits\)",
        r"a message is a JSON object, not .*", r"answered .*, not a message",
        r"the referee could not read the answer \(\w+\)", r"wrote without being asked: .*",
        _SECOND.pattern,
    ),
}
#: The kinds of fault each phase can have (an ``end`` fault is in the result only).
_KINDS: Final = {HELLO: frozenset(_DETAILS) | {TIMEOUT}, ACT: frozenset(_DETAILS) | {TIMEOUT,
                                                                                   ILLEGAL}}


class FieldError(Exception):
    """A field that is not as the referee writes it (the message names it)."""


def only(data: Mapping[str, Any], allowed: Collection[str], what: str) -> None:
    """Raise :class:`FieldError` naming the first field of ``data`` (``what``) that
    the referee does not write."""
    for key in data:
        if key not in allowed:
            raise FieldError(f"unknown field {quote(key)} in {what}")


def _is_text(value: Any) -> bool:
    """A text as the referee writes what came from a bot: no control character
    (every one shown as an escape), no escape sequence."""
    return isinstance(value, str) and printable(value) == value


def _is_name(value: Any) -> bool:
    """A name or version as the hello check takes them (printable, at most 100)."""
    return isinstance(value, str) and len(value) <= 100 and value.isprintable()


def check_header(header: Mapping[str, Any]) -> None:
    """The header's fields beyond the game (raises :class:`FieldError`)."""
    only(header, HEADER_FIELDS, "the header")
    referee = header.get("referee")
    if not (isinstance(referee, str) and re.fullmatch(r"tajmahal \S+", referee)):
        raise FieldError(f'"referee" must be "tajmahal VERSION": {quote(referee)}')
    started = header.get("started")
    try:
        when = datetime.datetime.fromisoformat(started)  # type: ignore[arg-type]
        canonical = when.isoformat(timespec="seconds") == started and when.utcoffset() is not None
    except (TypeError, ValueError):
        canonical = False
    if not canonical:
        raise FieldError(f'"started" must be a UTC time to the second: {quote(started)}')
    if not _seconds(header.get("handshake"), positive=True):
        raise FieldError(f'"handshake" must be a positive number of seconds: '
                         f"{quote(header.get('handshake'))}")
    for seat, entry in enumerate(header["time"]):
        only(entry, TIME_FIELDS, f'"time" entry {seat}')
        if not _seconds(entry.get("move"), positive=True):
            raise FieldError(f'"time" entry {seat}: "move" must be a positive number of seconds')
    for seat, entry in enumerate(header["players"]):
        only(entry, PLAYER_FIELDS, f'"players" entry {seat}')
        told = entry.get("seed", 0)
        if type(told) is not int or not 0 <= told < 2**63:
            raise FieldError(f'"players" entry {seat}: "seed" must be an integer: {quote(told)}')
        bot = entry["bot"]
        if not bot or "\0" in bot:
            raise FieldError(f'"players" entry {seat}: "bot" must be a command: {quote(bot)}')
        named = entry.get("named", "")
        if "named" in entry and not (_is_text(named) and named.strip() == named and named):
            raise FieldError(f'"players" entry {seat}: "named" must be a name: {quote(named)}')


def _seconds(value: Any, positive: bool = False) -> bool:
    return type(value) in (int, float) and (value > 0 if positive else value >= 0)


def check_players(
    game: AnyGame, players: Sequence[Mapping[str, Any]], unhelloed: Collection[int]
) -> None:
    """The header's names and versions: each a name the hello check takes, a
    built-in bot's its own, a seat in ``unhelloed`` (no hello taken) its command's."""
    builtins = game.builtin_players()
    for seat, entry in enumerate(players):
        name, version, bot = entry["name"], entry["version"], entry["bot"]
        where = f'"players" entry {seat}'
        if seat in unhelloed:
            if (name, version) != (bot, ""):
                raise FieldError(
                    f"{where}: a seat that never said hello is named by its command, "
                    f"{quote(bot)} with no version, not {quote(name)} {quote(version)}"
                )
            continue
        if not (_is_name(name) and name.strip() == name and name):
            raise FieldError(f'{where}: "name" {quote(name)} is not a name a bot can give')
        if not _is_name(version):
            raise FieldError(f'{where}: "version" {quote(version)} is not one a bot can give')
        if bot in builtins:
            player = builtins[bot](0)
            if (name, version) != (player.name, player.version):
                raise FieldError(
                    f"{where}: the built-in {bot!r} is {player.name!r} {player.version!r}, "
                    f"not {quote(name)} {quote(version)}"
                )


class Clocks:
    """The seats' time as the referee kept it, from the header's limits."""

    def __init__(self, times: Sequence[Mapping[str, Any]]) -> None:
        self.move = [float(t["move"]) for t in times]
        self.bank = [float(t["bank"]) for t in times]
        self.used = [0.0] * len(times)
        self.moves = 0  # bot moves so far (each recorded to the microsecond)

    @property
    def slack(self) -> float:
        """What rounding each move to the microsecond may have added up to."""
        return 1e-6 * (self.moves + 1)

    def limit(self, seat: int) -> float:
        return self.move[seat] + self.bank[seat]

    def take(self, seat: int, seconds: Any, by: str) -> None:
        """A move of ``seat`` that took ``seconds`` (``by`` the bot or the fallback)."""
        if not _seconds(seconds) or round(seconds, 6) != seconds:
            raise FieldError(f'"time" must be seconds to the microsecond: {quote(seconds)}')
        if by != "bot":
            if seconds != 0:
                raise FieldError(f'"time" {seconds}: a fallback action takes no time')
            return
        if seconds > self.limit(seat) + self.slack:
            raise FieldError(
                f'"time" {seconds} s is more than seat {seat} had: {self.move[seat]:g} s a '
                f"decision + {self.bank[seat]:.6f} s left in its bank (a longer answer is "
                "a timeout)"
            )
        self.moves += 1
        self.used[seat] += seconds
        self.bank[seat] -= max(0.0, seconds - self.move[seat])


@frozen
class FaultContext:
    """Where a fault line stands: the game, the state at the decision under way
    (``decisions`` made so far), the seats' clocks, the handshake, and who made
    each decision so far (seat, by)."""

    game: AnyGame
    state: Any
    decisions: int
    clocks: Clocks
    handshake: float
    made: Sequence[tuple[int, str]]


def check_fault(fault: Mapping[str, Any], at: FaultContext) -> None:
    """A fault line's kind, phase, decision and detail as the referee writes them
    (its fields' types are checked already); raises :class:`FieldError`."""
    only(fault, FAULT_FIELDS, "a fault line")
    seat, kind, phase, detail = fault["seat"], fault["kind"], fault["phase"], fault["detail"]
    decision = fault["decision"]
    if kind not in _KINDS[phase]:
        raise FieldError(f'"kind" {kind!r}: not a fault of the {phase} phase')
    if not _is_text(detail):
        raise FieldError(f'"detail" {quote(detail)} holds control characters')
    if "stderr" in fault and not _is_text(fault["stderr"]):
        raise FieldError(f'"stderr" {quote(fault["stderr"])} holds control characters')
    second = _SECOND.fullmatch(detail)
    if second is not None:
        _check_second_answer(fault, second, at)
        return
    if phase == HELLO:
        if decision != 0 or at.decisions:
            raise FieldError("a hello fault (not a second answer) comes right after the header, "
                             'at "decision" 0')
    else:
        game = at.game
        if decision != at.decisions + 1 or game.to_act(at.state) != seat:
            raise FieldError(
                f'an act fault of seat {seat} at "decision" {decision}, but decision '
                f"{at.decisions + 1} is under way, seat {game.to_act(at.state)}'s"
            )
    signal = _check_detail(kind, phase, seat, detail, at)
    if fault.get("signal", None) != signal:
        raise FieldError(f'"signal" {quote(fault.get("signal"))}, but the detail says '
                         f"{quote(signal)}")


def _check_second_answer(fault: Mapping[str, Any], found: re.Match[str], at: FaultContext) -> None:
    """A line a seat wrote after its answer: charged to the decision it answered."""
    told = found.group("decision")
    answered = 0 if told is None else int(told)
    if fault["kind"] != PROTOCOL_FAULT or fault["phase"] != (ACT if answered else HELLO):
        raise FieldError(f"a second answer is a protocol fault of the "
                         f"{ACT if answered else HELLO} phase")
    if fault["decision"] != answered or "signal" in fault:
        raise FieldError(f'a second answer to decision {answered} is at "decision" {answered}')
    if answered and not (
        answered <= at.decisions and at.made[answered - 1] == (fault["seat"], "bot")
    ):
        raise FieldError(f"seat {fault['seat']} did not answer decision {answered}")


def _check_detail(kind: str, phase: str, seat: int, detail: str, at: FaultContext) -> str | None:
    """The detail's shape for ``kind``; the signal it names (None: none)."""
    if kind == TIMEOUT:
        return _check_timeout(phase, seat, detail, at)
    if kind == ILLEGAL:
        _check_illegal(detail, at)
        return None
    for shape in _DETAILS[kind]:
        found = shape.fullmatch(detail)
        if found is not None:
            return found.groupdict().get("signal")
    raise FieldError(f'"detail" {quote(detail)} is not one the referee gives a {kind} fault')


def _check_timeout(phase: str, seat: int, detail: str, at: FaultContext) -> str | None:
    clocks = at.clocks
    tail = _BANK_TOLD if phase == ACT else ""
    found = next(
        (m for s in _TIMEOUTS if (m := re.fullmatch(s + tail, detail, re.S)) is not None), None
    )
    if found is None:
        raise FieldError(f'"detail" {quote(detail)} is not one the referee gives a timeout')
    limit = clocks.limit(seat) if phase == ACT else at.handshake
    close = 0.0006 + clocks.slack
    if abs(float(found.group("limit")) - limit) > close:
        raise FieldError(
            f"the timeout's limit is {found.group('limit')} s, but seat {seat} had {limit:.3f} s "
            "by the header's time limits and the record's moves"
        )
    took = found.groupdict().get("took")
    if took is not None and float(took) <= limit - close:
        raise FieldError(f"an answer after {took} s was in time")
    if phase == ACT and (
        found.group("move") != f"{clocks.move[seat]:g}"
        or abs(float(found.group("bank")) - clocks.bank[seat]) > close
    ):
        raise FieldError(
            f"the timeout tells {found.group('move')} s a decision and {found.group('bank')} s "
            f"in the bank, but seat {seat} had {clocks.move[seat]:g} s and "
            f"{clocks.bank[seat]:.3f} s"
        )
    return found.groupdict().get("signal")


def _check_illegal(detail: str, at: FaultContext) -> None:
    """An index out of range, or an action that is not legal at the decision under
    way (with the game's reason, if it gives one)."""
    game = at.game
    legal = game.legal_actions(at.state)
    ranged = _OUT_OF_RANGE.fullmatch(detail)
    if ranged is not None:
        if (int(ranged["legal"]), int(ranged["last"])) != (len(legal), len(legal) - 1) or (
            0 <= int(ranged["choice"]) < len(legal)
        ):
            raise FieldError(f"decision {at.decisions + 1} has {len(legal)} legal actions: "
                             f"{quote(detail)} is not what the referee told")
        return
    found = _ILLEGAL_ACTION.fullmatch(detail)
    if found is None:
        raise FieldError(f'"detail" {quote(detail)} is not one the referee gives an illegal '
                         "action")
    try:
        data = orjson.loads(found["action"])
    except orjson.JSONDecodeError:
        return  # cut short or escaped when quoted: its shape is all there is to check
    if quote(data, 100) != found["action"]:
        return
    try:
        action = game.action_from_data(data)
    except Exception:
        raise FieldError(f"{found['action']} is no action of the game: the referee calls that "
                         "a protocol fault") from None
    if action in legal:
        raise FieldError(f"{found['action']} is legal at decision {at.decisions + 1}")
    if found["reason"] != illegal_reason(game, at.state, action):
        raise FieldError(
            f"the game's reason why {found['action']} is illegal is "
            f"{quote(illegal_reason(game, at.state, action), 200)}, not "
            f"{quote(found['reason'], 200)}"
        )


def check_end_fault(fault: Any, decisions: int) -> None:
    """A fault of the ``end`` phase, in the result only: a bot still running
    after the end message."""
    if not isinstance(fault, dict):
        raise FieldError(f'"faults" must list objects: {quote(fault)}')
    only(fault, END_FAULT_FIELDS, 'an "end" fault of the result')
    if fault.get("kind") != TIMEOUT or not _AFTER_END.fullmatch(str(fault.get("detail"))):
        raise FieldError(f'an "end" fault is a timeout after the end message: {quote(fault)}')
    if fault.get("decision") != decisions or not _seconds(fault.get("at")):
        raise FieldError(f'an "end" fault comes at "decision" {decisions}: {quote(fault)}')


def check_result(
    game: AnyGame,
    result: Mapping[str, Any],
    header_players: Sequence[Mapping[str, Any]],
    clocks: Clocks,
    last_fault: float,
) -> None:
    """The result's time, duration and exits (its counts are checked already)."""
    only(result, RESULT_FIELDS, "the result line")
    duration: Any = result.get("duration")
    if not _seconds(duration):
        raise FieldError(f'"duration" must be a number of seconds: {quote(duration)}')
    slack = 1e-4 + clocks.slack
    if duration + slack < max(sum(clocks.used), last_fault - 0.001):
        raise FieldError(
            f'"duration" {duration} s is shorter than the moves ({sum(clocks.used):.6f} s) '
            f"and faults ({last_fault} s) it holds"
        )
    builtins = game.builtin_players()
    for seat, entry in enumerate(result["players"]):
        only(entry, RESULT_PLAYER_FIELDS, f'"players" entry {seat} of the result')
        used = entry.get("time_used")
        if not _seconds(used) or abs(used - clocks.used[seat]) > slack:
            raise FieldError(
                f'"players" entry {seat}: "time_used" {quote(used)}, but its moves took '
                f"{clocks.used[seat]:.4f} s"
            )
        ended = entry.get("exit")
        builtin = header_players[seat]["bot"] in builtins
        if builtin:
            wrong = ended != BUILTIN_EXIT
        else:
            wrong = ended is not None and not (
                isinstance(ended, str) and _PROGRAM_EXIT.fullmatch(ended)
            )
        if wrong:
            kind = "a built-in bot" if builtin else "a program"
            raise FieldError(f'"players" entry {seat}: "exit" {quote(ended)} is not how {kind} '
                             "ends")
