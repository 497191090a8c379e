"""The games API (``/api/v1/games/``): read games and versions, submit, confirm, correct,
release, and drive the live sheet. Thin: services write, selectors read, and every
response that could hold a role goes through ``games.serializers`` (secrecy applied).

Optimistic concurrency: every write names the revision it saw, as ``revision`` in the
body or an ``If-Match`` header (the ETag of ``GET /games/{id}/``). A stale write gets 409
with the current state; a write without one gets 428.

A refusal is a ``league.errors.UserError`` raised by a service (or here) and answered by
the API's exception handler: ``detail``, ``code``, ``params`` and the error's own fields;
:meth:`GameAPIView.error_data` adds the current game beside a stale revision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers as rf
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services, sheet
from games.merge import merge_plan, merge_players
from games.models import Game, GameVersion
from games.permissions import access_for, signed_in
from games.serializers import (
    ConfirmInput,
    CorrectionInput,
    GameOutput,
    RecordInput,
    RevisionInput,
    SheetRevisionInput,
    StepInput,
    VersionOutput,
    VoidInput,
    game_data,
    version_data,
)
from league.errors import UserError
from league.inputs import ROUND_MAX, strict_int
from league.models import Player, Round

ErrorOutput = inline_serializer(
    "GameRefusal",
    {
        "detail": rf.CharField(),
        "code": rf.CharField(),
        "params": rf.DictField(),
        "revision": rf.IntegerField(required=False),
        "game": rf.DictField(required=False),
        "state": rf.DictField(required=False),
        "where": rf.CharField(required=False),
    },
)


def etag(game: Game) -> str:
    return f'"{game.revision}"'


def visible_game(request: Request, pk: int) -> Game:
    """The game, or 404 for anyone who may not know it exists."""
    try:
        game = selectors.game_by_id(pk)
    except Game.DoesNotExist:
        raise Http404 from None
    if not access_for(request).can_view_game(game):
        raise Http404
    return game


class GameAPIView(APIView):
    """An API view about one game (``pk``): a stale revision is answered with the current
    game as the caller may see it (``league.errors.api_exception_handler`` asks)."""

    def error_data(self, exc: UserError) -> dict[str, Any]:
        if not isinstance(exc, services.StaleRevision):
            return {}
        access = access_for(self.request)
        game = selectors.game_by_id(self.kwargs["pk"])
        return {"game": game_data(access, game, selectors.seating(game, access))}


def _game_response(request: Request, game: Game, code: int = 200) -> Response:
    game = selectors.game_by_id(game.pk)
    access = access_for(request)
    data = game_data(access, game, selectors.seating(game, access))
    return Response(data, status=code, headers={"ETag": etag(game)})


class GameList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("event", int, description="event id"),
            OpenApiParameter("round", int, description="round number (with event)"),
        ],
        responses=GameOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        qs = selectors.games().order_by("pk")
        event = strict_int(request.query_params.get("event"))
        if event is not None:
            qs = qs.filter(table__round__event_id=event)
            rnd = strict_int(request.query_params.get("round"), hi=ROUND_MAX)
            if rnd is not None:
                qs = qs.filter(table__round__number=rnd)
        access = access_for(request)
        out = [
            game_data(access, g, selectors.seating(g, access))
            for g in qs.filter(access.visible_games())[:200]
        ]
        return Response(out)


class GameDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: GameOutput, 404: ErrorOutput})
    def get(self, request: Request, pk: int) -> Response:
        return _game_response(request, visible_game(request, pk))


class GameVersions(GameAPIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: VersionOutput(many=True), 403: ErrorOutput})
    def get(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        access = access_for(request)
        if not access.can_see_secrets(game):
            raise UserError(
                gettext_lazy("This game's record is not released yet."),
                code="game.not_released",
                status=status.HTTP_403_FORBIDDEN,
            )
        data = [version_data(v) for v in selectors.versions_for(access, game)]
        return Response(data, headers={"ETag": etag(game)})

    @extend_schema(
        request=RecordInput,
        responses={201: VersionOutput, 400: ErrorOutput, 409: ErrorOutput, 428: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _submit(request, pk, RecordInput, reason_required=False)


class GameCorrections(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=CorrectionInput,
        responses={201: VersionOutput, 400: ErrorOutput, 409: ErrorOutput, 428: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _submit(request, pk, CorrectionInput, reason_required=True)


def _expected_revision(request: Request, body: dict[str, Any]) -> int:
    """The revision the caller saw: ``revision`` in the body, else ``If-Match``; 428
    without either."""
    value = body.get("revision")
    if value is None:
        header = request.headers.get("If-Match", "").strip()
        value = header.removeprefix("W/").strip('"')
    expected = strict_int(value)
    if expected is None:
        raise UserError(
            gettext_lazy("Send the revision you saw (field 'revision' or If-Match)."),
            code="game.revision_required",
            status=status.HTTP_428_PRECONDITION_REQUIRED,
        )
    return expected


def _submit(
    request: Request, pk: int, shape: type[rf.Serializer[Any]], reason_required: bool
) -> Response:
    game = visible_game(request, pk)
    if not access_for(request).can_submit(game):  # before reading the body
        raise services.not_allowed(
            gettext_lazy("Only this game's officials can submit its record.")
        )
    body = shape(data=request.data)
    body.is_valid(raise_exception=True)
    expected = _expected_revision(request, body.validated_data)
    version = services.submit_record(
        signed_in(request),
        game,
        body.validated_data["record"],
        GameVersion.Source.API,
        expected_revision=expected,
        reason=body.validated_data.get("reason", "") if reason_required else "",
    )
    game.refresh_from_db(fields=["revision"])
    return Response(version_data(version), status=201, headers={"ETag": etag(game)})


def _game_write(
    request: Request,
    pk: int,
    shape: type[rf.Serializer[Any]],
    write: Callable[[Game, dict[str, Any], int], Any],
) -> Response:
    """A write to a game that names the revision it saw: parse, demand the revision
    (428), call the service, answer with the game."""
    game = visible_game(request, pk)
    body = shape(data=request.data)
    body.is_valid(raise_exception=True)
    write(game, body.validated_data, _expected_revision(request, body.validated_data))
    return _game_response(request, game)


class GameConfirm(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ConfirmInput,
        responses={200: GameOutput, 403: ErrorOutput, 409: ErrorOutput, 428: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _game_write(
            request,
            pk,
            ConfirmInput,
            lambda game, data, expected: services.confirm_version(
                signed_in(request), game, data["version"], expected_revision=expected
            ),
        )


class GameRelease(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=RevisionInput,
        responses={200: GameOutput, 403: ErrorOutput, 409: ErrorOutput, 428: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _game_write(
            request,
            pk,
            RevisionInput,
            lambda game, _data, expected: services.release_game(
                signed_in(request), game, expected_revision=expected
            ),
        )


class RoundRelease(APIView):
    """Release every confirmed game of a round at once (organisers): the end of a round."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: inline_serializer("RoundReleased", {"released": rf.IntegerField()}),
            403: ErrorOutput,
            404: ErrorOutput,
        },
    )
    def post(self, request: Request, event_pk: int, number: int) -> Response:
        if strict_int(event_pk) is None or strict_int(number, hi=ROUND_MAX) is None:
            raise Http404
        round_ = (
            Round.objects.select_related("event__club")
            .filter(event_id=event_pk, number=number)
            .first()
        )
        if round_ is None or not access_for(request).can_view_event(round_.event):
            raise Http404
        released = services.release_round(signed_in(request), round_)
        return Response({"released": released})


