"""Public results pages on the league side: the rating leaderboard, season and league
rankings, a player's page and a club's results page.

Release gate: these pages read only :mod:`league.results_models`, which hold released
games only; events that are not published are left out. Views are thin: reads come from
:mod:`league.rankings`.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from league import rankings
from league.models import Club, League, Player, Season

PAGE_SIZE = 50


def _int(value: str | None, default: int = 0) -> int:
    try:
        return max(0, int(value or default))
    except ValueError:
        return default


def leaderboard_filter(params: Any) -> rankings.LeaderboardFilter:
    """The leaderboard's filters from query parameters (unknown values are ignored)."""
    club = None
    if params.get("club"):
        club = Club.objects.filter(slug=params["club"]).first()
    season = None
    if params.get("season"):
        season = Season.objects.filter(pk=_int(params["season"])).first()
    role = params.get("role") if params.get("role") in rankings.ROLES else None
    return rankings.LeaderboardFilter(
        club=club,
        season=season,
        role=role,
        min_games=min(_int(params.get("min_games")), 100000),
        query=(params.get("q") or "").strip()[:60],
    )


def _my_player(request: HttpRequest) -> Player | None:
    user = request.user
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    f = leaderboard_filter(request.GET)
    paginator = Paginator(rankings.leaderboard(f), PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    start = (page.number - 1) * PAGE_SIZE
    rows = [(start + i, r) for i, r in enumerate(page.object_list, start=1)]
    me = _my_player(request)
    my_position = rankings.leaderboard_position(f, me) if me is not None else None
    params = request.GET.copy()
    params.pop("page", None)
    params.pop("q", None)
    return render(
        request,
        "league/public/leaderboard.html",
        {
            "filter": f,
            "page": page,
            "rows": rows,
            "clubs": Club.objects.order_by("name").values_list("slug", "name"),
            "seasons": Season.objects.select_related("league").order_by("-starts_on")[:100],
            "roles": [(r, rankings.ROLE_LABELS[r]) for r in rankings.ROLES],
            "query_string": params.urlencode(),
            "me": me,
            "my_position": my_position,
            "my_page": math.ceil(my_position / PAGE_SIZE) if my_position else None,
        },
    )


@require_GET
def season_ranking(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    return render(
        request,
        "league/public/season.html",
        {"season": season, "rows": rankings.season_ranking(season)},
    )


@require_GET
def league_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    return render(
        request,
        "league/public/league.html",
        {
            "league": league,
            "seasons": league.seasons.order_by("-starts_on"),
            "rows": rankings.league_ranking(league),
        },
    )


@require_GET
def player_page(request: HttpRequest, handle: str) -> HttpResponse:
    try:
        player = rankings.player_by_handle(handle)
    except Player.DoesNotExist:
        raise Http404 from None
    rating = rankings.player_rating(player)
    history = rankings.rating_history(player)
    return render(
        request,
        "league/public/player.html",
        {
            "player": player,
            "rating": rating,
            "roles": rankings.role_records(rating),
            "chart": rankings.rating_chart(history),
            "games": rankings.recent_games(player),
            "events": rankings.events_played(player),
            "outcomes": rankings.OUTCOME_LABELS,
            "role_labels": rankings.ROLE_LABELS,
        },
    )


@require_GET
def club_results(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "league/public/club.html",
        {
            "club": club,
            "members": rankings.club_members(club),
            "events": rankings.club_events(club),
        },
    )
