"""The ladder's pictures of ratings, drawn by the server as SVG (nothing fetched
by the page): a bot's rating over its rated games, and a leaderboard row's
trend.  Only numbers and version numbers go into them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

#: Points a chart draws at most (a long history is thinned, its last point kept).
MAX_POINTS: Final = 400
_SHADES: Final = ("#1f6fd1", "#d1731f", "#2e9e4f", "#8e44ad", "#c0392b", "#16a085")


def thinned(points: Sequence[Any], most: int = MAX_POINTS) -> list[Any]:
    """At most ``most`` of ``points``, evenly spread, the last one kept."""
    if len(points) <= most:
        return list(points)
    step = len(points) / (most - 1)
    return [points[min(len(points) - 1, round(k * step))] for k in range(most - 1)] + [points[-1]]


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values between ``low`` and ``high`` for an axis."""
    span = max(high - low, 1e-9)
    raw = span / count
    unit = 10 ** math.floor(math.log10(raw))
    step = next(m * unit for m in (1, 2, 2.5, 5, 10) if m * unit >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def rating_chart(history: Sequence[dict[str, Any]], count: int | None = None,
                 width: int = 760, height: int = 260) -> str:
    """A bot's rating after each of its rated games (``history``: rows with
    ``version``, ``mu``, ``low``, ``high``): ``mu`` as a line, the 95% interval
    as a band, each version in its own colour and named where it begins.
    ``count``: the games of a history given :func:`thinned` already."""
    if not history:
        return ""
    rows = thinned(history)
    left, right, top, bottom = 44, 12, 14, 30
    low = min(r["low"] for r in rows)
    high = max(r["high"] for r in rows)
    pad = (high - low) * 0.05 or 1.0
    low, high = low - pad, high + pad
    count = len(history) if count is None else count

    def x(k: int) -> float:
        return left + (width - left - right) * (k / max(1, len(rows) - 1))

    def y(v: float) -> float:
        return float(top + (height - top - bottom) * (high - v) / (high - low))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'class="chart" role="img" aria-label="rating after each rated game">']
    for tick in _ticks(low, high):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" '
                   f'y2="{y(tick):.1f}" class="grid"/>')
        out.append(f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                   f"{tick:g}</text>")
    for tick in _ticks(1, count, 6):
        if tick == int(tick) and 1 <= tick <= count:
            k = round((tick - 1) / max(1, count - 1) * (len(rows) - 1))
            out.append(f'<text x="{x(k):.1f}" y="{height - bottom + 16}" '
                       f'text-anchor="middle">{int(tick)}</text>')
    out.append(f'<text x="{width - right}" y="{height - 2}" text-anchor="end" class="axis">'
               "rated games</text>")
    stretches: list[tuple[int, list[int]]] = []
    for k, row in enumerate(rows):
        if not stretches or stretches[-1][0] != row["version"]:
            stretches.append((row["version"], []))
        stretches[-1][1].append(k)
    for n, (version, ks) in enumerate(stretches):
        shade = _SHADES[n % len(_SHADES)]
        band = [f"{x(k):.1f},{y(rows[k]['high']):.1f}" for k in ks]
        band += [f"{x(k):.1f},{y(rows[k]['low']):.1f}" for k in reversed(ks)]
        line = " ".join(f"{x(k):.1f},{y(rows[k]['mu']):.1f}" for k in ks)
        out.append(f'<polygon points="{" ".join(band)}" fill="{shade}" fill-opacity="0.15"/>')
        out.append(f'<polyline points="{line}" fill="none" stroke="{shade}" '
                   'stroke-width="2"/>')
        if len(ks) == 1:
            k = ks[0]
            out.append(f'<circle cx="{x(k):.1f}" cy="{y(rows[k]["mu"]):.1f}" r="3" '
                       f'fill="{shade}"/>')
        out.append(f'<text x="{x(ks[0]) + 3:.1f}" y="{top + 10}" fill="{shade}" '
                   f'class="version">v{int(version)}</text>')
        if n:
            out.append(f'<line x1="{x(ks[0]):.1f}" x2="{x(ks[0]):.1f}" y1="{top}" '
                       f'y2="{height - bottom}" class="split"/>')
    out.append("</svg>")
    return "".join(out)


def sparkline(values: Sequence[float], width: int = 90, height: int = 22) -> str:
    """A small line of ``values`` (a rating's last games): green when it rose,
    red when it fell."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 4) / (len(values) - 1)
    points = " ".join(f"{2 + k * step:.1f},{2 + (height - 4) * (high - v) / span:.1f}"
                      for k, v in enumerate(values))
    shade = "#1a7f37" if values[-1] > values[0] else "#b42318" if values[-1] < values[0] \
        else "#777"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" class="spark" aria-hidden="true">'
            f'<polyline points="{points}" fill="none" stroke="{shade}" stroke-width="1.5"/>'
            "</svg>")


def interval_bar(low: float, mu: float, high: float, least: float, most: float,
                 width: int = 80, height: int = 10) -> str:
    """A rating's interval (``low`` to ``high``, ``mu`` marked) on the scale of
    the leaderboard's (``least`` to ``most``)."""
    span = (most - least) or 1.0

    def x(v: float) -> float:
        return 1 + (width - 2) * (v - least) / span

    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" class="bar" aria-hidden="true">'
            f'<rect x="{x(low):.1f}" y="3" width="{max(1.0, x(high) - x(low)):.1f}" height="4" '
            'rx="2" fill="#9cb8e0"/>'
            f'<rect x="{x(mu) - 1:.1f}" y="0" width="2" height="{height}" fill="#1f4f9d"/>'
            "</svg>")
