"""Reads for the public results pages and API: leaderboards, rankings, player and club pages.

Everything here reads the denormalised tables of :mod:`results.models`, which the
results pipeline fills from **released** games only, so nothing here can show a role of
an unreleased game. Each selector costs a fixed, small number of queries (the pages'
query budgets in ``tests/results`` keep it that way).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Sum
from django.utils.translation import gettext_lazy as _

from league.models import Club, Event, League, Membership, Player, Season
from league.names import name_filter
from league.permissions import PUBLIC_EVENT_STATUSES
from results.models import (
    EventResults,
    EventStanding,
    PlayerRating,
    RatingPoint,
    RatingsLedger,
    SeasonStanding,
)

ROLES = ("killer", "police", "civilian")
ROLE_LABELS = {"killer": _("killer"), "police": _("police"), "civilian": _("civilian")}
OUTCOME_LABELS = {"win": _("win"), "loss": _("loss"), "draw": _("draw")}
# --- statistics ----------------------------------------------------------------------------


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a win rate, as fractions."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class RoleRecord:
    role: str
    label: str
    games: int
    wins: int
    rating: float | None

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "role": self.role,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.rate,
            "ci_low": low,
            "ci_high": high,
            "rating": self.rating,
        }


def role_records(rating: PlayerRating | None) -> list[RoleRecord]:
    out = []
    for role in ROLES:
        out.append(
            RoleRecord(
                role,
                str(ROLE_LABELS[role]),
                getattr(rating, f"{role}_games", 0) if rating else 0,
                getattr(rating, f"{role}_wins", 0) if rating else 0,
                getattr(rating, f"{role}_rating", None) if rating else None,
            )
        )
    return out


# --- the rating leaderboard -----------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardFilter:
    """The leaderboard's filters; ``role`` ranks by the per-role rating and counts that
    role's games for ``min_games``."""

    club: Club | None = None
    season: Season | None = None
    role: str | None = None
    min_games: int = 0
    query: str = ""

    @property
    def rating_field(self) -> str:
        return f"{self.role}_rating" if self.role else "rating"

    def params(self) -> list[tuple[str, str]]:
        """The filters as query parameters in one fixed order: what links carry and
        cache keys are made of (so parameters nobody reads change neither)."""
        out = []
        if self.club is not None:
            out.append(("club", self.club.slug))
        if self.season is not None:
            out.append(("season", str(self.season.pk)))
        if self.role:
            out.append(("role", self.role))
        if self.min_games:
            out.append(("min_games", str(self.min_games)))
        if self.query:
            out.append(("q", self.query))
        return out

    @property
    def games_field(self) -> str:
        return f"{self.role}_games" if self.role else "games"


def query_int(value: str | None, default: int = 0) -> int:
    """A non-negative integer from a query parameter; ``default`` if it is none."""
    try:
        return max(0, int(value or default))
    except ValueError:
        return default


def leaderboard_filter(params: Any) -> LeaderboardFilter:
    """The leaderboard's filters from query parameters (unknown values are ignored); the
    page and the API read them alike."""
    club = None
    if params.get("club") and "\x00" not in params["club"]:  # PostgreSQL refuses NUL
        club = Club.objects.filter(slug=params["club"]).annotate(**MEMBER_STAMP).first()
    season = None
    if params.get("season"):
        season = Season.objects.filter(pk=query_int(params["season"])).first()
    role = params.get("role") if params.get("role") in ROLES else None
    return LeaderboardFilter(
        club=club,
        season=season,
        role=role,
        min_games=min(query_int(params.get("min_games")), 100000),
        query=(params.get("q") or "").replace("\x00", "").strip()[:60],
    )


def leaderboard(f: LeaderboardFilter) -> QuerySet[PlayerRating]:
    """Rated players, strongest first (ties by player id), filtered; ``player`` joined."""
    qs = PlayerRating.objects.select_related("player")
    if f.min_games > 0:
        qs = qs.filter(**{f"{f.games_field}__gte": f.min_games})
    elif f.role:
        qs = qs.filter(**{f"{f.games_field}__gte": 1})
    if f.club is not None:
        qs = qs.filter(
            Exists(
                Membership.objects.filter(
                    player_id=OuterRef("player_id"), club=f.club, left__isnull=True
                )
            )
        )
    if f.season is not None:
        qs = qs.filter(
            Exists(SeasonStanding.objects.filter(player_id=OuterRef("player_id"), season=f.season))
        )
    if f.query:  # any script: pinyin finds 王芳, accents and spacing do not matter
        qs = name_filter(qs, f.query, "player__display_name", "player__handle")
    return qs.order_by(f"-{f.rating_field}", "player_id")


