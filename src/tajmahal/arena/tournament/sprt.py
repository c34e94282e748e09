"""The sequential probability ratio test of a two-bot match-up, as fishtest runs it.

A match-up between entrant 0 (the bot under test) and entrant 1 is a sequence of
duplicate deals: each deal is played twice, with the seats swapped, so a deal is
a *pair* of games.  Entrant 0 scores 1 for a game it finishes ahead, 1/2 for a
tie and 0 for a loss, so a pair scores 0, 1/2, 1, 3/2 or 2: the **pentanomial**
counts how many pairs scored each.  The **trinomial** counts the games lost,
tied and won instead (it ignores that the two games of a pair share the cards).

The test weighs two hypotheses about entrant 0's strength relative to entrant 1,
H0: ``elo = elo0`` against H1: ``elo = elo1``, by the generalized log-likelihood
ratio (LLR) of the results: the likelihood of the results under the most likely
distribution of pair scores (or game results) that satisfies H1, over the same
for H0.  The test stops when the LLR leaves ``(log(beta / (1 - alpha)),
log((1 - beta) / alpha))``: below, H0 is accepted; above, H1.  Then the chance
of accepting H1 when H0 holds is at most about ``alpha``, and of accepting H0
when H1 holds about ``beta``.

Two Elo scales (``model``):

- ``logistic``: the usual Elo; an expected score ``s`` per game is
  ``elo = -400 log10(1/s - 1)``.  A hypothesis fixes the expected score.
- ``normalized`` (fishtest's default): the expected score's distance from 1/2 in
  units of its standard deviation per game, ``nelo = (s - 1/2) / sigma * 800 /
  ln 10``.  A hypothesis fixes that ratio, so the number of games a test needs
  hardly depends on how often games are tied.

The most likely distribution under a hypothesis is found as in fishtest (M. Van
den Bergh, "Maximum likelihood estimation for multinomial distributions with a
given expectation", and "Normalized Elo: practical"): for a constraint
``sum_i q_i b_i = 0`` the maximum of ``sum_i p_i log q_i`` is
``q_i = p_i / (1 + x b_i)`` where ``x`` solves ``sum_i p_i b_i / (1 + x b_i) = 0``
(``scipy.optimize.brentq``).  Counts of zero are replaced by 1e-3, as fishtest
does, so that every outcome has some probability.

**When it stops** (``stop``).  The LLR moves in steps, so when it crosses a bound
it lands somewhat beyond it, and the true error rates are smaller than alpha and
beta: the test plays longer than it needs to.  Fishtest corrects for that with
a *dynamic overshoot correction* (Siegmund, *Sequential Analysis*, corollary
8.33), the default here (``stop=overshoot``): each bound is brought in by the
expected overshoot, estimated from the test's own record-setting steps, ``o =
E[step^2] / (2 E[step])`` over the steps by which the LLR set a new maximum
(for the upper bound) or minimum (for the lower one); so ``H1`` is accepted when
``LLR > upper - o1`` and ``H0`` when ``LLR < lower + o0``.  ``stop=bounds`` stops
at the plain bounds.

The Elo estimate printed with the test is the plain one: the mean score's 95%
normal interval mapped to Elo.  A test that stops when its LLR crosses a bound
stops more often when the results ran high (or low), so after an early stop the
estimate tends to overstate the difference.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

from attrs import field, frozen
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from .data import CONVERTER, Data

LOGISTIC: Final = "logistic"
NORMALIZED: Final = "normalized"
MODELS: Final = (NORMALIZED, LOGISTIC)
PENTANOMIAL: Final = "pentanomial"
TRINOMIAL: Final = "trinomial"
STATISTICS: Final = (PENTANOMIAL, TRINOMIAL)
OVERSHOOT: Final = "overshoot"
BOUNDS: Final = "bounds"
STOPS: Final = (OVERSHOOT, BOUNDS)
#: Normalized Elo per unit of "t" (mean score minus 1/2 over the standard deviation).
NELO_PER_T: Final = 800.0 / math.log(10.0)
#: What a count of zero becomes (fishtest's regularization).
_ZERO: Final = 1e-3
#: Elo bounds beyond which the hypotheses are refused (the maximum likelihood
#: distributions become degenerate, and no game needs them).
MAX_ELO: Final = 1000.0


class SprtError(ValueError):
    """Parameters that do not make a test (the message says why)."""


def require_scipy() -> None:
    """Raise :class:`SprtError` with the remedy when scipy is not installed."""
    from ...extras import MissingExtra, require

    try:
        require("sprt", "the sequential test", ("scipy",))
    except MissingExtra as e:
        raise SprtError(str(e)) from None


def _probability(name: str, value: float) -> float:
    if not 0.0 < value < 1.0:
        raise SprtError(f"{name} must be between 0 and 1, not {value}")
    return value


@frozen
class SprtParams(Data):
    """H0: ``elo = elo0``, H1: ``elo = elo1`` (``elo0 < elo1``), with error rates
    ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1
    holds), on the Elo scale ``model``, from pair (``pentanomial``) or game
    (``trinomial``) counts, stopping at bounds corrected for the overshoot
    (``overshoot``, as fishtest) or at the plain ones (``bounds``)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = NORMALIZED
    statistic: str = PENTANOMIAL
    stop: str = OVERSHOOT

    def __attrs_post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise SprtError(f"elo0 must be below elo1, not {self.elo0} >= {self.elo1}")
        if max(abs(self.elo0), abs(self.elo1)) > MAX_ELO:
            raise SprtError(f"elo0 and elo1 must be within +-{MAX_ELO:g}")
        _probability("alpha", self.alpha)
        _probability("beta", self.beta)
        if self.alpha + self.beta >= 1.0:
            raise SprtError("alpha + beta must be below 1")
        if self.model not in MODELS:
            raise SprtError(f"model must be one of {', '.join(MODELS)}, not {self.model!r}")
        if self.statistic not in STATISTICS:
            raise SprtError(f"stat must be one of {', '.join(STATISTICS)}, not {self.statistic!r}")
        if self.stop not in STOPS:
            raise SprtError(f"stop must be one of {', '.join(STOPS)}, not {self.stop!r}")

    @property
    def lower(self) -> float:
        """The LLR below which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR above which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> SprtParams:
        return super().from_data({"stop": BOUNDS, **data})  # tests stored before stop=

    def text(self) -> str:
        """``elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized,stat=pentanomial,stop=...``."""
        return ",".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in self.to_data().items()
        )


#: ``stat``: the name of ``--sprt`` (and of the stored plans) for ``statistic``.
CONVERTER.register_unstructure_hook(
    SprtParams,
    make_dict_unstructure_fn(SprtParams, CONVERTER, statistic=override(rename="stat")),
)
CONVERTER.register_structure_hook(
    SprtParams, make_dict_structure_fn(SprtParams, CONVERTER, statistic=override(rename="stat"))
)

_KEYS: Final = ("elo0", "elo1", "alpha", "beta", "model", "stat", "stop")


def parse_sprt(text: str) -> SprtParams:
    """Parameters from ``elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=normalized]
    [,stat=pentanomial][,stop=overshoot]``; raises :class:`SprtError` naming what is
    wrong.

    >>> parse_sprt("elo0=0,elo1=5,alpha=0.05,beta=0.1").beta
    0.1
    """
    given: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.strip().partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise SprtError(f"{part.strip()!r} is not KEY=VALUE")
        if key not in _KEYS:
            raise SprtError(f"unknown key {key!r}: use {', '.join(_KEYS)}")
        if key in given:
            raise SprtError(f"{key} is given twice")
        given[key] = value.strip()
    for key in ("elo0", "elo1"):
        if key not in given:
            raise SprtError(f"{key} is missing (e.g. elo0=0,elo1=5)")
    numbers: dict[str, float] = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in given:
            try:
                numbers[key] = float(given[key])
            except ValueError:
                raise SprtError(f"{key}={given[key]}: not a number") from None
            if not math.isfinite(numbers[key]):
                raise SprtError(f"{key}={given[key]}: not a finite number")
    return SprtParams(
        elo0=numbers["elo0"],
        elo1=numbers["elo1"],
        alpha=numbers.get("alpha", 0.05),
        beta=numbers.get("beta", 0.05),
        model=given.get("model", NORMALIZED),
        statistic=given.get("stat", PENTANOMIAL),
        stop=given.get("stop", OVERSHOOT),
    )


# --- The log-likelihood ratio -------------------------------------------------

Distribution = list[tuple[float, float]]  # (value, probability), values ascending


def distribution(counts: Sequence[float]) -> tuple[float, Distribution]:
    """The number of observations and their empirical distribution: ``counts``
    of outcomes 0, 1/(n-1), ..., 1 (a count of zero counts as 1e-3)."""
    if len(counts) not in (3, 5):
        raise ValueError("counts are a trinomial (3) or a pentanomial (5)")
    regular = [c if c > 0 else _ZERO for c in counts]
    total = sum(regular)
    last = len(counts) - 1
    return total, [(i / last, c / total) for i, c in enumerate(regular)]


def moments(pdf: Distribution) -> tuple[float, float]:
    """Mean and variance."""
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _tilted(pdf: Distribution, shifts: Sequence[float]) -> Distribution:
    """The distribution ``q_i = p_i / (1 + x b_i)`` (``b`` = ``shifts``) that
    maximizes ``sum p_i log q_i`` under ``sum q_i b_i = 0``."""
    from scipy.optimize import brentq  # heavy: only when a test runs

    low, high = min(shifts), max(shifts)
    if not low < 0.0 < high:
        raise SprtError("no distribution of results satisfies this hypothesis")

    def slope(x: float) -> float:
        return sum(p * b / (1.0 + x * b) for (_, p), b in zip(pdf, shifts, strict=True))

    margin = 1e-9
    x = float(brentq(slope, -1.0 / high + margin, -1.0 / low - margin, xtol=1e-15))
    return [(a, p / (1.0 + x * b)) for (a, p), b in zip(pdf, shifts, strict=True)]


def most_likely_with_mean(pdf: Distribution, mean: float) -> Distribution:
    """The most likely distribution on the same outcomes with expectation ``mean``."""
    return _tilted(pdf, [a - mean for a, _ in pdf])


def most_likely_with_t(pdf: Distribution, t: float, reference: float = 0.5) -> Distribution:
    """The most likely distribution on the same outcomes whose ``(mean -
    reference) / sd`` is ``t``.  The constraint is not linear in the
    probabilities; its gradient at the current guess is, so the tilt is repeated
    from the observed distribution until the guess settles."""
    guess = [(a, 1.0 / len(pdf)) for a, _ in pdf]
    for _ in range(100):
        mean, variance = moments(guess)
        sd = math.sqrt(variance)
        shifts = [a - reference - t * sd * (1.0 + ((a - mean) / sd) ** 2) / 2.0 for a, _ in pdf]
        new = _tilted(pdf, shifts)
        settled = max(abs(p - q) for (_, p), (_, q) in zip(guess, new, strict=True)) < 1e-12
        guess = new
        if settled:
            break
    return guess


def _llr_per_observation(
    pdf: Distribution, fit: Callable[[Distribution, float], Distribution], h0: float, h1: float
) -> float:
    q0, q1 = fit(pdf, h0), fit(pdf, h1)
    return sum(
        p * (math.log(b) - math.log(a)) for (_, p), (_, a), (_, b) in zip(pdf, q0, q1, strict=True)
    )


def logistic_score(elo: float) -> float:
    """The expected score per game of a logistic Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def llr(params: SprtParams, counts: Sequence[float]) -> float:
    """The generalized log-likelihood ratio of H1 over H0 for ``counts``: a
    pentanomial (pairs that scored 0, 1/2, 1, 3/2, 2) or a trinomial (games lost,
    tied, won)."""
    total, pdf = distribution(counts)
    if params.model == LOGISTIC:
        s0, s1 = logistic_score(params.elo0), logistic_score(params.elo1)
        return total * _llr_per_observation(pdf, most_likely_with_mean, s0, s1)
    # normalized: t per game; a pair's mean has half the variance of a game
    scale = math.sqrt(2.0) if len(counts) == 5 else 1.0
    t0, t1 = (params.elo0 / NELO_PER_T * scale, params.elo1 / NELO_PER_T * scale)
    return total * _llr_per_observation(pdf, most_likely_with_t, t0, t1)


