"""Reading the data of a `replay --html` page back, as its script does."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any


def unpack(text: str) -> Any:
    return json.loads(gzip.decompress(base64.b64decode(text)))


def full_steps(stored: list[list[int]]) -> list[list[int]]:
    """A layer's fragment numbers by step, from the changes the page stores."""
    now: list[int] = []
    out = []
    for change in stored:
        if change and change[0] == -1:
            now = change[1:]
        else:
            now = list(now)
            for k in range(0, len(change), 2):
                now[change[k]] = change[k + 1]
        out.append(now)
    return out


class Page:
    """A viewer page: its HTML, its index, its fragments and each game's data (with
    the pictures' layers as full fragment lists by step)."""

    def __init__(self, path: Path) -> None:
        self.text = path.read_text("utf-8")
        raw = re.search(
            r'<script id="data" type="application/json">(.*?)</script>', self.text, re.S
        )
        assert raw is not None
        self.data = json.loads(raw.group(1))
        self.fragments: list[str] = unpack(self.data["fragments"])
        self.games = []
        for packed in self.data["packed"]:
            game = unpack(packed)
            game["publics"] = full_steps(game["publics"])
            game["hands"] = [full_steps(h) for h in game["hands"]]
            self.games.append(game)

    def text_of(self, numbers: list[int]) -> str:
        return "".join(self.fragments[k] for k in numbers)

    def public(self, game: int, step: int) -> str:
        return self.text_of(self.games[game]["publics"][step])

    def hand(self, game: int, seat: int, step: int) -> str:
        return self.text_of(self.games[game]["hands"][seat][step])

    def picture(self, game: int, step: int, seats: list[int]) -> str:
        """The SVG of a step with the hands of ``seats`` (and its last move's mark)."""
        g = self.games[game]
        body = self.fragments[g["board"]] + self.public(game, step)
        body += "".join(self.hand(game, seat, step) for seat in seats)
        mark = g["marks"][step]
        if mark is not None:
            body += self.fragments[mark]
        return self.fragments[g["document"]].replace("@@BODY@@", body)
