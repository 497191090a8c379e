"""The draw side of the REST API (``/api/v1/``): a draw's job, and the events API with
the draw's actions (draw, measures, round moves, hand changes, referees, export)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league import permissions as perms
from league.clubs.models import Player, Referee
from league.draws import selectors as draw_selectors
from league.draws import serializers as draw_s
from league.draws import services as draw_services
from league.draws.export import write_draw_csv
from league.draws.models import DrawJob
from league.errors import UserError
from league.events import selectors as event_selectors
from league.events import serializers as event_s
from league.events.api import EventViewSet
from league.events.models import Round, Table
from league.permissions import Viewer
from league.rest import EVENT_ERRORS, valid


class DrawJobViewSet(viewsets.GenericViewSet[DrawJob]):
    """A draw's progress, measures and outcome (event staff)."""

    queryset = DrawJob.objects.select_related("event__club")
    serializer_class = draw_s.DrawJobSerializer
    lookup_value_regex = r"[0-9]{1,18}"

    def retrieve(self, request: Request, pk: str) -> Response:
        job = get_object_or_404(self.get_queryset(), pk=pk)
        if not perms.access_for(request).can_staff_event(job.event):
            raise Http404
        return Response(draw_s.DrawJobSerializer(job).data)


class EventDrawViewSet(EventViewSet):
    """Events and everything an organiser does with them."""

    # --- draws and rounds -----------------------------------------------------------------

    @extend_schema(
        request=draw_s.DrawInputSerializer,
        responses={202: draw_s.DrawJobSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def draws(self, request: Request, pk: str) -> Response:
        """Start a draw of rounds from..to (to defaults to the last); poll the job."""
        event = self._event(perms.can_manage_event)
        job = draw_services.request_draw(
            request.user, event, **valid(draw_s.DrawInputSerializer, request)
        )
        return Response(draw_s.DrawJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=draw_s.MeasureSerializer(many=True))
    @action(detail=True, methods=["get"])
    def measures(self, request: Request, pk: str) -> Response:
        event = self._event()
        rounds = event_selectors.visible_rounds(perms.access_for(request), event)
        return Response(draw_selectors.measures_as_dict(draw_selectors.draw_measures(rounds)))

    def _round_verb(
        self, request: Request, pk: str, number: str, verb: Callable[[Viewer, Round], object]
    ) -> Response:
        event = self._event(perms.can_manage_event)
        verb(request.user, self._round(event, number))
        return self._round_body(request, pk, number)

    @extend_schema(request=None, responses={200: event_s.RoundSerializer, **EVENT_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,5})/confirm")
    def confirm(self, request: Request, pk: str, number: str) -> Response:
        return self._round_verb(request, pk, number, draw_services.confirm_round)

    @extend_schema(request=None, responses={200: event_s.RoundSerializer, **EVENT_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,5})/reopen")
    def reopen(self, request: Request, pk: str, number: str) -> Response:
        return self._round_verb(request, pk, number, draw_services.reopen_round)

    @extend_schema(request=None, responses={200: event_s.RoundSerializer, **EVENT_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,5})/release")
    def release(self, request: Request, pk: str, number: str) -> Response:
        return self._round_verb(request, pk, number, draw_services.release_round)

    @extend_schema(request=None, responses={200: event_s.RoundSerializer, **EVENT_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,5})/unpin")
    def unpin(self, request: Request, pk: str, number: str) -> Response:
        """Let "assign referees" and redraws change this round's hand-placed entries."""
        return self._round_verb(request, pk, number, draw_services.unpin_round)

    @extend_schema(
        request=draw_s.SwapInputSerializer, responses={200: event_s.RoundSerializer, **EVENT_ERRORS}
    )
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,5})/swap")
    def swap(self, request: Request, pk: str, number: str) -> Response:
        event = self._event(perms.can_manage_event)
        data = valid(draw_s.SwapInputSerializer, request)
        handles = [data[k].strip().lstrip("@").lower() for k in ("a", "b")]
        players = {p.handle: p for p in Player.objects.filter(handle__in=handles)}
        if len(players) != 2:
            raise UserError(_("Give the handles of two different players."), code="players")
        draw_services.swap_players(
            request.user, self._round(event, number), players[handles[0]], players[handles[1]]
        )
        return self._round_body(request, pk, number)

    @extend_schema(
        request=draw_s.RefereeMoveInputSerializer,
        responses={200: event_s.RoundSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]{1,5})/referee")
    def move_referee(self, request: Request, pk: str, number: str) -> Response:
        event = self._event(perms.can_manage_event)
        data = valid(draw_s.RefereeMoveInputSerializer, request)
        rnd = self._round(event, number)
        table = get_object_or_404(
            Table.objects.select_related("round__event__club"), round=rnd, number=data["table"]
        )
        referee = get_object_or_404(Referee, pk=data["referee"]) if data["referee"] else None
        draw_services.move_referee(request.user, table, referee)
        return self._round_body(request, pk, number)

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **EVENT_ERRORS})
    @action(detail=True, methods=["post"], url_path="assign-referees")
    def assign_referees(self, request: Request, pk: str) -> Response:
        event = self._event(perms.can_manage_event)
        done = draw_services.assign_referees(request.user, event)
        return Response(
            {
                "rounds": done.rounds,
                "kept_tables": done.kept,
                "without_referee": [{"round": r, "table": t} for r, t in done.without],
            }
        )

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="export")
    def export(self, request: Request, pk: str) -> HttpResponse:
        """The draw as CSV (round, table, referee, seat, player) — the rounds you may read."""
        event = self._event(perms.can_staff_event)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-draw.csv"'
        write_draw_csv(response, event_selectors.visible_rounds(perms.access_for(request), event))
        return response
