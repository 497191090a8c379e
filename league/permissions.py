"""Who may do what: the one place pages, the API and services ask. Every check fails closed.

Roles, from most to least powerful:

- **site admin** (``is_superuser``): everything;
- **club organiser** (:class:`~league.models.ClubOrganiser`): their club's events — create,
  edit, register, check in, draw, swap, confirm, release;
- **event staff** (``Event.staff``): one event's registrations and check-in, and may read
  its draft draws and seating sheets; may not draw, edit or release;
- **referee** (``Event.referees``): reads the event's confirmed and released rounds;
- **player**: registers and withdraws themselves while registration is open;
- **anonymous**: the public pages only — published events and released rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import timezone

if TYPE_CHECKING:
    from league.models import Club, Event

PUBLIC_EVENT_STATUSES = ("registration", "running", "finished")


def _active(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def is_site_admin(user: Any) -> bool:
    return _active(user) and bool(user.is_superuser)


def is_club_organiser(user: Any, club: Club) -> bool:
    if not _active(user):
        return False
    if is_site_admin(user):
        return True
    return club.organisers.filter(user=user).exists()


def organised_club_ids(user: Any) -> list[int]:
    """The clubs ``user`` organises (site admins: every club)."""
    if not _active(user):
        return []
    if is_site_admin(user):
        return list(Club.objects.values_list("pk", flat=True))
    return list(user.organised_clubs.values_list("club_id", flat=True))


def can_create_event(user: Any, club: Club) -> bool:
    return is_club_organiser(user, club)


def can_manage_event(user: Any, event: Event) -> bool:
    """Edit the event, draw, swap, assign referees, confirm and release rounds."""
    return is_club_organiser(user, event.club)


def can_staff_event(user: Any, event: Event) -> bool:
    """Registrations, check-in, imports, and reading draft draws and seating sheets."""
    if not _active(user):
        return False
    if can_manage_event(user, event):
        return True
    return event.staff.filter(pk=user.pk).exists()


def is_event_referee(user: Any, event: Event) -> bool:
    if not _active(user):
        return False
    return event.referees.filter(user=user).exists()


def visible_round_statuses(user: Any, event: Event) -> tuple[str, ...]:
    """Round statuses whose tables and seats ``user`` may read in ``event``."""
    if can_staff_event(user, event):
        return ("draft", "confirmed", "released")
    if is_event_referee(user, event):
        return ("confirmed", "released")
    return ("released",)


def can_view_event(user: Any, event: Event) -> bool:
    """Published events are public; a draft event only to its staff."""
    return event.status in PUBLIC_EVENT_STATUSES or can_staff_event(user, event)


def registration_open(event: Event) -> bool:
    if event.status != "registration":
        return False
    now = timezone.now()
    if event.registration_opens and now < event.registration_opens:
        return False
    return not (event.registration_closes and now > event.registration_closes)


def can_register_self(user: Any, event: Event) -> bool:
    """A player with an account registers themselves while registration is open."""
    return _active(user) and hasattr(user, "player") and registration_open(event)


def can_withdraw(user: Any, event: Event, player_user_id: int | None) -> bool:
    """Staff withdraw anyone; a player withdraws themselves before the event finishes."""
    if can_staff_event(user, event):
        return True
    return (
        _active(user)
        and player_user_id is not None
        and player_user_id == user.pk
        and event.status in ("registration", "running")
    )


def can_manage_players(user: Any) -> bool:
    """Create players (directly or by CSV): site admins and organisers of any club."""
    if not _active(user):
        return False
    return is_site_admin(user) or user.organised_clubs.exists()
