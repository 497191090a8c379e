"""API input and output shapes for games. Output goes through :func:`game_data` and
:func:`version_data`, which apply the secrecy rule (``games.permissions.Access``) themselves:
nothing here can return a role to someone who may not see it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework import serializers

from games.models import Game, GameVersion
from games.permissions import Access
from games.selectors import confirmed_version
from league.engine_text import stored_violation_text


class RecordInput(serializers.Serializer[Any]):
    record = serializers.JSONField(help_text="A KGR/1 game record.")
    revision = serializers.IntegerField(
        required=False, help_text="The game revision you saw (or send If-Match)."
    )


class CorrectionInput(RecordInput):
    reason = serializers.CharField(max_length=2000)


class ConfirmInput(serializers.Serializer[Any]):
    version = serializers.IntegerField(min_value=1)
    revision = serializers.IntegerField(required=False)


class RevisionInput(serializers.Serializer[Any]):
    revision = serializers.IntegerField(required=False)


class VoidInput(serializers.Serializer[Any]):
    revision = serializers.IntegerField(required=False)
    reason = serializers.CharField(max_length=2000, help_text="Why the game no longer counts.")


class StepInput(serializers.Serializer[Any]):
    step = serializers.JSONField(help_text="One sheet step, see docs/results.md.")
    revision = serializers.IntegerField(help_text="The sheet revision you saw.")


class SheetRevisionInput(serializers.Serializer[Any]):
    revision = serializers.IntegerField(help_text="The sheet revision you saw.")


class SeatOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    name = serializers.CharField()


class ViolationOutput(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="A stable dotted code, e.g. vote.self_vote.")
    where = serializers.CharField(help_text='"setup", "result", a phase ("day 2") …')
    params = serializers.DictField(
        allow_null=True,
        help_text="Plain JSON values (seats as integers, phases as strings); null on a "
        "violation stored before params were kept.",
    )
    message = serializers.CharField(help_text="The sentence in the requester's language.")


class VersionOutput(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]
    submitted_by = serializers.CharField(allow_null=True)
    submitted_at = serializers.DateTimeField()
    reason = serializers.CharField()
    valid = serializers.BooleanField()
    completeness = serializers.CharField()
    winner = serializers.CharField()
    ended = serializers.CharField()
    violations = ViolationOutput(many=True)
    confirmed_by = serializers.CharField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    record = serializers.JSONField()


class GameOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    revision = serializers.IntegerField()
    event = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    club = serializers.IntegerField()
    ruleset = serializers.JSONField()
    seats = SeatOutput(many=True)
    secrets_visible = serializers.BooleanField()
    confirmed = VersionOutput(allow_null=True)
    url = serializers.CharField()


def _username(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def violation_data(v: dict[str, Any]) -> dict[str, Any]:
    """A stored violation for the API: ``code``, ``where``, ``params`` (plain JSON: seats as
    integers, phases as strings; null for a row stored before params were kept) and
    ``message``, rendered from them in the requester's language."""
    params = v.get("params")
    return {
        "code": str(v.get("code", "")),
        "where": str(v.get("where", "")),
        "params": dict(params) if isinstance(params, dict) else None,
        "message": stored_violation_text(v),
    }


def version_data(v: GameVersion) -> dict[str, Any]:
    """A version in full: call only after ``Access.can_see_secrets`` said yes."""
    return {
        "number": v.number,
        "status": v.status,
        "source": v.source,
        "submitted_by": _username(v.submitted_by),
        "submitted_at": v.submitted_at.isoformat(),
        "reason": v.reason,
        "valid": v.valid,
        "completeness": v.completeness,
        "winner": v.winner,
        "ended": v.ended,
        "violations": [violation_data(x) for x in v.violations],
        "confirmed_by": _username(v.confirmed_by),
        "confirmed_at": v.confirmed_at.isoformat() if v.confirmed_at else None,
        "record": v.record,
    }


def game_data(access: Access, game: Game, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A game as the user may see it: its confirmed version only with its secrets."""
    visible = access.can_see_secrets(game)
    confirmed = confirmed_version(game) if visible else None
    event, round_ = game.event, game.round
    return {
        "id": game.pk,
        "status": game.status,
        "revision": game.revision,
        "event": event.pk if event else None,
        "round": round_.number if round_ else game.voided_round,
        "table": game.table.number if game.table else game.voided_table,
        "club": game.the_club.pk,
        "ruleset": game.ruleset_spec(),
        "seats": seats,
        "secrets_visible": visible,
        "official": access.is_game_official(game),
        "confirmed": version_data(confirmed) if confirmed is not None else None,
        "url": reverse("games:game", args=[game.pk]),
        "void": (
            {
                "reason": game.void_reason,
                "at": game.voided_at.isoformat() if game.voided_at else None,
            }
            if game.voided
            else None
        ),
    }
