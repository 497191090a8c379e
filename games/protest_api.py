"""The protests API (``games.protests``):

- ``GET /api/v1/games/{id}/protests/``: the game's protests the caller may read (ruled
  ones once the game is released; open ones for its officials, chief referees and filer);
- ``POST`` there: file one (signed in: a player of the game or an organiser of its event);
- ``POST /api/v1/games/{id}/protests/{protest}/ruling/``: the chief referee's ruling.

Thin: the service decides who may; a refusal is a ``UserError`` (``protest.*`` codes)
answered by the API's exception handler; a malformed body is a 400 from the serializer.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers as rf
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import protests
from games.api import ErrorOutput, visible_game
from games.models import GameVersion, Protest
from games.permissions import access_for, signed_in


class ProtestInput(rf.Serializer[Any]):
    phase = rf.CharField(
        max_length=40,
        help_text='Where in the record: "setup", "night 2", "day 1", "day 1 ballot 2", '
        '"awards" or "result" (a phase the game\'s record has).',
    )
    text = rf.CharField(max_length=Protest.TEXT_MAX, help_text="What is protested, and why.")
    evidence = rf.CharField(
        max_length=Protest.URL_MAX,
        required=False,
        allow_blank=True,
        default="",
        help_text="An optional photo or video link (http or https).",
    )


class RulingInput(rf.Serializer[Any]):
    decision = rf.ChoiceField(choices=[Protest.Status.UPHELD, Protest.Status.REJECTED])
    ruling = rf.CharField(
        max_length=Protest.TEXT_MAX, help_text="The ruling; for a rejection, the reasons."
    )
    record = rf.JSONField(
        required=False,
        help_text="Upheld only: the corrected KGR/1 record, submitted as a new version "
        "that another official confirms.",
    )


class ProtestOutput(rf.Serializer[Any]):
    id = rf.IntegerField()
    game = rf.IntegerField()
    phase = rf.CharField()
    phase_label = rf.CharField(help_text="The phase in the requester's language.")
    text = rf.CharField()
    evidence = rf.CharField()
    status = rf.ChoiceField(choices=Protest.Status.choices)
    player = rf.CharField(allow_null=True, help_text="The handle of the player who filed it.")
    filed_at = rf.DateTimeField()
    ruling = rf.CharField()
    ruled_at = rf.DateTimeField(allow_null=True)
    version = rf.IntegerField(allow_null=True, help_text="Upheld: the corrected version.")
    version_status = rf.CharField(allow_null=True)


def protest_data(p: Protest) -> dict[str, Any]:
    version: GameVersion | None = p.version
    return {
        "id": p.pk,
        "game": p.game_id,
        "phase": p.phase,
        "phase_label": protests.phase_label(p.phase),
        "text": p.text,
        "evidence": p.evidence,
        "status": p.status,
        "player": p.player.handle if p.player is not None else None,
        "filed_at": p.created_at,
        "ruling": p.ruling,
        "ruled_at": p.ruled_at,
        "version": version.number if version is not None else None,
        "version_status": version.status if version is not None else None,
    }


class GameProtests(APIView):
    """A game's protests: read them, or file one."""

    def get_permissions(self) -> list[BasePermission]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses={200: ProtestOutput(many=True), 404: ErrorOutput}, tags=["games"])
    def get(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        filer = protests.Filer.from_user(request.user)
        rows = protests.visible_protests(access_for(request), game, filer)
        return Response([protest_data(p) for p in rows])

    @extend_schema(
        request=ProtestInput,
        responses={201: ProtestOutput, 400: ErrorOutput, 403: ErrorOutput, 409: ErrorOutput},
        tags=["games"],
    )
    def post(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        body = ProtestInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        protest = protests.file_protest(
            protests.Filer.from_user(signed_in(request)),
            game,
            phase=data["phase"],
            text=data["text"],
            evidence=data["evidence"],
        )
        return Response(protest_data(protest), status=201)


class ProtestRuling(APIView):
    """The chief referee's ruling on one protest."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=RulingInput,
        responses={
            200: ProtestOutput,
            400: ErrorOutput,
            403: ErrorOutput,
            404: ErrorOutput,
            409: ErrorOutput,
        },
        tags=["games"],
    )
    def post(self, request: Request, pk: int, protest_pk: int) -> Response:
        game = visible_game(request, pk)
        access = access_for(request)
        seen = protests.visible_protests(access, game, protests.Filer.from_user(request.user))
        protest = next((p for p in seen if p.pk == protest_pk), None)
        if protest is None:  # none, or one the caller may not know about
            raise Http404
        body = RulingInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        ruled = protests.rule_protest(
            signed_in(request),
            protest,
            decision=data["decision"],
            ruling=data["ruling"],
            record=data.get("record"),
            source=GameVersion.Source.API,
        )
        return Response(protest_data(protests.protests_of([game.pk]).get(pk=ruled.pk)))
