"""A user's preferences: the language the site speaks to them and the e-mails they want
(a round released, a game confirmed or corrected, a place off the waiting list), with the
log of notifications sent (:func:`send_once`: a retried task never sends one twice).

Kept apart from the clubs' own models (``league.models`` imports it) so
that the language preference, set by the switcher and applied by
``config.middleware.ProfileLanguageMiddleware``, stays one small table.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext_lazy as _

#: The e-mails a user may turn off (all on by default, also without a row).
NOTIFICATIONS = ("notify_round_released", "notify_game_results", "notify_waitlist")


class Preferences(models.Model):
    """One row per user who ever chose something; no row means "use the browser's"."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("Empty: follow the browser."),
    )
    notify_round_released = models.BooleanField(
        _("e-mail me my table and seat when a round is released"), default=True, db_default=True
    )
    notify_game_results = models.BooleanField(
        _("e-mail me when a game I played is confirmed or corrected"),
        default=True,
        db_default=True,
    )
    notify_waitlist = models.BooleanField(
        _("e-mail me when I come off a waiting list"), default=True, db_default=True
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"{self.user} · {self.language or '-'}"


#: The session key holding the signed-in user's preferred language ("" when none).
SESSION_KEY = "tianhei_language"


def preferred_language(user: object) -> str:
    """The user's saved language, or "" (follow the cookie, then the browser)."""
    pk = getattr(user, "pk", None)
    if pk is None:
        return ""
    return Preferences.objects.filter(user_id=pk).values_list("language", flat=True).first() or ""


def save_language(user: User, language: str) -> None:
    """Remember ``language`` as the user's preference (one upsert)."""
    Preferences.objects.update_or_create(user_id=user.pk, defaults={"language": language})


def _remember_on_login(sender: object, request: object, user: object, **kwargs: object) -> None:
    """Copy the preference into the session at login, so pages need no extra query."""
    session = getattr(request, "session", None)
    if session is not None:
        session[SESSION_KEY] = preferred_language(user)


def notification_choices(user: object) -> dict[str, bool]:
    """The user's choice for each of :data:`NOTIFICATIONS` (all on without a row)."""
    pk = getattr(user, "pk", None)
    row = Preferences.objects.filter(user_id=pk).values(*NOTIFICATIONS).first() if pk else None
    return {name: True for name in NOTIFICATIONS} | (row or {})


def save_notifications(user: User, **choices: bool) -> None:
    """Remember which e-mails the user wants (only names of :data:`NOTIFICATIONS`)."""
    unknown = set(choices) - set(NOTIFICATIONS)
    if unknown:
        raise ValueError(f"unknown notifications: {sorted(unknown)}")
    Preferences.objects.update_or_create(user_id=user.pk, defaults=choices)


def opted_out(user_ids: list[int], notification: str) -> set[int]:
    """Of ``user_ids``, those who turned ``notification`` off (one query)."""
    if notification not in NOTIFICATIONS:
        raise ValueError(f"unknown notification {notification!r}")
    return set(
        Preferences.objects.filter(user_id__in=user_ids, **{notification: False}).values_list(
            "user_id", flat=True
        )
    )


class Notification(models.Model):
    """One e-mail sent (or being sent) to a user about one thing: ``kind`` names the
    e-mail, ``object_id`` the round or game version it is about. Unique, so a task run
    twice (a retry, a message delivered again) sends each e-mail at most once."""

    kind = models.CharField(max_length=40)
    object_id = models.PositiveBigIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_id", "user"], name="one_notification_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} → {self.user_id}"


def send_once(kind: str, object_id: int, user: User, send: Callable[[], bool]) -> bool:
    """Call ``send`` unless this notification was already sent; True when it was sent now.

    The log row is written (and committed) first and removed again when ``send`` answers
    False (a mail server's refusal: a later retry may try again). A worker that dies
    between the two leaves the row: at most once, never twice."""
    try:
        with transaction.atomic():
            row = Notification.objects.create(kind=kind, object_id=object_id, user=user)
    except IntegrityError:
        return False
    if send():
        return True
    row.delete()
    return False


user_logged_in.connect(_remember_on_login, dispatch_uid="tianhei-language-on-login")
