"""Generate protocol/schema/GAME.json, each game's part of the protocol, from the
library's classes (tajmahal.kit.schema, with the hints each game's schema_hints() gives).

    python protocol/make_schema.py          # rewrite the schemas
    python protocol/make_schema.py --check  # exit 1 if one is stale (and say which)

A game's view, actions and events are frozen attrs classes that its adapter turns
into JSON with its converter; the generator walks the same classes and type hints,
so a schema cannot drift from what the referee sends.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

from tajmahal.arena.registry import GAMES
from tajmahal.kit.adapter import Adapter
from tajmahal.kit.schema import game_schema

SCHEMAS = Path(__file__).resolve().parent / "schema"


def texts() -> dict[Path, str]:
    """The schema file and its text of each game this package ships (the installed
    games of this distribution that publish a schema: ``schema_hints()``)."""
    out = {}
    shipped = {p.name for p in importlib.metadata.distribution("tajmahal").entry_points}
    for name in GAMES.names():
        if name not in shipped:
            continue
        game = GAMES.get(name)
        hints = game.schema_hints() if isinstance(game, Adapter) else None
        if hints is None:
            continue
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