# --- Estimates ------------------------------------------------------------------


@frozen
class EloEstimate:
    """Entrant 0's Elo advantage (``elo``, logistic) and normalized Elo
    (``nelo``), each with its 95% interval, from the mean ``score`` per game.
    Normalized Elo is None when every pair (or game) scored the same: there is
    no spread to measure the distance from 1/2 in.  At a score of 1 (every game
    won) no Elo is finite: ``elo`` and ``elo_high`` are None and ``elo_low`` is
    the bound (:func:`estimate`); at 0, ``elo`` and ``elo_low`` are None."""

    score: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    nelo: float | None
    nelo_low: float | None
    nelo_high: float | None

    def to_data(self) -> dict[str, float | None]:
        fields = (
            self.score,
            self.elo,
            self.elo_low,
            self.elo_high,
            self.nelo,
            self.nelo_low,
            self.nelo_high,
        )
        names = ("score", "elo", "elo_low", "elo_high", "nelo", "nelo_low", "nelo_high")
        return {
            n: None if v is None else round(v, 4 if n == "score" else 2)
            for n, v in zip(names, fields, strict=True)
        }


def logistic_elo(score: float) -> float:
    """``-400 log10(1/score - 1)``; a score of 0 or 1 counts as 0.001 or 0.999
    (about -+1200), as in fishtest."""
    score = min(max(score, 0.001), 0.999)
    return -400.0 * math.log10(1.0 / score - 1.0)


