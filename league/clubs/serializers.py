"""Club-side API serializers: clubs, players, referees, leagues and seasons."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from league.clubs.models import CircuitProfile, Club, Invitation, League, Player, Referee, Season


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "description", "timezone"]


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "display_name", "handle"]


class RefereeSerializer(serializers.ModelSerializer[Referee]):
    name = serializers.CharField(source="__str__", read_only=True)

    class Meta:
        model = Referee
        fields = ["id", "name", "grade"]


class SeasonSerializer(serializers.ModelSerializer[Season]):
    circuit = serializers.CharField(
        source="circuit.key",
        read_only=True,
        allow_null=True,
        help_text="the circuit profile version it is ranked by (slug-vN), or null",
    )

    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on", "circuit"]


class SeasonDetailSerializer(serializers.ModelSerializer[Season]):
    league: Any = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    circuit = serializers.CharField(
        source="circuit.key",
        read_only=True,
        allow_null=True,
        help_text="the circuit profile version it is ranked by (slug-vN), or null",
    )

    class Meta:
        model = Season
        fields = ["id", "league", "name", "starts_on", "ends_on", "circuit"]


class CircuitProfileSerializer(serializers.ModelSerializer[CircuitProfile]):
    league: Any = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    key = serializers.CharField(read_only=True, help_text="slug-vN")
    profile = serializers.JSONField(
        source="data", read_only=True, help_text="the profile (formats.md §3)"
    )

    class Meta:
        model = CircuitProfile
        fields = ["id", "league", "slug", "version", "key", "profile", "created_at"]


class CircuitInputSerializer(serializers.Serializer[Any]):
    """A new circuit profile (``slug``) or the next version of one (``slug`` ignored):
    ``profile`` as formats.md §3 — places, categories, field, best, min_events — with
    decimals as strings."""

    slug = serializers.CharField(max_length=60, required=False)
    profile = serializers.JSONField(help_text="formats.md §3, decimals as strings")


class LeagueSerializer(serializers.ModelSerializer[League]):
    club: Any = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seasons = SeasonSerializer(many=True, read_only=True)

    class Meta:
        model = League
        fields = ["id", "name", "slug", "club", "seasons"]


class PlayerInputSerializer(serializers.Serializer[Any]):
    display_name = serializers.CharField(max_length=120)
    handle = serializers.CharField(max_length=60)
    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Club.objects.all(), required=False, allow_null=True
    )


class ClubInputSerializer(serializers.Serializer[Any]):
    """Create a club (you become its organiser) or change it (``PATCH``, its organisers).
    The time zone is an IANA name Python knows (``club.timezone_invalid`` otherwise)."""

    name = serializers.CharField(max_length=120)
    slug = serializers.CharField(max_length=60, required=False, allow_blank=True)
    city = serializers.CharField(max_length=120, required=False, allow_blank=True)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    timezone = serializers.CharField(max_length=60, required=False)


class LeagueInputSerializer(serializers.Serializer[Any]):
    """Create a league of ``club`` (its organisers) or rename one (``PATCH``)."""

    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Club.objects.all(), required=False
    )
    name = serializers.CharField(max_length=120)
    slug = serializers.CharField(max_length=60, required=False, allow_blank=True)


class SeasonInputSerializer(serializers.Serializer[Any]):
    """Create a season of ``league`` (its club's organisers) or change one (``PATCH``)."""

    league = serializers.SlugRelatedField(
        slug_field="slug", queryset=League.objects.select_related("club"), required=False
    )
    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    circuit = serializers.CharField(
        max_length=80,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="a circuit profile version of the league (slug-vN); null or empty: none",
    )


class InvitationSerializer(serializers.ModelSerializer[Invitation]):
    player: Any = serializers.SlugRelatedField(slug_field="handle", read_only=True)
    club: Any = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Invitation
        fields = ["id", "club", "role", "player", "email", "created_at", "expires_at"]


class NewInvitationSerializer(InvitationSerializer):
    """A new invitation with its link: the only time the secret is given."""

    link = serializers.CharField(read_only=True)

    class Meta(InvitationSerializer.Meta):
        fields = [*InvitationSerializer.Meta.fields, "link"]


class InvitationInputSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Invitation.Role.choices)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True)
    player = serializers.SlugRelatedField(
        slug_field="handle",
        queryset=Player.objects.all(),
        required=False,
        allow_null=True,
        help_text="handle of the club's player to link (role player only)",
    )


class AcceptInputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=100, help_text="the secret from the link")
