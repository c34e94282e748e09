"""Standings: how each entrant did, with 95% confidence intervals.

Per entrant, over its finished games:

- **win share**: the share of first places; a first place shared by ``m`` seats
  counts ``1/m`` to each, so the win shares of a tournament add up to 1;
- **mean score** and **mean rank** (1 is best; tied seats share a rank);
- a **rating** (openskill's Plackett-Luce model, fed each game's ranks in the
  order of the schedule): ``mu`` and the model's 95% interval ``mu +- 1.96 sigma``;
- the games in which it **faulted**, by kind, and its fallback decisions;
- pairwise: how often it finished ahead of each other entrant (a tie counts 1/2).

The intervals of win share, score, rank and the pairwise shares take the deal
as the unit (see :mod:`.stats`): the games of a deal share their cards, the
deals are independent.  Without duplicate deals (fresh cards in every game) the
games are independent, and each game is its own unit.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any, Final

from attrs import frozen
from openskill.models import PlackettLuce, PlackettLuceRating

from .charges import charged_seats
from .journal import Finished
from .schedule import Entrant
from .stats import LEVEL, Estimate, clustered_mean

#: z for the rating interval (the model's posterior is normal).
RATING_Z: Final = 1.959964
METHOD: Final = {
    "win_share": "first places per game; a first place shared by m seats counts 1/m to each",
    "interval": f"{LEVEL:.0%} Student t interval with the deal as the unit: "
    "cluster-robust standard error over deals, deals - 1 degrees of freedom "
    "(win shares clipped to [0, 1], ranks to [1, seats], scores to the lowest and "
    "highest score seen)",
    "rating": "openskill Plackett-Luce (default parameters), games rated in schedule "
    "order; interval mu +- 1.96 sigma",
    "pairwise": "share of games in which the row entrant ranked ahead of the column "
    "entrant (a tie counts 1/2), same interval as win share",
}
#: The interval without duplicate deals: every game has cards of its own.
FRESH_INTERVAL: Final = (
    f"{LEVEL:.0%} Student t interval with the game as the unit (fresh cards in every "
    "game): standard error over games, games - 1 degrees of freedom (win shares clipped "
    "to [0, 1], ranks to [1, seats], scores to the lowest and highest score seen)"
)


@frozen
class Rating:
    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - RATING_Z * self.sigma

    @property
    def high(self) -> float:
        return self.mu + RATING_Z * self.sigma

    def to_data(self) -> dict[str, float]:
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "low": round(self.low, 3),
            "high": round(self.high, 3),
        }


@frozen
class Standing:
    """One entrant's line in the standings."""

    entrant: Entrant
    games: int
    win_share: Estimate
    score: Estimate
    rank: Estimate
    rating: Rating
    fault_games: int
    faults: dict[str, int]
    decisions: int
    fallback_decisions: int
    time_used: float

    def to_data(self) -> dict[str, Any]:
        return {
            "entrant": self.entrant.index,
            "name": self.entrant.name,
            "bot": self.entrant.bot,
            "games": self.games,
            "win_share": self.win_share.to_data(),
            "score": self.score.to_data(3),
            "rank": self.rank.to_data(3),
            "rating": self.rating.to_data(),
            "fault_games": self.fault_games,
            "faults": dict(sorted(self.faults.items())),
            "decisions": self.decisions,
            "fallback_decisions": self.fallback_decisions,
            "time_per_decision": round(self.time_used / self.decisions, 6)
            if self.decisions
            else None,
        }


class _Sums:
    """Per-deal sums of a statistic: deal -> [sum, count]."""

    def __init__(self) -> None:
        self.by_deal: dict[int, list[float]] = {}
        self.low = math.inf
        self.high = -math.inf

    def add(self, deal: int, value: float) -> None:
        sums = self.by_deal.get(deal)
        if sums is None:
            self.by_deal[deal] = [value, 1]
        else:
            sums[0] += value
            sums[1] += 1
        if value < self.low:
            self.low = value
        if value > self.high:
            self.high = value

    def estimate(self, bounds: tuple[float, float] | None = None) -> Estimate:
        return clustered_mean([(s, int(n)) for s, n in self.by_deal.values()], bounds)

    def observed(self) -> tuple[float, float] | None:
        """The lowest and highest value seen: a mean cannot lie outside them, so
        a score interval is clipped there (the arena knows no game's score range;
        a bot that scores 0 in most games gets no interval below 0)."""
        return (self.low, self.high) if self.by_deal else None


