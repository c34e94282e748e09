"""The HTML replay viewer: one self-contained page for one or more game records.

:func:`write_viewer` replays each record (checked like ``tajmahal replay`` does)
and writes ONE file with everything inline (no network): the data of every
step, the pictures when the game draws them, and the page's CSS and JavaScript.
The page has a step slider, play/pause, the arrow keys, the log of actions and
of what they caused beside the board (click a line to go there), the last move
marked on the board, a view selector (every hand: the whole game; or a
spectator, or seat k: only what it was told, :func:`seat_lines`, up to the step
shown, the final table at the end), faults highlighted in the log and on the
slider, a legend and the final table.  Names and every other text of a record
reach the page as data only (no ``<`` in its script element) and are shown as
text.

A game draws itself through its optional :meth:`~tajmahal.arena.game.Game.pictures`
(a :class:`~tajmahal.arena.game.Pictures`); a game without them gets the log and
the tables only.  A
picture is made of fragments (a city, a seat's row, a hand); consecutive steps
share most of them, so the page holds each distinct fragment once (for all its
games) and each step as the list of its fragments' numbers, compressed (gzip,
base64) and unpacked by the browser (``DecompressionStream``) when a game is
shown.
"""

from __future__ import annotations

import base64
import gzip
import html
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from .game import AnyGame
from .names import shown_names
from .offers import first_part
from .record import RecordError, read_lines
from .replayer import Replay, replay


