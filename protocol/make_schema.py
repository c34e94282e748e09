"""Generate protocol/schema/GAME.json, each game's part of the protocol, from the
library's classes (tajmahal.kit.schema, with each game's tajmahal.GAME.schema hints).

    python protocol/make_schema.py          # rewrite the schemas
    python protocol/make_schema.py --check  # exit 1 if one is stale (and say which)

A game's view, actions and events are frozen attrs classes that its adapter turns
into JSON with its converter; the generator walks the same classes and type hints,
so a schema cannot drift from what the referee sends.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import sys
from pathlib import Path

from tajmahal.arena.registry import GAMES
from tajmahal.kit.schema import game_schema

SCHEMAS = Path(__file__).resolve().parent / "schema"


def texts() -> dict[Path, str]:
    """The schema file and its text of each game this package ships (the installed
    games whose package is this distribution's and has a ``schema`` module)."""
    out = {}
    shipped = {p.name for p in importlib.metadata.distribution("tajmahal").entry_points}
    for name in GAMES.names():
        if name not in shipped:
            continue
        game = GAMES.get(name)
        package = type(game).__module__.rsplit(".", 1)[0]
        hints = importlib.import_module(f"{package}.schema").SCHEMA
        out[SCHEMAS / f"{game.name}.json"] = json.dumps(game_schema(game, hints), indent=2) + "\n"
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        stale = [p.name for p, text in texts().items() if p.read_text() != text]
        if stale:
            print(f"stale: {', '.join(stale)}; run python protocol/make_schema.py")
        return 1 if stale else 0
    for path, text in texts().items():
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