class GameVoid(GameAPIView):
    """Void a game (organisers, with a reason): it keeps its versions and steps, leaves
    its table and counts for nothing."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=VoidInput,
        responses={200: GameOutput, 400: ErrorOutput, 403: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _game_write(
            request,
            pk,
            VoidInput,
            lambda game, data, expected: services.void_game(
                signed_in(request), game, data["reason"], expected_revision=expected
            ),
        )


SheetState = inline_serializer("SheetState", {"revision": rf.IntegerField()})


class SheetView(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: SheetState, 403: ErrorOutput})
    def get(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        return Response(sheet.sheet_state(signed_in(request), game))


class SheetStep(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=StepInput,
        responses={200: SheetState, 400: ErrorOutput, 403: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        body = StepInput(data=request.data)
        body.is_valid(raise_exception=True)
        state = sheet.add_step(
            signed_in(request), game, body.validated_data["step"], body.validated_data["revision"]
        )
        return Response(state)


class SheetUndo(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SheetRevisionInput,
        responses={200: SheetState, 400: ErrorOutput, 403: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        body = SheetRevisionInput(data=request.data)
        body.is_valid(raise_exception=True)
        state = sheet.undo_step(signed_in(request), game, body.validated_data["revision"])
        return Response(state)


class SheetSubmit(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SheetRevisionInput,
        responses={201: VersionOutput, 400: ErrorOutput, 403: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = visible_game(request, pk)
        body = SheetRevisionInput(data=request.data)
        body.is_valid(raise_exception=True)
        version = sheet.submit_sheet(signed_in(request), game, body.validated_data["revision"])
        return Response(version_data(version), status=201)


#: A player's handle (a unicode slug), optionally written with its "@".
HANDLE = r"^@?[-\w]{1,60}$"


class MergeInput(rf.Serializer[Any]):
    survivor = rf.RegexField(HANDLE, max_length=61, help_text="the handle of the player who stays")
    duplicate = rf.RegexField(
        HANDLE, max_length=61, help_text="the handle of the player merged away"
    )
    confirm = rf.BooleanField(
        default=False, help_text="false: only say what would move; true: merge (irreversible)"
    )


MergeOutput = inline_serializer(
    "PlayerMerge",
    {
        "survivor": rf.CharField(),
        "duplicate": rf.CharField(),
        "merged": rf.BooleanField(),
        "moves": rf.DictField(child=rf.IntegerField()),
        "games": rf.ListField(child=rf.IntegerField()),
    },
)


def _merge_player(handle: str) -> Player:
    try:
        return Player.objects.get(handle=handle.strip().lstrip("@").lower())
    except Player.DoesNotExist:
        raise Http404 from None


class PlayerMerge(APIView):
    """Merge a duplicate player into the survivor (``games.merge``): without ``confirm``
    the answer only says what would move (or the refusal); with it, the merge is done."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=MergeInput,
        responses={200: MergeOutput, 400: ErrorOutput, 403: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request: Request) -> Response:
        data = MergeInput(data=request.data)
        data.is_valid(raise_exception=True)
        survivor = _merge_player(data.validated_data["survivor"])
        duplicate = _merge_player(data.validated_data["duplicate"])
        confirm = data.validated_data["confirm"]
        actor = signed_in(request)
        plan = (merge_players if confirm else merge_plan)(actor, survivor, duplicate)
        return Response(
            {
                "survivor": survivor.handle,
                "duplicate": duplicate.handle,
                "merged": confirm,
                "moves": plan.counts(),
                "games": [g.pk for g in plan.games],
            }
        )
