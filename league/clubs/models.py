"""Clubs and people: clubs, their organisers, players, memberships, referees, leagues and
seasons. Rules that must always hold are database constraints, not form checks.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    timezone = models.CharField(_("time zone"), max_length=60, default="UTC")
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
