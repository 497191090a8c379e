"""Read-only API of an event's stages (``/api/v1/results/events/<pk>/stages/...``): the
stages with what each reader may see, and each stage's cumulative standing.

Same gates as the pages: published events only; a hidden stage's standing is given to
the event's organisers only until the stage is finished (anyone else: ``withheld`` true
and no rows).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.permissions import access_for
from league.models import Event
from league.stages.models import EntryKind
from league.stages.selectors import StagePlan, event_stages
from results import selectors
from results import stages as stage_reads
from results.pipeline.stages import plain
from results.reasons import Words, explain


class StageSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="0 for the first stage")
    name = serializers.CharField()
    first_round = serializers.IntegerField()
    last_round = serializers.IntegerField()
    scoring_profile = serializers.CharField()
    multiplier = serializers.CharField(help_text="exact decimal")
    carry = serializers.CharField(help_text="exact decimal")
    entry = serializers.JSONField(help_text='"all", {"top": N} or {"players": [id...]}')
    hidden = serializers.BooleanField()
    finished = serializers.BooleanField()
    cut_confirmed = serializers.BooleanField()
    withheld = serializers.BooleanField(help_text="its standing is hidden from this reader")
    computed = serializers.BooleanField(help_text="the pipeline has its standing")


class StagesSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    stages = StageSerializer(many=True)


class StageRowSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    handle = serializers.CharField()
    display_name = serializers.CharField(allow_null=True)
    points = serializers.CharField(help_text="the cumulative total after this stage")
    stage_points = serializers.CharField(help_text="this stage's points alone, multiplied")
    games = serializers.IntegerField()
    metrics = serializers.DictField(child=serializers.CharField())
    above_next = serializers.DictField()
    why = serializers.CharField()
    enters_next = serializers.BooleanField(
        allow_null=True, help_text="above the next stage's top-N line (null: no such line)"
    )


class StageStandingSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    stage = serializers.IntegerField()
    name = serializers.CharField()
    withheld = serializers.BooleanField(help_text="hidden until the stage is finished")
    stale = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    cut = serializers.IntegerField(allow_null=True, help_text="the next stage's top N")
    rows = StageRowSerializer(many=True)


def _entry(plan: StagePlan) -> Any:
    if plan.entry_kind == EntryKind.TOP:
        return {"top": plan.entry_top}
    if plan.entry_kind == EntryKind.PLAYERS:
        return {"players": list(plan.entry_players)}
    return "all"


def _event(request: Request, pk: int) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if not access_for(request).can_view_event(event):
        raise Http404
    return event


@extend_schema(responses=StagesSerializer, tags=["results"])
class EventStagesView(APIView):
    """An event's stages: rounds, scoring, entry, whether hidden, finished, cut."""

    permission_classes = [AllowAny]

    def get(self, request: Request, pk: int) -> Response:
        event = _event(request, pk)
        access = access_for(request)
        computed = stage_reads.computed_stages(event)
        stages = [
            {
                "position": p.position,
                "name": p.name,
                "first_round": p.first_round,
                "last_round": p.last_round,
                "scoring_profile": p.scoring_profile,
                "multiplier": str(p.multiplier),
                "carry": str(p.carry),
                "entry": _entry(p),
                "hidden": p.hidden,
                "finished": p.finished,
                "cut_confirmed": p.entrants is not None,
                "withheld": not stage_reads.visible(access, event, p),
                "computed": p.position in computed,
            }
            for p in event_stages(event)
        ]
        return Response(StagesSerializer({"event": event.pk, "stages": stages}).data)


@extend_schema(responses=StageStandingSerializer, tags=["results"])
class StageStandingView(APIView):
    """The cumulative standing after one stage (released games only): the total, this
    stage's points, why each line is above the next, and the next stage's cut line."""

    permission_classes = [AllowAny]

    def get(self, request: Request, pk: int, position: int) -> Response:
        event = _event(request, pk)
        plans = event_stages(event)
        plan = next((p for p in plans if p.position == position), None)
        if plan is None:
            raise Http404
        after = next((p for p in plans if p.position == position + 1), None)
        cut = after.entry_top if after and after.entry_kind == EntryKind.TOP else None
        shown = stage_reads.visible(access_for(request), event, plan)
        state = selectors.event_state(event)
        rows = stage_reads.stage_standing(event, position) if shown else []
        words = Words()
        out = []
        for i, row in enumerate(rows):
            below = rows[i + 1] if i + 1 < len(rows) else None
            out.append(
                {
                    "position": row.position,
                    "rank": row.rank,
                    "tied": row.tied,
                    "handle": row.handle,
                    "display_name": row.player.display_name if row.player else None,
                    "points": plain(row.points),
                    "stage_points": plain(row.stage_points),
                    "games": row.games,
                    "metrics": row.metrics,
                    "above_next": row.above_next,
                    "why": explain(row, below, words),
                    "enters_next": None if cut is None else row.position <= cut,
                }
            )
        data = {
            "event": event.pk,
            "stage": plan.position,
            "name": plan.name,
            "withheld": not shown,
            "stale": bool(state and state.stale),
            "computed_at": state.computed_at if state else None,
            "cut": cut,
            "rows": out,
        }
        return Response(StageStandingSerializer(data).data)
