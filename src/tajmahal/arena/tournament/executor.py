"""Executors: what plays a tournament's games.

The runner hands an executor :class:`GameTask` values and gets back one
:class:`GameOutcome` per task, in whatever order the games end.  Tasks and
outcomes are plain data (:meth:`GameTask.to_data`, :meth:`GameOutcome.to_data`),
so an executor may ship them anywhere: :class:`InlineExecutor` plays in the
calling process, :class:`~.local.LocalExecutor` in worker processes on this
machine; a distributed one would run :mod:`.worker` on other machines.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any, Protocol

from attrs import frozen

from ..game import AnyGame
from ..referee import BotSpec, run_match
from ..terms import MatchConfig, StepHook, TimeControl
from .data import Data
from .journal import GAMES, sync_directory


@frozen
class GameTask(Data):
    """One game to play: its ``number`` in the schedule, the deal's ``seed`` and
    the ``setup_seed`` its setup is drawn from (see
    :meth:`~.journal.TournamentDir.setup_seed`), the bot of each seat (as for
    ``tajmahal match``), each seat's time control, where the record and the
    bots' logs go, the secret of the seeds the bots are told (``seat_key``),
    directories to hide from sandboxed bots besides the tournament's (``hide``:
    a gauntlet's, which holds its key), and the folder each seat's command runs
    in (``homes``; none given: this directory; see :class:`BotSpec`)."""

    number: int
    seed: int
    bots: tuple[str, ...]
    time: tuple[TimeControl, ...]
    variant: str | None
    handshake: float
    grace: float
    max_line: int
    max_log: int
    batch_events: bool
    record: str
    log_dir: str
    sandbox: bool = False
    memory: int | None = None
    #: The secret of the seeds told to the bots, in hex ("": a fresh one).
    seat_key: str = ""
    #: None: the seed's own setup.
    setup_seed: int | None = None
    hide: tuple[str, ...] = ()
    homes: tuple[str | None, ...] = ()
    #: Each seat's entrant's name, shown in the record where it is not the bot's
    #: text (a name given, or a number: ``greedy#2``); else the bot's own.
    names: tuple[str, ...] = ()


@frozen
class GameOutcome(Data):
    """How a task ended: the referee's ``result`` (``MatchResult.to_data()``), or an
    ``error`` text when the game could not be played to the end (a bug, a full
    disk, a worker that died).  Bot faults are part of a result, not errors.
    ``transient``: the error is the executor's own (a machine lost), which the
    game's bots are not suspected of: the game may be tried again."""

    number: int
    result: dict[str, Any] | None = None
    error: str | None = None
    transient: bool = False

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GameOutcome:
        """Raises ValueError (or TypeError, KeyError) for data that is no outcome."""
        result, error = data.get("result"), data.get("error")
        if result is not None and not isinstance(result, dict):
            raise ValueError(f"a result must be an object: {type(result).__name__}")
        if error is not None and not isinstance(error, str):
            raise ValueError(f"an error must be a text: {type(error).__name__}")
        return cls(int(data["number"]), result, error, bool(data.get("transient", False)))


class ExecutorLost(Exception):
    """The executor can play no more games (a Ray cluster lost): the tournament
    stops, its standings written, to be resumed."""


class Executor(Protocol):
    """Plays games.  :meth:`run` takes tasks lazily from ``tasks`` (as it has room
    for them) and yields each outcome as soon as its game is over, one per task.
    ``tasks`` may yield None for "no task yet" (a ladder plans its next games from
    the results of those under way): the executor asks again once a game has
    ended, and stops when it has no game under way either.

    The caller closes the iterator (``contextlib.closing``) when it stops early,
    for example on Ctrl-C: the executor must then stop every game it started, kill
    their bots and return, leaving no process behind.  A game that is stopped
    yields no outcome and leaves no record (it is played again on resume).  An
    executor that can play no more raises :class:`ExecutorLost`."""

    def run(self, tasks: Iterable[GameTask | None]) -> Generator[GameOutcome, None, None]:
        """The outcome of each task in ``tasks``, in the order the games finish."""