def leaderboard_position(f: LeaderboardFilter, player: Player) -> int | None:
    """1-based position of ``player`` in the (unsearched) leaderboard, or None."""
    base = LeaderboardFilter(f.club, f.season, f.role, f.min_games)
    qs = leaderboard(base)
    mine = qs.filter(player=player).values_list(base.rating_field, flat=True).first()
    if mine is None:
        return None
    above = qs.filter(
        Q(**{f"{base.rating_field}__gt": mine})
        | Q(**{base.rating_field: mine, "player_id__lt": player.pk})
    ).count()
    return above + 1


# --- season and league rankings ---------------------------------------------------------------


def _ranked(rows: list[Any], key: str = "points") -> list[Any]:
    """Competition ranks ("1, 2, 2, 4") on ``key`` then wins; sets ``rank`` and ``tied``."""
    previous: tuple[Any, ...] | None = None
    rank = 0
    for index, row in enumerate(rows, start=1):
        value = (getattr(row, key) if not isinstance(row, dict) else row[key], _wins(row))
        if value != previous:
            rank = index
            previous = value
        _set(row, "rank", rank)
    for index, row in enumerate(rows):
        value = _get(row, "rank")
        shared = (index > 0 and _get(rows[index - 1], "rank") == value) or (
            index + 1 < len(rows) and _get(rows[index + 1], "rank") == value
        )
        _set(row, "tied", shared)
    return rows


def _wins(row: Any) -> Any:
    return row["wins"] if isinstance(row, dict) else row.wins


def _get(row: Any, name: str) -> Any:
    return row[name] if isinstance(row, dict) else getattr(row, name)


def _set(row: Any, name: str, value: Any) -> None:
    if isinstance(row, dict):
        row[name] = value
    else:
        setattr(row, name, value)


def season_ranking(season: Season) -> list[SeasonStanding]:
    """A season's players by points over its events, then wins."""
    rows = list(
        SeasonStanding.objects.filter(season=season)
        .select_related("player")
        .order_by("-points", "-wins", "games", "player__handle")
    )
    return _ranked(rows)


def league_ranking(league: League) -> list[dict[str, Any]]:
    """A league's players by points over all its seasons, then wins."""
    rows = list(
        SeasonStanding.objects.filter(season__league=league)
        .values("player_id", "player__handle", "player__display_name")
        .annotate(
            points=Sum("points"),
            wins=Sum("wins"),
            games=Sum("games"),
            events=Sum("events"),
            seasons=Count("season_id"),
        )
        .order_by("-points", "-wins", "games", "player__handle")
    )
    return _ranked(rows)


# --- the player page --------------------------------------------------------------------------


def player_by_handle(handle: str) -> Player:
    if "\x00" in handle:  # PostgreSQL refuses NUL in text: no such player
        raise Player.DoesNotExist
    return Player.objects.select_related("rating").get(handle=handle)


def player_rating(player: Player) -> PlayerRating | None:
    try:
        return player.rating
    except PlayerRating.DoesNotExist:
        return None


# The player page's three lists are read on every view of any of thousands of players (no
# cache helps there); building and compiling their querysets cost about as much as running
# them, so they are written out once here. Plain SQL that SQLite and PostgreSQL both run;
# the backends' column types give dates, booleans and (on PostgreSQL) decimals.
_HISTORY_SQL = f"""
    SELECT played_on, game_id, rating, uncertainty FROM {RatingPoint._meta.db_table}
    WHERE player_id = %s ORDER BY played_on, game_id"""
_RECENT_SQL = f"""
    SELECT rp.game_id, rp.played_on, rp.role, rp.outcome, rp.rating, rp.event_id, e.name,
           c.slug, c.name
    FROM {RatingPoint._meta.db_table} rp
    LEFT OUTER JOIN {Event._meta.db_table} e ON rp.event_id = e.id
    INNER JOIN {Club._meta.db_table} c ON rp.club_id = c.id
    WHERE rp.player_id = %s ORDER BY rp.played_on DESC, rp.game_id DESC LIMIT %s"""
_EVENTS_SQL = f"""
    SELECT s.event_id, e.name, e.slug, c.slug, c.name, e.starts_on, s.rank, s.tied, s.points,
           s.games
    FROM {EventStanding._meta.db_table} s
    INNER JOIN {Event._meta.db_table} e ON s.event_id = e.id
    INNER JOIN {Club._meta.db_table} c ON e.club_id = c.id
    WHERE s.player_id = %s AND e.status IN ({", ".join(["%s"] * len(PUBLIC_EVENT_STATUSES))})
    ORDER BY e.starts_on DESC, s.event_id DESC"""


def _rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def rating_history(player: Player) -> list[tuple[Any, int, float, float]]:
    """(played_on, game_id, rating, uncertainty) after each of the player's rated games."""
    return _rows(_HISTORY_SQL, [player.pk])


