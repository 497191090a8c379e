"""Clubs and people: clubs, their organisers, players, memberships, referees, leagues and
seasons. Rules that must always hold are database constraints, not form checks.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from league.clubs.timezones import validate_timezone


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    timezone = models.CharField(
        _("time zone"), max_length=60, default="UTC", validators=[validate_timezone]
    )
    description = models.TextField(
        _("description"), max_length=2000, blank=True, default="", db_default=""
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class ClubOrganiser(models.Model):
    """A user who runs a club's events (creates them, draws, releases)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="organisers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_clubs"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_club_organiser")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"


class Player(models.Model):
    """A person who plays; the display name may be in any script, the handle is unique."""

    display_name = models.CharField(_("display name"), max_length=120)
    handle = models.SlugField(_("handle"), max_length=60, unique=True, allow_unicode=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"


class Membership(models.Model):
    """A player's membership of a club over time (``left`` empty while current)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    joined = models.DateField(_("joined"))
    left = models.DateField(_("left"), null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(left__isnull=True) | Q(left__gte=F("joined")),
                name="membership_left_after_joined",
            ),
            models.UniqueConstraint(
                fields=["player", "club"],
                condition=Q(left__isnull=True),
                name="one_current_membership_per_club",
            ),
        ]


class Referee(models.Model):
    """A user who judges tables; the grade matches referees to important tables."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee"
    )
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="referees"
    )
    grade = models.PositiveSmallIntegerField(_("grade"), default=1)

    class Meta:
        ordering = ["user__username"]
        constraints = [
            models.CheckConstraint(
                condition=Q(grade__gte=1) & Q(grade__lte=5), name="referee_grade_1_to_5"
            )
        ]

    def __str__(self) -> str:
        return self.user.get_full_name() or self.user.get_username()


class League(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="leagues"
    )

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"{self.league} — {self.name}"


class InvitationRole(models.TextChoices):
    ORGANISER = "organiser", _("organiser")
    REFEREE = "referee", _("referee")
    PLAYER = "player", _("player")


class Invitation(models.Model):
    """An invitation to join a club as organiser or referee, or to be linked to one of its
    players. Only a hash of the token is stored; the link carries the secret. It is used
    once, expires, and may be revoked (``league.clubs.invitations``)."""

    Role = InvitationRole

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=12, choices=InvitationRole.choices)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    email = models.EmailField(_("e-mail address"), max_length=254, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "referee", "player"]),
                name="invitation_role_valid",
            ),
            models.CheckConstraint(
                condition=Q(role="player", player__isnull=False)
                | (~Q(role="player") & Q(player__isnull=True)),
                name="invitation_player_iff_player_role",
            ),
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(revoked_at__isnull=True),
                name="invitation_not_accepted_and_revoked",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} @ {self.club}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")


class PlayerClaim(models.Model):
    """A signed-in user's "this is me" for a club's player; the club's organisers decide."""

    Status = ClaimStatus

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "approved", "rejected"]),
                name="player_claim_status_valid",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="pending"),
                name="one_pending_claim_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.player}"
