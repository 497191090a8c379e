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
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format, get_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from league.models import Club, Event, League, Player, Season
from league.outages import cache
from league.permissions import PUBLIC_EVENT_STATUSES
from results import charts, selectors
from results.circuits import season_circuit
from results.reasons import amount

PAGE_SIZE = 50
#: Clubs listed on the clubs page (beyond that, the search of the leaderboard finds them).
CLUBS_SHOWN = 500
#: Leaderboard pages kept in the cache, per filter (later ones are rarely asked for).
CACHED_PAGES = 20


def _by_name(item: tuple[str, str]) -> tuple[str, str]:
    return (item[1].casefold(), item[0])


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
    key = f"results:lb-options:v3:{get_language()}:{digest}"  # the league links are words
    cached = cache.get(key)
    if cached is None:
        clubs = list(Club.objects.order_by("name").values_list("slug", "name"))
        recent = list(Season.objects.select_related("league").order_by("-starts_on")[:100])
        seasons = [(str(s.pk), str(s)) for s in recent]
        # the leagues of those seasons, for the links to their rankings (no query more)
        leagues = sorted({s.league.slug: s.league.name for s in recent}.items(), key=_by_name)
        cached = {
            "leagues": render_to_string("results/_league_links.html", {"leagues": leagues}),
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
        block = render_to_string(
            "results/_leaderboard_table.html",
            {
                "filter": f,
                "role_label": selectors.ROLE_LABELS.get(f.role, f.role) if f.role else "",
                "page": page,
                "rows": _leaderboard_rows(page.object_list, f, start),
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
    season = get_object_or_404(Season.objects.select_related("league__club", "circuit"), pk=pk)
    return render(
        request,
        "results/season.html",
        {
            "season": season,
            "rows": _ranking_rows(selectors.season_ranking(season)),
            "circuit": season_circuit(season),  # None: no circuit, the plain totals only
            # the season's published events, each linking to its page and standings
            "events": Event.objects.filter(season=season, status__in=PUBLIC_EVENT_STATUSES)
            .select_related("club")
            .order_by("starts_on", "name"),
        },
    )


@require_GET
def league_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("club"), slug=slug)
    return render(
        request,
        "results/league.html",
        {
            "league": league,
            "seasons": league.seasons.order_by("-starts_on"),
            "rows": _ranking_rows(selectors.league_ranking(league)),
        },
    )


def _ranking_rows(rows: list[Any]) -> list[dict[str, Any]]:
    """A season's or a league's ranking (model rows or summed dicts) as the template
    places it: points with two places in the reader's decimal mark (a sum over seasons
    may come from the database as a float or a long Decimal: "1.20000000000000")."""
    prefix = player_prefix()
    decimal = str(get_format("DECIMAL_SEPARATOR"))
    out = []
    for r in rows:
        if isinstance(r, dict):
            handle, name = r["player__handle"], r["player__display_name"]
            values = r
        else:
            handle, name = r.player.handle, r.player.display_name
            values = {k: getattr(r, k) for k in ("rank", "tied", "points", "wins", "games")}
            values["events"] = r.events
        out.append(
            {
                "rank": str(values["rank"]),
                "tied": values["tied"],
                "url": f"{prefix}{quote(handle)}/",
                "name": name,
                "points": amount(values["points"], decimal),
                "wins": str(values["wins"]),
                "games": str(values["games"]),
                "events": str(values["events"]),
            }
        )
    return out


@require_GET
def clubs(request: HttpRequest) -> HttpResponse:
    """Every club, with its number of published events: the way to each club's pages."""
    return render(
        request,
        "results/clubs.html",
        {
            "clubs": Club.objects.annotate(
                published=Count("events", filter=Q(events__status__in=PUBLIC_EVENT_STATUSES))
            ).order_by("name")[:CLUBS_SHOWN],
            "limit": CLUBS_SHOWN,
        },
    )


# The rows below are formatted here and only placed by the templates: a filter in a
# template loop costs tens of microseconds a cell, which a page of 50 rows feels.


def _leaderboard_rows(
    ratings: Any, f: selectors.LeaderboardFilter, start: int
) -> list[dict[str, str]]:
    prefix = player_prefix()
    wins_field = f"{f.role}_wins" if f.role else "wins"
    return [
        {
            "position": str(start + i),
            "handle": r.player.handle,
            "url": f"{prefix}{quote(r.player.handle)}/",
            "name": r.player.display_name,
            "rating": f"{getattr(r, f.rating_field):.0f}",
            "uncertainty": "" if f.role else f"{r.uncertainty:.0f}",
            "games": str(getattr(r, f.games_field)),
            "wins": str(getattr(r, wins_field)),
        }
        for i, r in enumerate(ratings, start=1)
    ]


def _dates() -> Callable[[Any], str]:
    """``date_format`` remembered per date for one page: rows share few dates, and each
    localized format costs tens of microseconds."""
    seen: dict[Any, str] = {}

    def day(value: Any) -> str:
        text = seen.get(value)
        if text is None:
            text = seen[value] = date_format(value)
        return text

    return day


def _game_rows(games: list[selectors.PlayedGame]) -> list[dict[str, str]]:
    """The player's last games (newest first), with the reader's dates and words."""
    roles = {k: str(v) for k, v in selectors.ROLE_LABELS.items()}
    outcomes = {k: str(v) for k, v in selectors.OUTCOME_LABELS.items()}
    day = _dates()
    prefix = reverse("results:account", args=[1])[: -len("1/account/")]
    return [
        {
            "day": day(g.played_on),
            "url": f"{prefix}{g.game_id}/account/",
            "where": g.event_name if g.event_name is not None else g.club_name,
            "game": str(g.game_id),
            "role": g.role,
            "role_label": roles.get(g.role, g.role),
            "outcome": g.outcome,
            "outcome_label": outcomes.get(g.outcome, ""),
            "rating": f"{g.rating:.0f}",
        }
        for g in games
    ]


def _event_rows(events: list[selectors.EventPlayed]) -> list[dict[str, Any]]:
    """The events the player has a standing in, with the reader's dates and numbers."""
    day = _dates()
    # One reverse for every row; the template escapes the slugs put in place.
    head, tail = reverse("results:standings", args=["0c0", "0e0"]).split("0c0/0e0")
    return [
        {
            "url": f"{head}{e.club_slug}/{e.slug}{tail}",
            "name": e.name,
            "club_name": e.club_name,
            "day": day(e.starts_on),
            "tied": e.tied,
            "rank": str(e.rank),
            "points": number_format(e.points),
            "games": str(e.games),
        }
        for e in events
    ]


@require_GET
def player_page(request: HttpRequest, handle: str) -> HttpResponse:
    try:
        player = selectors.player_by_handle(handle)
    except Player.DoesNotExist:
        raise Http404 from None
    # Not cached: views spread over thousands of players, so a cache would mostly miss
    # (and a key needs the ratings' version: one query more on every view).
    rating = selectors.player_rating(player)
    return render(
        request,
        "results/player.html",
        {
            "player": player,
            "rating": rating,
            "chart": charts.rating_chart(selectors.rating_history(player)),
            "roles": selectors.role_records(rating),
            "games": _game_rows(selectors.recent_games(player)),
            "events": _event_rows(selectors.events_played(player)),
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
