"""Read-only API for event standings and released game results (``/api/v1/results/...``).

Same release gates as the pages: standings of published events only (released games
only, by construction of the tables); a game's roles and points only when
the request's ``games.permissions.Access`` allows (released, or an official).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.errors import EngineError
from engine.record import parse_record
from engine.scoring import get_profile, score_game, summarize
from games import selectors
from games.models import Game
from games.permissions import access_for
from league.engine_text import stored_reason_text
from league.models import Event, Player
from results import selectors as results_selectors
from results.account import account
from results.reasons import Words, explain


class ItemSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    kind = serializers.CharField()
    points = serializers.CharField(help_text="exact decimal")
    code = serializers.CharField(
        allow_null=True, help_text="the reason's stable code, e.g. points.bonus"
    )
    params = serializers.DictField(
        allow_null=True,
        help_text="the reason's parameters (plain JSON); null on a line stored before "
        "reasons kept their params",
    )
    reason = serializers.CharField(help_text="the reason in the requester's language")


def item_data(item: Any, game: int | None = None) -> dict[str, Any]:
    """A point line — stored ``{"game", "kind", "points", "code", "params"}`` or an engine
    ``PointItem`` — for the API, with its reason rendered in the requester's language."""
    if isinstance(item, dict):
        code, params = item.get("code"), item.get("params")
        return {
            "game": item.get("game"),
            "kind": item.get("kind"),
            "points": item.get("points"),
            "code": code,
            "params": params if isinstance(params, dict) else None,
            "reason": stored_reason_text(item),
        }
    return {
        "game": game,
        "kind": item.kind,
        "points": str(item.points),
        "code": item.code,
        "params": dict(item.params),
        "reason": stored_reason_text(item),
    }


class StandingRowSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    handle = serializers.CharField()
    display_name = serializers.CharField(allow_null=True)
    points = serializers.DecimalField(max_digits=10, decimal_places=2)
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    awards = serializers.DecimalField(max_digits=10, decimal_places=2)
    ci = serializers.DecimalField(max_digits=10, decimal_places=2)
    metrics = serializers.DictField(child=serializers.CharField(), help_text="ladder values")
    above_next = serializers.DictField(
        help_text="metric that put this line above the next, its two values, and the "
        "metrics they were level on (metric null: tied)"
    )
    why = serializers.CharField(help_text="the same, as a sentence")
    items = ItemSerializer(many=True, required=False)


class StandingsSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    stale = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    games = serializers.IntegerField()
    profile = serializers.CharField()
    precedence = serializers.ListField(child=serializers.CharField())
    seed = serializers.IntegerField()
    rows = StandingRowSerializer(many=True)


class SeatResultSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    handle = serializers.CharField()
    display_name = serializers.CharField()
    role = serializers.CharField()
    outcome = serializers.CharField()
    points = serializers.CharField()
    items = ItemSerializer(many=True)


class PhaseSerializer(serializers.Serializer[Any]):
    title = serializers.CharField()
    lines = serializers.ListField(child=serializers.CharField())


class GameResultSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    status = serializers.CharField()
    event = serializers.IntegerField(allow_null=True)
    released = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    profile = serializers.CharField(allow_null=True)
    seats = SeatResultSerializer(many=True)
    account = PhaseSerializer(many=True)


@extend_schema(
    responses=StandingsSerializer,
    parameters=[
        OpenApiParameter("items", OpenApiTypes.BOOL, description="include point breakdowns")
    ],
    tags=["results"],
)
class EventStandingsView(APIView):
    """An event's standings: ranks with ties, every tie-break value, why each line is
    above the next, and (``?items=1``) every point with its reason."""

    permission_classes = [AllowAny]

    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(Event, pk=pk)
        if not access_for(request).can_view_event(event):
            raise Http404
        state = results_selectors.event_state(event)
        with_items = request.query_params.get("items") in ("1", "true", "yes")
        rows = (
            list(event.standing_rows.select_related("player").order_by("position"))
            if with_items
            else results_selectors.event_standings(event)
        )
        out = []
        words = Words()
        for i, row in enumerate(rows):
            below = rows[i + 1] if i + 1 < len(rows) else None
            line: dict[str, Any] = {
                "position": row.position,
                "rank": row.rank,
                "tied": row.tied,
                "handle": row.handle,
                "display_name": row.player.display_name if row.player else None,
                "points": row.points,
                "wins": row.wins,
                "games": row.games,
                "awards": row.awards,
                "ci": row.ci,
                "metrics": row.metrics,
                "above_next": row.above_next,
                "why": explain(row, below, words),
            }
            if with_items:
                line["items"] = [item_data(x) for x in row.items]
            out.append(line)
        data = {
            "event": event.pk,
            "stale": bool(state and state.stale),
            "computed_at": state.computed_at if state else None,
            "games": state.games if state else 0,
            "profile": state.profile if state else "",
            "precedence": state.precedence if state else [],
            "seed": state.seed if state else 0,
            "rows": out,
        }
        return Response(StandingsSerializer(data).data)


@extend_schema(responses=GameResultSerializer, tags=["results"])
class GameResultView(APIView):
    """A game's result: seats with roles, points and reasons, and the night-by-night
    account — once released (officials see it before). Otherwise no seat or role."""

    permission_classes = [AllowAny]

    def get(self, request: Request, pk: int) -> Response:
        try:
            game = selectors.game_by_id(pk)
        except Game.DoesNotExist:
            raise Http404 from None
        access = access_for(request)
        if not access.can_view_game(game):
            raise Http404
        event = game.event
        data: dict[str, Any] = {
            "game": game.pk,
            "status": game.status,
            "event": event.pk if event else None,
            "released": game.released,
            "winner": None,
            "profile": None,
            "seats": [],
            "account": [],
        }
        record = selectors.confirmed_record(game) if access.can_see_secrets(game) else None
        if record is not None:
            profile = get_profile(event.scoring_profile if event else "club-v1")
            handles = [s.get("player") for s in record.get("seats", [])]
            names = dict(
                Player.objects.filter(handle__in=handles).values_list("handle", "display_name")
            )
            try:
                score = score_game(summarize(parse_record(record), str(game.pk)), profile)
            except (EngineError, ValueError):
                score = None
            data["winner"] = (record.get("result") or {}).get("winner")
            data["profile"] = profile.key
            data["account"] = account(record, names)
            for p in score.players if score else ():
                data["seats"].append(
                    {
                        "seat": p.seat,
                        "handle": p.player,
                        "display_name": names.get(p.player, p.player),
                        "role": p.role,
                        "outcome": p.outcome,
                        "points": str(p.total),
                        "items": [item_data(i, game.pk) for i in p.items],
                    }
                )
        return Response(GameResultSerializer(data).data)