def load_game(reference: str) -> AnyGame:
    """The game object named ``module:attribute``."""
    module, _, attribute = reference.partition(":")
    game: AnyGame = getattr(importlib.import_module(module), attribute)
    return game


def game_reference(game: AnyGame) -> str:
    """``module:attribute`` under which ``game`` can be imported (by a worker).

    >>> from tajmahal.tajmahal.adapter import TAJMAHAL
    >>> game_reference(TAJMAHAL)
    'tajmahal.tajmahal.adapter:TAJMAHAL'
    """
    module = sys.modules.get(type(game).__module__)
    names = vars(module) if module is not None else {}
    for name, value in names.items():
        if value is game:
            return f"{type(game).__module__}:{name}"
    raise ValueError(
        f"{game!r} is not a module-level object of {type(game).__module__}: "
        "workers could not import it"
    )


def play_task(game: AnyGame, task: GameTask, on_step: StepHook | None = None) -> GameOutcome:
    """Play ``task`` with the referee (``on_step``: see :class:`MatchConfig`).  Never
    raises but for KeyboardInterrupt (the referee then stops the bots and
    discards the half-written record)."""
    try:
        builtins = list(game.builtin_players())
        homes = task.homes or (None,) * len(task.bots)
        specs = [BotSpec.parse(b, builtins, h) for b, h in zip(task.bots, homes, strict=True)]
        drawn = task.seed if task.setup_seed is None else task.setup_seed
        setup = game.random_setup(len(specs), drawn, task.variant)
        record, log_dir = Path(task.record), Path(task.log_dir)
        config = MatchConfig(
            time=task.time,
            handshake=task.handshake,
            grace=task.grace,
            max_line=task.max_line,
            max_log=task.max_log,
            record=record,
            log_dir=log_dir,
            batch_events=task.batch_events,
            watch=False,  # the games in parallel keep the CPUs busy
            sandbox=task.sandbox,
            memory=task.memory,
            hide=(*_tournament_dir(record), *(Path(p) for p in task.hide)),
            on_step=on_step,
            seat_key=bytes.fromhex(task.seat_key) if task.seat_key else None,
            names=tuple(n if n != b else None for n, b in zip(task.names, task.bots, strict=False)),
        )
        result = run_match(game, setup, specs, config, task.seed, drawn)
        sync_directory(record.parent)  # the record's rename is on disk before it counts
        data = result.to_data()
        data["logs"] = _keep_nonempty(data["logs"])
        return GameOutcome(task.number, result=data)
    except Exception:
        return GameOutcome(task.number, error=traceback.format_exc().rstrip())


def _tournament_dir(record: Path) -> tuple[Path, ...]:
    """The tournament's directory, to hide from sandboxed bots, for a record at
    ``DIR/games/N.jsonl`` (a Ray task's record is elsewhere: in a temporary one)."""
    return (record.parent.parent,) if record.parent.name == GAMES else ()


def _keep_nonempty(logs: list[str]) -> list[str]:
    """Remove the empty logs (built-in bots that wrote nothing); the others stay."""
    kept = []
    for log in logs:
        path = Path(log)
        try:
            if path.stat().st_size == 0:
                path.unlink()
                continue
        except FileNotFoundError:  # none was kept (the tournament's log budget is spent)
            continue
        except OSError:
            pass
        kept.append(log)
    return kept


class InlineExecutor:
    """Plays the games one after the other in the calling process (no isolation:
    for tests, debugging and profiling)."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def run(self, tasks: Iterable[GameTask | None]) -> Generator[GameOutcome, None, None]:
        for task in tasks:
            if task is None:  # nothing under way here: nothing will come
                return
            yield play_task(self.game, task)
