"""Read-only API for rankings and player pages (``/api/v1/rankings/...``).

The same selectors (:mod:`results.selectors`) and release gate as the pages: only released
games are in these tables, and only published events are listed.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Club, League, Player, Season
from results import selectors
from results.circuits import CircuitRow, CircuitView, season_circuit
from results.models import PlayerRating


class RatedPlayerSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    handle = serializers.CharField(source="player.handle")
    display_name = serializers.CharField(source="player.display_name")
    rating = serializers.FloatField()
    uncertainty = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    killer_rating = serializers.FloatField()
    killer_games = serializers.IntegerField()
    police_rating = serializers.FloatField()
    police_games = serializers.IntegerField()
    civilian_rating = serializers.FloatField()
    civilian_games = serializers.IntegerField()
    last_played = serializers.DateField(allow_null=True)


class RankingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    handle = serializers.CharField()
    display_name = serializers.CharField()
    points = serializers.DecimalField(max_digits=10, decimal_places=2)
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    events = serializers.IntegerField()


class RoleRecordSerializer(serializers.Serializer[Any]):
    role = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(help_text="Wilson 95 % interval, lower end")
    ci_high = serializers.FloatField(help_text="Wilson 95 % interval, upper end")
    rating = serializers.FloatField(allow_null=True)


class HistoryPointSerializer(serializers.Serializer[Any]):
    played_on = serializers.DateField()
    game = serializers.IntegerField()
    rating = serializers.FloatField()
    uncertainty = serializers.FloatField()


class PlayedGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="game_id")
    played_on = serializers.DateField()
    role = serializers.CharField()
    outcome = serializers.CharField()
    rating = serializers.FloatField(help_text="rating after the game")
    event = serializers.IntegerField(source="event_id", allow_null=True)
    event_name = serializers.CharField(allow_null=True)
    club = serializers.CharField(source="club_slug")


class EventPlayedSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField(source="event_id")
    name = serializers.CharField()
    club = serializers.CharField(source="club_slug")
    slug = serializers.CharField()
    starts_on = serializers.DateField()
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    points = serializers.DecimalField(max_digits=10, decimal_places=2)
    games = serializers.IntegerField()


class PlayerProfileSerializer(serializers.Serializer[Any]):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    uncertainty = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    roles = RoleRecordSerializer(many=True)
    history = HistoryPointSerializer(many=True)
    recent_games = PlayedGameSerializer(many=True)
    events = EventPlayedSerializer(many=True)


class MemberSerializer(serializers.Serializer[Any]):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()


class PodiumSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    handle = serializers.CharField()
    points = serializers.DecimalField(max_digits=10, decimal_places=2)


class ClubEventSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    status = serializers.CharField()
    podium = PodiumSerializer(many=True)


class ClubResultsSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    members = MemberSerializer(many=True)
    events = ClubEventSerializer(many=True)


LEADERBOARD_PARAMETERS = [
    OpenApiParameter("club", OpenApiTypes.STR, description="club slug (current members)"),
    OpenApiParameter("season", OpenApiTypes.INT, description="season id (played in it)"),
    OpenApiParameter(
        "role",
        OpenApiTypes.STR,
        enum=list(selectors.ROLES),
        description="rank by the per-role rating; min_games counts that role's games",
    ),
    OpenApiParameter("min_games", OpenApiTypes.INT, description="at least this many games"),
    OpenApiParameter("q", OpenApiTypes.STR, description="search handle or name"),
]


@extend_schema(parameters=LEADERBOARD_PARAMETERS, tags=["rankings"])
class RatingLeaderboard(generics.ListAPIView[PlayerRating]):
    """The rating leaderboard (released games only), strongest first, paginated."""

    serializer_class = RatedPlayerSerializer
    permission_classes = [AllowAny]
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        return selectors.leaderboard(selectors.leaderboard_filter(self.request.query_params))

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None and self.paginator is not None
        current = getattr(self.paginator, "page", None)
        offset = current.start_index() - 1 if current is not None else 0
        for i, row in enumerate(page, start=1):
            row.position = offset + i
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


class CircuitEventSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField(help_text="the event's id")
    name = serializers.CharField()
    rank = serializers.IntegerField(help_text="the player's place in the event's final order")
    points = serializers.DecimalField(max_digits=12, decimal_places=2)
    counted = serializers.BooleanField()
    reason = serializers.ChoiceField(
        choices=["all", "best", "beyond_best"],
        help_text="all: every event counts; best: among the best B; beyond_best: dropped",
    )
    reason_text = serializers.CharField(help_text="the reason in the reader's language")


class CircuitAboveSerializer(serializers.Serializer[Any]):
    criterion = serializers.CharField(
        allow_null=True,
        help_text="ranked, points, best_place, events or lots (null: level on every rung)",
    )
    higher = serializers.CharField(allow_null=True, help_text="this line's value")
    lower = serializers.CharField(allow_null=True, help_text="the next line's value")
    next = serializers.CharField(help_text="the next line's handle")
    text = serializers.CharField(help_text="the sentence in the reader's language")


class CircuitLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    ranked = serializers.BooleanField(help_text="false: fewer events than the profile's minimum")
    points = serializers.DecimalField(max_digits=12, decimal_places=2)
    events = serializers.IntegerField(help_text="finished events played")
    counted = CircuitEventSerializer(many=True)
    dropped = CircuitEventSerializer(many=True)
    above_next = CircuitAboveSerializer(allow_null=True)
    unranked_reason = serializers.CharField(allow_blank=True)


class SeasonRankingRowSerializer(RankingRowSerializer):
    circuit = CircuitLineSerializer(
        allow_null=True,
        help_text=(
            "the player's circuit line when the season is ranked as a circuit (null "
            "otherwise, or without a finished event); rows then come in the circuit's order"
        ),
    )


def _circuit_line(line: CircuitRow | None, handles: dict[int, str]) -> dict[str, Any] | None:
    if line is None:
        return None
    above = line.above_next
    return {
        "rank": line.rank,
        "tied": line.tied,
        "ranked": line.ranked,
        "points": line.points,
        "events": line.events,
        "counted": [vars(e) for e in line.counted],
        "dropped": [vars(e) for e in line.dropped],
        "above_next": (
            {
                "criterion": above.get("criterion"),
                "higher": above.get("higher"),
                "lower": above.get("lower"),
                "next": handles.get(above.get("next", 0), ""),
                "text": line.why,
            }
            if above
            else None
        ),
        "unranked_reason": line.unranked_reason,
    }


def _season_rows(rows: list[Any], circuit: CircuitView | None = None) -> list[dict[str, Any]]:
    lines = {line.player.pk: line for line in circuit.rows} if circuit is not None else {}
    handles = {r.player_id: r.player.handle for r in rows}
    if lines:  # the circuit's order, players without a circuit line after
        order = {pk: i for i, pk in enumerate(lines)}
        rows = sorted(rows, key=lambda r: order.get(r.player_id, len(order)))
    return [
        {
            "rank": r.rank,
            "tied": r.tied,
            "handle": r.player.handle,
            "display_name": r.player.display_name,
            "points": r.points,
            "wins": r.wins,
            "games": r.games,
            "events": r.events,
            "circuit": _circuit_line(lines.get(r.player_id), handles),
        }
        for r in rows
    ]


@extend_schema(responses=SeasonRankingRowSerializer(many=True), tags=["rankings"])
class SeasonRanking(APIView):
    """A season's ranking: points summed over its events' standings (``rank``, ``points``)
    and, when the season is ranked as a circuit, each player's circuit line (``circuit``:
    counted and dropped events with the reasons, why above the next line), the rows in
    the circuit's order. A circuit the engine refused has no lines (the page says why)."""

    permission_classes = [AllowAny]

    def get(self, request: Request, pk: int) -> Response:
        season = get_object_or_404(Season.objects.select_related("circuit"), pk=pk)
        rows = _season_rows(selectors.season_ranking(season), season_circuit(season))
        return Response(SeasonRankingRowSerializer(rows, many=True).data)


