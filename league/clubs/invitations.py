"""Invitations to a club (organiser, referee, or the link to one of its players), and
players claimed by their owners ("this is me", the organisers decide).

An invitation's link carries a random secret; only its SHA-256 is stored, so the table
alone opens nothing. An invitation is used once, expires after ``INVITATION_DAYS`` (7)
days, and can be revoked; accepting locks the invitation row (and the accepting account),
so two accepts of one link, even at once, make one organiser, referee or link. Every
write is audited.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.clubs.models import Club, ClubOrganiser, Invitation, Player, PlayerClaim, Referee
from league.clubs.services import active_user
from league.errors import UserError, require
from league.permissions import Viewer

Role = Invitation.Role

#: A token longer than this is no token of ours (checked before any lookup).
TOKEN_MAX = 100


def invitation_days() -> int:
    return int(getattr(settings, "INVITATION_DAYS", 7))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_state(invitation: Invitation) -> str:
    """pending, accepted, revoked or expired."""
    if invitation.accepted_at is not None:
        return "accepted"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= timezone.now():
        return "expired"
    return "pending"


def find_invitation(token: str) -> Invitation:
    """The invitation a link names, whatever its state; else 404."""
    found = None
    if 0 < len(token) <= TOKEN_MAX:
        found = (
            Invitation.objects.select_related("club", "player", "created_by")
            .filter(token_hash=token_hash(token))
            .first()
        )
    if found is None:
        raise UserError(
            _("This invitation link is not valid. Ask the club for a new one."),
            code="invitation.unknown",
            status=404,
        )
    return found


def refuse_unusable(invitation: Invitation) -> None:
    """Refuse an invitation that was used, revoked or has expired (each says which)."""
    state = invitation_state(invitation)
    if state == "accepted":
        raise UserError(
            _("This invitation has already been accepted."), code="invitation.used", status=409
        )
    if state == "revoked":
        raise UserError(
            _("This invitation was revoked by the club. Ask the club for a new one."),
            code="invitation.revoked",
            status=410,
        )
    if state == "expired":
        raise UserError(
            _("This invitation has expired. Ask the club for a new one."),
            code="invitation.expired",
            status=410,
        )


@transaction.atomic
def create_invitation(
    actor: Viewer,
    club: Club,
    *,
    role: str,
    email: str = "",
    player: Player | None = None,
) -> tuple[Invitation, str]:
    """A new invitation and its secret token (shown once, in the link)."""
    require(perms.is_club_organiser(actor, club))
    if role not in Role.values:
        raise UserError(_("Unknown role."), code="invitation.role", status=400)
    if (role == Role.PLAYER) != (player is not None):
        raise UserError(
            _("An invitation to a player names the player, and only that one does."),
            code="invitation.player",
        )
    if player is not None:
        if not player.memberships.filter(club=club, left__isnull=True).exists():
            raise UserError(
                _("@%(handle)s is not a player of this club."),
                code="invitation.not_member",
                params={"handle": player.handle},
            )
        if player.user_id is not None:
            raise UserError(
                _("@%(handle)s is already linked to an account."),
                code="invitation.player_linked",
                params={"handle": player.handle},
                status=409,
            )
    email = email.strip()
    if len(email) > 254:
        raise UserError(_("That e-mail address is too long."), code="invitation.email")
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        club=club,
        role=role,
        player=player,
        email=email,
        token_hash=token_hash(token),
        created_by=actor if isinstance(actor, User) else None,
        expires_at=timezone.now() + timedelta(days=invitation_days()),
    )
    audit(
        actor,
        "invitation.create",
        invitation,
        club=club.pk,
        role=role,
        player=player.pk if player else None,
        emailed=bool(email),
    )
    return invitation, token


@transaction.atomic
def revoke_invitation(actor: Viewer, invitation: Invitation) -> Invitation:
    require(perms.is_club_organiser(actor, invitation.club))
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    refuse_unusable(invitation)
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    audit(actor, "invitation.revoke", invitation, club=invitation.club_id, role=invitation.role)
    return invitation


def _already(message: str | Promise, code: str) -> UserError:
    return UserError(message, code=code, status=409)


def _take_role(user: User, invitation: Invitation) -> None:
    club_id = invitation.club_id
    if invitation.role == Role.ORGANISER:
        if ClubOrganiser.objects.filter(club_id=club_id, user=user).exists():
            raise _already(_("You already organise this club."), "invitation.already_organiser")
        ClubOrganiser.objects.create(club_id=club_id, user=user)
    elif invitation.role == Role.REFEREE:
        referee = Referee.objects.select_for_update().filter(user=user).first()
        if referee is None:
            Referee.objects.create(user=user, club_id=club_id)
        elif referee.club_id == club_id:
            raise _already(_("You already referee for this club."), "invitation.already_referee")
        elif referee.club_id is not None:
            raise _already(
                _("You referee for another club; leave it first."), "invitation.referee_elsewhere"
            )
        else:
            referee.club_id = club_id
            referee.save(update_fields=["club"])
    else:
        assert invitation.player_id is not None
        link_player(user, invitation.player_id)


def link_player(user: User, player_id: int) -> Player:
    """Link ``user`` to the player (inside the caller's transaction, the account's row
    locked by the caller): one account, one player."""
    player = Player.objects.select_for_update().get(pk=player_id)
    if player.user_id is not None:
        raise _already(
            _("This player is already linked to an account."), "invitation.player_linked"
        )
    if Player.objects.filter(user=user).exists():
        raise _already(
            _("Your account is already linked to a player."), "invitation.already_player"
        )
    player.user = user
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def accept_invitation(actor: Viewer, token: str) -> Invitation:
    """Accept the invitation ``token`` names, as ``actor``: organiser, referee or the
    player's account. Used once; refused when revoked, expired or used."""
    user = active_user(actor)
    found = find_invitation(token)
    User.objects.select_for_update().filter(pk=user.pk).first()  # one accept per account
    invitation = Invitation.objects.select_for_update().get(pk=found.pk)
    refuse_unusable(invitation)
    _take_role(user, invitation)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    audit(user, "invitation.accept", invitation, club=invitation.club_id, role=invitation.role)
    return found


