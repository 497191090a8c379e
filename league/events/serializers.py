"""Event API serializers, outputs then inputs. Inputs only parse; services write."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from rest_framework import serializers

from league.clubs.models import Club, Referee, Season
from league.clubs.serializers import PlayerSerializer, RefereeSerializer
from league.events.models import (
    Event,
    PlayerConflict,
    RefereeConflict,
    Registration,
    Round,
    Seat,
    Table,
)
from league.events.services import EVENT_FIELDS, RELIEF_PERCENT

# --- outputs --------------------------------------------------------------------------------


class RoundScheduleSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["number", "starts_at", "status", "released_at"]


class EventSerializer(serializers.ModelSerializer[Event]):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    rounds = RoundScheduleSerializer(many=True, read_only=True)
    referees = RefereeSerializer(many=True, read_only=True)
    staff = serializers.SerializerMethodField(
        help_text="login names of the event's staff: only for its organisers and staff"
    )

    def get_staff(self, event: Event) -> list[str]:
        """Nothing personal for the public: staff names only to those who run the event
        (the view puts the viewer's pk and the clubs they organise in the context)."""
        viewer = self.context.get("viewer_pk")
        managed = self.context.get("managed_clubs", frozenset())
        staff = list(event.staff.all())
        if managed == "all" or event.club_id in managed or any(u.pk == viewer for u in staff):
            return [u.get_username() for u in staff]
        return []

    class Meta:
        model = Event
        fields = ["id", "club", *EVENT_FIELDS, "status", "rounds", "referees", "staff"]


class RegistrationSerializer(serializers.ModelSerializer[Registration]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Registration
        fields = ["id", "player", "status", "checked_in_at", "absent_rounds", "waitlisted_at"]


class SeatSerializer(serializers.ModelSerializer[Seat]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Seat
        fields = ["number", "player", "pinned"]


class TableSerializer(serializers.ModelSerializer[Table]):
    referee = RefereeSerializer(read_only=True)
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = ["id", "number", "referee", "referee_pinned", "seats"]


class RoundSerializer(serializers.ModelSerializer[Round]):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["number", "starts_at", "status", "released_at", "tables"]


class ImportResultSerializer(serializers.Serializer[Any]):
    created = serializers.IntegerField()
    existing = serializers.IntegerField()
    registered = serializers.IntegerField()
    waitlisted = serializers.IntegerField()
    checked_in = serializers.IntegerField()


class PlayerConflictSerializer(serializers.ModelSerializer[PlayerConflict]):
    player_a = PlayerSerializer(read_only=True)
    player_b = PlayerSerializer(read_only=True)

    class Meta:
        model = PlayerConflict
        fields = ["id", "player_a", "player_b", "reason"]


class RefereeConflictSerializer(serializers.ModelSerializer[RefereeConflict]):
    referee = RefereeSerializer(read_only=True)
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = RefereeConflict
        fields = ["id", "referee", "player", "reason"]


# --- inputs ---------------------------------------------------------------------------------


class EventInputSerializer(serializers.Serializer[Any]):
    """Create (``club`` required) or change an event; ``round_starts`` sets every round."""

    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Club.objects.all(), required=False
    )
    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    registration_opens = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes = serializers.DateTimeField(required=False, allow_null=True)
    ruleset = serializers.CharField(max_length=40, required=False)
    ruleset_overrides = serializers.DictField(required=False)
    scoring_profile = serializers.CharField(max_length=40, required=False)
    tiebreak_precedence = serializers.ListField(child=serializers.CharField(), required=False)
    rounds_count = serializers.IntegerField(min_value=1, max_value=30)
    min_table = serializers.IntegerField(min_value=6, max_value=17, required=False)
    max_table = serializers.IntegerField(min_value=6, max_value=17, required=False)
    allow_extra_meeting = serializers.BooleanField(
        required=False,
        help_text=(
            "Let a few pairs meet once more than the least maximum when that makes the "
            f"draw over {RELIEF_PERCENT} % more even (default true)."
        ),
    )
    round_starts = serializers.ListField(
        child=serializers.DateTimeField(allow_null=True), required=False, allow_null=True
    )
    referees = serializers.PrimaryKeyRelatedField(
        queryset=Referee.objects.all(), many=True, required=False
    )
    staff = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        many=True,
        required=False,
    )
    season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.select_related("league"),
        required=False,
        allow_null=True,
        help_text="a season of one of the event's club's leagues (null: a one-off event)",
    )
    capacity = serializers.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        allow_null=True,
        help_text="places for players (null: unlimited); beyond it players join the waiting list",
    )
    check_in_opens_minutes = serializers.IntegerField(min_value=0, max_value=1440, required=False)
    check_in_closes_minutes = serializers.IntegerField(min_value=0, max_value=1440, required=False)
    speech_seconds = serializers.IntegerField(
        min_value=5, max_value=600, required=False, help_text="the speech timer (default 60)"
    )
    tie_speech_seconds = serializers.IntegerField(
        min_value=5, max_value=600, required=False, help_text="the tie speech timer (default 30)"
    )
    last_words_seconds = serializers.IntegerField(
        min_value=5, max_value=600, required=False, help_text="the last words timer (default 20)"
    )
    circuit_category = serializers.SlugField(
        max_length=40,
        required=False,
        help_text=(
            "the event's weight in its season's circuit: one of the season's circuit "
            "profile's categories (default club)"
        ),
    )


class TransitionInputSerializer(serializers.Serializer[Any]):
    to = serializers.ChoiceField(choices=Event.Status.choices)


class RegisterInputSerializer(serializers.Serializer[Any]):
    """Register a known player by handle, or create one when ``display_name`` is given."""

    handle = serializers.CharField(max_length=60)
    display_name = serializers.CharField(max_length=120, required=False, allow_blank=True)


class CheckInInputSerializer(serializers.Serializer[Any]):
    undo = serializers.BooleanField(default=False)


class AbsencesInputSerializer(serializers.Serializer[Any]):
    rounds = serializers.ListField(child=serializers.IntegerField(min_value=1))


class ImportInputSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)
    check_in = serializers.BooleanField(default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("file") and not attrs.get("text"):
            raise serializers.ValidationError(_("Send a CSV file or its text."))
        return attrs


class RoundInputSerializer(serializers.Serializer[Any]):
    starts_at = serializers.DateTimeField(allow_null=True)


class PlayerConflictInputSerializer(serializers.Serializer[Any]):
    a = serializers.CharField(help_text="handle")
    b = serializers.CharField(help_text="handle")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class RefereeConflictInputSerializer(serializers.Serializer[Any]):
    referee = serializers.IntegerField(help_text="referee id (listed for the event)")
    player = serializers.CharField(help_text="handle")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
