"""Who may do what in the league: the one place pages, the API and services ask. Every
check fails closed.

Roles, from most to least powerful:

- **site admin** (``is_superuser``): everything;
- **club organiser** (:class:`~league.models.ClubOrganiser`): their club's events — create,
  edit, register, check in, draw, swap, confirm, release;
- **event staff** (``Event.staff``): one event's registrations and check-in, and may read
  its draft draws and seating sheets; may not draw, edit or release;
- **referee** (``Event.referees``): reads the event's confirmed and released rounds;
- **player**: registers and withdraws themselves while registration is open;
- **anonymous**: the public pages only — published events and released rounds.

:class:`LeagueAccess` answers these questions for one user and remembers what it looked
up (the clubs they organise, the events they staff or referee: one query each, on first
use), so a page that asks about many events asks the database once. The functions below
are the same questions asked once, for a caller that has no access object at hand; the
games side extends the class with the questions about games (``games.permissions.Access``).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar, overload
from weakref import WeakKeyDictionary

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Manager
from django.utils import timezone

from league.models import Club, ClubOrganiser, Event, Round

#: Whoever a check is about: an account of the site's user model, an anonymous visitor,
#: or nobody (a task or the demo acting on its own).
Viewer = User | AnonymousUser | None

PUBLIC_EVENT_STATUSES = (Event.Status.REGISTRATION, Event.Status.RUNNING, Event.Status.FINISHED)

#: Round statuses whose tables and seats each kind of reader sees (see
#: :meth:`LeagueAccess.visible_round_statuses`).
STAFF_ROUND_STATUSES = (Round.Status.DRAFT, Round.Status.CONFIRMED, Round.Status.RELEASED)
REFEREE_ROUND_STATUSES = (Round.Status.CONFIRMED, Round.Status.RELEASED)
PUBLIC_ROUND_STATUSES = (Round.Status.RELEASED,)


def _active(user: Viewer) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


class LeagueAccess:
    """What ``user`` may do in the league. Build one per request (or per service call) and
    ask it as often as needed: each membership is read once. Not for a long-lived object:
    it does not see memberships that change after it read them."""

    def __init__(self, user: Viewer) -> None:
        self.user = user
        self.active = _active(user)
        self.user_id: int | None = user.pk if self.active and user is not None else None
        self.admin = self.active and bool(getattr(user, "is_superuser", False))

    # --- what the user is, read once -------------------------------------------------------

    def _ids(self, rows: Manager[Any], user_lookup: str, field: str) -> frozenset[int]:
        if self.user_id is None:
            return frozenset()
        mine = rows.filter(**{user_lookup: self.user_id})
        return frozenset(mine.values_list(field, flat=True))

    @cached_property
    def organised_club_ids(self) -> frozenset[int]:
        """The clubs the user organises (not all clubs for a site admin: see ``admin``)."""
        return self._ids(ClubOrganiser.objects, "user_id", "club_id")

    @cached_property
    def staffed_event_ids(self) -> frozenset[int]:
        return self._ids(Event.staff.through.objects, "user_id", "event_id")

    @cached_property
    def refereed_event_ids(self) -> frozenset[int]:
        return self._ids(Event.referees.through.objects, "referee__user_id", "event_id")

    # --- the questions ----------------------------------------------------------------------

    def is_site_admin(self) -> bool:
        return self.admin

    def organises_club(self, club_id: int | None) -> bool:
        if not self.active:
            return False
        return self.admin or (club_id is not None and club_id in self.organised_club_ids)

    def is_club_organiser(self, club: Club) -> bool:
        return self.organises_club(club.pk)

    def can_create_event(self, club: Club) -> bool:
        return self.is_club_organiser(club)

    def can_manage_event(self, event: Event) -> bool:
        """Edit the event, draw, swap, assign referees, confirm and release rounds."""
        return self.organises_club(event.club_id)

    def can_staff_event(self, event: Event) -> bool:
        """Registrations, check-in, imports, and reading draft draws and seating sheets."""
        if not self.active:
            return False
        return self.can_manage_event(event) or event.pk in self.staffed_event_ids

    def is_event_referee(self, event: Event) -> bool:
        return self.active and event.pk in self.refereed_event_ids

    def visible_round_statuses(self, event: Event) -> tuple[str, ...]:
        """Round statuses whose tables and seats the user may read in ``event``."""
        if self.can_staff_event(event):
            return STAFF_ROUND_STATUSES
        if self.is_event_referee(event):
            return REFEREE_ROUND_STATUSES
        return PUBLIC_ROUND_STATUSES

    def can_view_event(self, event: Event) -> bool:
        """Published events are public; a draft event only to its staff."""
        return event.status in PUBLIC_EVENT_STATUSES or self.can_staff_event(event)

    def can_register_self(self, event: Event) -> bool:
        """A player with an account registers themselves while registration is open."""
        return self.active and hasattr(self.user, "player") and registration_open(event)

    def can_withdraw(self, event: Event, player_user_id: int | None) -> bool:
        """Staff withdraw anyone; a player withdraws themselves before the event finishes."""
        if self.can_staff_event(event):
            return True
        return (
            self.user_id is not None
            and player_user_id == self.user_id
            and event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING)
        )

    def can_manage_players(self) -> bool:
        """Create players (directly or by CSV): site admins and organisers of any club."""
        return self.admin or bool(self.organised_club_ids)


def registration_open(event: Event) -> bool:
    if event.status != Event.Status.REGISTRATION:
        return False
    now = timezone.now()
    if event.registration_opens and now < event.registration_opens:
        return False
    return not (event.registration_closes and now > event.registration_closes)


_A = TypeVar("_A", bound=LeagueAccess)
_BY_REQUEST: WeakKeyDictionary[object, LeagueAccess] = WeakKeyDictionary()


@overload
def access_for(request: object) -> LeagueAccess: ...
@overload
def access_for(request: object, kind: type[_A]) -> _A: ...


def access_for(request: object, kind: type[LeagueAccess] = LeagueAccess) -> LeagueAccess:
    """The request's one access object (a Django or a REST framework request), made on
    first use, so that pages, the API and their selectors ask one gate that reads its facts
    once. Asked for a subclass (the games' ``Access``), the one made so far becomes that
    kind and keeps the facts it has read; a new one if the request's user changed (a
    sign-in on this request)."""
    user: Viewer = getattr(request, "user", None)
    access = _BY_REQUEST.get(request)
    if access is None or access.user is not user:
        access = kind(user)
    elif not isinstance(access, kind):
        read = access.__dict__
        access = kind(user)
        access.__dict__.update(read)
    _BY_REQUEST[request] = access
    return access


# --- the same questions, asked once by a service (one actor, one check) ----------------------


def is_site_admin(user: Viewer) -> bool:
    return LeagueAccess(user).is_site_admin()


def is_club_organiser(user: Viewer, club: Club) -> bool:
    return LeagueAccess(user).is_club_organiser(club)


def organised_club_ids(user: Viewer) -> list[int]:
    """The clubs ``user`` organises (site admins: every club)."""
    access = LeagueAccess(user)
    if access.admin:
        return list(Club.objects.values_list("pk", flat=True))
    return sorted(access.organised_club_ids)


def can_create_event(user: Viewer, club: Club) -> bool:
    return LeagueAccess(user).can_create_event(club)


def can_manage_event(user: Viewer, event: Event) -> bool:
    return LeagueAccess(user).can_manage_event(event)


def can_staff_event(user: Viewer, event: Event) -> bool:
    return LeagueAccess(user).can_staff_event(event)


def is_event_referee(user: Viewer, event: Event) -> bool:
    return LeagueAccess(user).is_event_referee(event)


def visible_round_statuses(user: Viewer, event: Event) -> tuple[str, ...]:
    return LeagueAccess(user).visible_round_statuses(event)


def can_view_event(user: Viewer, event: Event) -> bool:
    return LeagueAccess(user).can_view_event(event)


def can_register_self(user: Viewer, event: Event) -> bool:
    return LeagueAccess(user).can_register_self(event)


def can_withdraw(user: Viewer, event: Event, player_user_id: int | None) -> bool:
    return LeagueAccess(user).can_withdraw(event, player_user_id)


def can_manage_players(user: Viewer) -> bool:
    return LeagueAccess(user).can_manage_players()
