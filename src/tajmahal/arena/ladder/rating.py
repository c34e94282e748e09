"""The rating model: openskill's Plackett-Luce (Weng-Lin), as the tournament's
standings use it, updated after every rated game in schedule order.

A version's rating is ``mu`` (the skill the model believes) and ``sigma`` (how
unsure it is); its interval is ``mu +- 1.96 sigma`` (the model's posterior is
normal: 95%).  Standings order versions by the interval's low end, the skill
they have shown with 97.5% confidence: a new version, however lucky its first
games, climbs as its ``sigma`` shrinks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from attrs import define
from openskill.models import PlackettLuce

from ..tournament.standings import Rating, game_credits

MODEL: Final = PlackettLuce()
#: A version's rating before its first game (mu, sigma): the model's own.
INITIAL: Final = (MODEL.rating().mu, MODEL.rating().sigma)

__all__ = ["INITIAL", "MODEL", "Rating", "Totals", "game_credits", "rate"]


def rate(
    before: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """The ratings (mu, sigma) of a game's seats after it, from theirs ``before``
    and their ``ranks`` (1 is best; ties share a rank)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


@define
class Totals:
    """A version's rating and what its rated games add up to (the ``ratings`` row)."""

    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0
    rank_sum: int = 0
    faults: int = 0
    last_game: int | None = None

    def row(self, version: int) -> dict[str, object]:
        return {
            "v": version, "mu": self.mu, "sigma": self.sigma, "games": self.games,
            "wins": self.wins, "rank_sum": self.rank_sum, "faults": self.faults,
            "last_game": self.last_game,
        }
