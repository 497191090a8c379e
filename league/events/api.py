"""The event side of the REST API (``/api/v1/``): the same services, selectors and
permissions as the pages. Token or session auth; a refusal answers with its status
(400, 403, 409) and ``detail``, ``code``, ``params`` (and ``problems`` for a CSV import:
:func:`league.errors.api_exception_handler`); events a user may not see answer 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from league import permissions as perms
from league.clubs import serializers as club_s
from league.clubs.api import ClubWrites
from league.clubs.models import Club, Player, Season
from league.clubs.services import create_player
from league.errors import UserError, require
from league.events import conflicts, selectors, services
from league.events import serializers as s
from league.events.imports import import_players_csv
from league.events.models import Event, Registration, Round
from league.permissions import Viewer
from league.rest import EVENT_ERRORS, SLUG, valid


class ClubViewSet(ClubWrites, viewsets.ReadOnlyModelViewSet[Club]):
    """Clubs, and each club's upcoming published events; any verified user creates a club
    (becoming its organiser), its organisers change it (:class:`ClubWrites`)."""

    queryset = Club.objects.all()
    serializer_class = club_s.ClubSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_field = "slug"
    lookup_value_regex = SLUG

    @extend_schema(responses=s.EventSerializer(many=True))
    @action(detail=True, methods=["get"])
    def events(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        events = selectors.upcoming_events(club).prefetch_related("referees__user", "staff")
        return Response(s.EventSerializer(events, many=True, context=viewer_context(request)).data)


def viewer_context(request: Request) -> dict[str, Any]:
    """Who is asking, for :class:`EventSerializer`'s staff field (one query, not one per
    event)."""
    access = perms.access_for(request)
    if access.user_id is None:
        return {}
    if access.is_site_admin():
        return {"viewer_pk": access.user_id, "managed_clubs": "all"}
    return {"viewer_pk": access.user_id, "managed_clubs": access.organised_club_ids}


def check_season(season: Season | None, club: Club) -> None:
    """An event's season is one of its own club's leagues' seasons."""
    if season is not None and season.league.club_id != club.pk:
        raise UserError(
            _("That season belongs to another club's league."), code="season.other_club"
        )


def _player(handle: str) -> Player:
    handle = handle.strip().lstrip("@").lower()
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        raise UserError(
            _("No player @%(handle)s."), code="unknown_player", params={"handle": handle}
        )
    return player