def estimate(counts: Sequence[int], level: float = 0.95) -> EloEstimate | None:
    """Entrant 0's Elo from a pentanomial or trinomial (None before any result):
    the mean score per game with its normal interval, ``mean +- z * sd /
    sqrt(n)`` over pairs (or games), mapped to Elo; normalized Elo divides the
    distance from 1/2 by the standard deviation per game.

    Every one of ``g`` games won, the score's exact interval is ``[p, 1]`` with
    ``p = ((1 - level) / 2) ** (1 / g)`` (Clopper-Pearson): the Elo is above that
    of ``p`` and has no upper bound (every game lost: the other way round).

    >>> e = estimate([0, 0, 0, 0, 16])  # 16 pairs, 32 games, all won
    >>> e.elo, round(e.elo_low, 1), e.elo_high
    (None, 365.2, None)
    """
    n = sum(counts)
    if n == 0:
        return None
    last = len(counts) - 1
    score = sum(i / last * c for i, c in enumerate(counts)) / n
    variance = sum(c * (i / last - score) ** 2 for i, c in enumerate(counts)) / n
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    half = z * math.sqrt(variance / n)
    per_game_sd = math.sqrt(variance * (2.0 if last == 4 else 1.0))
    games = n * (2 if last == 4 else 1)
    nelo_half = z * NELO_PER_T / math.sqrt(games)
    nelo = (score - 0.5) / per_game_sd * NELO_PER_T if per_game_sd > 0 else None
    elo: float | None = logistic_elo(score)
    low: float | None = logistic_elo(score - half)
    high: float | None = logistic_elo(score + half)
    if score in (0.0, 1.0):  # the exact (Clopper-Pearson) bound of all games won
        bound = -400.0 * math.log10(1.0 / ((1.0 - level) / 2.0) ** (1.0 / games) - 1.0)
        elo, low, high = (None, bound, None) if score == 1.0 else (None, None, -bound)
    return EloEstimate(
        score=score,
        elo=elo,
        elo_low=low,
        elo_high=high,
        nelo=nelo,
        nelo_low=None if nelo is None else nelo - nelo_half,
        nelo_high=None if nelo is None else nelo + nelo_half,
    )


