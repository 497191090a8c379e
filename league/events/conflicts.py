"""Conflicts an event's draw respects: two players who must never share a table, a referee
who must not referee a player. Declared and removed by the event's organisers, audited."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.clubs.models import Player, Referee
from league.errors import UserError, require
from league.events.models import Event, PlayerConflict, RefereeConflict
from league.events.services import lock_event
from league.permissions import Viewer


@transaction.atomic
def declare_player_conflict(
    actor: Viewer, event: Event, a: Player, b: Player, reason: str = ""
) -> PlayerConflict:
    """Two players who must never share a table in ``event`` (the draw respects it)."""
    require(perms.can_manage_event(actor, event))
    lock_event(event)
    if a.pk == b.pk:
        raise UserError(_("Name two different players."), code="same_player")
    lo, hi = sorted((a, b), key=lambda p: p.pk)
    try:
        with transaction.atomic():
            conflict = PlayerConflict.objects.create(
                event=event, player_a=lo, player_b=hi, reason=reason
            )
    except IntegrityError:
        raise UserError(
            _("This conflict is already declared."), code="exists", status=409
        ) from None
    audit(actor, "player.conflict", conflict, event=event, players=[a.handle, b.handle])
    return conflict


@transaction.atomic
def remove_conflict(
    actor: Viewer, event: Event, conflict: PlayerConflict | RefereeConflict
) -> None:
    require(perms.can_manage_event(actor, event))
    lock_event(event)
    audit(actor, "conflict.remove", conflict, event=event)
    conflict.delete()


@transaction.atomic
def declare_referee_conflict(
    actor: Viewer, event: Event, referee: Referee, player: Player, reason: str = ""
) -> RefereeConflict:
    require(perms.can_manage_event(actor, event))
    try:
        with transaction.atomic():
            conflict = RefereeConflict.objects.create(
                club=event.club, referee=referee, player=player, reason=reason
            )
    except IntegrityError:
        raise UserError(
            _("This conflict is already declared."), code="exists", status=409
        ) from None
    audit(actor, "referee.conflict", conflict, event=event, player=player.handle)
    return conflict