class EventViewSet(viewsets.GenericViewSet[Event]):
    """Events: settings, status, registrations, rounds and conflicts (the draw's actions
    join them in :class:`league.draws.api.EventDrawViewSet`)."""

    serializer_class = s.EventSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_value_regex = r"[0-9]{1,18}"

    def get_queryset(self) -> QuerySet[Event]:
        return selectors.visible_events(perms.access_for(self.request)).prefetch_related(
            "rounds", "referees__user", "staff"
        )

    def _event(self, check: Callable[[Viewer, Event], bool] | None = None) -> Event:
        event: Event = self.get_object()
        if check is not None:
            require(check(self.request.user, event))
        return event

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset().order_by("-starts_on", "name"))
        return self.get_paginated_response(
            s.EventSerializer(page, many=True, context=viewer_context(request)).data
        )

    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(s.EventSerializer(self._event(), context=viewer_context(request)).data)

    @extend_schema(
        request=s.EventInputSerializer, responses={201: s.EventSerializer, **EVENT_ERRORS}
    )
    def create(self, request: Request) -> Response:
        data = valid(s.EventInputSerializer, request)
        club = data.pop("club", None)
        if club is None:
            raise UserError(_("club is required"), code="required")
        check_season(data.get("season"), club)
        event = services.create_event(request.user, club, **data)
        return Response(
            s.EventSerializer(event, context=viewer_context(request)).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        request=s.EventInputSerializer, responses={200: s.EventSerializer, **EVENT_ERRORS}
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        event = self._event(perms.can_manage_event)
        serializer = s.EventInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.pop("club", None)
        check_season(data.get("season"), event.club)
        event = services.update_event(request.user, event, **data)
        return Response(
            s.EventSerializer(Event.objects.get(pk=event.pk), context=viewer_context(request)).data
        )

    @extend_schema(
        request=s.TransitionInputSerializer, responses={200: s.EventSerializer, **EVENT_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def transition(self, request: Request, pk: str) -> Response:
        event = self._event(perms.can_manage_event)
        event = services.transition_event(
            request.user, event, valid(s.TransitionInputSerializer, request)["to"]
        )
        return Response(
            s.EventSerializer(Event.objects.get(pk=event.pk), context=viewer_context(request)).data
        )

    # --- registrations --------------------------------------------------------------------

    @extend_schema(
        methods=["get"],
        responses=s.RegistrationSerializer(many=True),
        parameters=[OpenApiParameter("q", str, description="search name or handle")],
    )
    @extend_schema(
        methods=["post"],
        request=s.RegisterInputSerializer,
        responses={201: s.RegistrationSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "post"])
    def registrations(self, request: Request, pk: str) -> Response:
        event = self._event()
        if request.method == "GET":
            require(perms.access_for(request).can_staff_event(event))
            q = request.query_params.get("q", "").replace("\x00", "")  # PostgreSQL refuses NUL
            regs = selectors.registrations(event, q)
            page: Any = self.paginate_queryset(regs)
            return self.get_paginated_response(s.RegistrationSerializer(page, many=True).data)
        data = valid(s.RegisterInputSerializer, request)
        handle = data["handle"].strip().lstrip("@").lower()
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            if not data.get("display_name"):
                raise UserError(
                    _("No player @%(handle)s; give a display name to create them."),
                    code="unknown_player",
                    params={"handle": handle},
                )
            require(perms.access_for(request).can_staff_event(event))
            player = create_player(
                request.user, display_name=data["display_name"], handle=handle, event=event
            )
        reg = services.register_player(request.user, event, player)
        return Response(s.RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)

    def _registration(self, event: Event, reg_pk: str) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player", "event__club"), pk=reg_pk, event=event
        )

    @extend_schema(
        request=s.CheckInInputSerializer, responses={200: s.RegistrationSerializer, **EVENT_ERRORS}
    )
    @action(
        detail=True, methods=["post"], url_path=r"registrations/(?P<reg_pk>[0-9]{1,18})/check-in"
    )
    def check_in(self, request: Request, pk: str, reg_pk: str) -> Response:
        event = self._event()
        undo = valid(s.CheckInInputSerializer, request)["undo"]
        reg = services.check_in(request.user, self._registration(event, reg_pk), undo=undo)
        return Response(s.RegistrationSerializer(reg).data)

    @extend_schema(request=None, responses={200: s.RegistrationSerializer, **EVENT_ERRORS})
    @action(
        detail=True, methods=["post"], url_path=r"registrations/(?P<reg_pk>[0-9]{1,18})/withdraw"
    )
    def withdraw(self, request: Request, pk: str, reg_pk: str) -> Response:
        event = self._event()
        reg = services.withdraw(request.user, self._registration(event, reg_pk))
        return Response(s.RegistrationSerializer(reg).data)

    @extend_schema(
        request=s.AbsencesInputSerializer, responses={200: s.RegistrationSerializer, **EVENT_ERRORS}
    )
    @action(
        detail=True, methods=["post"], url_path=r"registrations/(?P<reg_pk>[0-9]{1,18})/absences"
    )
    def absences(self, request: Request, pk: str, reg_pk: str) -> Response:
        event = self._event()
        rounds = valid(s.AbsencesInputSerializer, request)["rounds"]
        reg = services.set_absences(request.user, self._registration(event, reg_pk), rounds)
        return Response(s.RegistrationSerializer(reg).data)

    @extend_schema(
        request={
            "multipart/form-data": s.ImportInputSerializer,
            "application/json": s.ImportInputSerializer,
        },
        responses={200: s.ImportResultSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="import")
    def import_csv(self, request: Request, pk: str) -> Response:
        event = self._event(perms.can_staff_event)
        data = valid(s.ImportInputSerializer, request)
        content = data["file"].read() if data.get("file") else data["text"]
        result = import_players_csv(request.user, event, content, check_in=data["check_in"])
        return Response(s.ImportResultSerializer(result.__dict__).data)

    @extend_schema(responses=s.RoundSerializer(many=True))
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, pk: str) -> Response:
        """Rounds with their tables and seats: released ones for everyone, drafts for staff."""
        event = self._event()
        return Response(
            s.RoundSerializer(
                selectors.visible_rounds(perms.access_for(request), event), many=True
            ).data
        )

    def _round(self, event: Event, number: str) -> Round:
        return get_object_or_404(
            Round.objects.select_related("event__club"), event=event, number=number
        )

    @extend_schema(methods=["get"], responses=s.RoundSerializer)
    @extend_schema(
        methods=["patch"],
        request=s.RoundInputSerializer,
        responses={200: s.RoundSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "patch"], url_path=r"rounds/(?P<number>[0-9]{1,5})")
    def round_detail(self, request: Request, pk: str, number: str) -> Response:
        event = self._event()
        if request.method == "PATCH":
            rnd = self._round(event, number)
            services.set_round_start(
                request.user, rnd, valid(s.RoundInputSerializer, request)["starts_at"]
            )
        rnd_full = next(
            (
                r
                for r in selectors.visible_rounds(perms.access_for(request), event)
                if r.number == int(number)
            ),
            None,
        )
        if rnd_full is None:
            if request.method == "PATCH":
                return Response(s.RoundScheduleSerializer(self._round(event, number)).data)
            raise Http404
        return Response(s.RoundSerializer(rnd_full).data)

    def _round_body(self, request: Request, pk: str, number: str) -> Response:
        event = self._event()
        rnd = next(
            (
                r
                for r in selectors.visible_rounds(perms.access_for(request), event)
                if r.number == int(number)
            ),
            None,
        )
        if rnd is None:
            return Response(s.RoundScheduleSerializer(self._round(event, number)).data)
        return Response(s.RoundSerializer(rnd).data)

    # --- conflicts ------------------------------------------------------------------------

    @extend_schema(methods=["get"], responses=s.PlayerConflictSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=s.PlayerConflictInputSerializer,
        responses={201: s.PlayerConflictSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "post"])
    def conflicts(self, request: Request, pk: str) -> Response:
        """Players who must never share a table in this event."""
        event = self._event(perms.can_staff_event)
        if request.method == "GET":
            players, _refs = selectors.event_conflicts(event)
            return Response(s.PlayerConflictSerializer(players, many=True).data)
        data = valid(s.PlayerConflictInputSerializer, request)
        conflict = conflicts.declare_player_conflict(
            request.user, event, _player(data["a"]), _player(data["b"]), data["reason"]
        )
        return Response(s.PlayerConflictSerializer(conflict).data, status=201)

    @extend_schema(methods=["get"], responses=s.RefereeConflictSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=s.RefereeConflictInputSerializer,
        responses={201: s.RefereeConflictSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], url_path="referee-conflicts")
    def referee_conflicts(self, request: Request, pk: str) -> Response:
        """Declared referee conflicts touching this event (own-club ones apply anyway)."""
        event = self._event(perms.can_staff_event)
        if request.method == "GET":
            _players, refs = selectors.event_conflicts(event)
            return Response(s.RefereeConflictSerializer(refs, many=True).data)
        data = valid(s.RefereeConflictInputSerializer, request)
        referee = get_object_or_404(event.referees.all(), pk=data["referee"])
        conflict = conflicts.declare_referee_conflict(
            request.user, event, referee, _player(data["player"]), data["reason"]
        )
        return Response(s.RefereeConflictSerializer(conflict).data, status=201)

    @extend_schema(request=None, responses={204: None, **EVENT_ERRORS})
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"(?P<kind>conflicts|referee-conflicts)/(?P<conflict_pk>[0-9]{1,18})",
    )
    def remove_conflict(self, request: Request, pk: str, kind: str, conflict_pk: str) -> Response:
        event = self._event(perms.can_manage_event)
        players, refs = selectors.event_conflicts(event)
        pool: list[Any] = list(players) if kind == "conflicts" else list(refs)
        conflict = next((c for c in pool if c.pk == int(conflict_pk)), None)
        if conflict is None:
            raise Http404
        conflicts.remove_conflict(request.user, event, conflict)
        return Response(status=204)