@dataclass(frozen=True)
class PlayedGame:
    game_id: int
    played_on: Any
    role: str
    outcome: str
    rating: float
    event_id: int | None
    event_name: str | None
    club_slug: str
    club_name: str


def recent_games(player: Player, limit: int = 30) -> list[PlayedGame]:
    """The player's last released games, newest first, with their event and club."""
    return [PlayedGame(*row) for row in _rows(_RECENT_SQL, [player.pk, limit])]


@dataclass(frozen=True)
class EventPlayed:
    event_id: int
    name: str
    slug: str
    club_slug: str
    club_name: str
    starts_on: Any
    rank: int
    tied: bool
    points: Decimal
    games: int


def events_played(player: Player) -> list[EventPlayed]:
    """The published events the player has a standing in, newest first."""
    return [
        EventPlayed(event, name, slug, club, club_name, day, rank, bool(tied), _decimal(pts), n)
        for event, name, slug, club, club_name, day, rank, tied, pts, n in _rows(
            _EVENTS_SQL, [player.pk, *PUBLIC_EVENT_STATUSES]
        )
    ]


_CENTS = Decimal("0.01")  # EventStanding.points has two decimal places


def _decimal(value: Any) -> Decimal:
    """A points column read by hand: PostgreSQL gives Decimal("3.00"), SQLite 3 or 2.5;
    both come out with the column's two places, as the ORM would give them."""
    return value if isinstance(value, Decimal) else Decimal(str(value)).quantize(_CENTS)


# --- the club page ----------------------------------------------------------------------------


def club_members(club: Club) -> list[Membership]:
    """Current members, strongest rated first (unrated last)."""
    members = list(
        Membership.objects.filter(club=club, left__isnull=True)
        .select_related("player__rating")
        .order_by("player__display_name")
    )

    def strength(m: Membership) -> tuple[int, float]:
        try:
            return (0, -m.player.rating.rating)
        except PlayerRating.DoesNotExist:
            return (1, 0.0)

    members.sort(key=strength)
    return members


def club_events(club: Club, limit: int = 50) -> list[Event]:
    """The club's published events, newest first, each with ``podium`` (its top three)."""
    events = list(
        Event.objects.filter(club=club, status__in=PUBLIC_EVENT_STATUSES)
        .select_related("results_state")
        .order_by("-starts_on", "name")[:limit]
    )
    podium: dict[int, list[EventStanding]] = {}
    for row in (
        EventStanding.objects.filter(event__in=[e.pk for e in events], rank__lte=3)
        .select_related("player")
        .order_by("event_id", "position")
    ):
        podium.setdefault(row.event_id, []).append(row)
    for event in events:
        event.podium = podium.get(event.pk, [])  # type: ignore[attr-defined]
    return events


# --- event standings --------------------------------------------------------------------------


def event_state(event: Event) -> EventResults | None:
    return EventResults.objects.filter(event=event).first()


def event_standings(event: Event) -> list[EventStanding]:
    """The event's standing rows in order, ``player`` joined (breakdowns left deferred)."""
    return list(
        EventStanding.objects.filter(event=event)
        .select_related("player")
        .defer("items")
        .order_by("position")
    )


@dataclass(frozen=True)
class Line:
    """A standing row for display, read without building model instances."""

    handle: str
    display_name: str | None
    rank: int
    tied: bool
    points: Decimal
    games: int
    ci: Decimal
    metrics: dict[str, str]
    above_next: dict[str, Any]


def standing_lines(event: Event) -> list[Line]:
    return [
        Line(*row)
        for row in EventStanding.objects.filter(event=event)
        .order_by("position")
        .values_list(
            "handle",
            "player__display_name",
            "rank",
            "tied",
            "points",
            "games",
            "ci",
            "metrics",
            "above_next",
        )
    ]


def standing_of(event: Event, handle: str) -> EventStanding:
    return EventStanding.objects.select_related("player").get(event=event, handle=handle)


def decimal(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)


#: Annotations on a Club that change whenever someone joins or leaves it.
MEMBER_STAMP = {
    "current_members": Count("memberships", filter=Q(memberships__left__isnull=True)),
    "newest_member": Max("memberships__pk", filter=Q(memberships__left__isnull=True)),
}


def members_version(club: Club) -> str:
    """A club filter's part of a cache key, from a club loaded with :data:`MEMBER_STAMP`."""
    return f"{club.current_members}-{club.newest_member}"  # type: ignore[attr-defined]


def ratings_version() -> str:
    """Changes whenever ratings are written (cache keys of the rating pages use it)."""
    row = RatingsLedger.objects.filter(pk=1).values_list("computed_at", "games").first()
    return "0" if row is None or row[0] is None else f"{row[0].timestamp():.6f}-{row[1]}"
