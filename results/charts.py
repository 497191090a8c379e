"""The player page's rating chart, computed on the server: no script draws it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Chart:
    """A server-rendered SVG line chart: rating with a band of ± one uncertainty."""

    width: int
    height: int
    line: str
    band: str
    y_ticks: list[tuple[float, str]]
    x_labels: list[tuple[float, str]]
    last: tuple[float, float] | None
    count: int


def rating_chart(
    history: list[tuple[Any, int, float, float]], width: int = 640, height: int = 220
) -> Chart | None:
    """The chart of ``history`` (at most ~300 points are drawn; the last is always kept)."""
    if not history:
        return None
    step = max(1, math.ceil(len(history) / 300))
    pts = history[::step]
    if pts[-1] is not history[-1]:
        pts.append(history[-1])
    left, right, top, bottom = 44, 8, 8, 22
    lo = min(r - u for _, _, r, u in pts)
    hi = max(r + u for _, _, r, u in pts)
    if hi - lo < 1:
        lo, hi = lo - 1, hi + 1
    span_x = max(1, len(pts) - 1)
    scale_x = (width - left - right) / span_x
    scale_y = (height - top - bottom) / (hi - lo)

    def y(v: float) -> float:
        return top + scale_y * (hi - v)

    # Inlined arithmetic: a player with a few hundred games draws ~900 coordinates a view.
    xs = [f"{left + scale_x * i:.1f}" for i in range(len(pts))]
    line = " ".join(
        [f"{px},{top + scale_y * (hi - r):.1f}" for px, (_, _, r, _) in zip(xs, pts, strict=True)]
    )
    upper = [
        f"{px},{top + scale_y * (hi - r - u):.1f}" for px, (_, _, r, u) in zip(xs, pts, strict=True)
    ]
    lower = [
        f"{px},{top + scale_y * (hi - r + u):.1f}" for px, (_, _, r, u) in zip(xs, pts, strict=True)
    ]
    band = " ".join(upper + lower[::-1])
    ticks = [(y(lo + (hi - lo) * k / 4), f"{lo + (hi - lo) * k / 4:.0f}") for k in range(5)]
    last_x = left + scale_x * (len(pts) - 1)
    labels = [(float(left), pts[0][0].isoformat())]
    if len(pts) > 1:
        labels.append((last_x, pts[-1][0].isoformat()))
    last = (last_x, y(pts[-1][2]))
    return Chart(width, height, line, band, ticks, labels, last, len(history))


@dataclass(frozen=True)
class IntervalBar:
    """One horizontal bar with its interval's whisker, in percent of the chart's width
    (plain decimal strings with a dot: SVG coordinates are never localised)."""

    value: str
    low: str | None
    high: str | None


def interval_bar(
    value: float | None, low: float | None, high: float | None, top: float = 1.0
) -> IntervalBar | None:
    """The bar of ``value`` (and the whisker ``low``–``high``) on a scale of 0..``top``;
    None when there is no value."""
    if value is None or top <= 0:
        return None

    def x(v: float) -> str:
        return f"{max(0.0, min(100.0, 100 * v / top)):.2f}"

    if low is None or high is None:
        return IntervalBar(x(value), None, None)
    return IntervalBar(x(value), x(low), x(high))
