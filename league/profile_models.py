"""A user's preferences: for now, the language the site speaks to them.

Kept apart from the league's own models (imported at the end of ``league.models``) so
that the language preference, set by the switcher and applied by
``config.middleware.ProfileLanguageMiddleware``, stays one small table.
"""

from __future__ import annotations

from django.conf import settings
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
