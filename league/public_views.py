"""Public results pages on the league side: the rating leaderboard, season and league
rankings, a player's page and a club's results page.

Release gate: these pages read only :mod:`league.results_models`, which hold released
games only; events that are not published are left out. Views are thin: reads come from
:mod:`league.rankings`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format, number_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from league import rankings
from league.models import Club, League, Player, Season
from league.outages import cache

PAGE_SIZE = 50
#: Leaderboard pages kept in the cache, per filter (later ones are rarely asked for).
CACHED_PAGES = 20


def _int(value: str | None, default: int = 0) -> int:
    try:
        return max(0, int(value or default))
    except ValueError:
        return default


def leaderboard_filter(params: Any) -> rankings.LeaderboardFilter:
    """The leaderboard's filters from query parameters (unknown values are ignored)."""
    club = None
    if params.get("club") and "\x00" not in params["club"]:  # PostgreSQL refuses NUL
        club = Club.objects.filter(slug=params["club"]).annotate(**rankings.MEMBER_STAMP).first()
    season = None
    if params.get("season"):
        season = Season.objects.filter(pk=_int(params["season"])).first()
    role = params.get("role") if params.get("role") in rankings.ROLES else None
    return rankings.LeaderboardFilter(
        club=club,
        season=season,
        role=role,
        min_games=min(_int(params.get("min_games")), 100000),
        query=(params.get("q") or "").replace("\x00", "").strip()[:60],
    )


def _my_player(request: HttpRequest) -> Player | None:
    user = request.user
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def _player_prefix() -> str:
    return reverse("results-player", args=["-"])[:-2]


def leaderboard_rows_html(rows: list[tuple[int, Any]], f: rankings.LeaderboardFilter) -> str:
    """The leaderboard's table rows, built directly (a template loop costs ~1 ms a row)."""
    prefix = _player_prefix()
    wins_field = f"{f.role}_wins" if f.role else "wins"
    out = []
    for position, r in rows:
        p = r.player
        handle = escape(p.handle)
        unc = "" if f.role else f"{r.uncertainty:.0f}"
        out.append(
            f'<tr id="player-{handle}"><td class="num">{position}</td>'
            f'<td><a href="{prefix}{quote(p.handle)}/">{escape(p.display_name)}</a> '
            f'<small class="muted">@{handle}</small></td>'
            f'<td class="num">{getattr(r, f.rating_field):.0f}</td>'
            f'<td class="num muted">{unc}</td><td class="num">{getattr(r, f.games_field)}</td>'
            f'<td class="num">{getattr(r, wins_field)}</td></tr>'
        )
    return "".join(out)


