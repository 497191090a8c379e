"""The analytics pages (issue 21): a scope's figures (sides, seats, the night-1 victim's
seat, referees) and the players' page (role win rates, head-to-head).

Release gate: the figures are the pipeline's, from released games only
(:mod:`results.analytics`). A bad filter (an unknown club, season, ruleset or handle) is
said above the form, with status 400; the page stays usable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from league.errors import UserError
from league.models import Player
from results import analytics as reads
from results.analytics import AnalyticsFilter, Figure
from results.charts import interval_bar

#: A referee's protests cell with no ruled protest (the referee has games: not "no games").
NO_PROTESTS = _("no ruled protests")
#: A referee's rounds cell when none of the games has a full record (result-only games).
NO_LENGTH = _("no full record")


def chart_rows(figures: Iterable[Figure], percent: bool = True) -> list[dict[str, Any]]:
    """Each figure with its bar and its numbers as shown: percentages for proportions;
    means on a scale up to the largest upper end shown together."""
    figures = list(figures)
    top = 1.0
    if not percent:
        top = max([f.high or f.value or 0.0 for f in figures] + [0.0]) or 1.0
    scale = 100 if percent else 1
    return [
        {
            "label": f.label,
            "n": f.n,
            "successes": f.successes,
            "value": None if f.value is None else f.value * scale,
            "low": None if f.low is None else f.low * scale,
            "high": None if f.high is None else f.high * scale,
            "bar": interval_bar(f.value, f.low, f.high, top),
            "percent": percent,
        }
        for f in figures
    ]


def _filters(request: HttpRequest) -> tuple[AnalyticsFilter, str | None]:
    try:
        return reads.analytics_filter(request.GET), None
    except UserError as e:
        return AnalyticsFilter(), str(e.message)


@require_GET
def analytics(request: HttpRequest) -> HttpResponse:
    f, error = _filters(request)
    data = reads.scope_figures(f) if error is None else None
    context: dict[str, Any] = {
        "filter": f,
        "error": error,
        "choices": reads.filter_choices(),
        "query": urlencode(f.params()),
        "data": data,
    }
    if data is not None:
        context["sides"] = [(g.title, chart_rows(g.figures)) for g in data.sides]
        context["seats"] = chart_rows(data.seats)
        context["victims"] = [(g.title, chart_rows(g.figures)) for g in data.victims]
        context["referees"] = [
            {
                "name": r.name,
                "games": r.games,
                "cells": [
                    {**chart_rows([r.rounds], percent=False)[0], "empty": NO_LENGTH},
                    chart_rows([r.bonuses], percent=False)[0],
                    chart_rows([r.penalties], percent=False)[0],
                    {**chart_rows([r.protests])[0], "empty": NO_PROTESTS},
                ],
            }
            for r in data.referees
        ]
        context["rounds_chart"] = chart_rows(
            [
                Figure(r.name, r.rounds.n, r.rounds.value, r.rounds.low, r.rounds.high)
                for r in data.referees
            ],
            percent=False,
        )
    return render(request, "results/analytics.html", context, status=400 if error else 200)


def _player(request: HttpRequest, name: str) -> Player | None:
    return reads.player_by_handle(request.GET.get(name), name)


@require_GET
def players(request: HttpRequest) -> HttpResponse:
    """One player's role win rates (``a``), two players' with their head-to-head
    (``a`` and ``b``), under the same filters as the main page."""
    error = None
    a = b = None
    f = AnalyticsFilter()
    try:
        f = reads.analytics_filter(request.GET)
        a = _player(request, "a")
        b = reads.second_player(request.GET.get("b"), a)
    except UserError as e:
        error = str(e.message)
    context: dict[str, Any] = {
        "filter": f,
        "error": error,
        "choices": reads.filter_choices(),
        "a": a,
        "b": b,
        "a_value": str(request.GET.get("a", ""))[: reads.MAX_PARAM],
        "b_value": str(request.GET.get("b", ""))[: reads.MAX_PARAM],
        "query": urlencode(f.params()),
    }
    if error is None:
        context["people"] = [
            (p, chart_rows(reads.role_rates(p, f))) for p in (a, b) if p is not None
        ]
        if a is not None and b is not None:
            h = reads.pair(a, b, f)
            context["pair"] = chart_rows(reads.pair_figures(h, a.display_name, b.display_name))
            context["b_wins"] = h.b_wins
            context["draws"] = h.against.n - h.against.successes - h.b_wins
    return render(request, "results/analytics_players.html", context, status=400 if error else 200)
