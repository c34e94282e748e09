"""Live games: what a spectator may see of a game, written as it is played.

A game's record is on disk only once the game is over (its header holds the
deal).  While it is played, the referee's ``on_step`` hook feeds a
:class:`LiveWriter`, which writes a *live file* beside the records
(``live/NNNNNN.jsonl`` in a tournament's or a ladder's directory) holding the
public view only, the same for every spectator:

- a ``begin`` line: the game's title and the seats' names (the game is under
  way);
- a ``start`` line once somebody watches (see :class:`LiveWriter`): the legend
  and the unchanging board of its pictures, and the game so far;
- ``steps`` lines: each decision's action and the lines of what it caused as a
  spectator was told them (the public events: :func:`~.viewer.seen_by` with no
  seat), the scores, and the public picture with the last move marked.  Never a
  seat's hand, a secret event or the seed;
- an ``end`` line once the record is complete: the final table and its faults.

Steps are written in batches, at most every :data:`FLUSH` seconds (the hook
itself only keeps the step), so a fast game pays for its pictures a few times
a second, not at every decision; a paced game (``match --watch``) writes every
step.  :class:`LiveFeed` reads a live file as it grows (another process, even
another machine on a shared folder), keeping only the fields it knows.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Final

import orjson

from .game import AnyGame
from .offers import first_part
from .terms import MatchResult, StepHook
from .viewer import Fragments, changes, seen_by, told_once

#: Seconds between two batches of steps written.
FLUSH: Final = 0.25
#: Seconds between two looks for a watch mark (a game nobody watches).
LOOK: Final = 0.5
#: The end of a watch mark's name: ``000017.SERVER.watch``.
WATCH: Final = ".watch"
#: Seconds a live file stays after its game ended.
LINGER: Final = 30.0
#: The largest live file read (a game's log, told once): past it the feed stops.
MAX_LIVE: Final = 64 << 20


def chained(*hooks: StepHook | None) -> StepHook | None:
    """The referee's hooks given, one after the other (those that are None left out)."""
    given = [h for h in hooks if h is not None]
    if len(given) < 2:
        return given[0] if given else None

    def each(*step: Any) -> None:
        for hook in given:
            hook(*step)

    return each


