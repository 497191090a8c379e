"""Club-side reads: the clubs a user organises, players' current clubs."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from league.clubs.models import Club, Membership
from league.permissions import LeagueAccess


def organised_clubs(access: LeagueAccess) -> QuerySet[Club]:
    if access.is_site_admin():
        return Club.objects.all()
    return Club.objects.filter(pk__in=access.organised_club_ids)


def current_clubs(player_ids: Iterable[int]) -> dict[int, int]:
    """Each player's current club (the most recent open membership)."""
    out: dict[int, int] = {}
    rows = (
        Membership.objects.filter(player_id__in=list(player_ids), left__isnull=True)
        .order_by("joined")
        .values_list("player_id", "club_id")
    )
    for player_id, club_id in rows:
        out[player_id] = club_id
    return out
