"""Club-side API serializers: clubs, players, referees, leagues and seasons."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from league.clubs.models import Club, League, Player, Referee, Season


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "timezone"]


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