class LiveFolder:
    """The live files of a runner's games in ``folder`` (a ladder's, a tournament's
    ``live/``): each one is removed :data:`LINGER` seconds after its game ended
    (a spectator's server reads its end first), with its watch marks.  Those of
    the games under way when the runner stopped are removed when it starts again
    (:meth:`clear`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ended: deque[tuple[float, Path, int]] = deque()

    def clear(self) -> None:
        """Remove every live file and mark (of games stopped, or all ended)."""
        self.ended.clear()
        for path in self.folder.glob("*"):
            if path.name.endswith((".jsonl", WATCH)):
                with contextlib.suppress(OSError):
                    path.unlink()

    def game_ended(self, path: Path) -> None:
        """The game of the live file ``path`` ended (or stopped); old ones go (not
        those written anew since: a game played again)."""
        now = time.monotonic()
        with contextlib.suppress(OSError):
            self.ended.append((now, path, path.stat().st_ino))
        while self.ended and self.ended[0][0] < now - LINGER:
            _, old, inode = self.ended.popleft()
            with contextlib.suppress(OSError):
                if old.stat().st_ino != inode:
                    continue
                for mark in [old, *old.parent.glob(f"{old.stem}.*{WATCH}")]:
                    with contextlib.suppress(OSError):
                        mark.unlink()


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class LiveWriter:
    """Writes the live file ``path`` of a game of ``setup`` between seats ``names``
    (see the module's text).  Its :meth:`on_step` is the referee's hook; call
    :meth:`finish` with the result once the record is written, or :meth:`close`
    when the game stopped.  ``every``: seconds between two batches (0: each step).

    A game nobody watches costs next to nothing: the writer keeps its steps and
    writes only a ``begin`` line (the game is under way, between these seats) and
    the ``end``; it looks every :data:`LOOK` seconds for a *watch mark* (a file
    ``NNNNNN.*.watch`` beside the live file, which a server watching the game
    keeps there), and from then on writes the game's pictures and log as above.
    ``watched=True`` writes them from the start (a local page)."""

    def __init__(
        self,
        game: AnyGame,
        setup: Any,
        names: Sequence[str],
        path: Path,
        every: float = FLUSH,
        watched: bool = False,
    ) -> None:
        self.game = game
        self.names = list(names)
        self.path = path
        self.every = every
        self.pictures = game.pictures()
        self.first = game.new_game(setup)
        self.pending: list[tuple[int, int, Any, Any, Sequence[Any], str]] = []
        self.flushed = self.looked = time.monotonic()
        self.always = watched
        self.started = False  # the start line (pictures, log so far) is written
        #: The public pictures' fragments written so far, each once (by number), and
        #: the numbers of the last picture written.
        self.fragments = Fragments()
        self.written = 0
        self.numbers: list[int] | None = None
        path.parent.mkdir(parents=True, exist_ok=True)
        # begun beside and put in place: a file of a game played again is another
        # file (another inode) even for a reader that never saw the old one go
        part = path.with_name(path.name + ".part")
        with contextlib.suppress(FileNotFoundError):  # (truncating one would sync it)
            part.unlink()
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        self.file: IO[bytes] | None = os.fdopen(fd, "wb")
        self._write({"type": "begin", "title": game.title, "names": self.names,
                     "sources": list(game.score_sources), "started": _now()})
        os.replace(part, path)
        if watched:
            self._start(None)

    def watched(self) -> bool:
        """Whether a watch mark is beside the live file."""
        return self.always or any(self.path.parent.glob(f"{self.path.stem}.*{WATCH}"))

    def on_step(
        self, decision: int, seat: int, before: Any, action: Any, events: Sequence[Any], by: str
    ) -> None:
        """The referee's hook: keep the step; write a batch when it is time."""
        self.pending.append((decision, seat, before, action, events, by))
        now = time.monotonic()
        if not self.started:
            if now - self.looked >= LOOK:
                self.looked = now
                if self.watched():
                    self._start(None)
        elif now - self.flushed >= self.every:
            self._write(self._batch(None, "steps"))

    def _start(self, last: Any) -> None:
        """The start line: the unchanging parts of the pictures, and the game so far."""
        game, p = self.game, self.pictures
        line: dict[str, Any] = self._batch(last, "start") if self.pending else {
            "type": "start", "log": [], "scores": game.scores(self.first),
            **self._picture(self.first), "last": "",
        }
        line["legend"] = [list(item) for item in p.legend()] if p is not None else []
        line["board"] = p.board(self.first) if p is not None else None
        line["document"] = p.document("@@BODY@@") if p is not None else None
        line["log"] = [{"decision": 0, "seat": None, "text": "start",
                        "lines": game.describe_start(self.first, self.names)}, *line["log"]]
        self.started = True
        self._write(line)

    def _batch(self, last: Any, kind: str) -> dict[str, Any]:
        """The line of the steps kept (taken out): all of them if the state after
        the last one is known (``last``), else all but the last (its state comes
        with the next step)."""
        steps = self.pending if last is not None else self.pending[:-1]
        game, pictures, names = self.game, self.pictures, self.names
        log = []
        for k, (decision, seat, before, action, events, by) in enumerate(steps):
            after = self.pending[k + 1][2] if k + 1 < len(self.pending) else last
            text, lines, told = told_once(
                seat, names, game.describe_action(before, action),
                game.describe_events(after, seen_by(game, events, None), names),
            )
            entry: dict[str, Any] = {
                "decision": decision, "seat": seat, "by": by,
                "text": text, "lines": lines, "told": told,
            }
            if first_part(game, pictures, before, after, events):
                entry["part"] = True
            log.append(entry)
        if steps:
            state = self.pending[len(steps)][2] if len(steps) < len(self.pending) else last
            _, _, before, action, _, _ = steps[-1]
            mark = pictures.mark(before, game.action_to_data(action)) if pictures else ""
        else:
            state, mark = self.pending[0][2], ""
        del self.pending[: len(steps)]
        self.flushed = time.monotonic()
        return {"type": kind, "log": log, "scores": game.scores(state),
                **self._picture(state), "last": mark}

    def finish(self, result: MatchResult) -> None:
        """The game is over and its record written: the last steps, if the game is
        watched, and the final table."""
        if self.file is None:
            return
        if self.started or self.watched():
            last = self.first
            if self.pending:
                _, _, before, action, _, _ = self.pending[-1]
                last = self.game.step(before, action)[0]
            if self.started:
                if self.pending:
                    self._write(self._batch(last, "steps"))
            else:
                self._start(last)
        self._write({"type": "end", "ended": _now(), "result": {
            "scores": [s.score for s in result.seats],
            "ranks": [s.rank for s in result.seats],
            "breakdown": [s.breakdown for s in result.seats],
            "faults": [{"seat": s.seat, "kind": s.fault.kind, "detail": s.fault.detail}
                       for s in result.seats if s.fault is not None],
        }})
        self.close()

    def close(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None

    def _picture(self, state: Any) -> dict[str, Any]:
        """The public picture of ``state`` as the fragments not written before and
        the picture's numbers, as :func:`~.viewer.changes` from the last one."""
        if self.pictures is None:
            return {"fragments": [], "picture": [-1]}
        numbers = self.fragments.numbers(self.pictures.public(state, self.names))
        new = self.fragments.items[self.written:]
        self.written = len(self.fragments.items)
        picture = changes(self.numbers, numbers)
        self.numbers = numbers
        return {"fragments": new, "picture": picture}

    def _write(self, data: dict[str, Any]) -> None:
        assert self.file is not None
        self.file.write(orjson.dumps(data) + b"\n")
        self.file.flush()


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _texts(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _ints(value: Any) -> list[int]:
    return [v for v in value if type(v) is int] if isinstance(value, list) else []


def _entry(data: Any) -> dict[str, Any] | None:
    """A log entry of a live file, with the fields the page shows only."""
    if not isinstance(data, dict) or type(data.get("decision")) is not int:
        return None
    seat = data.get("seat")
    return {
        "decision": data["decision"],
        "seat": seat if type(seat) is int else None,
        "text": _text(data.get("text")),
        "lines": _texts(data.get("lines")),
        "by": _text(data.get("by")),
        "part": data.get("part") is True,
        "told": data.get("told") is True,
    }


def _result(data: Any) -> dict[str, Any] | None:
    if not isinstance(data, dict):
        return None
    faults = [
        {"seat": f["seat"], "kind": _text(f.get("kind")), "detail": _text(f.get("detail"))}
        for f in data.get("faults") or [] if isinstance(f, dict) and type(f.get("seat")) is int
    ]
    breakdown = [
        {k: v for k, v in b.items() if isinstance(k, str) and type(v) is int}
        for b in data.get("breakdown") or [] if isinstance(b, dict)
    ]
    return {"scores": _ints(data.get("scores")), "ranks": _ints(data.get("ranks")),
            "breakdown": breakdown, "faults": faults}


class LiveFeed:
    """A live file read as it grows: :meth:`poll` takes the lines written since
    the last call; :attr:`view` is everything a spectator has been told so far.
    Lines of a kind or with fields it does not know are left out."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.rest = b""
        self.view: dict[str, Any] | None = None  # None until the begin line came
        self.ended = False
        self.inode: int | None = None
        self.numbers: list[int] = []  # the picture now, as numbers of the view's fragments
        self.drawn = 0  # fragments told in the changes so far

    def poll(self) -> list[dict[str, Any]] | None:
        """The changes since the last poll (each as the page takes it: ``start``,
        ``steps`` or ``end``); None once the file is gone or written anew (the game
        was stopped, or is played again)."""
        try:
            with open(self.path, "rb") as f:
                inode = os.fstat(f.fileno()).st_ino
                if self.inode is not None and inode != self.inode:
                    return None  # written anew: the game is played again
                self.inode = inode
                if self.offset > MAX_LIVE:
                    return []
                f.seek(self.offset)
                data = f.read(MAX_LIVE)
        except FileNotFoundError:
            return None
        except OSError:
            return []
        self.offset += len(data)
        lines = (self.rest + data).split(b"\n")
        self.rest = lines.pop()
        changes = []
        for line in lines:
            with contextlib.suppress(orjson.JSONDecodeError):
                change = self.take(orjson.loads(line))
                if change is not None:
                    changes.append(change)
        return changes

    def _draw(self, fragments: Any, picture: Any) -> bool:
        """Take a line's new fragments and its picture's changes; False if they do
        not fit the fragments and picture so far."""
        assert self.view is not None
        known = self.view["fragments"]
        new = _texts(fragments)
        numbers = _ints(picture)
        size = len(known) + len(new)
        full = bool(numbers) and numbers[0] == -1
        values = numbers[1:] if full else numbers[1::2]
        if not isinstance(picture, list) or any(not 0 <= n < size for n in values):
            return False
        if full:
            drawn = numbers[1:]
        elif len(numbers) % 2 == 0 and all(0 <= i < len(self.numbers) for i in numbers[::2]):
            drawn = list(self.numbers)
            for i, n in zip(numbers[::2], numbers[1::2], strict=True):
                drawn[i] = n
        else:
            return False
        known.extend(new)
        self.numbers = drawn
        return True

    def take(self, data: Any) -> dict[str, Any] | None:
        if not isinstance(data, dict):
            return None
        kind = data.get("type")
        if kind == "begin" and self.view is None:
            self.view = {
                "type": "begin",
                "title": _text(data.get("title")),
                "names": _texts(data.get("names")),
                "sources": _texts(data.get("sources")),
                "started": _text(data.get("started")),
                "ready": False, "legend": [], "board": "", "document": "", "log": [],
                "scores": [], "fragments": [], "picture": [-1], "last": "", "result": None,
            }
            return dict(self.view)
        if self.view is None or self.ended:
            return None
        if kind in ("start", "steps") and (kind == "start") != self.view["ready"]:
            change = {
                "type": kind,
                "log": [e for e in map(_entry, data.get("log") or []) if e is not None],
                "scores": _ints(data.get("scores")),
                "last": _text(data.get("last")),
            }
            if not self._draw(data.get("fragments"), data.get("picture")):
                return None
            change["fragments"] = self.view["fragments"][self.drawn:]
            change["picture"] = [-1, *self.numbers]
            self.drawn = len(self.view["fragments"])
            if kind == "start":
                change.update({
                    "legend": [_texts(i) for i in data.get("legend") or []
                               if isinstance(i, list)],
                    "board": _text(data.get("board")),
                    "document": _text(data.get("document")),
                })
                self.view.update({k: v for k, v in change.items() if k != "fragments"},
                                 ready=True, type="begin")
            else:
                self.view["log"] = self.view["log"] + change["log"]
                self.view.update({k: change[k] for k in ("scores", "last")})
            self.view["picture"] = change["picture"]
            return change
        if kind == "end":
            self.ended = True
            change = {"type": "end", "result": _result(data.get("result"))}
            self.view["result"] = change["result"]
            return change
        return None
