"""Selectors' arithmetic: Wilson intervals, the rating chart, competition ranks."""

from __future__ import annotations

import datetime as dt

import pytest

from results.charts import rating_chart
from results.selectors import _ranked, wilson


def test_wilson_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    low, high = wilson(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)


def test_chart_draws_at_most_about_300_points_and_keeps_the_last() -> None:
    day = dt.date(2026, 1, 1)
    history = [(day + dt.timedelta(days=i), i, 1500.0 + i, 50.0) for i in range(1000)]
    chart = rating_chart(history)
    assert chart is not None and chart.count == 1000
    points = chart.line.split()
    assert len(points) <= 302
    assert chart.last is not None
    assert points[-1] == f"{chart.last[0]:.1f},{chart.last[1]:.1f}"
    assert len(chart.band.split()) == 2 * len(points)
    assert chart.x_labels[-1][1] == history[-1][0].isoformat()
    assert rating_chart([]) is None
    single = rating_chart([(day, 1, 1500.0, 0.0)])
    assert single is not None and len(single.line.split()) == 1


def test_competition_ranks() -> None:
    rows = [
        {"points": 5, "wins": 3},
        {"points": 5, "wins": 3},
        {"points": 5, "wins": 2},
        {"points": 4, "wins": 2},
    ]
    _ranked(rows)
    assert [(r["rank"], r["tied"]) for r in rows] == [(1, True), (1, True), (3, False), (4, False)]
