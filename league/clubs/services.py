"""Club-side writes: players (created by organisers, or by an event's staff for a
walk-in). Permission-checked and audited like every league write."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.clubs.models import Club, Membership, Player
from league.errors import UserError, every_problem, require
from league.i18n import IMPORT_PROBLEMS
from league.permissions import Viewer

if TYPE_CHECKING:  # for the annotation only: events sit above clubs
    from league.events.models import Event


def player_problems(display_name: str, handle: str) -> list[tuple[str, str]]:
    """A new player's problems as ``(column, code)``: the column is known here, where each
    problem is found (:data:`league.i18n.IMPORT_PROBLEMS` words it)."""
    problems = []
    if not display_name.strip():
        problems.append(("display_name", "player.name_required"))
    elif len(display_name.strip()) > 120:
        problems.append(("display_name", "player.name_too_long"))
    if not handle:
        problems.append(("handle", "player.handle_required"))
    elif len(handle) > 60 or slugify(handle, allow_unicode=True) != handle:
        problems.append(("handle", "player.handle_invalid"))
    return problems


@transaction.atomic
def create_player(
    actor: Viewer,
    *,
    display_name: str,
    handle: str,
    club: Club | None = None,
    user: User | None = None,
    event: Event | None = None,
) -> Player:
    """Create a player; organisers anywhere, or ``event``'s staff for a walk-in."""
    require(
        perms.can_manage_players(actor)
        or (event is not None and perms.can_staff_event(actor, event))
    )
    handle = handle.strip().lower()
    problems = player_problems(display_name, handle)
    if problems:
        raise every_problem(
            [
                UserError(IMPORT_PROBLEMS[code], code=code, params={"column": column})
                for column, code in problems
            ],
            code="player",
        )
    if Player.objects.filter(handle=handle).exists():
        raise UserError(
            _("The handle @%(handle)s is taken."),
            code="handle_taken",
            params={"handle": handle},
            status=409,
        )
    if club is not None and not perms.is_club_organiser(actor, club):
        raise UserError(
            _("Only a club's organisers add players to it."), code="not_allowed", status=403
        )
    player = Player.objects.create(display_name=display_name.strip(), handle=handle, user=user)
    if club is not None:
        Membership.objects.create(player=player, club=club, joined=timezone.localdate())
    audit(actor, "player.create", player, handle=handle)
    return player
