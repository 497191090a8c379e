"""Public results pages of players and clubs: the rating leaderboard, season and league
rankings, a player's page and a club's results page.

Release gate: these pages read only :mod:`results.models`, which hold released games
only; events that are not published are left out. Views are thin: reads come from
:mod:`results.selectors`, markup from ``templates/results/``; what many requests would
render alike is cached (under the ratings' version, so a new rating shows at once).
"""

from __future__ import annotations

import hashlib
import math
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from league.models import Club, League, Player, Season
from league.outages import cache
from results import charts, selectors

PAGE_SIZE = 50
#: Leaderboard pages kept in the cache, per filter (later ones are rarely asked for).
CACHED_PAGES = 20


def _my_player(request: HttpRequest) -> Player | None:
    user = request.user
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def player_prefix() -> str:
    """``/players/`` as routed: rows add the quoted handle (one reverse per page)."""
    return reverse("results:player", args=["-"])[:-2]


def _filter_options(f: selectors.LeaderboardFilter) -> dict[str, SafeString]:
    """The club and season ``<option>``s, the chosen ones selected (cached for a minute:
    new clubs show up soon)."""
    club = f.club.slug if f.club is not None else ""
    season = str(f.season.pk) if f.season is not None else ""
    digest = hashlib.sha1(f"{club}&{season}".encode()).hexdigest()
    key = f"results:lb-options:v2:{digest}"
    cached = cache.get(key)
    if cached is None:
        clubs = list(Club.objects.order_by("name").values_list("slug", "name"))
        seasons = [
            (str(s.pk), str(s))
            for s in Season.objects.select_related("league").order_by("-starts_on")[:100]
        ]
        cached = {
            "clubs": render_to_string(
                "results/_options.html", {"options": clubs, "selected": club}
            ),
            "seasons": render_to_string(
                "results/_options.html", {"options": seasons, "selected": season}
            ),
        }
        cache.set(key, cached, 60)
    return {k: mark_safe(v) for k, v in cached.items()}  # rendered by our template


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    f = selectors.leaderboard_filter(request.GET)
    filters = f.params()
    query_string = urlencode(filters)
    page_number = selectors.query_int(request.GET.get("page"), 1) or 1
    # The table and pager depend only on the ratings, the filters and the page: cache
    # them under the ratings' version (a confirmation changes it, so nothing stale is
    # served) and, for a club, its members'. Name searches and far pages are not cached:
    # any text makes a new key.
    cacheable = not f.query and page_number <= CACHED_PAGES
    version = selectors.ratings_version()
    if f.club is not None:
        version += ":" + selectors.members_version(f.club)
    digest = hashlib.sha1(f"{query_string}&page={page_number}".encode()).hexdigest()
    key = f"results:lb:{version}:{get_language()}:{digest}"
    block = cache.get(key) if cacheable else None
    if block is None:
        paginator = Paginator(selectors.leaderboard(f), PAGE_SIZE)
        page = paginator.get_page(page_number)
        start = (page.number - 1) * PAGE_SIZE
        wins_field = f"{f.role}_wins" if f.role else "wins"
        rows = [
            {
                "position": start + i,
                "player": r.player,
                "rating": getattr(r, f.rating_field),
                "uncertainty": None if f.role else r.uncertainty,
                "games": getattr(r, f.games_field),
                "wins": getattr(r, wins_field),
            }
            for i, r in enumerate(page.object_list, start=1)
        ]
        block = render_to_string(
            "results/_leaderboard_table.html",
            {
                "filter": f,
                "page": page,
                "rows": rows,
                "player_prefix": player_prefix(),
                "query_string": query_string,
            },
        )
        if cacheable:
            cache.set(key, block, 600)
    me = _my_player(request)
    my_position = selectors.leaderboard_position(f, me) if me is not None else None
    return render(
        request,
        "results/leaderboard.html",
        {
            "filter": f,
            "table": mark_safe(block),  # rendered by our template
            "options": _filter_options(f),
            "roles": [(r, selectors.ROLE_LABELS[r]) for r in selectors.ROLES],
            "query_string": urlencode([(k, v) for k, v in filters if k != "q"]),
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
        "results/season.html",
        {"season": season, "rows": selectors.season_ranking(season)},
    )


@require_GET
def league_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    return render(
        request,
        "results/league.html",
        {
            "league": league,
            "seasons": league.seasons.order_by("-starts_on"),
            "rows": selectors.league_ranking(league),
        },
    )


def _rated_block(player: Player, rating: Any, version: str) -> str:
    """The player page's chart, record by role and last games: cached under the ratings'
    version (they read the rating tables alone, and a rating write makes a new key)."""
    key = f"results:pl:{player.pk}:{version}:{get_language()}"
    html = cache.get(key) if version != "0" else None
    if html is None:
        games = selectors.recent_games(player)
        html = render_to_string(
            "results/_player_rated.html",
            {
                "chart": charts.rating_chart(selectors.rating_history(player)),
                "roles": selectors.role_records(rating),
                "games": games,
                "game_prefix": reverse("results:account", args=[1])[: -len("1/account/")],
                "roles_shown": selectors.ROLE_LABELS,
                "outcomes": selectors.OUTCOME_LABELS,
            },
        )
        if version != "0":
            cache.set(key, html, 600)
    return html


@require_GET
def player_page(request: HttpRequest, handle: str) -> HttpResponse:
    try:
        player = selectors.player_by_handle(handle)
    except Player.DoesNotExist:
        raise Http404 from None
    rating = selectors.player_rating(player)
    head, tail = reverse("results:standings", args=["0c0", "0e0"]).split("0c0/0e0")
    return render(
        request,
        "results/player.html",
        {
            "player": player,
            "rating": rating,
            "rated": mark_safe(  # rendered by our template
                _rated_block(player, rating, selectors.ratings_version_of(player))
            ),
            "events": selectors.events_played(player),
            "standings_head": head,
            "standings_tail": tail,
        },
    )


@require_GET
def club_results(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "results/club.html",
        {
            "club": club,
            "members": selectors.club_members(club),
            "events": selectors.club_events(club),
        },
    )
