"""The stages side of the REST API (``/api/v1/events/<pk>/stages/``): read an event's
stages (whoever may see the event), replace the list, finish a stage and seat a final
table (its organisers). The same services as the pages; a refusal answers with its
status and ``detail``, ``code``, ``params`` (``params.problems``: every problem's code)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league import permissions as perms
from league.draws.api import EventDrawViewSet
from league.draws.final_table import draw_final_table
from league.errors import UserError
from league.events.models import Event
from league.rest import EVENT_ERRORS, valid
from league.stages import serializers as st
from league.stages import services
from league.stages.selectors import event_stages


def _stages_body(event: Event) -> list[dict[str, Any]]:
    return [dict(st.StagePlanSerializer(plan).data) for plan in event_stages(event)]


def _stage_list(data: Any) -> list[dict[str, Any]]:
    """The body of ``PUT``: the list itself or ``{"stages": [...]}``."""
    if isinstance(data, dict) and set(data) == {"stages"}:
        data = data["stages"]
    if not isinstance(data, list):
        raise UserError(_('Send the list of stages (or {"stages": [...]}).'), code="stages_type")
    return data


class EventStagesViewSet(EventDrawViewSet):
    """Events, everything an organiser does with them, and their stages."""

    @extend_schema(methods=["GET"], request=None, responses=st.StagePlanSerializer(many=True))
    @extend_schema(
        methods=["PUT"],
        request=st.StageInputSerializer(many=True),
        responses={200: st.StagePlanSerializer(many=True), **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "put"])
    def stages(self, request: Request, pk: str) -> Response:
        """The event's stages in order (one default stage when none are set); ``PUT``
        replaces the list (the event's round count follows)."""
        if request.method == "GET":
            return Response(_stages_body(self._event()))
        event = self._event(perms.can_manage_event)
        services.set_stages(request.user, event, _stage_list(request.data))
        return Response(_stages_body(event))

    @extend_schema(request=None, responses={200: st.StagePlanSerializer(many=True), **EVENT_ERRORS})
    @action(
        detail=True,
        methods=["post"],
        url_path=r"stages/(?P<position>[0-9]{1,2})/finish",
    )
    def finish_stage(self, request: Request, pk: str, position: str) -> Response:
        """Finish a stage whose rounds are all released: a hidden standing becomes public."""
        event = self._event(perms.can_manage_event)
        services.finish_stage(request.user, event, int(position))
        return Response(_stages_body(event))

    @extend_schema(
        request=st.FinalTableInputSerializer,
        responses={200: st.FinalTableSerializer, **EVENT_ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"stages/(?P<position>[0-9]{1,2})/final-table",
    )
    def final_table(self, request: Request, pk: str, position: str) -> Response:
        """Seat the stage's final table by the final design (its rounds become drafts)."""
        event = self._event(perms.can_manage_event)
        seed = valid(st.FinalTableInputSerializer, request).get("seed")
        design = draw_final_table(request.user, event, int(position), seed)
        plan = next(p for p in event_stages(event) if p.position == int(position))
        return Response(
            st.FinalTableSerializer(
                {
                    "stage": plan.name,
                    "first_round": plan.first_round,
                    "games": [[int(p) for p in game] for game in design.games],
                    "seed": design.seed,
                    "method": design.method,
                    "max_neighbours": design.max_neighbours,
                    "bound": design.bound,
                }
            ).data
        )