# --- The test over a tournament's games --------------------------------------------

H0: Final = "H0"
H1: Final = "H1"


@frozen
class SprtStatus:
    """Where a test stands: its parameters, the pairs counted (the complete deals
    from the first on), the pentanomial and trinomial (entrant 0's results),
    the LLR, and the ``verdict`` (``H0``, ``H1``, or None while undecided)."""

    params: SprtParams
    pairs: int
    pentanomial: tuple[int, ...]
    trinomial: tuple[int, ...]
    llr: float
    verdict: str | None
    estimate: EloEstimate | None = field(default=None)
    #: The bounds the test stops at (the plain ones brought in by the overshoot
    #: correction, with ``stop=overshoot``).
    stops: tuple[float, float] | None = field(default=None)

    @property
    def lower_stop(self) -> float:
        return self.params.lower if self.stops is None else self.stops[0]

    @property
    def upper_stop(self) -> float:
        return self.params.upper if self.stops is None else self.stops[1]

    @property
    def counts(self) -> tuple[int, ...]:
        return self.pentanomial if self.params.statistic == PENTANOMIAL else self.trinomial

    def to_data(self) -> dict[str, Any]:
        return {
            "params": self.params.to_data(),
            "llr": round(self.llr, 4),
            "lower": round(self.params.lower, 4),
            "upper": round(self.params.upper, 4),
            "stop_lower": round(self.lower_stop, 4),
            "stop_upper": round(self.upper_stop, 4),
            "verdict": self.verdict,
            "pairs": self.pairs,
            "games": 2 * self.pairs,
            "pentanomial": list(self.pentanomial),
            "trinomial": {
                "losses": self.trinomial[0],
                "ties": self.trinomial[1],
                "wins": self.trinomial[2],
            },
            "estimate": None if self.estimate is None else self.estimate.to_data(),
        }


