"""Read-only API of the analytics (``/api/v1/analytics/...``, issue 21).

The same reads and filters as the pages (:mod:`results.analytics`): figures of released
games only, computed by the pipeline. Every figure carries ``n`` and its 95 % interval
(``ci_low``, ``ci_high``; null when there is none); proportions add ``successes``. An
unknown club, season, ruleset or handle is a 400 with ``code`` ``analytics.filter`` or
``analytics.player``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.errors import UserError
from league.rest import ErrorSerializer
from results import analytics as reads
from results.analytics import AnalyticsFilter, Figure


class FigureSerializer(serializers.Serializer[Any]):
    n = serializers.IntegerField(help_text="sample size")
    successes = serializers.IntegerField(
        allow_null=True, help_text="games counted as a success (null for a mean)"
    )
    estimate = serializers.FloatField(allow_null=True, help_text="proportion (0..1) or mean")
    ci_low = serializers.FloatField(
        allow_null=True,
        help_text="95 % interval, lower end (Wilson for proportions, Student t for means)",
    )
    ci_high = serializers.FloatField(allow_null=True, help_text="95 % interval, upper end")


class SideFigureSerializer(FigureSerializer):
    ruleset = serializers.CharField()
    size = serializers.IntegerField(help_text="players at the table")
    side = serializers.ChoiceField(choices=["good", "killers", "draw"])


class SeatFigureSerializer(FigureSerializer):
    seat = serializers.IntegerField()


class VictimFigureSerializer(FigureSerializer):
    size = serializers.IntegerField(help_text="players at the table")
    seat = serializers.IntegerField()


class RefereeFiguresSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    games = serializers.IntegerField()
    rounds = FigureSerializer(help_text="mean length in rounds (games with a full record)")
    bonuses = FigureSerializer(help_text="bonuses given per game")
    penalties = FigureSerializer(help_text="penalties given per game")
    protests_upheld = FigureSerializer(help_text="share of ruled protests that were upheld")


class FiltersSerializer(serializers.Serializer[Any]):
    club = serializers.CharField(allow_null=True)
    season = serializers.IntegerField(allow_null=True)
    ruleset = serializers.CharField(allow_null=True)


class AnalyticsSerializer(serializers.Serializer[Any]):
    filters = FiltersSerializer()
    games = serializers.IntegerField(help_text="released games in the scope")
    computed_at = serializers.DateTimeField(allow_null=True)
    sides = SideFigureSerializer(many=True)
    seats = SeatFigureSerializer(many=True)
    night1_victims = VictimFigureSerializer(many=True)
    referees = RefereeFiguresSerializer(many=True)


class RoleFigureSerializer(FigureSerializer):
    role = serializers.CharField()


class PlayerRolesSerializer(serializers.Serializer[Any]):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    roles = RoleFigureSerializer(many=True)


class HeadToHeadSerializer(serializers.Serializer[Any]):
    filters = FiltersSerializer()
    a = PlayerRolesSerializer()
    b = PlayerRolesSerializer(allow_null=True)
    together = FigureSerializer(
        allow_null=True, help_text="same side: games, and games their side won"
    )
    against = FigureSerializer(
        allow_null=True, help_text="opposite sides: games, and games a's side won"
    )
    b_wins = serializers.IntegerField(allow_null=True, help_text="opposite sides: b's side won")


FILTERS = [
    OpenApiParameter("club", OpenApiTypes.STR, description="a club's slug"),
    OpenApiParameter("season", OpenApiTypes.INT, description="a season's id"),
    OpenApiParameter("ruleset", OpenApiTypes.STR, description="a built-in ruleset's id"),
]


def _filters(f: AnalyticsFilter) -> dict[str, Any]:
    return {
        "club": f.club.slug if f.club else None,
        "season": f.season.pk if f.season else None,
        "ruleset": f.ruleset or None,
    }


def _figure(fig: Figure, **extra: Any) -> dict[str, Any]:
    return {**fig.as_dict(), **extra}


class AnalyticsView(APIView):
    """A scope's figures: side win rates by ruleset and table size, win rate by seat, the
    night-1 victim's seat by table size, per referee."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=FILTERS, responses={200: AnalyticsSerializer, 400: ErrorSerializer})
    def get(self, request: Request) -> Response:
        f = reads.analytics_filter(request.query_params)
        data = reads.scope_figures(f)
        body = {
            "filters": _filters(f),
            "games": data.games,
            "computed_at": data.computed_at,
            "sides": [
                _figure(fig, **group.params, side=fig.params["side"])
                for group in data.sides
                for fig in group.figures
            ],
            "seats": [_figure(fig, seat=fig.params["seat"]) for fig in data.seats],
            "night1_victims": [
                _figure(fig, size=group.params["size"], seat=fig.params["seat"])
                for group in data.victims
                for fig in group.figures
            ],
            "referees": [
                {
                    "name": r.name,
                    "games": r.games,
                    "rounds": r.rounds.as_dict(),
                    "bonuses": r.bonuses.as_dict(),
                    "penalties": r.penalties.as_dict(),
                    "protests_upheld": r.protests.as_dict(),
                }
                for r in data.referees
            ],
        }
        return Response(AnalyticsSerializer(body).data)


def _roles(player: Any, f: AnalyticsFilter) -> dict[str, Any]:
    return {
        "handle": player.handle,
        "display_name": player.display_name,
        "roles": [_figure(fig, role=fig.params["role"]) for fig in reads.role_rates(player, f)],
    }


class PlayersView(APIView):
    """A player's win rate in each role (``a``), and with ``b`` the second player's and
    their head-to-head, over the filters' released games."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("a", OpenApiTypes.STR, required=True, description="a handle"),
            OpenApiParameter("b", OpenApiTypes.STR, description="a second handle"),
            *FILTERS,
        ],
        responses={200: HeadToHeadSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        f = reads.analytics_filter(request.query_params)
        a = reads.player_by_handle(request.query_params.get("a"), "a")
        b = reads.second_player(request.query_params.get("b"), a)
        if a is None:
            raise UserError(
                reads.NO_PLAYER, code="analytics.player", params={"handle": ""}, status=400
            )
        body: dict[str, Any] = {
            "filters": _filters(f),
            "a": _roles(a, f),
            "b": _roles(b, f) if b is not None else None,
            "together": None,
            "against": None,
            "b_wins": None,
        }
        if b is not None:
            together, against = reads.pair_figures(h := reads.pair(a, b, f))
            body.update(together=together.as_dict(), against=against.as_dict(), b_wins=h.b_wins)
        return Response(HeadToHeadSerializer(body).data)