# --- claims -----------------------------------------------------------------------------------


@transaction.atomic
def claim_player(actor: Viewer, player: Player) -> PlayerClaim:
    """ "This is me": a user without a player asks to be linked to a club's player."""
    user = active_user(actor)
    User.objects.select_for_update().filter(pk=user.pk).first()
    if Player.objects.filter(user=user).exists():
        raise _already(_("Your account is already linked to a player."), "claim.already_player")
    if player.user_id is not None:
        raise _already(_("This player is already linked to an account."), "claim.player_linked")
    if PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING).exists():
        raise _already(_("You already have a claim waiting for a decision."), "claim.pending")
    club_id = (
        player.memberships.filter(left__isnull=True)
        .order_by("-joined")
        .values_list("club_id", flat=True)
        .first()
    )
    if club_id is None:
        raise UserError(
            _("This player belongs to no club, so no one can approve a claim."),
            code="claim.no_club",
        )
    claim = PlayerClaim.objects.create(player=player, club_id=club_id, user=user)
    audit(user, "claim.create", claim, player=player.pk, club=club_id)
    return claim


@transaction.atomic
def decide_claim(actor: Viewer, claim: PlayerClaim, *, approve: bool) -> PlayerClaim:
    """The club's organisers approve (the player is linked) or reject a pending claim."""
    require(perms.is_club_organiser(actor, claim.club))
    User.objects.select_for_update().filter(pk=claim.user_id).first()
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != PlayerClaim.Status.PENDING:
        raise _already(_("This claim has already been decided."), "claim.decided")
    if approve:
        link_player(claim.user, claim.player_id)
    claim.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.REJECTED
    claim.decided_by = actor if isinstance(actor, User) else None
    claim.decided_at = timezone.now()
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    audit(actor, f"claim.{'approve' if approve else 'reject'}", claim, player=claim.player_id)
    return claim