class Overshoot:
    """Fishtest's dynamic overshoot correction (Siegmund, corollary 8.33): from the
    steps by which the LLR set a new maximum (minimum), the expected overshoot of
    the upper (lower) bound, ``sum(step^2) / (2 sum(step))``.

    >>> o = Overshoot()
    >>> for value in (0.5, 0.3, 1.2, 2.0, -0.4):
    ...     o.add(value)
    >>> round(o.upper, 4), round(o.lower, 4)   # (0.25 + 0.49 + 0.64) / (2 * 2.0); 0.16 / 0.8
    (0.345, 0.2)
    """

    def __init__(self) -> None:
        self.low = self.high = 0.0  # the lowest and highest LLR so far (from 0)
        self.down = self.down_squares = self.up = self.up_squares = 0.0

    def add(self, value: float) -> None:
        """The LLR after one more observation (a pair, or a game)."""
        if value < self.low:
            step = value - self.low
            self.down += step
            self.down_squares += step**2
            self.low = value
        if value > self.high:
            step = value - self.high
            self.up += step
            self.up_squares += step**2
            self.high = value

    @property
    def lower(self) -> float:
        """How far the lower bound is brought in (up)."""
        return -self.down_squares / self.down / 2.0 if self.down else 0.0

    @property
    def upper(self) -> float:
        """How far the upper bound is brought in (down)."""
        return self.up_squares / self.up / 2.0 if self.up else 0.0
