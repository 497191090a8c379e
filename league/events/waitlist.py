"""Capacity and the waiting list of an event (issue #18, item 4).

An event with a ``capacity`` takes that many registered players; anyone registering
after it is full joins the waiting list (status ``waitlisted``, in the order of
``waitlisted_at``, then ``pk``). When a registered player withdraws (or the capacity
grows), the first on the list are promoted in order, in the same transaction, audited;
each promoted player gets a notice on their personal page and, if their account has an
e-mail address, an e-mail (:func:`league.events.tasks.notify_promoted`, enqueued on
commit).

Every function here expects the caller to hold the event row lock
(:func:`league.events.services.lock_event`): the count of registered players and the
change that follows are then one step, and two registrations for the last place run
one after the other (``tests/league/test_self_registration.py`` races them on
PostgreSQL).
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone

from league.audit import audit
from league.events import tasks
from league.events.models import Event, Registration
from league.outages import enqueue
from league.permissions import Viewer

REGISTERED = Registration.Status.REGISTERED
WAITLISTED = Registration.Status.WAITLISTED


def registered_count(event: Event) -> int:
    return Registration.objects.filter(event=event, status=REGISTERED).count()


def is_full(event: Event) -> bool:
    return event.capacity is not None and registered_count(event) >= event.capacity


def waiting_list(event: Event) -> list[Registration]:
    """The waiting list in order, first to be promoted first."""
    return list(
        Registration.objects.filter(event=event, status=WAITLISTED)
        .select_related("player__user")
        .order_by("waitlisted_at", "pk")
    )


def position(registration: Registration) -> int | None:
    """1-based place on the waiting list, or None when not waiting."""
    if registration.status != WAITLISTED or registration.waitlisted_at is None:
        return None
    ahead = Registration.objects.filter(
        event_id=registration.event_id,
        status=WAITLISTED,
        waitlisted_at__lt=registration.waitlisted_at,
    ).count()
    same_time = Registration.objects.filter(
        event_id=registration.event_id,
        status=WAITLISTED,
        waitlisted_at=registration.waitlisted_at,
        pk__lt=registration.pk,
    ).count()
    return ahead + same_time + 1


def place(registration: Registration, event: Event) -> None:
    """Set a (new or returning) registration's status: registered while there is room,
    else waitlisted at the end of the list. The caller saves and audits."""
    if is_full(event):
        registration.status = WAITLISTED
        registration.waitlisted_at = timezone.now()
    else:
        registration.status = REGISTERED
        registration.waitlisted_at = None


def promote(actor: Viewer, event: Event) -> list[Registration]:
    """Fill free places from the waiting list, in order; returns those promoted."""
    if event.capacity is None:
        free = None
    else:
        free = event.capacity - registered_count(event)
        if free <= 0:
            return []
    waiting = waiting_list(event)
    chosen = waiting if free is None else waiting[:free]
    now = timezone.now()
    for reg in chosen:
        reg.status = REGISTERED
        reg.waitlisted_at = None
        reg.notices = [*reg.notices, {"code": "promoted", "params": {}, "at": now.isoformat()}]
        reg.save(update_fields=["status", "waitlisted_at", "notices"])
        audit(
            actor,
            "registration.promote",
            reg,
            event=event,
            player=reg.player.handle,
        )
        user = reg.player.user
        if user is not None and user.email:
            transaction.on_commit(partial(enqueue, tasks.notify_promoted, reg.pk))
    return chosen
