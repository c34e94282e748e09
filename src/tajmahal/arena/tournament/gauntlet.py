"""A gauntlet: one bot (the candidate) against each bot of a pool, one two-bot
match-up per opponent.

Each match-up is a tournament of its own (duplicate deals, journal, records,
resume, and the sequential test if one is asked for) in ``DIR/vsN`` for the N-th
opponent (N from 1, the candidate being BOT 0).  Every match-up uses the same
tournament seed, so each opponent meets the candidate on the same deals.

::

    DIR/gauntlet.json   the manifest: the candidate and the opponents
    DIR/vs1/ ...        the match-up with the first opponent (a tournament directory)
    DIR/standings.json  the candidate's results against each opponent
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import orjson
from attrs import frozen
from rich.table import Table

from ..text import printable
from .display import NAME_WIDTH, Column, elo_text, fitting_tables, interval
from .journal import TournamentError, read_manifest, write_atomically
from .runner import STANDINGS_JSON, Report
from .schedule import Entrant
from .sequential import pair_counts
from .sprt import EloEstimate, SprtStatus, estimate
from .stats import Estimate

FORMAT: Final = "arena-gauntlet"
MANIFEST: Final = "gauntlet.json"


def matchup_dir(root: Path, opponent: int) -> Path:
    """Where the match-up with the ``opponent``-th BOT (from 1) is played."""
    return root / f"vs{opponent}"


def is_gauntlet(root: Path) -> bool:
    return (root / MANIFEST).exists()


def stored_entrants(root: Path) -> tuple[Entrant, ...] | None:
    """The candidate and the opponents of the gauntlet in ``root`` (None if there
    is none)."""

    def entrants(manifest: dict[str, Any]) -> tuple[Entrant, ...]:
        listed = enumerate(manifest["entrants"])
        return tuple(Entrant(i, str(e["name"]), str(e["bot"])) for i, e in listed)

    return read_manifest(root / MANIFEST, FORMAT, "gauntlet", entrants)


def prepare(root: Path, entrants: Sequence[Entrant]) -> None:
    """Start a gauntlet of ``entrants`` in ``root`` (new or empty), or check that
    the one there has the same entrants."""
    stored = stored_entrants(root)
    if stored is not None:
        if tuple(stored) != tuple(entrants):
            have = ", ".join(f"{e.name}={e.bot}" for e in stored)
            raise TournamentError(
                f"{root} holds a gauntlet of other bots ({have}): give the same BOTs to "
                "resume it, or another directory for a new one"
            )
        return
    root.mkdir(parents=True, exist_ok=True)
    if any(root.iterdir()):
        raise TournamentError(
            f"{root}: not empty and holds no gauntlet: give a new or empty directory"
        )
    data = {"format": FORMAT, "entrants": [{"name": e.name, "bot": e.bot} for e in entrants]}
    write_atomically(root / MANIFEST, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")


@frozen
class MatchupResult:
    """The candidate against one ``opponent``: games and deals finished, the
    candidate's ``score`` (share of games it finished ahead, a tie counting 1/2,
    with its 95% interval over deals), its Elo estimate from the pairs of games
    of complete deals, and the sequential test's status if there was one."""

    opponent: Entrant
    directory: str
    games: int
    deals: int
    score: Estimate | None
    elo: EloEstimate | None
    sprt: SprtStatus | None

    def to_data(self) -> dict[str, Any]:
        return {
            "opponent": {"name": self.opponent.name, "bot": self.opponent.bot},
            "directory": self.directory,
            "games": self.games,
            "deals": self.deals,
            "score": None if self.score is None else self.score.to_data(),
            "elo": None if self.elo is None else self.elo.to_data(),
            "sprt": None if self.sprt is None else self.sprt.to_data(),
        }


def matchup_result(opponent: Entrant, directory: str, report: Report) -> MatchupResult:
    standings = report.standings
    if report.sprt is not None:  # the test's own pairs (whole deals in order)
        counts: Sequence[int] = report.sprt.pentanomial
    else:
        counts = pair_counts(standings.games)[0]
    score = standings.pairwise()[0][1] if standings.games else None
    return MatchupResult(
        opponent=opponent,
        directory=directory,
        games=len(standings.games),
        deals=len(standings.deals),
        score=score,
        elo=estimate(counts),
        sprt=report.sprt,
    )


def summary_data(candidate: Entrant, rows: Sequence[MatchupResult]) -> dict[str, Any]:
    return {
        "gauntlet": {"candidate": {"name": candidate.name, "bot": candidate.bot}},
        "matchups": [row.to_data() for row in rows],
        "method": {
            "score": "share of games the candidate finished ahead of the opponent (a tie "
            "counts 1/2); 95% Student t interval with the deal as the unit",
            "elo": "logistic Elo of the mean score over the pairs of games of complete "
            "deals, 95% normal interval; nelo: normalized Elo (tajmahal docs tournaments)",
        },
    }


def write_summary(root: Path, candidate: Entrant, rows: Sequence[MatchupResult]) -> Path:
    path = root / STANDINGS_JSON
    data = summary_data(candidate, rows)
    write_atomically(path, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
    return path


def gauntlet_tables(rows: Sequence[MatchupResult], width: int) -> list[Table]:
    """The candidate against each opponent, in as many tables as it takes to fit
    ``width``."""
    keys = [
        Column("#", [str(row.opponent.index) for row in rows]),
        Column("opponent", [printable(row.opponent.name) for row in rows], "left", NAME_WIDTH),
    ]
    values = [
        Column("games", [str(row.games) for row in rows]),
        Column("score", ["-" if row.score is None else interval(row.score, 3) for row in rows]),
        Column("Elo", [_elo_text(row.elo) for row in rows]),
        Column("SPRT", [_sprt_text(row.sprt) for row in rows]),
    ]
    return fitting_tables(keys, values, width)


def _elo_text(e: EloEstimate | None) -> str:
    """``-512 [-1200, -311]``: whole Elo (a tenth would be noise)."""
    return "-" if e is None else elo_text(e, 0)


def _sprt_text(status: SprtStatus | None) -> str:
    if status is None:
        return "-"
    return f"{status.verdict or 'undecided'} (LLR {status.llr:.2f})"
