"""A user's preferences: for now, the language the site speaks to them.

Kept apart from the clubs' own models (``league.models`` imports it) so
that the language preference, set by the switcher and applied by
``config.middleware.ProfileLanguageMiddleware``, stays one small table.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db import models
from django.utils.translation import gettext_lazy as _


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


user_logged_in.connect(_remember_on_login, dispatch_uid="tianhei-language-on-login")
