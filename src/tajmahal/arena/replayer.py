"""A record replayed: every action re-applied to the game and every line checked.

:func:`replay` is what ``tajmahal replay`` (and ``--verify``), the HTML viewer,
``show`` and ``play --resume`` read a record with: the header (format, game,
players, time limits, the setup against its seed), each action, the fault lines
and the result must all be what the game makes of them, else a
:class:`~tajmahal.arena.record.RecordError` names the first line that is not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import evolve, frozen

from . import seal, written
from .game import AnyGame
from .names import shown_names
from .protocol import FAULT_KINDS, HELLO
from .record import (
    DEALT,
    FORMAT,
    FORMAT_VERSION,
    GIVEN,
    INTERRUPTED,
    SETUP_SEED,
    RecordError,
    dealt_data,
    dealt_from,
    json_data,
    read_lines,
)
from .text import printable, quote
from .written import Clocks, FaultContext, FieldError


@frozen
class ReplayedStep:
    """One decision of a replayed game: who did what, and the text of what followed."""

    decision: int
    seat: int
    by: str
    action_text: str
    lines: tuple[str, ...]
    fault: dict[str, Any] | None
    choice: int = 0
    time: float = 0.0


@frozen
class Replay:
    """A record that replayed: its header and result lines, its steps, the seats'
    names, and whether its setup is the one its seed deals (``dealt``; False for
    a record of a setup given to the referee, which no seed explains), and its
    seal: :data:`~.seal.HERE` (intact under this machine's key),
    :data:`~.seal.ELSEWHERE` (another key's: not checked) or :data:`~.seal.UNSEALED`."""

    header: dict[str, Any]
    result: dict[str, Any]
    steps: tuple[ReplayedStep, ...]
    names: tuple[str, ...]
    dealt: bool = True
    sealed: str = seal.UNSEALED
    #: The record ends with an ``interrupted`` line (``result`` is that line).
    interrupted: bool = False
    #: Each fault line and the number of actions before it.
    fault_lines: tuple[tuple[int, dict[str, Any]], ...] = ()


#: Phases of the faults a record has lines for, and of those only its result lists.
_LINE_PHASES: Final = ("hello", "act")
_END_PHASE: Final = "end"
_MAX_SEED: Final = 2**64 - 1


def _field(data: dict[str, Any], key: str, line: int) -> Any:
    if key not in data:
        raise RecordError(f'missing "{key}" in a {quote(data.get("type"))} line', line=line)
    return data[key]


def _integer(
    data: dict[str, Any], key: str, line: int, low: int = 0, high: int | None = None
) -> int:
    value = _field(data, key, line)
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise RecordError(f'"{key}" must be an integer, {span}: {quote(value)}', line=line)
    return value


def _number(data: dict[str, Any], key: str, line: int) -> float:
    value = _field(data, key, line)
    if type(value) not in (int, float) or value < 0:
        raise RecordError(f'"{key}" must be a number of seconds: {quote(value)}', line=line)
    return float(value)


def _text(data: dict[str, Any], key: str, line: int) -> str:
    value = _field(data, key, line)
    if not isinstance(value, str):
        raise RecordError(f'"{key}" must be a string: {quote(value)}', line=line)
    return value


def _objects(data: dict[str, Any], key: str, line: int, count: int) -> list[dict[str, Any]]:
    value = _field(data, key, line)
    if not isinstance(value, list) or len(value) != count:
        raise RecordError(f'"{key}" must list {count} entries: {quote(value)}', line=line)
    if not all(isinstance(x, dict) for x in value):
        raise RecordError(f'"{key}" must list objects: {quote(value)}', line=line)
    return value



#: ``on_step(before, action, after, events)`` of :func:`replay`.
ReplayHook = Callable[[Any, Any, Any, Sequence[Any]], None]


class _HookFailed(Exception):
    """The caller's ``on_step`` raised ``error`` (passed through, not a record error)."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def replay(
    game: AnyGame,
    path: Path,
    describe: bool = True,
    on_step: ReplayHook | None = None,
    interrupted: bool = False,
) -> Replay:
    """Re-apply every action of the record at ``path`` and check it all against
    the game: the header (format, game, players, time limits, and the setup
    against its seed), each action (seat, legality, index, who chose it, totals
    after it), the fault lines (a bot plays until its fault, the fallback policy
    after), and the result.  Raises :class:`RecordError` at the first difference,
    whatever the file holds (never another exception).

    ``on_step(before, action, after, events)`` sees each step as it is replayed
    (the HTML viewer draws the game in the same pass); an exception it raises
    is its own (not turned into a :class:`RecordError`).  The record of a game
    stopped before its end is taken with ``interrupted`` (else it is an error that
    says how to go on with it)."""
    try:
        return _Replayer(game, describe, on_step, interrupted).run(read_lines(path))
    except _HookFailed as e:
        raise e.error from None
    except RecordError:
        raise
    except RecursionError:
        raise RecordError("a malformed record: values nested too deeply") from None
    except Exception as e:  # anything else a malformed file makes the game raise
        raise RecordError(
            f"a malformed record ({type(e).__name__}: {printable(str(e), limit=200)})"
        ) from None


class _Replayer:
    def __init__(
        self,
        game: AnyGame,
        describe: bool,
        on_step: ReplayHook | None = None,
        interrupted: bool = False,
    ) -> None:
        self.game = game
        self.describe = describe
        self.on_step = on_step
        self.interrupted = interrupted

    def run(self, lines: Iterator[tuple[int, dict[str, Any]]]) -> Replay:
        game = self.game
        first = next(lines, None)
        if first is None:
            raise RecordError("the record is empty")
        number, header = first
        setup, names, dealt = self.header(number, header)
        players = len(names)
        state = game.new_game(setup)
        self.clocks = Clocks(header["time"])
        seen = [(number, header)]  # every line, for the seal
        steps: list[ReplayedStep] = []
        fault_lines: list[dict[str, Any]] = []
        placed: list[tuple[int, dict[str, Any]]] = []  # each fault line, actions before it
        stopped = False  # an interrupted line ends the record
        faulted: dict[int, int] = {}  # seat -> the decision its fault line came before
        pending: dict[str, Any] | None = None  # the fault line for the next step
        counts = [[0, 0] for _ in range(players)]  # decisions, fallback decisions per seat
        made: list[tuple[int, str]] = []  # (seat, by) of each decision
        result: dict[str, Any] | None = None
        for number, data in lines:
            seen.append((number, data))
            kind = data["type"]
            if result is not None:
                end = "the interruption" if stopped else "the result"
                raise RecordError(f"a {quote(kind)} line after {end}", line=number)
            if kind == "fault":
                fault = self.fault_line(number, data, players, len(made))
                if fault["seat"] in faulted:
                    raise RecordError(f"seat {fault['seat']} faults twice", line=number)
                where = FaultContext(game, state, len(made), self.clocks, header["handshake"], made)
                _written(written.check_fault, number, data, where)
                faulted[fault["seat"]] = len(made) + 1
                fault_lines.append(fault)
                placed.append((len(made), data))
                pending = pending or fault
                continue
            if kind == "result":
                result = data
                self.result(state, data, number, len(made), fault_lines, counts)
                unhelloed = {f["seat"] for f in fault_lines if f["phase"] == HELLO
                             and not f["detail"].startswith("after its answer")}
                _written(written.check_players, seen[0][0], game, header["players"], unhelloed)
                ats = [f["at"] for f in [*fault_lines, *data["faults"]]]
                _written(written.check_result, number, game, data, header["players"],
                         self.clocks, max(ats, default=0.0))
                continue
            if kind == INTERRUPTED:
                if _field(data, "decisions", number) != len(made):
                    raise RecordError(
                        f"interrupted after {quote(data['decisions'])} decisions, the record "
                        f"has {len(made)}",
                        line=number,
                    )
                _number(data, "duration", number)
                result, stopped = data, True
                continue
            if kind != "action":
                raise RecordError(f"unknown line type {quote(kind)}", line=number)
            state, step = self.action(state, number, data, len(made) + 1, faulted, counts, names)
            made.append((step.seat, step.by))
            if pending is not None:
                step = evolve(step, fault=pending)
                pending = None
            steps.append(step)
        if result is None:
            raise RecordError("no result line: the record is incomplete")
        if stopped and not self.interrupted:
            raise RecordError(
                f"the game was interrupted after {len(made)} decisions: `tajmahal play "
                "--resume RECORD` goes on with it"
            )
        return Replay(header=header, result=result, steps=tuple(steps), names=names, dealt=dealt,
                      sealed=_sealed(seen), interrupted=stopped, fault_lines=tuple(placed))

    def header(self, number: int, header: dict[str, Any]) -> tuple[Any, tuple[str, ...], bool]:
        game = self.game
        if header.get("type") != "header":
            raise RecordError("the first line must be the header", line=number)
        if header.get("format") != FORMAT:
            raise RecordError(
                f"not an {FORMAT} file (format {quote(header.get('format'))})", line=number
            )
        if header.get("format_version") != FORMAT_VERSION:
            raise RecordError(
                f"record format version {quote(header.get('format_version'))}; this tajmahal "
                f"reads version {FORMAT_VERSION}",
                line=number,
            )
        if header.get("game") != game.name:
            raise RecordError(
                f"a record of {quote(header.get('game'))}, not {game.name!r}", line=number
            )
        try:
            setup = game.setup_from_data(_field(header, "setup", number))
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise RecordError(f"bad setup: {printable(str(e), limit=200)}", line=number) from None
        players = game.players(setup)
        entries = _objects(header, "players", number, players)
        for seat, entry in enumerate(entries):
            if entry.get("seat") != seat:
                raise RecordError(f'"players" entry {seat} is not seat {seat}', line=number)
            for key in ("name", "version", "bot"):
                _text(entry, key, number)
        names = shown_names(entries)  # as the referee showed them
        for entry in _objects(header, "time", number, players):
            _number(entry, "move", number)
            _number(entry, "bank", number)
        _number(header, "handshake", number)
        variant = _text(header, "variant", number)
        if variant != game.variant(setup):
            raise RecordError(
                f'"variant" {quote(variant)}, but the setup is for {game.variant(setup)!r}',
                line=number,
            )
        seed = _integer(header, "seed", number, 0, _MAX_SEED)
        drawn = seed  # records written before the setup seed was kept: the seed's
        if SETUP_SEED in header:
            drawn = _integer(header, SETUP_SEED, number, 0, _MAX_SEED)
        deal = header.get("deal", DEALT)
        if deal not in (DEALT, GIVEN):
            raise RecordError(f'"deal" must be {DEALT!r} or {GIVEN!r}: {quote(deal)}', number)
        if deal == DEALT:
            dealt = dealt_data(game, game.players(setup), drawn, variant)
            if dealt != json_data(header["setup"]):
                raise RecordError(
                    f"the setup is not the one {dealt_from(header)} deals (a stacked "
                    f'deck?); a record of a given setup says "deal": "{GIVEN}"',
                    line=number,
                )
        _written(written.check_header, number, header)
        return setup, tuple(names), deal == DEALT

    def fault_line(
        self, number: int, data: dict[str, Any], players: int, decision: int
    ) -> dict[str, Any]:
        _integer(data, "seat", number, 0, players - 1)
        if _field(data, "kind", number) not in FAULT_KINDS:
            raise RecordError(f"unknown fault kind {quote(data['kind'])}", line=number)
        if _field(data, "phase", number) not in _LINE_PHASES:
            raise RecordError(f"a fault line in phase {quote(data['phase'])}", line=number)
        # at the decision under way, or (a second answer) one the seat answered
        _integer(data, "decision", number, 0, decision + 1)
        _number(data, "at", number)
        _text(data, "detail", number)
        for key in ("stderr", "signal"):
            if key in data:
                _text(data, key, number)
        return {k: v for k, v in data.items() if k != "type"}

    def action(
        self,
        state: Any,
        number: int,
        data: dict[str, Any],
        decision: int,
        faulted: dict[int, int],
        counts: list[list[int]],
        names: tuple[str, ...],
    ) -> tuple[Any, ReplayedStep]:
        game = self.game
        if _field(data, "decision", number) != decision:
            raise RecordError(
                f"decisions out of order: expected {decision}, got {quote(data['decision'])}",
                line=number,
                decision=decision,
            )
        seat = game.to_act(state)
        if seat is None:
            raise RecordError("an action after the end of the game", number, decision)
        if _field(data, "seat", number) != seat:
            raise RecordError(
                f"the record says seat {quote(data['seat'])} acted, but seat {seat} is to act",
                number,
                decision,
            )
        legal = game.legal_actions(state)
        recorded = _field(data, "action", number)
        choice = data.get("choice")
        if choice is None:  # optional: found from the action
            choice = self.find(legal, recorded, number, decision)
        if type(choice) is not int or not 0 <= choice < len(legal):
            raise RecordError(
                f"choice {quote(choice)} is not an index of the {len(legal)} legal actions",
                number,
                decision,
            )
        action = legal[choice]
        if game.action_to_data(action) != recorded:  # written otherwise, or another action
            index = self.find(legal, recorded, number, decision)
            if index != choice:
                raise RecordError(
                    f"choice {choice} does not match the action (index {index})",
                    number,
                    decision,
                )
        by = _field(data, "by", number)
        expected = "fallback" if seat in faulted else "bot"
        if by != expected:
            why = (
                f"its fault line comes before decision {faulted[seat]}"
                if seat in faulted
                else "it has no fault line before"
            )
            raise RecordError(
                f"seat {seat}'s action is by {quote(by)}, but {why}: by {expected!r}",
                number,
                decision,
            )
        if by == "fallback" and choice != game.fallback(state, legal):
            raise RecordError(
                f"a fallback action, but the fallback policy plays {game.fallback(state, legal)}, "
                f"not {choice}",
                number,
                decision,
            )
        _written(written.only, number, data, written.ACTION_FIELDS, "an action line")
        _written(self.clocks.take, number, seat, data.get("time"), by)
        text = game.describe_action(state, action) if self.describe else ""
        before = state
        state, events = game.step(state, action)
        if self.on_step is not None:
            try:
                self.on_step(before, action, state, events)
            except Exception as e:
                raise _HookFailed(e) from e
        scores = _field(data, "scores", number)
        if scores != game.scores(state):
            raise RecordError(
                f"scores after the step are {game.scores(state)}, the record says {quote(scores)}",
                number,
                decision,
            )
        counts[seat][0] += 1
        counts[seat][1] += by == "fallback"
        lines = tuple(game.describe_events(state, events, names)) if self.describe else ()
        return state, ReplayedStep(
            decision=decision, seat=seat, by=by, action_text=text, lines=lines, fault=None,
            choice=choice, time=float(data.get("time", 0.0)),
        )

    def find(self, legal: Sequence[Any], written: Any, number: int, decision: int) -> int:
        """The index of the action ``written`` among ``legal``."""
        game = self.game
        try:
            action = game.action_from_data(written)
        except ValueError as e:
            raise RecordError(
                f"bad action: {printable(str(e), limit=200)}", number, decision
            ) from None
        for index, candidate in enumerate(legal):
            if candidate == action:
                return index
        raise RecordError(f"{quote(written)} is not legal here", number, decision)

    def result(
        self,
        state: Any,
        data: dict[str, Any],
        line: int,
        decisions: int,
        fault_lines: list[dict[str, Any]],
        counts: list[list[int]],
    ) -> None:
        game = self.game
        if game.to_act(state) is not None:
            raise RecordError(
                f"the result comes after {decisions} decisions, but the game is not over",
                line=line,
            )
        for key, actual in (
            ("scores", game.scores(state)),
            ("ranks", game.ranks(state)),
            ("breakdown", game.breakdown(state)),
        ):
            recorded = _field(data, key, line)
            if recorded != actual:
                raise RecordError(
                    f"final {key} replay as {actual}, but the record says {quote(recorded, 200)}",
                    line=line,
                )
        if _field(data, "decisions", line) != decisions:
            raise RecordError(
                f"the result counts {quote(data['decisions'])} decisions, the record has "
                f"{decisions}",
                line=line,
            )
        faults = _field(data, "faults", line)
        if not isinstance(faults, list) or not all(isinstance(f, dict) for f in faults):
            raise RecordError(f'"faults" must list objects: {quote(faults)}', line=line)
        during = [f for f in faults if f.get("phase") != _END_PHASE]
        by_seat = sorted(fault_lines, key=lambda f: f["seat"])
        if sorted(during, key=lambda f: str(f.get("seat"))) != by_seat:
            raise RecordError("the result's faults are not those of the fault lines", line=line)
        faulted = {f["seat"] for f in fault_lines}
        for fault in faults:  # and bots that did not exit after the end
            if fault.get("phase") == _END_PHASE:
                _written(written.check_end_fault, line, fault, decisions)
                seat = _integer(fault, "seat", line, 0, len(counts) - 1)
                if seat in faulted:
                    raise RecordError(f"seat {seat} faults twice", line=line)
                faulted.add(seat)
        for seat, entry in enumerate(_objects(data, "players", line, len(counts))):
            found = [entry.get("decisions"), entry.get("fallback_decisions")]
            if entry.get("seat") != seat or found != counts[seat]:
                raise RecordError(
                    f"the result says seat {seat} made {quote(found)} decisions (all, "
                    f"fallback), the record has {counts[seat]}",
                    line=line,
                )


def _written(check: Callable[..., None], line: int, *args: Any) -> None:
    """``check(*args)`` of :mod:`.written`, its complaint a :class:`RecordError` at ``line``."""
    try:
        check(*args)
    except FieldError as e:
        raise RecordError(str(e), line=line) from None


def _sealed(lines: Sequence[tuple[int, Any]]) -> str:
    """What the record's seal says of its ``lines`` (numbered); a :class:`RecordError`
    at the first line it disowns."""
    try:
        return seal.check([data for _, data in lines], seal.load_key())
    except seal.SealError as e:
        at = lines[e.position][0] if e.position is not None else lines[-1][0]
        raise RecordError(str(e), line=at) from None
