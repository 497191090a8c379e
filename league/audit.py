"""The audit log: every state change, who did it and when (append-only).

Services of every sub-package write it with :func:`audit`; a club's organisers read it
(:func:`club_audit`). It names its event by the model's name ("Event"), not by import,
so that the log sits below every sub-package that writes to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Model, QuerySet

from league.clubs.models import Club

if TYPE_CHECKING:  # for the annotations only: the log sits below the events that write it
    from league.events.models import Event
    from league.permissions import Viewer


class AuditEntry(models.Model):
    """Append-only log of every state change: who did what to which object, and when."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=60)
    target_type = models.CharField(max_length=60)
    target_id = models.BigIntegerField()
    event = models.ForeignKey(
        "Event", on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
        indexes = [models.Index(fields=["target_type", "target_id"])]


def audit(
    actor: Viewer, action: str, target: Model, *, event: Event | None = None, **data: Any
) -> AuditEntry:
    """Append one audit entry: who (``actor``) did ``action`` to ``target``, with details."""
    entry = audit_entry(actor, action, target, event=event, **data)
    entry.save()
    return entry


def audit_entry(
    actor: Viewer, action: str, target: Model, *, event: Event | None = None, **data: Any
) -> AuditEntry:
    """The entry :func:`audit` appends, unsaved: for a ``bulk_create`` of many at once."""
    user = actor if isinstance(actor, User) and actor.is_authenticated else None
    return AuditEntry(
        actor=user,
        action=action,
        target_type=target._meta.label_lower,
        target_id=int(target.pk),
        event=event,
        data=_jsonable(data),
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Model):
        return value.pk
    return value


@dataclass(frozen=True)
class AuditFilter:
    """What an organiser narrowed the audit log to (every field optional)."""

    event: int | None = None
    action: str = ""
    actor: str = ""
    since: datetime | None = None


def club_audit(club: Club, wanted: AuditFilter) -> QuerySet[AuditEntry]:
    """Who did what to ``club``'s events, newest first (read-only, for its organisers)."""
    qs = AuditEntry.objects.filter(event__club=club).select_related("actor", "event")
    if wanted.event is not None:
        qs = qs.filter(event_id=wanted.event)
    if wanted.action:
        qs = qs.filter(action__startswith=wanted.action)
    if wanted.actor:
        qs = qs.filter(actor__username__iexact=wanted.actor)
    if wanted.since is not None:
        qs = qs.filter(at__gte=wanted.since)
    return qs.order_by("-at", "-pk")


def club_audit_actions(club: Club) -> list[str]:
    """The kinds of action the club's log holds (for the filter's choices)."""
    return sorted(
        AuditEntry.objects.filter(event__club=club).values_list("action", flat=True).distinct()
    )
