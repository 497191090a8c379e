"""Club-side API serializers: clubs, players, referees, leagues and seasons."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from league.clubs.models import Club, League, Player, Referee, Season


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
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on"]


class SeasonDetailSerializer(serializers.ModelSerializer[Season]):
    league: Any = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Season
        fields = ["id", "league", "name", "starts_on", "ends_on"]


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
