"""The replay viewer's page (``tajmahal replay DIR --html PAGE``): CPU time a
decision to write it, replay included, for every game.

Each game's records are random 3-player games (the built-in ``random`` bot in
every seat, seeds 0, 1, ...), written beforehand.  A page is written of one of
them first (imports, the board's drawing), then a page of each round's own games
(:func:`tajmahal.arena.viewer.write_viewer`, the command's own function:
replayed, verified, described and drawn, packed and written), in one process as
the command draws a tournament's games; the figure is the median round's CPU
time over its decisions.  The same records replayed alone (verified and
described: :func:`tajmahal.arena.replayer.replay`, the engine's share) are timed
too: the rest is what drawing the pictures adds.  The target holds every game's
drawing to the default game's (the first measured) a decision times
:data:`RATIO_TARGET`: the page of a game whose turns are made of more decisions (a
move told in several parts) grows with them, not faster.  A 200-game tournament of
some 47,000 decisions makes a page in seconds.

    python -m benchmarks.viewer [--quick]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tajmahal.arena import BotSpec, MatchConfig, run_match
from tajmahal.arena.replayer import replay
from tajmahal.arena.viewer import records_in, write_viewer

from .games import ENGINES, Loaded, load
from .measure import Result, cpu_clock, spread
from .report import module_main

PLAYERS = 3
#: Drawing a decision of any game costs at most this many times the default game's.
RATIO_TARGET = 2.0


def record_games(g: Loaded, folder: Path, seeds: range) -> int:
    """Record the random games of ``seeds`` into ``folder``; the decisions made."""
    game = g.game
    specs = [BotSpec.parse("random", list(game.builtin_players())) for _ in range(PLAYERS)]
    folder.mkdir()
    decisions = 0
    for seed in seeds:
        record = folder / f"{seed:03d}.jsonl"
        config = MatchConfig(record=record, log_dir=folder / "logs")
        result = run_match(game, game.random_setup(PLAYERS, seed), specs, config, seed)
        assert not result.faults, result.faults
        decisions += sum(1 for line in record.open() if line.startswith('{"type":"action"'))
    return decisions


@dataclass(frozen=True)
class Page:
    """A game's rounds: CPU µs a decision of each page and of each replay alone, the
    pages' bytes a decision, and the decisions of a round."""

    times: list[float]
    replays: list[float]
    size: float
    decisions: int

    @property
    def drawing(self) -> float:
        """What the pictures add to the replay, µs a decision (medians)."""
        return statistics.median(self.times) - statistics.median(self.replays)


def page_us(g: Loaded, games: int, rounds: int) -> Page:
    """Pages of ``games`` records for each of ``rounds`` (after a warm-up page)."""
    with tempfile.TemporaryDirectory() as scratch:
        folders = [Path(scratch) / f"round{k}" for k in range(rounds + 1)]
        made = [
            record_games(g, folder, range(k * games, (k + 1) * games))
            for k, folder in enumerate(folders)
        ]
        out = Path(scratch) / "page.html"
        write_viewer(lambda _: g.game, records_in(folders[0])[:1], out)  # the warm-up
        times, replays, size = [], [], 0
        for folder, decisions in zip(folders[1:], made[1:], strict=True):
            paths = records_in(folder)
            start = cpu_clock()
            write_viewer(lambda _: g.game, paths, out)
            times.append((cpu_clock() - start) / decisions * 1e6)
            size += out.stat().st_size
            start = cpu_clock()
            for path in paths:
                replay(g.game, path)
            replays.append((cpu_clock() - start) / decisions * 1e6)
    total = sum(made[1:])
    return Page(times, replays, size / total, total // rounds)


def run_all(quick: bool) -> list[Result]:
    games, rounds = (1, 1) if quick else (4, 5)
    measured = {e.name: page_us(load(e), games, rounds) for e in ENGINES}
    first = measured[ENGINES[0].name].drawing
    out = []
    for engine in ENGINES:
        page = measured[engine.name]
        us = statistics.median(page.times)
        target = None if engine is ENGINES[0] else first * RATIO_TARGET
        out.append(
            Result(
                f"{load(engine).title} replay page",
                page.drawing,
                "µs CPU/decision",
                target,
                higher_is_better=False,
                note=f"drawing: {page.drawing / first:.1f}x {load(ENGINES[0]).title}'s; the page "
                f"{us:,.0f} µs ({spread(page.times, ',.0f')}), the replay alone "
                f"{statistics.median(page.replays):,.0f}; {games} random {PLAYERS}-player "
                f"games a page, {page.decisions / games:,.0f} decisions each, "
                f"{page.size:,.0f} bytes a decision",
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    return module_main("python -m benchmarks.viewer", __doc__, run_all, argv)


if __name__ == "__main__":
    sys.exit(main())
