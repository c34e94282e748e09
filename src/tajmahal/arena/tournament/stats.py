"""Means with 95% confidence intervals when observations come in clusters.

The games of one deal share their cards, so they are not independent of each
other; deals are (their seeds are independent).  So the deal is the unit: a mean
over games gets the cluster-robust standard error over deals and a Student t
interval with ``deals - 1`` degrees of freedom.  When every deal has the same
number of games this is exactly the t interval of the per-deal means.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction

from attrs import frozen

#: Two-sided confidence level of every interval.
LEVEL = 0.95


@frozen
class Estimate:
    """A ``mean`` and its confidence interval (``low``, ``high``), and ``half`` the
    interval's half-width before it was clipped to the possible values; the
    interval is None when it cannot be computed (fewer than two deals)."""

    mean: float
    low: float | None
    high: float | None
    half: float | None = None

    def to_data(self, digits: int = 4) -> dict[str, float | None]:
        return {
            "mean": round(self.mean, digits),
            "low": None if self.low is None else round(self.low, digits),
            "high": None if self.high is None else round(self.high, digits),
        }


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (0.5 < p < 1).

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)
    """
    if not 0.5 < p < 1.0 or df < 1:
        raise ValueError(f"t_quantile({p}, {df}): need 0.5 < p < 1 and df >= 1")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2.0


def clustered_mean(
    clusters: Sequence[tuple[float, int]],
    bounds: tuple[float, float] | None = None,
) -> Estimate:
    """The mean over all observations, given per cluster (sum, count), with its
    :data:`LEVEL` interval: mean +- t(df = clusters - 1) * SE, where SE is the
    cluster-robust standard error::

        SE^2 = D / (D - 1) * sum_d (S_d - mean * n_d)^2 / N^2

    (D clusters, S_d and n_d a cluster's sum and count, N = sum n_d).  ``bounds``
    clips the interval to the values the mean can take.

    >>> e = clustered_mean([(1.0, 2), (0.0, 2), (2.0, 2)])  # deal means 0.5, 0, 1
    >>> e.mean, round(e.high - e.mean, 4)  # t(0.975, 2) * 0.5 / sqrt(3)
    (0.5, 1.2421)
    """
    clusters = [(s, n) for s, n in clusters if n > 0]
    total = sum(n for _, n in clusters)
    if total == 0:
        return Estimate(math.nan, None, None)
    mean = sum(s for s, _ in clusters) / total
    spread = sum((s - mean * n) ** 2 for s, n in clusters)
    return _estimate(mean, len(clusters), total, spread, bounds)


@frozen
class Moments:
    """What :func:`clustered_mean` needs of the clusters (sums ``S_d`` of ``n_d``
    observations each), as a database can add them up: the number of clusters,
    ``sum n_d``, ``sum S_d``, ``sum S_d^2``, ``sum S_d n_d`` and ``sum n_d^2``."""

    clusters: int
    count: int
    total: float
    squares: float
    cross: float
    count_squares: int

    def estimate(self, bounds: tuple[float, float] | None = None) -> Estimate:
        """:func:`clustered_mean` of the clusters, the spread worked out exactly
        from the sums (``sum (S_d - mean n_d)^2 = sum S_d^2 - 2 mean sum S_d n_d
        + mean^2 sum n_d^2``, in fractions: no rounding cancels)."""
        if self.count == 0:
            return Estimate(math.nan, None, None)
        mean = Fraction(self.total) / self.count
        spread = (Fraction(self.squares) - 2 * mean * Fraction(self.cross)
                  + mean * mean * self.count_squares)
        return _estimate(float(mean), self.clusters, self.count, float(spread), bounds)


def _estimate(mean: float, count: int, total: int, spread: float,
              bounds: tuple[float, float] | None) -> Estimate:
    """The estimate of ``mean`` over ``total`` observations in ``count`` clusters,
    whose deviations' squares add up to ``spread`` (see :func:`clustered_mean`)."""
    if count < 2:
        return Estimate(mean, None, None)
    error = math.sqrt(count / (count - 1) * spread) / total
    half = t_quantile(1.0 - (1.0 - LEVEL) / 2.0, count - 1) * error
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(mean, low, high, half)