class Fragments:
    """The distinct fragments of the pictures of a page, each once, by number."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._numbers: dict[str, int] = {}
        self._last: dict[int, tuple[Sequence[str], list[int]]] = {}  # by a tuple's id

    def number(self, fragment: str) -> int:
        found = self._numbers.get(fragment)
        if found is None:
            found = self._numbers[fragment] = len(self.items)
            self.items.append(fragment)
        return found

    def numbers(self, fragments: Sequence[str]) -> list[int]:
        if isinstance(fragments, tuple):  # a game's cached parts come again and again
            seen = self._last.get(id(fragments))
            if seen is not None and seen[0] is fragments:
                return seen[1]
        found = self._numbers.get
        numbers = [n if (n := found(f)) is not None else self.number(f) for f in fragments]
        if isinstance(fragments, tuple):
            if len(self._last) > 4096:
                self._last.clear()
            self._last[id(fragments)] = (fragments, numbers)
        return numbers


def changes(before: Sequence[int] | None, after: Sequence[int]) -> list[int]:
    """``after`` as the page stores it: ``[-1, *after]`` in full, or, when it is as long
    as ``before``, the flat pairs ``[i, after[i], ...]`` where the two differ."""
    if before is None or len(before) != len(after):
        return [-1, *after]
    return [x for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b for x in (i, b)]


def _header_names(path: Path) -> list[str]:
    """The seats' names in the record's header (checked by the replay), as the
    log shows them: alike ones told apart (``random#1``)."""
    lines = read_lines(path)
    try:
        first = next(lines, None)
    finally:
        lines.close()
    players = first[1].get("players") if first is not None else None
    if not isinstance(players, list):
        return []
    if all(isinstance(p, dict) and "name" in p for p in players):
        return shown_names(players)
    return [str(p.get("name", "")) if isinstance(p, dict) else "" for p in players]


def seen_by(game: AnyGame, events: Sequence[Any], seat: int | None) -> list[Any]:
    """The events of a step that ``seat`` was told of: the public ones and its own
    secrets (None: a spectator, the public ones only)."""
    return [
        e for e in events
        if game.is_public(e)
        or (seat is not None and game.event_data(e, seat) != game.event_data(e, None))
    ]


def seat_lines(
    game: AnyGame, state: Any, events: Sequence[Any], names: Sequence[str]
) -> list[list[str]] | None:
    """The log lines of a step as each seat, then a spectator, was told them;
    None when the step has no secret (everyone was told everything)."""
    if all(game.is_public(e) for e in events):
        return None
    views: list[int | None] = [*range(len(names)), None]
    return [game.describe_events(state, seen_by(game, events, v), names) for v in views]


def told_once(
    seat: int, names: Sequence[str], text: str, lines: list[str]
) -> tuple[str, list[str], bool]:
    """The log entry of a step told once: when the first line of what it caused
    tells the action again, by the seat that acted (``"alice (seat 0) withdraws
    and wins elephant"`` after ``withdraw``), that line, without the seat's name,
    becomes the entry's text (True), and leaves the lines."""
    if 0 <= seat < len(names) and lines:
        prefix = f"{names[seat]} (seat {seat}) "
        if lines[0].startswith(prefix):
            return lines[0][len(prefix) :], lines[1:], True
    return text, lines, False


class _Drawing:
    """The pictures of a game's steps, collected while it is replayed."""

    def __init__(self, game: AnyGame, names: list[str], fragments: Fragments) -> None:
        self.game = game
        self.pictures = game.pictures()
        self.names = names
        self.fragments = fragments
        self.publics: list[list[int]] = []
        self.hands: list[list[list[int]]] = [[] for _ in names]
        self.marks: list[int | None] = [None]
        #: by step after the start: True for the first part of an action made of
        #: several decisions, which caused nothing yet (the log shows it faintly)
        self.parts: list[bool] = []
        self.scores: list[list[int]] = []
        self.previous: list[int] | None = None
        self.previous_hands: list[list[int] | None] = [None for _ in names]
        #: By step: the log lines of each seat's view (see :func:`seat_lines`).
        self.views: list[list[list[str]] | None] = [None]

    def frame(self, state: Any) -> None:
        self.scores.append(self.game.scores(state))
        p = self.pictures
        if p is None:
            return
        public = self.fragments.numbers(p.public(state, self.names))
        self.publics.append(changes(self.previous, public))
        self.previous = public
        for seat, hands in enumerate(self.hands):
            hand = self.fragments.numbers(p.hand(state, seat))
            hands.append(changes(self.previous_hands[seat], hand))
            self.previous_hands[seat] = hand

    def step(self, before: Any, action: Any, after: Any, events: Sequence[Any]) -> None:
        if not self.scores:
            self.frame(before)
        self.views.append(seat_lines(self.game, after, events, self.names))
        self.parts.append(first_part(self.game, self.pictures, before, after, events))
        if self.pictures is not None:
            data = self.game.action_to_data(action)
            self.marks.append(self.fragments.number(self.pictures.mark(before, data)))
        self.frame(after)


def game_data(game: AnyGame, path: Path, fragments: Fragments | None = None) -> dict[str, Any]:
    """Everything the viewer shows of the record at ``path``, replayed (raises
    :class:`~tajmahal.arena.record.RecordError` if it does not replay); the
    pictures as numbers of ``fragments``."""
    fragments = fragments if fragments is not None else Fragments()
    drawing = _Drawing(game, _header_names(path), fragments)
    done: Replay = replay(game, path, on_step=drawing.step)
    names = list(done.names)
    header = done.header
    state = game.new_game(game.setup_from_data(header["setup"]))
    if not drawing.scores:  # a record of no decisions
        drawing.frame(state)
    pictures = drawing.pictures
    steps: list[dict[str, Any]] = [
        {
            "decision": 0,
            "seat": None,
            "text": "start",
            "lines": game.describe_start(state, names),
            "scores": drawing.scores[0],
            "part": False,
        }
    ]
    for step, scores, views, part in zip(
        done.steps, drawing.scores[1:], drawing.views[1:], drawing.parts, strict=True
    ):
        text, lines, told = told_once(step.seat, names, step.action_text, list(step.lines))
        if told and views is not None:  # each view without its telling of the action
            views = [told_once(step.seat, names, text, v)[1] for v in views]
        steps.append(
            {
                "decision": step.decision,
                "seat": step.seat,
                "by": step.by,
                "text": text,
                "told": told,
                "lines": lines,
                "views": views,  # each seat's lines, then a spectator's (None: = lines)
                "fault": step.fault,
                "scores": scores,
                "part": part and not step.lines and not step.fault,
            }
        )
    result = done.result
    return {
        "title": f"{game.title}, {len(names)} players ({header.get('variant')}), seed "
        f"{header.get('seed')}",
        "record": path.name,
        "names": names,
        "sources": list(game.score_sources),
        "result": {
            "scores": result["scores"],
            "ranks": result["ranks"],
            "breakdown": result["breakdown"],
            "faults": result["faults"],
        },
        "board": fragments.number(pictures.board(state)) if pictures is not None else None,
        "document": (
            fragments.number(pictures.document("@@BODY@@")) if pictures is not None else None
        ),
        "legend": (  # each symbol and its meaning, as fragment numbers
            [fragments.numbers(item) for item in pictures.legend()] if pictures is not None else []
        ),
        "steps": steps,
        "publics": drawing.publics,  # by step: fragment numbers, as changes()
        "hands": drawing.hands,  # by seat, then step: fragment numbers, as changes()
        "marks": drawing.marks if pictures is not None else [],  # by step (None at the start)
    }


def asset(name: str) -> str:
    """A file of the pages' CSS and JavaScript (package data in ``arena/web``)."""
    return resources.files(__package__).joinpath("web", name).read_text("utf-8")


def _pack(data: Any) -> str:
    return base64.b64encode(gzip.compress(orjson.dumps(data), 6, mtime=0)).decode("ascii")


def records_in(path: Path) -> list[Path]:
    """The records a path names: the file itself, or every ``*.jsonl`` record in a
    folder (a tournament's ``--out`` folder: those under ``games/``), sorted."""
    if path.is_file():
        return [path]
    folder = path / "games" if (path / "games").is_dir() else path
    return sorted(p for p in folder.glob("*.jsonl") if p.name != "journal.jsonl")


def viewer_html(games: Sequence[dict[str, Any]], fragments: Fragments, title: str) -> str:
    """The page for the :func:`game_data` of one or more games (their pictures'
    ``fragments``)."""
    index = [
        {"title": g["title"], "record": g["record"], "names": g["names"], "result": g["result"]}
        for g in games
    ]
    payload = orjson.dumps(
        {
            "index": index,
            "fragments": _pack(fragments.items),
            "packed": [_pack(g) for g in games],
        }
    ).decode()
    # No "<" at all in the script element: a name like "<!--<script>" would
    # otherwise keep "</script>" from closing it (and blank the page).
    payload = payload.replace("<", "\\u003c")
    return (
        _PAGE.replace("@@TITLE@@", html.escape(title))
        .replace("@@CSS@@", asset("viewer.css"))
        .replace("@@JS@@", asset("common.js") + asset("viewer.js"))
        .replace("@@DATA@@", payload)
    )


def write_viewer(
    game_of: Any,
    paths: Sequence[Path],
    out: Path,
    progress: Callable[[int, int], None] | None = None,
    bad: Callable[[Path, Exception], None] | None = None,
) -> int:
    """Replay ``paths`` (``game_of(path)`` gives each one's game) and write the viewer
    to ``out`` (atomically: a temporary file renamed); the number of games.
    ``progress(done, total)`` is called after each game.  A record that does not
    replay (a :class:`~tajmahal.arena.record.RecordError`, or a ValueError: an
    unknown game) raises, or with ``bad`` is handed to it and left out of the
    page; when none replays, no page is written."""
    fragments = Fragments()
    games = []
    for k, path in enumerate(paths):
        try:
            games.append(game_data(game_of(path), path, fragments))
        except (RecordError, ValueError) as e:
            if bad is None:
                raise
            bad(path, e)
        if progress is not None:
            progress(k + 1, len(paths))
    if not games:
        return 0
    title = games[0]["title"] if len(games) == 1 else f"{len(games)} games"
    text = viewer_html(games, fragments, title)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.part")
    tmp.write_text(text, "utf-8")
    tmp.replace(out)
    return len(games)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title>
<style>@@CSS@@</style></head>
<body>
<header><h1 id="title">@@TITLE@@</h1>
<label id="game-choice">game <select id="game"></select></label></header>
<div id="controls">
<button id="first" title="first step (Home)">&#x25C0;&#x25C0;</button>
<button id="prev" title="previous step (Left)">&#x25C0;</button>
<button id="play" title="play / pause (Space)">play</button>
<button id="next" title="next step (Right)">&#x25B6;</button>
<button id="last" title="last step (End)">&#x25B6;&#x25B6;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<span id="step-label"></span>
<label>view <select id="view"></select></label>
<label>speed <select id="speed"><option value="1000">1/s</option>
<option value="400" selected>2.5/s</option><option value="100">10/s</option>
<option value="25">40/s</option></select></label>
</div>
<div id="faultmarks"></div>
<main><div id="board"><div id="picture"></div>
<details id="legend-box" open><summary>Legend</summary><div id="legend"></div></details></div>
<aside><div id="now"></div><ol id="log"></ol></aside></main>
<section id="final"><h2>Final result</h2><table id="final-table"></table>
<ul id="faults"></ul></section>
<script id="data" type="application/json">@@DATA@@</script>
<script>@@JS@@</script>
</body></html>
"""
