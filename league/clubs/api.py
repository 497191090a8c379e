"""The club side of the REST API (``/api/v1/``): players and leagues."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from league.clubs import serializers as s
from league.clubs.models import League, Player
from league.clubs.services import create_player
from league.names import name_filter
from league.rest import SLUG, valid


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


class LeagueViewSet(viewsets.ReadOnlyModelViewSet[League]):
    """Leagues and their seasons."""

    queryset = League.objects.select_related("club").prefetch_related("seasons").order_by("name")
    serializer_class = s.LeagueSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"
    lookup_value_regex = SLUG
