"""Stage API serializers: a stage as read, a stage as written (the body of ``PUT``; the
service checks the list as a whole), and the final table's design as written."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.stages.models import StageSeating
from league.stages.selectors import StagePlan
from league.stages.validation import MAX_NAME, MAX_ROUNDS, entry_json


class StagePlanSerializer(serializers.Serializer[StagePlan]):
    """One stage of an event (``entrants``: the confirmed cut, player ids in the order of
    the standing they were cut from; null while not confirmed)."""

    position = serializers.IntegerField()
    name = serializers.CharField()
    rounds = serializers.SerializerMethodField()
    first_round = serializers.IntegerField()
    last_round = serializers.IntegerField()
    scoring_profile = serializers.CharField()
    multiplier = serializers.DecimalField(max_digits=6, decimal_places=3)
    carry = serializers.DecimalField(max_digits=6, decimal_places=3)
    entry = serializers.SerializerMethodField()
    hidden = serializers.BooleanField()
    seating = serializers.CharField()
    entrants = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    cut_confirmed = serializers.SerializerMethodField()
    finished = serializers.BooleanField()

    def get_rounds(self, plan: StagePlan) -> int:
        return len(plan.round_numbers)

    @extend_schema_field({"oneOf": [{"type": "string", "enum": ["all"]}, {"type": "object"}]})
    def get_entry(self, plan: StagePlan) -> Any:
        return entry_json(plan)

    def get_cut_confirmed(self, plan: StagePlan) -> bool:
        return plan.entrants is not None


class StageInputSerializer(serializers.Serializer[Any]):
    """One stage as ``PUT`` takes it (for the schema: the service checks every field and
    the list, and answers 400 with every problem's code)."""

    name = serializers.CharField(max_length=MAX_NAME)
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    scoring_profile = serializers.CharField(required=False, allow_blank=True)
    multiplier = serializers.DecimalField(max_digits=6, decimal_places=3, required=False)
    carry = serializers.DecimalField(max_digits=6, decimal_places=3, required=False)
    entry = serializers.JSONField(
        required=False, help_text='"all", {"top": N} or {"players": [player ids]}'
    )
    hidden = serializers.BooleanField(required=False)
    seating = serializers.ChoiceField(choices=StageSeating.choices, required=False)


class FinalTableInputSerializer(serializers.Serializer[Any]):
    seed = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, allow_null=True
    )


class FinalTableSerializer(serializers.Serializer[Any]):
    """The final table as seated: each game's players (ids) in seat order."""

    stage = serializers.CharField()
    first_round = serializers.IntegerField()
    games = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    seed = serializers.IntegerField()
    method = serializers.CharField()
    max_neighbours = serializers.IntegerField()
    bound = serializers.IntegerField()