def win_credits(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of first place.

    >>> win_credits([2, 1, 3]), win_credits([1, 3, 1])
    ([0.0, 1.0, 0.0], [0.5, 0.0, 0.5])
    """
    best = min(ranks)
    winners = sum(1 for r in ranks if r == best)
    return [1.0 / winners if r == best else 0.0 for r in ranks]


def game_credits(result: dict[str, Any]) -> list[float]:
    """Each seat's share of first place in a journaled ``result``: by its ranks,
    but nothing for a seat charged with a lost game (when every seat is charged,
    nobody wins it).

    >>> game_credits({"ranks": [2, 1], "faults": []})
    [0.0, 1.0]
    >>> lost = {"lost": "worker died", "ranks": [2, 2], "faults": [
    ...     {"seat": 0, "kind": "lost"}, {"seat": 1, "kind": "lost"}]}
    >>> game_credits(lost)
    [0.0, 0.0]
    """
    credits = win_credits(result["ranks"])
    charged = charged_seats(result)
    if not charged:
        return credits
    free = [seat for seat in range(len(credits)) if seat not in charged]
    return [1.0 / len(free) if seat in free else 0.0 for seat in range(len(credits))]


def ahead(mine: int, theirs: int) -> float:
    """1 for a better rank than the other's, 1/2 for the same, 0 for worse."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


class Ratings:
    """Plackett-Luce ratings, one per entrant, updated game by game."""

    def __init__(self, entrants: int) -> None:
        self.model = PlackettLuce()
        self.ratings: list[PlackettLuceRating] = [self.model.rating() for _ in range(entrants)]

    def update(self, seating: Sequence[int], ranks: Sequence[int]) -> None:
        teams = [[self.ratings[e]] for e in seating]
        rated = self.model.rate(teams, ranks=[float(r) for r in ranks])
        for entrant, team in zip(seating, rated, strict=True):
            self.ratings[entrant] = team[0]

    def copy(self) -> Ratings:
        copied = Ratings(0)
        copied.ratings = list(self.ratings)  # rating objects are replaced, never changed
        return copied

    def get(self, entrant: int) -> Rating:
        rating = self.ratings[entrant]
        return Rating(rating.mu, rating.sigma)


class Standings:
    """The standings of the finished games given to :meth:`add`, in any order.

    :meth:`table` gives each entrant's :class:`Standing`.  Ratings depend on the
    order games are rated in: games are rated in schedule order, so the result
    does not depend on which game ended first.  Each game is rated once, when
    every game before it in the schedule is in (``live=True``: the ratings so
    far, for progress displays); the full table rates the games still waiting
    behind a gap (a game that could not be played) after those.  ``duplicate``:
    the games of a deal share their cards (the deal is the unit of the
    intervals); otherwise each game is its own unit."""

    def __init__(self, entrants: Sequence[Entrant], duplicate: bool = True) -> None:
        self.entrants = tuple(entrants)
        self.duplicate = duplicate
        seats = len(entrants)
        self.games: list[Finished] = []
        #: The games rated in schedule order so far, and the next number to rate.
        self.rated = Ratings(seats)
        self.next_rated = 0
        self.waiting: dict[int, Finished] = {}
        self.wins = [_Sums() for _ in range(seats)]
        self.scores = [_Sums() for _ in range(seats)]
        self.ranks = [_Sums() for _ in range(seats)]
        self.pairs = [[_Sums() for _ in range(seats)] for _ in range(seats)]
        self.faults: list[dict[str, int]] = [{} for _ in range(seats)]
        self.decisions = [0] * seats
        self.fallbacks = [0] * seats
        self.time_used = [0.0] * seats
        self.deals: set[int] = set()

    def add(self, game: Finished) -> None:
        result = game.result
        ranks, scores, seating = result["ranks"], result["scores"], game.seating
        credits = game_credits(result)
        unit = game.deal if self.duplicate else game.number
        for seat, entrant in enumerate(seating):
            self.wins[entrant].add(unit, credits[seat])
            if scores[seat] is not None:  # a lost game has no scores
                self.scores[entrant].add(unit, scores[seat])
            self.ranks[entrant].add(unit, ranks[seat])
            for other_seat, other in enumerate(seating):
                if other != entrant:
                    self.pairs[entrant][other].add(unit, ahead(ranks[seat], ranks[other_seat]))
            info = result["seats"][seat]
            self.decisions[entrant] += info["decisions"]
            self.fallbacks[entrant] += info["fallback_decisions"]
            self.time_used[entrant] += info["time_used"]
        for fault in result["faults"]:
            kinds = self.faults[seating[fault["seat"]]]
            kinds[fault["kind"]] = kinds.get(fault["kind"], 0) + 1
        self.games.append(game)
        self.deals.add(game.deal)
        self.waiting[game.number] = game
        while self.next_rated in self.waiting:
            rated = self.waiting.pop(self.next_rated)
            self.rated.update(rated.seating, rated.result["ranks"])
            self.next_rated += 1

    def ratings(self, live: bool) -> Ratings:
        if live or not self.waiting:
            return self.rated
        ratings = self.rated.copy()
        for number in sorted(self.waiting):
            game = self.waiting[number]
            ratings.update(game.seating, game.result["ranks"])
        return ratings

    def table(self, live: bool = False) -> list[Standing]:
        seats = len(self.entrants)
        ratings = self.ratings(live)
        return [
            Standing(
                entrant=entrant,
                games=len(self.games),
                win_share=self.wins[i].estimate((0.0, 1.0)),
                score=self.scores[i].estimate(self.scores[i].observed()),
                rank=self.ranks[i].estimate((1.0, float(seats))),
                rating=ratings.get(i),
                fault_games=sum(self.faults[i].values()),
                faults=dict(self.faults[i]),
                decisions=self.decisions[i],
                fallback_decisions=self.fallbacks[i],
                time_used=self.time_used[i],
            )
            for i, entrant in enumerate(self.entrants)
        ]

    def pairwise(self) -> list[list[Estimate | None]]:
        """``[a][b]``: how often entrant ``a`` finished ahead of ``b`` (None on the
        diagonal)."""
        n = len(self.entrants)
        return [
            [None if a == b else self.pairs[a][b].estimate((0.0, 1.0)) for b in range(n)]
            for a in range(n)
        ]

    def to_data(self) -> dict[str, Any]:
        """Everything, for ``standings.json`` (ratings in schedule order)."""
        return {
            "games": len(self.games),
            "deals": len(self.deals),
            "entrants": [s.to_data() for s in self.table()],
            "pairwise": [
                [None if e is None else e.to_data() for e in row] for row in self.pairwise()
            ],
            "method": METHOD if self.duplicate else {**METHOD, "interval": FRESH_INTERVAL},
        }


CSV_FIELDS: Final = (
    "entrant",
    "name",
    "bot",
    "games",
    "win_share",
    "win_share_low",
    "win_share_high",
    "score",
    "score_low",
    "score_high",
    "rank",
    "rank_low",
    "rank_high",
    "rating_mu",
    "rating_sigma",
    "rating_low",
    "rating_high",
    "fault_games",
    "faults",
    "decisions",
    "fallback_decisions",
    "time_per_decision",
)


def standings_csv(table: Sequence[Standing]) -> str:
    """One row per entrant (:data:`CSV_FIELDS`); ``faults`` reads ``crash=2 timeout=1``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for s in table:
        data = s.to_data()
        row: list[Any] = [s.entrant.index, s.entrant.name, s.entrant.bot, s.games]
        for key in ("win_share", "score", "rank"):
            row += [data[key]["mean"], data[key]["low"], data[key]["high"]]
        rating = data["rating"]
        row += [rating["mu"], rating["sigma"], rating["low"], rating["high"]]
        row += [
            s.fault_games,
            " ".join(f"{k}={n}" for k, n in sorted(s.faults.items())),
            s.decisions,
            s.fallback_decisions,
            data["time_per_decision"],
        ]
        writer.writerow(
            ["" if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in row]
        )
    return out.getvalue()


GAMES_CSV_FIELDS: Final = (
    "game",
    "deal",
    "rotation",
    "seed",
    "seat",
    "entrant",
    "name",
    "score",
    "rank",
    "win",
    "fault",
    "decisions",
    "fallback_decisions",
    "time_used",
    "record",
)


def games_csv(games: Sequence[Finished], entrants: Sequence[Entrant]) -> str:
    """One row per seat of each finished game, in schedule order (for your own
    analysis); ``win`` is the seat's share of first place."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GAMES_CSV_FIELDS)
    for game in sorted(games, key=lambda g: g.number):
        result = game.result
        credits = game_credits(result)
        faults = {f["seat"]: f["kind"] for f in result["faults"]}
        for seat, entrant in enumerate(game.seating):
            info = result["seats"][seat]
            writer.writerow(
                [
                    game.number,
                    game.deal,
                    game.rotation,
                    game.seed,
                    seat,
                    entrant,
                    entrants[entrant].name,
                    "" if result["scores"][seat] is None else result["scores"][seat],
                    result["ranks"][seat],
                    round(credits[seat], 6),
                    faults.get(seat, ""),
                    info["decisions"],
                    info["fallback_decisions"],
                    info["time_used"],
                    game.record,
                ]
            )
    return out.getvalue()
