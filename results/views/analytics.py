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
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from league.errors import UserError
from league.models import Player
from league.outages import cache
from results import analytics as reads
from results.analytics import AnalyticsFilter, Figure
from results.charts import interval_bar
from results.models import AnalyticsScope

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


def _figures_context(data: reads.ScopeFigures) -> dict[str, Any]:
    return {
        "sides": [(g.title, chart_rows(g.figures)) for g in data.sides],
        "seats": chart_rows(data.seats),
        "victims": [(g.title, chart_rows(g.figures)) for g in data.victims],
        "referees": [
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
        ],
        "rounds_chart": chart_rows(
            [
                Figure(r.name, r.rounds.n, r.rounds.value, r.rounds.low, r.rounds.high)
                for r in data.referees
            ],
            percent=False,
        ),
    }


def figures_html(f: AnalyticsFilter, scope: AnalyticsScope) -> str:
    """The scope's charts and tables, rendered once per version of its figures (its games
    and when they last changed) and language: the rendering is most of the page's cost."""
    when = scope.computed_at.timestamp() if scope.computed_at else 0
    key = f"results:an:{scope.pk}-{scope.games}-{when}:{get_language()}"
    html: str | None = cache.get(key)
    if html is None:
        context = _figures_context(reads.scope_figures(f, scope))
        html = render_to_string("results/_analytics_figures.html", context)
        cache.set(key, html, 600)
    return html


@require_GET
def analytics(request: HttpRequest) -> HttpResponse:
    f, error = _filters(request)
    context: dict[str, Any] = {
        "filter": f,
        "error": error,
        "choices": reads.filter_choices(),
        "query": urlencode(f.params()),
        "data": None,
    }
    if error is None:
        scope = reads.scope_row(f)
        context["data"] = {"games": scope.games if scope else 0, "computed_at": None}
        if scope is not None and scope.games:
            context["data"]["computed_at"] = scope.computed_at
            context["figures"] = mark_safe(figures_html(f, scope))
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
