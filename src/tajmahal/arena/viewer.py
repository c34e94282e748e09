"""The HTML replay viewer: one self-contained page for one or more game records.

:func:`write_viewer` replays each record (checked like ``tajmahal replay`` does)
and writes ONE file with everything inline (no network): the data of every
step, the pictures when the game draws them, and the page's CSS and JavaScript.
The page has a step slider, play/pause, the arrow keys, the event log beside the
board (click a line to go there), a view selector (every hand, a spectator, or
what seat k saw), faults highlighted in the log and on the slider, and the final
table.

A game draws itself through an optional ``pictures()`` method returning a
:class:`Pictures`; a game without it gets the log and the tables only.  The
pictures of a game are compressed (gzip, base64) and unpacked by the browser
(``DecompressionStream``): consecutive steps differ little.
"""

from __future__ import annotations

import base64
import gzip
import html
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import orjson

from .game import AnyGame
from .record import Replay, read_lines, replay


class Pictures(Protocol):
    """How a game is drawn, in layers (SVG fragments): the ``board`` that does not
    change in a game, the ``public`` picture of a state, one seat's ``hand``, and
    the ``document`` that joins fragments into one SVG."""

    def board(self, state: Any) -> str:
        """The part of the picture that stays the same all game."""

    def public(self, state: Any, names: Sequence[str]) -> str:
        """What every seat sees of ``state``."""

    def hand(self, state: Any, seat: int) -> str:
        """What only ``seat`` sees of ``state``."""

    def document(self, body: str) -> str:
        """Fragments joined into one SVG document."""

    def target(self, action: Any) -> str | None:
        """The id of the element of the picture a person clicks to take ``action``
        (its protocol data), if any (else the action is a button only)."""


def pictures_of(game: AnyGame) -> Pictures | None:
    """The game's :class:`Pictures`, or None if it does not draw itself."""
    method = getattr(game, "pictures", None)
    return method() if callable(method) else None


def game_data(game: AnyGame, path: Path, done: Replay | None = None) -> dict[str, Any]:
    """Everything the viewer shows of the record at ``path`` (replayed first;
    raises :class:`~tajmahal.arena.record.RecordError` if it does not replay)."""
    done = done if done is not None else replay(game, path)
    names = list(done.names)
    header = done.header
    state = game.new_game(game.setup_from_data(header["setup"]))
    pictures = pictures_of(game)
    players = len(names)

    # The pictures of a step, kept apart from the steps' other data: each layer's
    # pictures one after another compress far better (consecutive steps differ
    # little, and gzip only looks 32 KB back): 7 times smaller for a 4-player game.
    publics: list[str] = []
    hands: list[list[str]] = [[] for _ in range(players)]

    def frame(state: Any) -> None:
        if pictures is not None:
            publics.append(pictures.public(state, names))
            for seat in range(players):
                hands[seat].append(pictures.hand(state, seat))

    steps: list[dict[str, Any]] = [
        {
            "decision": 0,
            "seat": None,
            "text": "start",
            "lines": game.describe_start(state, names),
            "scores": game.scores(state),
        }
    ]
    frame(state)
    board = pictures.board(state) if pictures is not None else None
    actions = [data for _, data in read_lines(path) if data.get("type") == "action"]
    for step, data in zip(done.steps, actions, strict=True):
        legal = game.legal_actions(state)
        choice = data.get("choice")
        if choice is None:
            wanted = game.action_from_data(data["action"])
            choice = next(i for i, a in enumerate(legal) if a == wanted)
        state, _ = game.step(state, legal[choice])
        steps.append(
            {
                "decision": step.decision,
                "seat": step.seat,
                "by": step.by,
                "text": step.action_text,
                "lines": list(step.lines),
                "fault": step.fault,
                "scores": game.scores(state),
            }
        )
        frame(state)
    result = done.result
    return {
        "title": f"{game.title}, {players} players ({header.get('variant')}), seed "
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
        "board": board,
        "document": pictures.document("@@BODY@@") if pictures is not None else None,
        "steps": steps,
        "publics": publics,  # by step
        "hands": hands,  # by seat, then step
    }


def asset(name: str) -> str:
    """A file of the pages' CSS and JavaScript (package data in ``arena/web``)."""
    return resources.files(__package__).joinpath("web", name).read_text("utf-8")


def _pack(data: Any) -> str:
    return base64.b64encode(gzip.compress(orjson.dumps(data), 9, mtime=0)).decode("ascii")


def records_in(path: Path) -> list[Path]:
    """The records a path names: the file itself, or every ``*.jsonl`` record in a
    folder (a tournament's ``--out`` folder: those under ``games/``), sorted."""
    if path.is_file():
        return [path]
    folder = path / "games" if (path / "games").is_dir() else path
    return sorted(p for p in folder.glob("*.jsonl") if p.name != "journal.jsonl")


def viewer_html(games: Sequence[dict[str, Any]], title: str) -> str:
    """The page for the :func:`game_data` of one or more games."""
    index = [
        {"title": g["title"], "record": g["record"], "names": g["names"], "result": g["result"]}
        for g in games
    ]
    payload = orjson.dumps({"index": index, "packed": [_pack(g) for g in games]}).decode()
    payload = payload.replace("</", "<\\/")  # never closes the script element
    return (
        _PAGE.replace("@@TITLE@@", html.escape(title))
        .replace("@@CSS@@", asset("viewer.css"))
        .replace("@@JS@@", asset("viewer.js"))
        .replace("@@DATA@@", payload)
    )


def write_viewer(game_of: Any, paths: Sequence[Path], out: Path) -> int:
    """Replay ``paths`` (``game_of(path)`` gives each one's game) and write the viewer
    to ``out`` (atomically: a temporary file renamed); the number of games."""
    games = [game_data(game_of(p), p) for p in paths]
    title = games[0]["title"] if len(games) == 1 else f"{len(games)} games"
    text = viewer_html(games, title)
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
<main><div id="picture"></div>
<aside><div id="now"></div><ol id="log"></ol></aside></main>
<section><h2>Final result</h2><table id="final-table"></table>
<ul id="faults"></ul></section>
<script id="data" type="application/json">@@DATA@@</script>
<script>@@JS@@</script>
</body></html>
"""
