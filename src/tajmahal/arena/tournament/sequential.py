"""The sequential test over a two-entrant tournament's games: each deal's pair of
games counted (:func:`pair_counts`) and the test's verdict as the games finish
(:class:`SequentialTest`); the statistics are :mod:`.sprt`'s."""

from __future__ import annotations

from collections.abc import Sequence

from .journal import Finished
from .sprt import (
    BOUNDS,
    H0,
    H1,
    PENTANOMIAL,
    Overshoot,
    SprtError,
    SprtParams,
    SprtStatus,
    estimate,
    llr,
    require_scipy,
)
from .standings import ahead


def pair_points(games: Sequence[Finished]) -> list[float]:
    """Entrant 0's points (1 ahead, 1/2 tied, 0 behind entrant 1) in each game."""
    return [
        ahead(g.result["ranks"][g.seating.index(0)], g.result["ranks"][g.seating.index(1)])
        for g in games
    ]


def pair_counts(games: Sequence[Finished]) -> tuple[list[int], list[int]]:
    """The pentanomial and trinomial of entrant 0's results over the complete deals
    among ``games`` (a two-entrant tournament's)."""
    by_deal: dict[int, list[Finished]] = {}
    for game in games:
        by_deal.setdefault(game.deal, []).append(game)
    pentanomial, trinomial = [0] * 5, [0] * 3
    for pair in by_deal.values():
        if len(pair) == 2:
            _count(pair_points(pair), pentanomial, trinomial)
    return pentanomial, trinomial


def _count(points: Sequence[float], pentanomial: list[int], trinomial: list[int]) -> None:
    pentanomial[round(2 * sum(points))] += 1
    for p in points:
        trinomial[round(2 * p)] += 1


class SequentialTest:
    """The test as a tournament's games come in, in any order.

    Only whole deals count, in order from deal 0: a deal enters the counts once
    it and every deal before it are complete, and the LLR is checked after each.
    So the test stops at the same deal whatever order the games finished in (on
    any executor, with any number of jobs), and the games of later deals that
    were already finished when it stopped do not change its verdict."""

    def __init__(self, params: SprtParams, per_deal: int = 2) -> None:
        if per_deal != 2:
            raise SprtError("a sequential test needs two entrants (deals of two games)")
        require_scipy()
        self.params = params
        self.waiting: dict[int, list[Finished]] = {}
        self.next_deal = 0
        self.pentanomial = [0] * 5
        self.trinomial = [0] * 3
        self.llr = 0.0
        self.verdict: str | None = None
        self.overshoot = Overshoot()

    @property
    def decided(self) -> bool:
        return self.verdict is not None

    def add(self, game: Finished) -> None:
        if game.deal < self.next_deal:
            return
        self.waiting.setdefault(game.deal, []).append(game)
        while len(self.waiting.get(self.next_deal, ())) == 2:
            games = self.waiting.pop(self.next_deal)
            self.next_deal += 1
            if self.decided:
                continue
            _count(pair_points(games), self.pentanomial, self.trinomial)
            self._check()

    def _check(self) -> None:
        counts = self.pentanomial if self.params.statistic == PENTANOMIAL else self.trinomial
        self.llr = llr(self.params, counts)
        self.overshoot.add(self.llr)
        lower, upper = self.stops()
        if self.llr < lower:  # strictly beyond, as fishtest
            self.verdict = H0
        elif self.llr > upper:
            self.verdict = H1

    def stops(self) -> tuple[float, float]:
        """The LLRs below (above) which H0 (H1) is accepted now."""
        p = self.params
        if p.stop == BOUNDS:
            return p.lower, p.upper
        return p.lower + self.overshoot.lower, p.upper - self.overshoot.upper

    def status(self) -> SprtStatus:
        counts = self.pentanomial if self.params.statistic == PENTANOMIAL else self.trinomial
        return SprtStatus(
            params=self.params,
            pairs=sum(self.pentanomial),
            pentanomial=tuple(self.pentanomial),
            trinomial=tuple(self.trinomial),
            llr=self.llr,
            verdict=self.verdict,
            estimate=estimate(counts),
            stops=self.stops(),
        )
