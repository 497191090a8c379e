"""Club-side reads: the clubs a user organises, players' current clubs."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from league import permissions as perms
from league.clubs.models import Club, Membership
from league.permissions import Viewer


def organised_clubs(user: Viewer) -> QuerySet[Club]:
    if perms.is_site_admin(user):
        return Club.objects.all()
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(organisers__user=user)


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
