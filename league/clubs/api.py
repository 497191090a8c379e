"""The club side of the REST API (``/api/v1/``): players, clubs (their writes and
invitations; the read side and each club's events are in
``league.events.api.ClubViewSet``), accepting an invitation, leagues and seasons.
Thin: an input serializer, one service."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from league import permissions as perms
from league.clubs import circuits, services
from league.clubs import invitations as inv
from league.clubs import serializers as s
from league.clubs.mail import send_invitation
from league.clubs.models import CircuitProfile, Club, Invitation, League, Player, Season
from league.clubs.services import create_player
from league.errors import UserError, require
from league.names import name_filter
from league.rest import EVENT_ERRORS, SLUG, ErrorSerializer, valid


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Player],
):
    """Players (display name and handle are public); organisers create them."""

    serializer_class = s.PlayerSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_field = "handle"
    lookup_value_regex = r"[-\w]{1,60}"  # a unicode slug (no NUL, which PostgreSQL refuses)

    def get_queryset(self) -> QuerySet[Player]:
        qs = Player.objects.order_by("display_name", "handle")
        q = self.request.query_params.get("q", "").replace("\x00", "").strip().lstrip("@")
        if q:
            qs = name_filter(qs, q, "display_name", "handle")  # any script (league.names)
        return qs

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="search name or handle")],
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=s.PlayerInputSerializer, responses={201: s.PlayerSerializer})
    def create(self, request: Request) -> Response:
        data = valid(s.PlayerInputSerializer, request)
        player = create_player(request.user, **data)
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class ClubWrites:
    """``POST /clubs/`` (any verified user; they become its organiser) and ``PATCH
    /clubs/<slug>/`` (its organisers), mixed into ``league.events.api.ClubViewSet``."""

    if TYPE_CHECKING:  # given by the viewset it is mixed into

        def get_object(self) -> Any: ...

    @extend_schema(methods=["get"], responses=s.InvitationSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=s.InvitationInputSerializer,
        responses={201: s.NewInvitationSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "post"])
    def invitations(self, request: Request, slug: str) -> Response:
        """The club's pending invitations; a new one (its ``link`` is given only here)."""
        club: Club = self.get_object()
        require(perms.access_for(request).is_club_organiser(club))
        if request.method == "GET":
            pending = club.invitations.select_related("player", "club").filter(
                accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
            )
            return Response(s.InvitationSerializer(pending[:500], many=True).data)
        data = valid(s.InvitationInputSerializer, request)
        invitation, token = inv.create_invitation(
            request.user,
            club,
            role=data["role"],
            email=data.get("email", ""),
            player=data.get("player"),
        )
        link = request.build_absolute_uri(reverse("invitation", args=[token]))
        if invitation.email:
            transaction.on_commit(lambda: send_invitation(invitation, link))
        answer = s.NewInvitationSerializer(invitation).data
        return Response({**answer, "link": link}, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.InvitationSerializer, **EVENT_ERRORS})
    @action(
        detail=True,
        methods=["post"],
        url_path=r"invitations/(?P<invitation_pk>[0-9]{1,18})/revoke",
    )
    def revoke_invitation(self, request: Request, slug: str, invitation_pk: str) -> Response:
        club: Club = self.get_object()
        require(perms.access_for(request).is_club_organiser(club))
        invitation = get_object_or_404(Invitation, pk=invitation_pk, club=club)
        return Response(
            s.InvitationSerializer(inv.revoke_invitation(request.user, invitation)).data
        )

    @extend_schema(request=s.ClubInputSerializer, responses={201: s.ClubSerializer, **EVENT_ERRORS})
    def create(self, request: Request) -> Response:
        club = services.create_club(request.user, **valid(s.ClubInputSerializer, request))
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ClubInputSerializer, responses={200: s.ClubSerializer, **EVENT_ERRORS})
    def partial_update(self, request: Request, slug: str) -> Response:
        club: Club = self.get_object()
        serializer = s.ClubInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = services.update_club(request.user, club, **serializer.validated_data)
        return Response(s.ClubSerializer(club).data)


class InvitationViewSet(viewsets.GenericViewSet[Invitation]):
    """Accept an invitation by its secret (signed in: the account accepting it)."""

    queryset = Invitation.objects.none()
    serializer_class = s.InvitationSerializer
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.AcceptInputSerializer,
        responses={
            200: s.InvitationSerializer,
            404: ErrorSerializer,
            410: ErrorSerializer,
            **EVENT_ERRORS,
        },
    )
    @action(detail=False, methods=["post"])
    def accept(self, request: Request) -> Response:
        invitation = inv.accept_invitation(
            request.user, valid(s.AcceptInputSerializer, request)["token"]
        )
        invitation.refresh_from_db()
        return Response(s.InvitationSerializer(invitation).data)


class LeagueViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[League]
):
    """Leagues and their seasons; a club's organisers create and rename its leagues."""

    queryset = (
        League.objects.select_related("club").prefetch_related("seasons__circuit").order_by("name")
    )
    serializer_class = s.LeagueSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_field = "slug"
    lookup_value_regex = SLUG

    @extend_schema(
        request=s.LeagueInputSerializer, responses={201: s.LeagueSerializer, **EVENT_ERRORS}
    )
    def create(self, request: Request) -> Response:
        data = valid(s.LeagueInputSerializer, request)
        club = data.pop("club", None)
        if club is None:
            raise UserError(_("club is required"), code="required")
        league = services.save_league(request.user, club, **data)
        return Response(s.LeagueSerializer(league).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.LeagueInputSerializer, responses={200: s.LeagueSerializer, **EVENT_ERRORS}
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        league: League = self.get_object()
        serializer = s.LeagueInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.pop("club", None)
        league = services.save_league(
            request.user,
            None,
            league=league,
            name=data.get("name", league.name),
            slug=data.get("slug", league.slug),
        )
        return Response(s.LeagueSerializer(self.get_queryset().get(pk=league.pk)).data)

    @extend_schema(methods=["get"], responses=s.CircuitProfileSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=s.CircuitInputSerializer,
        responses={201: s.CircuitProfileSerializer, **EVENT_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], permission_classes=[IsAuthenticatedOrReadOnly])
    def circuits(self, request: Request, slug: str) -> Response:
        """The league's circuit profiles, every version (newest first by name); a new
        profile (its version 1; the league's club's organisers)."""
        league: League = self.get_object()
        if request.method == "GET":
            versions = CircuitProfile.objects.filter(league=league).select_related("league")
            return Response(s.CircuitProfileSerializer(versions[:1000], many=True).data)
        data = valid(s.CircuitInputSerializer, request)
        if not data.get("slug"):
            raise UserError(_("slug is required"), code="required")
        made = circuits.create_circuit(
            request.user, league, slug=data["slug"], data=data["profile"]
        )
        return Response(s.CircuitProfileSerializer(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["get"],
        operation_id="v1_leagues_circuit_retrieve",
        responses={200: s.CircuitProfileSerializer, 404: ErrorSerializer},
    )
    @extend_schema(
        methods=["post"],
        operation_id="v1_leagues_circuit_version_create",
        request=s.CircuitInputSerializer,
        responses={
            201: s.CircuitProfileSerializer,
            200: s.CircuitProfileSerializer,
            **EVENT_ERRORS,
        },
    )
    @action(
        detail=True,
        methods=["get", "post"],
        url_path=r"circuits/(?P<circuit>[-\w]{1,70})",
        permission_classes=[IsAuthenticatedOrReadOnly],
    )
    def circuit(self, request: Request, slug: str, circuit: str) -> Response:
        """``GET``: one version by its key (``slug-vN``) or the newest by its name;
        ``POST`` (name or key): the next version (200 and the newest when nothing changed)."""
        league: League = self.get_object()
        versions = CircuitProfile.objects.filter(league=league).select_related("league")
        found = versions.filter(slug=circuit).order_by("-version").first()
        if found is None:
            try:
                found = circuits.circuit_by_key(league, circuit)
            except UserError:
                found = None
        if found is None:
            raise Http404
        if request.method == "GET":
            return Response(s.CircuitProfileSerializer(found).data)
        data = valid(s.CircuitInputSerializer, request)
        made = circuits.new_circuit_version(request.user, found, data=data["profile"])
        code = status.HTTP_200_OK if made.pk == found.pk else status.HTTP_201_CREATED
        return Response(s.CircuitProfileSerializer(made).data, status=code)


class SeasonViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Season]
):
    """Seasons of the leagues; a league's club's organisers create and change them."""

    queryset = Season.objects.select_related("league", "circuit").order_by("-starts_on", "pk")
    serializer_class = s.SeasonDetailSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_value_regex = r"[0-9]{1,18}"

    @extend_schema(
        request=s.SeasonInputSerializer, responses={201: s.SeasonDetailSerializer, **EVENT_ERRORS}
    )
    def create(self, request: Request) -> Response:
        data = valid(s.SeasonInputSerializer, request)
        league = data.pop("league", None)
        if league is None:
            raise UserError(_("league is required"), code="required")
        if "circuit" in data:
            data["circuit"] = circuits.circuit_by_key(league, data["circuit"])
        season = services.save_season(request.user, league, **data)
        return Response(s.SeasonDetailSerializer(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.SeasonInputSerializer, responses={200: s.SeasonDetailSerializer, **EVENT_ERRORS}
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        season: Season = self.get_object()
        serializer = s.SeasonInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.pop("league", None)
        extra = {}
        if "circuit" in data:
            extra["circuit"] = circuits.circuit_by_key(season.league, data["circuit"])
        season = services.save_season(
            request.user,
            season.league,
            season=season,
            name=data.get("name", season.name),
            starts_on=data.get("starts_on", season.starts_on),
            ends_on=data.get("ends_on", season.ends_on),
            **extra,
        )
        return Response(s.SeasonDetailSerializer(season).data)
