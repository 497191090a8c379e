"""Draw API serializers: jobs, their notes and measures, and the draw's inputs."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.draws.models import DrawJob
from league.i18n import note_dict


class NoteSerializer(serializers.Serializer[Any]):
    """A draw's warning or error: its ``code`` and ``params`` (plain JSON values), and the
    ``message`` in the reader's language (``Accept-Language``), rendered when read."""

    code = serializers.CharField()
    params = serializers.DictField()
    message = serializers.CharField()


class DrawJobSerializer(serializers.ModelSerializer[DrawJob]):
    warnings = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()

    @extend_schema_field(NoteSerializer(many=True))
    def get_warnings(self, job: DrawJob) -> list[dict[str, Any]]:
        return [n for n in (note_dict(w) for w in job.warnings or []) if n is not None]

    @extend_schema_field(NoteSerializer(allow_null=True))
    def get_error(self, job: DrawJob) -> dict[str, Any] | None:
        return note_dict(job.error)

    class Meta:
        model = DrawJob
        fields = [
            "id",
            "event",
            "from_round",
            "to_round",
            "seed",
            "checked_in_only",
            "status",
            "progress",
            "metrics",
            "warnings",
            "error",
            "created_at",
            "finished_at",
        ]


class MeasureSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    value = serializers.IntegerField()
    bound = serializers.IntegerField(allow_null=True)
    at_bound = serializers.BooleanField()


class DrawInputSerializer(serializers.Serializer[Any]):
    from_round = serializers.IntegerField(min_value=1)
    to_round = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    seed = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, allow_null=True
    )
    checked_in_only = serializers.BooleanField(default=True)


class SwapInputSerializer(serializers.Serializer[Any]):
    a = serializers.CharField(help_text="handle of one player")
    b = serializers.CharField(help_text="handle of the other player")


class RefereeMoveInputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(min_value=1, help_text="table number in the round")
    referee = serializers.IntegerField(allow_null=True, help_text="referee id, or null")