@extend_schema(responses=RankingRowSerializer(many=True), tags=["rankings"])
class LeagueRanking(APIView):
    """A league's ranking over all its seasons."""

    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str) -> Response:
        league = get_object_or_404(League, slug=slug)
        rows = [
            {
                "rank": r["rank"],
                "tied": r["tied"],
                "handle": r["player__handle"],
                "display_name": r["player__display_name"],
                "points": r["points"],
                "wins": r["wins"],
                "games": r["games"],
                "events": r["events"],
            }
            for r in selectors.league_ranking(league)
        ]
        return Response(RankingRowSerializer(rows, many=True).data)


@extend_schema(responses=PlayerProfileSerializer, tags=["rankings"])
class PlayerProfile(APIView):
    """A player's rating, per-role record (with Wilson intervals), rating history, last
    games and events — released games only."""

    permission_classes = [AllowAny]

    def get(self, request: Request, handle: str) -> Response:
        try:
            player = selectors.player_by_handle(handle)
        except Player.DoesNotExist:
            raise Http404 from None
        rating = selectors.player_rating(player)
        data = {
            "handle": player.handle,
            "display_name": player.display_name,
            "rating": rating.rating if rating else None,
            "uncertainty": rating.uncertainty if rating else None,
            "games": rating.games if rating else 0,
            "wins": rating.wins if rating else 0,
            "roles": [r.as_dict() for r in selectors.role_records(rating)],
            "history": [
                {"played_on": d, "game": g, "rating": r, "uncertainty": u}
                for d, g, r, u in selectors.rating_history(player)
            ],
            "recent_games": selectors.recent_games(player),
            "events": selectors.events_played(player),
        }
        return Response(PlayerProfileSerializer(data).data)


@extend_schema(responses=ClubResultsSerializer, tags=["rankings"])
class ClubResults(APIView):
    """A club's current members with their ratings, and its published events' podiums."""

    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        members = []
        for m in selectors.club_members(club):
            rating = selectors.player_rating(m.player)
            members.append(
                {
                    "handle": m.player.handle,
                    "display_name": m.player.display_name,
                    "rating": rating.rating if rating else None,
                    "games": rating.games if rating else 0,
                }
            )
        events = [
            {
                "id": e.pk,
                "slug": e.slug,
                "name": e.name,
                "starts_on": e.starts_on,
                "status": e.status,
                "podium": [
                    {"rank": p.rank, "handle": p.handle, "points": p.points}
                    for p in e.podium  # type: ignore[attr-defined]
                ],
            }
            for e in selectors.club_events(club)
        ]
        data = {"slug": club.slug, "name": club.name, "members": members, "events": events}
        return Response(ClubResultsSerializer(data).data)
