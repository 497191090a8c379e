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


class CircuitProfile(models.Model):
    """One version of a league's circuit profile (formats.md §3): place points, category
    weights, the field factor, best B of M, minimum events. Versions never change once
    made (a season's ranking must not move because the profile was edited): an edit is a
    new version, and a season points at the version it uses. Its key is ``slug-vN``."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="circuit_profiles")
    slug = models.SlugField(_("name"), max_length=60)
    version = models.PositiveIntegerField(default=1)
    #: The engine's JSON form (``engine.formats.circuit.CircuitProfile.as_json``).
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "slug", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "slug", "version"], name="unique_circuit_profile_version"
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="circuit_profile_version_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def key(self) -> str:
        return f"{self.slug}-v{self.version}"


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    #: Rank the season as a circuit (place points) with this profile version; none: the
    #: plain sum of the events' points.
    circuit = models.ForeignKey(
        CircuitProfile,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seasons",
        verbose_name=_("circuit profile"),
    )
    #: The drawing of lots between players level on the whole circuit ladder.
    circuit_seed = models.BigIntegerField(default=0, db_default=0)

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