def _filter_options(f: rankings.LeaderboardFilter) -> dict[str, str]:
    """The club and season <option>s (cached for a minute: new clubs show up soon)."""
    key = "results:lb-options:v1"
    cached = cache.get(key)
    if cached is None:
        clubs = "".join(
            f'<option value="{escape(slug)}">{escape(name)}</option>'
            for slug, name in Club.objects.order_by("name").values_list("slug", "name")
        )
        seasons = "".join(
            f'<option value="{s.pk}">{escape(str(s))}</option>'
            for s in Season.objects.select_related("league").order_by("-starts_on")[:100]
        )
        cached = {"clubs": clubs, "seasons": seasons}
        cache.set(key, cached, 60)
    out = dict(cached)
    if f.club is not None:
        value = f'value="{escape(f.club.slug)}"'
        out["clubs"] = out["clubs"].replace(value, value + " selected", 1)
    if f.season is not None:
        value = f'value="{f.season.pk}"'
        out["seasons"] = out["seasons"].replace(value + ">", value + " selected>", 1)
    return {k: mark_safe(v) for k, v in out.items()}  # built from escaped parts


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    f = leaderboard_filter(request.GET)
    filters = f.params()
    query_string = urlencode(filters)
    page_number = _int(request.GET.get("page"), 1) or 1
    # The table and pager depend only on the ratings, the filters and the page: cache
    # them under the ratings' version (a confirmation changes it, so nothing stale is
    # served) and, for a club, its members'. Name searches and far pages are not cached:
    # any text makes a new key.
    cacheable = not f.query and page_number <= CACHED_PAGES
    version = rankings.ratings_version()
    if f.club is not None:
        version += ":" + rankings.members_version(f.club)
    digest = hashlib.sha1(f"{query_string}&page={page_number}".encode()).hexdigest()
    key = f"results:lb:{version}:{get_language()}:{digest}"
    block = cache.get(key) if cacheable else None
    if block is None:
        paginator = Paginator(rankings.leaderboard(f), PAGE_SIZE)
        page = paginator.get_page(page_number)
        start = (page.number - 1) * PAGE_SIZE
        rows = [(start + i, r) for i, r in enumerate(page.object_list, start=1)]
        block = render_to_string(
            "league/public/_leaderboard_table.html",
            {
                "filter": f,
                "page": page,
                "rows_html": mark_safe(leaderboard_rows_html(rows, f)),
                "query_string": query_string,
            },
        )
        if cacheable:
            cache.set(key, block, 600)
    me = _my_player(request)
    my_position = rankings.leaderboard_position(f, me) if me is not None else None
    return render(
        request,
        "league/public/leaderboard.html",
        {
            "filter": f,
            "table": mark_safe(block),  # rendered by our template
            "options": _filter_options(f),
            "roles": [(r, rankings.ROLE_LABELS[r]) for r in rankings.ROLES],
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


def _labels(labels: dict[str, Any]) -> dict[str, str]:
    """Translated, escaped labels resolved once per page (``escape`` of a lazy string stays
    lazy and would translate again in every row)."""
    return {k: escape(str(v)) for k, v in labels.items()}


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


def player_games_html(games: list[Any]) -> str:
    """Rows of the player's last games (newest first; the first is ``#last-game``)."""
    out = []
    roles = _labels(rankings.ROLE_LABELS)
    outcomes = _labels(rankings.OUTCOME_LABELS)
    day = _dates()
    prefix = reverse("games:account", args=[1])[: -len("1/account/")]
    for i, g in enumerate(games):
        where = escape(g.event_name if g.event_name is not None else g.club_name)
        first = ' id="last-game"' if i == 0 else ""
        out.append(
            f"<tr{first}>"
            f"<td>{day(g.played_on)}</td>"  # the reader's date format
            f'<td><a href="{prefix}{g.game_id}/account/">{where} · #{g.game_id}</a></td>'
            f'<td class="role-{escape(g.role)}">{roles.get(g.role, escape(g.role))}</td>'
            f'<td class="outcome-{escape(g.outcome)}">{outcomes.get(g.outcome, "")}</td>'
            f'<td class="num">{g.rating:.0f}</td></tr>'
        )
    return "".join(out)


def player_events_html(rows: list[Any]) -> str:
    day = _dates()
    # One reverse for every row; the slugs are put in place (escaped, in case a row was
    # saved without the slug validation that reverse() would have enforced).
    head, tail = reverse("games:standings", args=["0c0", "0e0"]).split("0c0/0e0")
    out = []
    for e in rows:
        url = f"{head}{escape(e.club_slug)}/{escape(e.slug)}{tail}"
        tied = " rank-tied" if e.tied else ""
        out.append(
            f'<tr><td><a href="{url}">{escape(e.name)}</a> '
            f'<small class="muted">{escape(e.club_name)}</small></td>'
            f'<td>{day(e.starts_on)}</td><td class="num{tied}">{e.rank}</td>'
            f'<td class="num">{number_format(e.points)}</td><td class="num">{e.games}</td></tr>'
        )
    return "".join(out)


def chart_svg_html(chart: rankings.Chart) -> str:
    """The rating chart's SVG content: grid with rating ticks, the ± uncertainty band, the
    rating line, the last point and the first and last dates."""
    out = []
    for y, label in chart.y_ticks:
        out.append(
            f'<line class="grid" x1="44" x2="{chart.width}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text x="40" y="{y:.1f}" text-anchor="end" dominant-baseline="middle">'
            f"{escape(label)}</text>"
        )
    out.append(f'<polygon class="band" points="{chart.band}"/>')
    out.append(f'<polyline class="line" points="{chart.line}"/>')
    if chart.last:
        x, y = chart.last
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#f0b429"/>')
    for i, (x, label) in enumerate(chart.x_labels):
        anchor = "start" if i == 0 else "end"
        out.append(
            f'<text x="{x:.1f}" y="{chart.height - 4}" text-anchor="{anchor}">'
            f"{escape(label)}</text>"
        )
    return "".join(out)


def role_rows_html(roles: list[rankings.RoleRecord]) -> str:
    """The per-role record: games, wins, win rate, its Wilson interval, the role rating."""
    out = []
    for r in roles:
        if r.games:
            low, high = r.interval
            rate = f"{round(r.wins / r.games * 100)}%"
            interval = f"{floatformat(low, 2)}–{floatformat(high, 2)}"
        else:
            rate = interval = "—"
        rating = floatformat(r.rating, 0) if r.rating is not None else "—"
        out.append(
            f'<tr><td class="role-{escape(r.role)}">{escape(r.label)}</td>'
            f'<td class="num">{r.games}</td><td class="num">{r.wins}</td>'
            f'<td class="num">{rate}</td><td class="num">{interval}</td>'
            f'<td class="num">{rating}</td></tr>'
        )
    return "".join(out)


@require_GET
def player_page(request: HttpRequest, handle: str) -> HttpResponse:
    try:
        player = rankings.player_by_handle(handle)
    except Player.DoesNotExist:
        raise Http404 from None
    rating = rankings.player_rating(player)
    chart = rankings.rating_chart(rankings.rating_history(player))
    games = rankings.recent_games(player)
    roles = rankings.role_records(rating)
    return render(
        request,
        "league/public/player.html",
        {
            "player": player,
            "rating": rating,
            "roles": roles,
            # Built directly, like the tables below: template loops cost more than the data.
            "roles_html": mark_safe(role_rows_html(roles)),
            "chart": chart,
            "chart_html": mark_safe(chart_svg_html(chart)) if chart else "",
            "games_html": mark_safe(player_games_html(games)),  # built from escaped parts
            "events_html": mark_safe(  # built from escaped parts
                player_events_html(rankings.events_played(player))
            ),
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
